package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// Addresses of the Solana fixtures (internal/solana/testdata/accounts;
// the values asserted below are decoded from their bytes and listed in
// each fixture's note).
const (
	pumpMint2022  = "73edX6xoGY4v5y2hzuKdrUbJXLntqgmo74au1Ki1pump"
	megaMint2022  = "5gSwsLGzyCwgwPJSnxjsQCaFeE19ZFaibHMLky9TDFim"
	scnSOLMint    = "5oVNBeEEQvYi1cX3ir8Dx5n1P7pdxydbGF2X4TxVusJm"
	megaAuthority = "FdrdFuo1RQ9LrQ3FRfQUE7RigyANe5kFNLyMhCYk1xgJ"
	scnSOLAuth    = "AzZRvyyMHBm8EHEksWxq4ozFL7JxLMydCDMGhqM6BVck"
	cpmmPoolAddr  = "2higKRf25Q9WMcYfgyK96AAuFVv5zucfDAFHHDuVETcq"
	cpmmTokenVlt  = "5Ap19VZWbmP9NnvFabeyGzWjTqXFcFLPcuFDsNyAB9Sg"
	cpmmAuthority = "GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL"
	wsolMint      = "So11111111111111111111111111111111111111112"
)

// jsonAt walks a decoded JSON document along a dotted path ("a.b.0.c").
func jsonAt(t *testing.T, doc any, path string) any {
	t.Helper()
	cur := doc
	for _, part := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[part]
			if !ok {
				t.Fatalf("%s: no field %q", path, part)
			}
			cur = next
		case []any:
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i < 0 || i >= len(v) {
				t.Fatalf("%s: no element %q in %d", path, part, len(v))
			}
			cur = v[i]
		default:
			t.Fatalf("%s: %q is not an object or array", path, part)
		}
	}
	return cur
}

// solanaReport scans addr and decodes the 200 report, checked against
// the OpenAPI schema.
func solanaReport(t *testing.T, s *server, key, addr string) map[string]any {
	t.Helper()
	r := s.scan(t, key, addr)
	if r.status != 200 {
		t.Fatalf("scan %s: %d %s", addr, r.status, r.body)
	}
	validateReport(t, r.body)
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func flagCodes(t *testing.T, doc map[string]any) []string {
	t.Helper()
	var codes []string
	for _, f := range jsonAt(t, doc, "risk_flags").([]any) {
		codes = append(codes, f.(map[string]any)["code"].(string))
	}
	slices.Sort(codes)
	return codes
}

func hasWarning(t *testing.T, doc map[string]any, sub string) bool {
	t.Helper()
	for _, w := range jsonAt(t, doc, "warnings").([]any) {
		if strings.Contains(w.(string), sub) {
			return true
		}
	}
	return false
}

// TestSolanaEndToEnd is issue 5's "done when" over HTTP: the real server,
// TOKENRISK_RPC_SOLANA pointing at a JSON-RPC node serving real mainnet
// account bytes (and one synthetic test-validator mint), and reports whose
// every fact is checked against those bytes.
func TestSolanaEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the server")
	}
	sol := solanatest.New()
	t.Cleanup(sol.Close)
	if err := sol.LoadDir("../../internal/solana/testdata/accounts"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := startServer(t, map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "solana.db"),
		"TOKENRISK_SOURCIFY_URL": "none",
		"TOKENRISK_RPC_SOLANA":   sol.URL(),
	})
	key := s.key(t, "pro")

	// want lists path → value; numbers compare within 0.01, "<nil>" is
	// JSON null.
	type want map[string]any
	tests := []struct {
		name     string
		address  string
		fields   want
		flags    []string
		warnings []string
		level    []string
	}{
		{
			name: "pump.fun Token-2022 mint migrated to Raydium CPMM", address: pumpMint2022,
			fields: want{
				"chain": "solana", "chain_id": nil, "also_deployed_on": []any{}, "cached": false,
				"token_name": "Solana Fork Staccana ", "token_symbol": "Staccana", "decimals": 6.0, "total_supply": "998858000507907",
				"contract_analysis.status": "complete", "contract_analysis.token_program": "token_2022",
				"contract_analysis.token_program_id": solanatest.Token2022Program,
				"contract_analysis.mint_authority":   nil, "contract_analysis.freeze_authority": nil,
				"contract_analysis.extensions.0.type": 18.0, "contract_analysis.extensions.0.name": "metadata_pointer",
				"contract_analysis.extensions.0.parameters.authority": nil, "contract_analysis.extensions.0.parameters.address": pumpMint2022,
				"contract_analysis.extensions.1.type": 19.0, "contract_analysis.extensions.1.name": "token_metadata",
				"contract_analysis.metadata.source": "token2022", "contract_analysis.metadata.address": pumpMint2022,
				"contract_analysis.metadata.name": "Solana Fork Staccana ", "contract_analysis.metadata.symbol": "Staccana",
				"contract_analysis.metadata.uri":              "https://ipfs.io/ipfs/QmZvS3bdYM6QM8hHfMmMsZCR5sYRcEpFZJd4MkJANqASSa",
				"contract_analysis.metadata.update_authority": nil, "contract_analysis.metadata.is_mutable": false,
				// The real CPMM pool: vaults less protocol and fund fees,
				// valued with the real SOL/USDC Whirlpool's sqrt price.
				"liquidity_analysis.status": "partial", "liquidity_analysis.main_pool": cpmmPoolAddr,
				"liquidity_analysis.pools.0.dex": "raydium_cpmm", "liquidity_analysis.pools.0.address": cpmmPoolAddr,
				"liquidity_analysis.pools.0.quote_mint": wsolMint, "liquidity_analysis.pools.0.quote_symbol": "wSOL",
				"liquidity_analysis.pools.0.token_vault": cpmmTokenVlt, "liquidity_analysis.pools.0.quote_vault": "47KLLXNKUMuJBgis11NWmZ9iNPW2wHX2ZKQKUDCL3LA6",
				"liquidity_analysis.pools.0.token_reserve": "95416112608385", "liquidity_analysis.pools.0.quote_reserve": "461366032767",
				"liquidity_analysis.pools.0.liquidity_usd": 37243.52, "liquidity_analysis.sol_price_usd": 40.36,
				"liquidity_analysis.pools.0.lp_mint": "HBaEkQGJmCXAg97q8XRU6nFxDd5eCWNaqVB4xv7uvKhE",
				// lp_supply = LP mint supply + 100 never minted: nothing
				// burned; nobody listed holds the LP: unknown, not unlocked.
				"liquidity_analysis.pools.0.lp_burned_pct": 0.0, "liquidity_analysis.pools.0.lp_locked_pct": 0.0,
				"liquidity_analysis.pools.0.lp_unlocked_pct": 0.0, "liquidity_analysis.pools.0.lp_unknown_pct": 100.0,
				"liquidity_analysis.pools.0.creator": "5Pq1gKWmrT5Z7QfUVj2keDAZhC2uTg7tCHBujnGq6aP6", "liquidity_analysis.pools.0.open_time": 1782220562.0,
				"liquidity_analysis.bonding_curve.address": "BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf", "liquidity_analysis.bonding_curve.complete": true,
				"liquidity_analysis.bonding_curve.real_sol_reserves": "0", "liquidity_analysis.bonding_curve.creator": "EhJ5156M6ZNhvPhHe6RA8ZZ9GTEdM6Rhyh4EB1VZL1D4",
				// The node lists only the pool vault (9.55% of supply).
				"completeness": "degraded", "unchecked": []any{"deployer", "holders", "insiders", "pools"},
				"holder_analysis.status": "partial", "holder_analysis.top10_share_pct": nil,
				// The count found only the vault: a lower bound, not a fact.
				"holder_analysis.holder_count": 0.0, "holder_analysis.holder_count_exact": false, "holder_analysis.top_holders.0.address": cpmmAuthority,
				"holder_analysis.top_holders.0.token_accounts": []any{cpmmTokenVlt}, "holder_analysis.top_holders.0.amount": "95426862199392",
				"holder_analysis.top_holders.0.label": "pool", "holder_analysis.top_holders.0.share_pct": 9.55,
				"deployer_analysis.creator": "EhJ5156M6ZNhvPhHe6RA8ZZ9GTEdM6Rhyh4EB1VZL1D4", "deployer_analysis.creator_source": "pumpfun_bonding_curve",
				"deployer_analysis.creator_tx_count": nil,
				"safety_checklist":                   map[string]any{"verified": false, "not_honeypot": true, "healthy_holders": false, "ownership_renounced": true, "liquidity_locked": false, "no_mint": true},
			},
			// Who holds the LP, the holders past the vault, the insiders
			// and the creator's share are unknown: unchecked, so the
			// report is degraded and never minimal.
			flags:    []string{"SCAN_INCOMPLETE"},
			warnings: []string{"lock state unknown", "not the whole set of holders", "history not kept", "verified is false"},
			level:    []string{"medium"},
		},
		{
			name: "synthetic Token-2022 mega token (14 extensions)", address: megaMint2022,
			fields: want{
				"chain": "solana", "chain_id": nil, "token_name": "MegaToken", "token_symbol": "MT", "decimals": 9.0, "total_supply": "0",
				"contract_analysis.status": "complete", "contract_analysis.token_program": "token_2022",
				"contract_analysis.mint_authority": megaAuthority, "contract_analysis.freeze_authority": megaAuthority,
				"contract_analysis.extensions.0.parameters.authority":                 megaAuthority, // mint close authority
				"contract_analysis.extensions.1.parameters.authority":                 megaAuthority, // permanent delegate
				"contract_analysis.extensions.2.parameters.rate_authority":            megaAuthority,
				"contract_analysis.extensions.2.parameters.current_rate_bps":          5.0,
				"contract_analysis.extensions.4.parameters.state":                     "initialized",
				"contract_analysis.extensions.5.parameters.older.basis_points":        10.0,
				"contract_analysis.extensions.5.parameters.older.maximum_fee":         "11",
				"contract_analysis.extensions.5.parameters.newer.basis_points":        10.0,
				"contract_analysis.extensions.5.parameters.newer.maximum_fee":         "11",
				"contract_analysis.extensions.5.parameters.config_authority":          megaAuthority,
				"contract_analysis.extensions.5.parameters.current.basis_points":      10.0,
				"contract_analysis.extensions.6.parameters.authority":                 megaAuthority,
				"contract_analysis.extensions.6.parameters.auto_approve_new_accounts": true,
				"contract_analysis.extensions.8.parameters.program_id":                megaMint2022, // the hook is the mint itself
				"contract_analysis.extensions.8.parameters.authority":                 megaAuthority,
				"contract_analysis.extensions.9.parameters.address":                   megaMint2022,
				"contract_analysis.extensions.13.parameters.max_size":                 1000.0,
				"contract_analysis.metadata.source":                                   "token2022", "contract_analysis.metadata.name": "MegaToken", "contract_analysis.metadata.symbol": "MT",
				"contract_analysis.metadata.uri": "https://spl.solana.com/token-2022", "contract_analysis.metadata.update_authority": megaAuthority,
				"contract_analysis.metadata.is_mutable": true,
				"liquidity_analysis.pools":              []any{},
				"deployer_analysis.creator":             megaAuthority, "deployer_analysis.creator_source": "metadata_update_authority",
				"deployer_analysis.status": "partial", "deployer_analysis.creator_tx_count": nil,
				"safety_checklist": map[string]any{"verified": false, "not_honeypot": false, "healthy_holders": false, "ownership_renounced": false, "liquidity_locked": false, "no_mint": false},
			},
			// Supply 0 and no token account: zero holders is a fact here.
			flags: []string{"CONFIDENTIAL_TRANSFERS", "FEW_HOLDERS", "FREEZE_AUTHORITY_ENABLED", "METADATA_MUTABLE", "MINT_AUTHORITY_ENABLED", "MINT_CLOSE_AUTHORITY",
				"NON_TRANSFERABLE", "NO_LIQUIDITY", "PERMANENT_DELEGATE", "TRANSFER_FEE", "TRANSFER_HOOK"},
			warnings: []string{"not the proven creator", "history not kept"},
			level:    []string{"critical"},
		},
		{
			name: "scnSOL: SPL Token with Metaplex metadata", address: scnSOLMint,
			fields: want{
				"chain": "solana", "chain_id": nil, "token_name": "Socean staked SOL", "token_symbol": "scnSOL", "decimals": 9.0, "total_supply": "129208781089437",
				"contract_analysis.status": "complete", "contract_analysis.token_program": "spl_token",
				"contract_analysis.token_program_id": solanatest.TokenProgram, "contract_analysis.extensions": []any{},
				"contract_analysis.mint_authority": scnSOLAuth, "contract_analysis.freeze_authority": nil,
				"contract_analysis.metadata.source": "metaplex", "contract_analysis.metadata.address": "5iU74sxq9PbpiYdw7srLkh69CrywuSnSu2Pxnn2ezwM2",
				"contract_analysis.metadata.name": "Socean staked SOL", "contract_analysis.metadata.symbol": "scnSOL", "contract_analysis.metadata.uri": "",
				"contract_analysis.metadata.update_authority": scnSOLAuth, "contract_analysis.metadata.is_mutable": true,
				"liquidity_analysis.status": "complete", "liquidity_analysis.pools": []any{}, "liquidity_analysis.bonding_curve": nil,
				"holder_analysis.status": "partial", "holder_analysis.holder_count": 0.0, "holder_analysis.holder_count_exact": false, "holder_analysis.top_holders": []any{},
				"completeness": "degraded", "unchecked": []any{"deployer", "holders", "insiders"},
				"deployer_analysis.creator": scnSOLAuth, "deployer_analysis.status": "partial",
				"safety_checklist": map[string]any{"verified": false, "not_honeypot": false, "healthy_holders": false, "ownership_renounced": false, "liquidity_locked": false, "no_mint": false},
			},
			// No token account listed for a supply above zero: the holder
			// list has holes (unchecked).
			flags:    []string{"METADATA_MUTABLE", "MINT_AUTHORITY_ENABLED", "NO_LIQUIDITY", "SCAN_INCOMPLETE"},
			warnings: []string{"not the whole set of holders", "history not kept"},
		},
		{
			name: "USDC: trusted SPL Token with mint and freeze authorities", address: usdcMint,
			fields: want{
				"chain": "solana", "chain_id": nil, "decimals": 6.0, "total_supply": "5034999431478671",
				"contract_analysis.status": "complete", "contract_analysis.token_program": "spl_token",
				"contract_analysis.mint_authority":   "2wmVCSfPxGPjrnMMn7rchp4uaeoTqN39mXFC2zhPdri9",
				"contract_analysis.freeze_authority": "3sNBr7kMccME5D55xNgsmYpZnzPgP2g12CixAajXypn6",
				"contract_analysis.metadata":         nil, "contract_analysis.trusted_token": "USD Coin",
				"liquidity_analysis.status": "partial",
				// The Raydium CLMM and Orca Whirlpool USDC vaults are the
				// accounts served, largest first.
				"holder_analysis.top_holders.0.address":        "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv",
				"holder_analysis.top_holders.0.token_accounts": []any{"5it83u57VRrVgc51oNV19TTmAJuffPx5GtGwQr7gQNUo"},
				"holder_analysis.top_holders.0.amount":         "2572703453420",
				"holder_analysis.top_holders.1.address":        "HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ",
				"holder_analysis.top_holders.1.token_accounts": []any{"2JTw1fE2wz1SymWUQ7UqpVtrTuKjcd6mWwYwUJUCh2rq"},
				"holder_analysis.top_holders.1.amount":         "1806982724843", "holder_analysis.holder_count": 2.0, "holder_analysis.holder_count_exact": false,
				"deployer_analysis.status": "unavailable",
				"safety_checklist":         map[string]any{"verified": false, "not_honeypot": false, "healthy_holders": false, "ownership_renounced": false, "liquidity_locked": false, "no_mint": false},
			},
			flags:    []string{"FREEZE_AUTHORITY_ENABLED", "MINT_AUTHORITY_ENABLED", "TRUSTED_TOKEN"},
			warnings: []string{"the mint has no metadata", "pool discovery skipped for a trusted token", "no creator evidence"},
			level:    []string{"minimal", "low"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := solanaReport(t, s, key, tt.address)
			if got := jsonAt(t, doc, "address"); got != tt.address {
				t.Errorf("address = %v", got)
			}
			for path, w := range tt.fields {
				got := jsonAt(t, doc, path)
				if wf, ok := w.(float64); ok {
					if gf, ok := got.(float64); !ok || math.Abs(gf-wf) > 0.01 {
						t.Errorf("%s = %v, want %v", path, got, w)
					}
					continue
				}
				if !reflect.DeepEqual(got, w) {
					t.Errorf("%s = %#v, want %#v", path, got, w)
				}
			}
			if got := flagCodes(t, doc); !slices.Equal(got, tt.flags) {
				t.Errorf("flags = %v, want %v", got, tt.flags)
			}
			for _, w := range tt.warnings {
				if !hasWarning(t, doc, w) {
					t.Errorf("no warning containing %q in %v", w, doc["warnings"])
				}
			}
			if tt.level != nil && !slices.Contains(tt.level, jsonAt(t, doc, "risk_level").(string)) {
				t.Errorf("risk_level = %v, want one of %v", doc["risk_level"], tt.level)
			}
		})
	}

	t.Run("mega token extensions in TLV order", func(t *testing.T) {
		doc := solanaReport(t, s, key, megaMint2022)
		var names []string
		var types []float64
		for _, e := range jsonAt(t, doc, "contract_analysis.extensions").([]any) {
			names = append(names, e.(map[string]any)["name"].(string))
			types = append(types, e.(map[string]any)["type"].(float64))
		}
		wantNames := []string{"mint_close_authority", "permanent_delegate", "interest_bearing_config", "non_transferable", "default_account_state",
			"transfer_fee_config", "confidential_transfer_mint", "confidential_transfer_fee_config", "transfer_hook", "metadata_pointer",
			"group_pointer", "group_member_pointer", "token_metadata", "token_group"}
		if !slices.Equal(names, wantNames) || !slices.Equal(types, []float64{3, 12, 10, 9, 6, 1, 4, 16, 14, 18, 20, 22, 19, 21}) {
			t.Errorf("extensions = %v %v", names, types)
		}
		// The transfer fee flag carries the fee in percent.
		for _, f := range jsonAt(t, doc, "risk_flags").([]any) {
			if m := f.(map[string]any); m["code"] == "TRANSFER_FEE" && m["value"] != 0.1 {
				t.Errorf("TRANSFER_FEE value = %v, want 0.1 (10 bps)", m["value"])
			}
		}
	})

	t.Run("absent account is 404, a token account 422", func(t *testing.T) {
		h := sha256.Sum256([]byte("no account here"))
		absent := base58.Encode(h[:])
		if r := s.scan(t, key, absent); r.status != 404 || r.code() != "token_not_found" {
			t.Errorf("absent account: %d %s", r.status, r.body)
		}
		for _, addr := range []string{
			cpmmTokenVlt, // a Token-2022 token account, not a mint
			cpmmPoolAddr, // a Raydium CPMM pool, not owned by a token program
		} {
			if r := s.scan(t, key, addr); r.status != 422 || r.code() != "not_a_token" {
				t.Errorf("%s: %d %s", addr, r.status, r.body)
			}
		}
	})
}
