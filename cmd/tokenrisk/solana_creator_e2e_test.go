package main

import (
	"crypto/sha256"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// The ORCA and USDC mints (2022 snapshots, everlastingsong/solsandbox,
// see internal/solana/testdata/accounts/README.md): SPL mints whose mint
// authorities are wallets; ORCA's is orcaAuthority.
const (
	orcaMint      = "orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE"
	orcaAuthority = "8DzsCSvbvBDYxGB4ytNF698zi6Dyo9dUBVRNjZQFHSUt"
)

// megaMember is the mega token's group member (SYNTHETIC: made on a local
// test validator by the real Token-2022 program, like the mega token):
// the same mint authority as the mega token.
const megaMember = "CXZDzjSrQ5jPaBgk6ckTQrLPTnUURiY2GnAgVCS9Fggz"

// The pump.fun mint 73edX6…pump's creator (its bonding curve's creator
// field) and its Raydium CPMM pool's recorded creator.
const (
	pumpCreator     = "EhJ5156M6ZNhvPhHe6RA8ZZ9GTEdM6Rhyh4EB1VZL1D4"
	pumpPoolCreator = "5Pq1gKWmrT5Z7QfUVj2keDAZhC2uTg7tCHBujnGq6aP6"
)

// addSibling serves the USDC mint's real bytes with only the mint
// authority (bytes 4..36) replaced by the ORCA mint's, at an address
// derived from a label, and returns that address.
func addSibling(t *testing.T, sol *solanatest.Server) string {
	t.Helper()
	orca, ok := sol.Account(usdcMint)
	if !ok {
		t.Fatal("the fixtures have no USDC mint")
	}
	key, err := base58.Decode(orcaAuthority)
	if err != nil || len(key) != 32 {
		t.Fatalf("creator key: %v", err)
	}
	sibling := orca
	sibling.Data = slices.Clone(orca.Data)
	if sibling.Data[0] != 1 {
		t.Fatal("the USDC mint has no mint authority to replace")
	}
	copy(sibling.Data[4:36], key)
	sum := sha256.Sum256([]byte("USDC mint bytes, mint authority set to the ORCA mint's"))
	addr := base58.Encode(sum[:])
	sol.SetAccount(addr, sibling)
	return addr
}

// TestSolanaCreatorRecordEndToEnd: through POST /api/v1/scan/ on account
// bytes served by a fake node, the creator's other mints this server
// scanned are listed under deployer_analysis.creator_tokens with their
// level, flags and scan id.
//
//   - No two mainnet mints of the fixtures share a creator, so the second
//     mint is built from real bytes with one field changed (provenance):
//     the USDC mint's 82 bytes (2022 snapshot) with only its mint
//     authority (bytes 4..36) replaced by the ORCA mint's (a wallet, 8Dzs…),
//     served at an address derived from a label. Both mints' record key
//     is their mint authority (neither has a creation the node proves).
//   - The pump.fun mint 73edX6…pump keeps its curve's creator as its key
//     and its Raydium CPMM pool's recorded creator as pool_creator.
//   - The mega token and its group member are real Token-2022 bytes from a
//     local test validator (not mainnet) that share their mint authority:
//     the mega token is non-transferable (a proven honeypot by the token
//     program's rules) with a permanent delegate, so the member's scan
//     reads CREATOR_SCAM_HISTORY (critical) naming the mega token's scan.
func TestSolanaCreatorRecordEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the server")
	}
	sol := solanatest.New()
	t.Cleanup(sol.Close)
	if err := sol.LoadDir("../../internal/solana/testdata/accounts"); err != nil {
		t.Fatal(err)
	}
	siblingAddr := addSibling(t, sol)

	s := startServer(t, map[string]string{
		"TOKENRISK_DB":           filepath.Join(t.TempDir(), "solana.db"),
		"TOKENRISK_SOURCIFY_URL": "none",
		"TOKENRISK_RPC_SOLANA":   sol.URL(),
	})
	apiKey := s.key(t, "pro")

	t.Run("pump mint keys", func(t *testing.T) {
		pump := solanaReport(t, s, apiKey, pumpMint2022)
		if c := jsonAt(t, pump, "deployer_analysis.creator_keys.creator"); c != pumpCreator {
			t.Errorf("the pump mint's creator key = %v, want its curve's creator %s", c, pumpCreator)
		}
		if c := jsonAt(t, pump, "deployer_analysis.creator_keys.pool_creator"); c != pumpPoolCreator {
			t.Errorf("the pump mint's pool_creator key = %v, want the CPMM pool's recorded creator %s", c, pumpPoolCreator)
		}
	})

	t.Run("same creator", func(t *testing.T) {
		first := solanaReport(t, s, apiKey, orcaMint)
		if c := jsonAt(t, first, "deployer_analysis.creator_keys.creator"); c != orcaAuthority {
			t.Fatalf("the ORCA mint's creator key = %v, want its mint authority %s", c, orcaAuthority)
		}
		if r := jsonAt(t, first, "deployer_analysis.creator_record"); r != "no earlier scans" {
			t.Errorf("first mint's creator_record = %v, want no earlier scans", r)
		}
		second := solanaReport(t, s, apiKey, siblingAddr)
		if c := jsonAt(t, second, "deployer_analysis.creator_keys.creator"); c != orcaAuthority {
			t.Fatalf("the sibling's creator key = %v, want its mint authority %s", c, orcaAuthority)
		}
		mates := jsonAt(t, second, "deployer_analysis.creator_tokens").([]any)
		if len(mates) != 1 {
			t.Fatalf("creator_tokens = %v, want the ORCA mint", mates)
		}
		m := mates[0].(map[string]any)
		if m["address"] != orcaMint || m["level"] != first["risk_level"] || m["scan_id"] != first["scan_id"] || m["link"] != "creator" || m["via"] != orcaAuthority {
			t.Errorf("creator_tokens[0] = %v, want the ORCA mint at level %v, scan %v, linked by creator %s", m, first["risk_level"], first["scan_id"], orcaAuthority)
		}
		var want []string
		for _, f := range jsonAt(t, first, "risk_flags").([]any) {
			if sev := f.(map[string]any)["severity"]; sev == "high" || sev == "critical" {
				want = append(want, f.(map[string]any)["code"].(string))
			}
		}
		var got []string
		for _, f := range m["flags"].([]any) {
			got = append(got, f.(string))
		}
		if !slices.Equal(got, want) {
			t.Errorf("creator_tokens[0].flags = %v, want the first scan's high and critical flags %v", got, want)
		}
		if slices.Contains(flagCodes(t, second), "CREATOR_SCAM_HISTORY") {
			t.Errorf("CREATOR_SCAM_HISTORY raised over a mate with no proven harm: %v", mates)
		}
		if r := jsonAt(t, second, "deployer_analysis.creator_record"); r != "1 earlier token(s) scanned, none found harmful" {
			t.Errorf("creator_record = %v", r)
		}
	})

	t.Run("proven harm", func(t *testing.T) {
		mega := solanaReport(t, s, apiKey, megaMint2022)
		if mega["risk_level"] != "critical" {
			t.Fatalf("the mega token reads %v, want critical", mega["risk_level"])
		}
		member := solanaReport(t, s, apiKey, megaMember)
		if c := jsonAt(t, member, "deployer_analysis.creator_keys.creator"); c != megaAuthority {
			t.Fatalf("the member's creator key = %v, want the shared mint authority %s", c, megaAuthority)
		}
		if member["risk_level"] != "critical" || !slices.Contains(flagCodes(t, member), "CREATOR_SCAM_HISTORY") {
			t.Fatalf("the member: %v %v, want critical with CREATOR_SCAM_HISTORY", member["risk_level"], flagCodes(t, member))
		}
		for _, f := range jsonAt(t, member, "risk_flags").([]any) {
			f := f.(map[string]any)
			if f["code"] == "CREATOR_SCAM_HISTORY" && (f["severity"] != "critical" || f["source"] != mega["scan_id"]) {
				t.Errorf("CREATOR_SCAM_HISTORY %v, want critical naming scan %v", f, mega["scan_id"])
			}
		}
		m := jsonAt(t, member, "deployer_analysis.creator_tokens").([]any)[0].(map[string]any)
		if m["address"] != megaMint2022 || m["harm"] != "honeypot" || m["level"] != "critical" {
			t.Errorf("creator_tokens[0] = %v, want the mega token, critical, found honeypot", m)
		}
	})
}

// TestCreatorRecordAcrossInstances: two servers on one PostgreSQL; a mint
// scanned through instance A is in the creator record of its sibling's
// scan through instance B (the same real-bytes pair as above), with A's
// scan id.
func TestCreatorRecordAcrossInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts two servers")
	}
	dsn := postgresDSN(t)
	sol := solanatest.New()
	t.Cleanup(sol.Close)
	if err := sol.LoadDir("../../internal/solana/testdata/accounts"); err != nil {
		t.Fatal(err)
	}
	siblingAddr := addSibling(t, sol)
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_SOURCIFY_URL": "none", "TOKENRISK_RPC_SOLANA": sol.URL(), "TOKENRISK_LOG_LEVEL": "warn"}
	a := startServer(t, env)
	b := startServer(t, env)
	first := solanaReport(t, a, a.key(t, "pro"), orcaMint)
	second := solanaReport(t, b, b.key(t, "pro"), siblingAddr)
	mates, _ := jsonAt(t, second, "deployer_analysis.creator_tokens").([]any)
	if len(mates) != 1 {
		t.Fatalf("creator_tokens through B = %v, want the mint A scanned", mates)
	}
	if m := mates[0].(map[string]any); m["address"] != orcaMint || m["scan_id"] != first["scan_id"] {
		t.Errorf("creator_tokens[0] through B = %v, want %s with A's scan %v", m, orcaMint, first["scan_id"])
	}
}
