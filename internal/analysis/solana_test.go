package analysis_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/insider"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

func solanaStr(s string) *string { return &s }

func solanaU64(v uint64) *uint64 { return &v }

func solanaU8(v uint8) *uint8 { return &v }

func solanaBool(v bool) *bool { return &v }

func solanaInt(v int) *int { return &v }

func solanaI64(v int64) *int64 { return &v }

// solanaBaseFacts is a plain SPL mint with every authority revoked,
// immutable metadata, one deep USDC pool with burned LP, and holders.
func solanaBaseFacts() *analysis.SolanaFacts {
	return &analysis.SolanaFacts{
		Mint: analysis.SolanaMint{
			Address: "Mint1111111111111111111111111111111111111111", TokenProgram: analysis.SolanaSPLToken,
			Supply: 1_000_000_000, Decimals: 6,
		},
		Metadata:      &analysis.SolanaMetadata{Source: analysis.SolanaMetaplex, Name: "Token", Symbol: "TKN", IsMutable: solanaBool(false)},
		MetadataKnown: true,
		Liquidity: analysis.SolanaLiquidityFacts{
			Searched: []string{"raydium_cpmm"}, SearchComplete: true, BondingCurveKnown: true,
			Pools: []analysis.SolanaPool{{
				DEX: "raydium_cpmm", Address: "Pool", QuoteSymbol: "USDC", QuoteDecimals: solanaU8(6), QuoteUSDStable: true,
				TokenVault: "VaultT", QuoteVault: "VaultQ", Authority: "PoolAuth",
				TokenReserve: solanaU64(500_000_000), QuoteReserve: solanaU64(50_000_000_000), // 500 tokens, 50 000 USDC
				LPMint: "LP", LPBurnedPct: solanaFloat(100),
			}},
		},
		Holders: &analysis.SolanaHolderFacts{Accounts: []analysis.SolanaTokenAccount{
			{Address: "VaultT", Amount: 500_000_000, Owner: solanaStr("PoolAuth")},
			{Address: "A1", Amount: 50_000_000, Owner: solanaStr("W1")},
			{Address: "A2", Amount: 40_000_000, Owner: solanaStr("W2")},
		}},
		BurnAddresses: []string{"1nc1nerator11111111111111111111111111111111"},
		Lockers:       map[string]string{"Locker": "Some Locker"},
		Exchanges:     map[string]string{"Exchange": "Some Exchange"},
		// The insider check ran and decided nothing: W1 and W2 (9%)
		// cannot pass the 10% threshold, so its verdict stands.
		Insiders: &analysis.SolanaInsiderFacts{},
	}
}

func solanaFloat(v float64) *float64 { return &v }

func solanaCodes(flags []risk.Flag) []string {
	var out []string
	for _, f := range flags {
		out = append(out, f.Code)
	}
	sort.Strings(out)
	return out
}

func solanaSameCodes(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	sort.Strings(b)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAnalyseSolanaContractFlags(t *testing.T) {
	ext := func(name string, typ uint16, params any) analysis.SolanaExtension {
		return analysis.SolanaExtension{Type: typ, Name: name, Params: params}
	}
	auth := solanaStr("Auth111111111111111111111111111111111111111")
	tests := []struct {
		name   string
		modify func(f *analysis.SolanaFacts)
		want   []string
		status scan.Status
	}{
		{"revoked SPL mint", func(f *analysis.SolanaFacts) {}, nil, scan.Complete},
		{"mint authority", func(f *analysis.SolanaFacts) { f.Mint.MintAuthority = auth }, []string{risk.MintAuthorityEnabled}, scan.Complete},
		{"freeze authority", func(f *analysis.SolanaFacts) { f.Mint.FreezeAuthority = auth }, []string{risk.FreezeAuthorityEnabled}, scan.Complete},
		{"mutable metadata", func(f *analysis.SolanaFacts) { f.Metadata.IsMutable = solanaBool(true) }, []string{risk.MetadataMutable}, scan.Complete},
		{"metadata unknown", func(f *analysis.SolanaFacts) { f.Metadata, f.MetadataKnown = nil, false }, nil, scan.Partial},
		{"transfer fee in force", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtTransferFeeConfig, 1, analysis.SolanaTransferFeeParams{Newer: analysis.SolanaTransferFee{BasisPoints: 250}})}
		}, []string{risk.TransferFee}, scan.Complete},
		{"zero fee, fixed", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtTransferFeeConfig, 1, analysis.SolanaTransferFeeParams{})}
		}, nil, scan.Complete},
		{"zero fee, changeable", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtTransferFeeConfig, 1, analysis.SolanaTransferFeeParams{ConfigAuthority: auth})}
		}, []string{risk.TransferFee}, scan.Complete},
		{"transfer hook", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtTransferHook, 14, analysis.SolanaTransferHookParams{ProgramID: auth})}
		}, []string{risk.TransferHook}, scan.Complete},
		{"hook revoked", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtTransferHook, 14, analysis.SolanaTransferHookParams{})}
		}, nil, scan.Complete},
		{"permanent delegate revoked", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtPermanentDelegate, 12, analysis.SolanaAuthorityParams{})}
		}, nil, scan.Complete},
		{"permanent delegate", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtPermanentDelegate, 12, analysis.SolanaAuthorityParams{Authority: auth})}
		}, []string{risk.PermanentDelegate}, scan.Complete},
		{"non-transferable", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtNonTransferable, 9, nil)}
		}, []string{risk.NonTransferable}, scan.Complete},
		{"default frozen", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtDefaultAccountState, 6, analysis.SolanaDefaultAccountStateParams{State: "frozen"})}
		}, []string{risk.DefaultAccountFrozen}, scan.Complete},
		{"close authority", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtMintCloseAuthority, 3, analysis.SolanaAuthorityParams{Authority: auth})}
		}, []string{risk.MintCloseAuthority}, scan.Complete},
		{"confidential transfers", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtConfidentialTransferMint, 4, analysis.SolanaConfidentialTransferParams{})}
		}, []string{risk.ConfidentialTransfers}, scan.Complete},
		{"pausable", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtPausable, 26, analysis.SolanaPausableParams{Authority: auth})}
		}, []string{risk.OwnerCanPause}, scan.Complete},
		{"paused for good (authority revoked)", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtPausable, 26, analysis.SolanaPausableParams{Paused: true})}
		}, []string{risk.OwnerCanPause}, scan.Complete},
		{"pausable, revoked and running", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{ext(analysis.SolanaExtPausable, 26, analysis.SolanaPausableParams{})}
		}, nil, scan.Complete},
		{"malformed TLV", func(f *analysis.SolanaFacts) { f.Mint.ExtensionsIncomplete = true }, nil, scan.Partial},
		{"trusted token", func(f *analysis.SolanaFacts) { f.Trusted = "USD Coin"; f.Mint.FreezeAuthority = auth },
			[]string{risk.TrustedToken, risk.FreezeAuthorityEnabled}, scan.Complete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			tt.modify(f)
			sec, _ := analysis.AnalyseSolanaContract(f)
			if got := solanaCodes(sec.Flags); !solanaSameCodes(got, tt.want) {
				t.Errorf("flags = %v, want %v", got, tt.want)
			}
			if ev := sec.Evidence.(analysis.SolanaContractEvidence); len(ev.Extensions) != len(f.Mint.Extensions) {
				t.Errorf("evidence lists %d extensions, the mint has %d", len(ev.Extensions), len(f.Mint.Extensions))
			}
			if sec.Status != tt.status {
				t.Errorf("status = %s, want %s", sec.Status, tt.status)
			}
		})
	}
}

func TestAnalyseSolanaTransferFeeEpoch(t *testing.T) {
	tests := []struct {
		name  string
		epoch *uint64
		want  float64
	}{
		{"before the newer fee", solanaU64(799), 1},
		{"at the newer fee's epoch", solanaU64(800), 5},
		{"epoch unknown: the higher", nil, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			f.CurrentEpoch = tt.epoch
			f.Mint.Extensions = []analysis.SolanaExtension{{Type: 1, Name: analysis.SolanaExtTransferFeeConfig, Params: analysis.SolanaTransferFeeParams{
				Older: analysis.SolanaTransferFee{Epoch: 10, BasisPoints: 100}, Newer: analysis.SolanaTransferFee{Epoch: 800, BasisPoints: 500},
			}}}
			sec, _ := analysis.AnalyseSolanaContract(f)
			if len(sec.Flags) != 1 || sec.Flags[0].Value == nil || *sec.Flags[0].Value != tt.want {
				t.Fatalf("flags = %+v, want TRANSFER_FEE %v%%", sec.Flags, tt.want)
			}
			ev := sec.Evidence.(analysis.SolanaContractEvidence)
			p := ev.Extensions[0].Params.(analysis.SolanaTransferFeeParams)
			if (p.Current != nil) != (tt.epoch != nil) {
				t.Errorf("current fee = %+v with epoch %v", p.Current, tt.epoch)
			}
		})
	}
}

func TestAnalyseSolanaLiquidity(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tests := []struct {
		name     string
		modify   func(f *analysis.SolanaFacts)
		want     []string
		status   scan.Status
		totalUSD *float64
	}{
		// 50 000 USDC + 500 tokens at 100 USDC = 100 000 USD.
		{"deep pool, LP burned", func(f *analysis.SolanaFacts) {}, nil, scan.Complete, solanaFloat(100_000)},
		{"LP half burned, rest in wallets", func(f *analysis.SolanaFacts) {
			p := &f.Liquidity.Pools[0]
			p.LPBurnedPct, p.LPLockedPct, p.LPUnlockedPct, p.LPUnknownPct = solanaFloat(50), solanaFloat(0), solanaFloat(50), solanaFloat(0)
		}, []string{risk.LPNotLocked}, scan.Complete, solanaFloat(100_000)},
		{"LP half burned, holders not listed", func(f *analysis.SolanaFacts) { f.Liquidity.Pools[0].LPBurnedPct = solanaFloat(50) }, nil, scan.Partial, solanaFloat(100_000)},
		{"LP half burned, half locked", func(f *analysis.SolanaFacts) {
			p := &f.Liquidity.Pools[0]
			p.LPBurnedPct, p.LPLockedPct, p.LPUnlockedPct, p.LPUnknownPct = solanaFloat(50), solanaFloat(50), solanaFloat(0), solanaFloat(0)
		}, nil, scan.Complete, solanaFloat(100_000)},
		{"LP 85% burned, 5% wallets, 10% unknown program", func(f *analysis.SolanaFacts) {
			p := &f.Liquidity.Pools[0]
			p.LPBurnedPct, p.LPLockedPct, p.LPUnlockedPct, p.LPUnknownPct = solanaFloat(85), solanaFloat(0), solanaFloat(5), solanaFloat(10)
		}, nil, scan.Partial, solanaFloat(100_000)},
		{"LP 80% burned, 11% wallets, 9% unknown program", func(f *analysis.SolanaFacts) {
			p := &f.Liquidity.Pools[0]
			p.LPBurnedPct, p.LPLockedPct, p.LPUnlockedPct, p.LPUnknownPct = solanaFloat(80), solanaFloat(0), solanaFloat(11), solanaFloat(9)
		}, []string{risk.LPNotLocked}, scan.Complete, solanaFloat(100_000)},
		{"shallow pool", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools[0].QuoteReserve = solanaU64(1_000_000_000) // 1 000 USDC
		}, []string{risk.LowLiquidity}, scan.Complete, solanaFloat(2_000)},
		{"no pool", func(f *analysis.SolanaFacts) { f.Liquidity.Pools = nil }, []string{risk.NoLiquidity}, scan.Complete, nil},
		{"no pool found but a DEX failed", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools, f.Liquidity.SearchComplete = nil, false
			f.Warnings.Liquidity = []string{"liquidity: orca_whirlpool pools could not be searched"}
		}, nil, scan.Partial, nil},
		{"new pool", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools[0].OpenTime = func() *int64 { v := now.Unix() - 3600*10; return &v }()
		},
			[]string{risk.NewPool}, scan.Complete, solanaFloat(100_000)},
		{"SOL pool without a SOL price", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools[0].QuoteSymbol, f.Liquidity.Pools[0].QuoteDecimals = "wSOL", solanaU8(9)
			f.Liquidity.Pools[0].QuoteUSDStable, f.Liquidity.Pools[0].QuoteWrapped = false, true
		}, nil, scan.Partial, nil},
		{"SOL pool valued", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools[0].QuoteSymbol, f.Liquidity.Pools[0].QuoteDecimals = "wSOL", solanaU8(9)
			f.Liquidity.Pools[0].QuoteUSDStable, f.Liquidity.Pools[0].QuoteWrapped = false, true
			f.Liquidity.Pools[0].QuoteReserve = solanaU64(100 * 1e9) // 100 SOL
			f.Liquidity.SOLPriceUSD = solanaFloat(150)
		}, nil, scan.Complete, solanaFloat(30_000)},
		{"active bonding curve", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools = nil
			f.Liquidity.SOLPriceUSD = solanaFloat(100)
			f.Liquidity.BondingCurve = &analysis.SolanaBondingCurve{Address: "Curve", VirtualTokenReserves: 1_000_000_000, VirtualSOLReserves: 30e9, RealSOLReserves: 20e9}
		}, []string{risk.BondingCurve, risk.LowLiquidity}, scan.Complete, solanaFloat(2_000)},
		{"completed curve, no pool", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools = nil
			f.Liquidity.BondingCurve = &analysis.SolanaBondingCurve{Address: "Curve", Complete: true}
		}, []string{risk.NoLiquidity}, scan.Complete, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			tt.modify(f)
			sec, _ := analysis.AnalyseSolanaLiquidity(f, now)
			if got := solanaCodes(sec.Flags); !solanaSameCodes(got, tt.want) {
				t.Errorf("flags = %v, want %v", got, tt.want)
			}
			if sec.Status != tt.status {
				t.Errorf("status = %s, want %s", sec.Status, tt.status)
			}
			ev := sec.Evidence.(analysis.SolanaLiquidityEvidence)
			switch {
			case tt.totalUSD == nil && ev.TotalLiquidityUSD != nil:
				t.Errorf("total USD = %v, want null", *ev.TotalLiquidityUSD)
			case tt.totalUSD != nil && (ev.TotalLiquidityUSD == nil || *ev.TotalLiquidityUSD < *tt.totalUSD-0.01 || *ev.TotalLiquidityUSD > *tt.totalUSD+0.01):
				t.Errorf("total USD = %v, want %v", ev.TotalLiquidityUSD, *tt.totalUSD)
			}
		})
	}
}

func TestAnalyseSolanaHolders(t *testing.T) {
	tests := []struct {
		name     string
		accounts []analysis.SolanaTokenAccount
		complete bool
		want     []string
		top10    float64
		count    *int
		status   scan.Status
	}{
		{"spread", []analysis.SolanaTokenAccount{
			{Address: "VaultT", Amount: 600_000_000, Owner: solanaStr("PoolAuth")},
			{Address: "A1", Amount: 50_000_000, Owner: solanaStr("W1")},
		}, false, nil, 5, nil, scan.Complete},
		{"whale", []analysis.SolanaTokenAccount{
			{Address: "A1", Amount: 150_000_000, Owner: solanaStr("W1")},
		}, false, []string{risk.WhaleHolder}, 15, nil, scan.Complete},
		{"locker is not a whale", []analysis.SolanaTokenAccount{
			{Address: "L", Amount: 300_000_000, Owner: solanaStr("Locker")},
		}, false, nil, 0, nil, scan.Complete},
		{"an exchange counts", []analysis.SolanaTokenAccount{
			{Address: "E", Amount: 300_000_000, Owner: solanaStr("Exchange")},
		}, false, []string{risk.WhaleHolder}, 30, nil, scan.Complete},
		{"burn is not a whale", []analysis.SolanaTokenAccount{
			{Address: "B", Amount: 900_000_000, Owner: solanaStr("1nc1nerator11111111111111111111111111111111")},
		}, false, nil, 0, nil, scan.Complete},
		{"concentrated", func() []analysis.SolanaTokenAccount {
			var out []analysis.SolanaTokenAccount
			for i := range 12 {
				out = append(out, analysis.SolanaTokenAccount{Address: string(rune('a' + i)), Amount: 60_000_000, Owner: solanaStr(string(rune('A' + i)))})
			}
			return out
		}(), false, []string{risk.Top10Concentrated}, 60, nil, scan.Complete},
		{"every account listed", []analysis.SolanaTokenAccount{
			{Address: "A1", Amount: 50_000_000, Owner: solanaStr("W1")},
			{Address: "A2", Amount: 50_000_000, Owner: solanaStr("W1")},
			{Address: "A3", Amount: 10_000_000, Owner: solanaStr("W2")},
		}, true, []string{risk.FewHolders}, 11, func() *int { n := 2; return &n }(), scan.Complete},
		{"owner unresolved", []analysis.SolanaTokenAccount{
			{Address: "A1", Amount: 50_000_000},
		}, false, nil, 5, nil, scan.Partial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			f.Holders = &analysis.SolanaHolderFacts{Accounts: tt.accounts, Complete: tt.complete}
			sec, _ := analysis.AnalyseSolanaHolders(f)
			if got := solanaCodes(sec.Flags); !solanaSameCodes(got, tt.want) {
				t.Errorf("flags = %v, want %v", got, tt.want)
			}
			ev := sec.Evidence.(analysis.SolanaHolderEvidence)
			if ev.Top10SharePct == nil || *ev.Top10SharePct != tt.top10 {
				t.Errorf("top-10 share = %v, want %v", ev.Top10SharePct, tt.top10)
			}
			// A list that is not every account gives a lower bound,
			// never a null past its holders.
			if ev.HolderCount == nil || ev.HolderCountExact == nil || *ev.HolderCountExact != (tt.count != nil) || (tt.count != nil && *ev.HolderCount != *tt.count) {
				t.Errorf("holder count = %v (exact %v), want %v", ev.HolderCount, ev.HolderCountExact, tt.count)
			}
			if sec.Status != tt.status {
				t.Errorf("status = %s, want %s", sec.Status, tt.status)
			}
		})
	}
	f := solanaBaseFacts()
	f.Holders = nil
	if sec, w := analysis.AnalyseSolanaHolders(f); sec.Status != scan.Unavailable || len(w) == 0 {
		t.Errorf("unknown holders: status %s warnings %v", sec.Status, w)
	}
}

func TestAnalyseSolanaDeployer(t *testing.T) {
	tests := []struct {
		name    string
		creator *analysis.SolanaCreator
		want    []string
		share   *float64
		status  scan.Status
	}{
		{"no evidence", nil, nil, nil, scan.Unavailable},
		{"curve creator holding 6%", &analysis.SolanaCreator{Address: "W1", Source: analysis.SolanaCreatorBondingCurve, BalanceLamports: solanaU64(1e9)},
			[]string{risk.CreatorHoldsLargeShare}, solanaFloat(6), scan.Complete},
		{"update authority fallback", &analysis.SolanaCreator{Address: "Nobody", Source: analysis.SolanaCreatorUpdateAuthority, BalanceLamports: solanaU64(0)},
			nil, nil, scan.Partial},
		{"wallet with two transactions", &analysis.SolanaCreator{Address: "Nobody", Source: analysis.SolanaCreatorFeePayer, OldestSignatureComplete: true, BalanceLamports: solanaU64(0), TxCount: solanaInt(2)},
			[]string{risk.CreatorNewWallet}, nil, scan.Complete},
		{"wallet funded an hour before launch", &analysis.SolanaCreator{Address: "Nobody", Source: analysis.SolanaCreatorFeePayer, OldestSignatureComplete: true, BalanceLamports: solanaU64(0),
			TxCount: solanaInt(40), FirstActivity: solanaI64(1_700_000_000), CreationTime: solanaI64(1_700_003_600)},
			[]string{risk.CreatorNewWallet}, nil, scan.Complete},
		{"seasoned wallet", &analysis.SolanaCreator{Address: "Nobody", Source: analysis.SolanaCreatorFeePayer, OldestSignatureComplete: true, BalanceLamports: solanaU64(0),
			TxCount: solanaInt(40), FirstActivity: solanaI64(1_600_000_000), CreationTime: solanaI64(1_700_000_000)},
			nil, nil, scan.Complete},
		{"program account creator", &analysis.SolanaCreator{Address: "Nobody", Source: analysis.SolanaCreatorBondingCurve, BalanceLamports: solanaU64(0), TxCount: solanaInt(0), IsProgramAccount: solanaBool(true)},
			nil, nil, scan.Complete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			f.Holders.Accounts[1].Amount = 60_000_000
			f.Creator = tt.creator
			sec, _ := analysis.AnalyseSolanaDeployer(f)
			if got := solanaCodes(sec.Flags); !solanaSameCodes(got, tt.want) {
				t.Errorf("flags = %v, want %v", got, tt.want)
			}
			if sec.Status != tt.status {
				t.Errorf("status = %s, want %s", sec.Status, tt.status)
			}
			ev := sec.Evidence.(analysis.SolanaDeployerEvidence)
			if (ev.CreatorSharePct == nil) != (tt.share == nil) || (tt.share != nil && *ev.CreatorSharePct != *tt.share) {
				t.Errorf("creator share = %v, want %v", ev.CreatorSharePct, tt.share)
			}
		})
	}
}

func TestSolanaChecklist(t *testing.T) {
	tests := []struct {
		name   string
		modify func(f *analysis.SolanaFacts)
		want   scan.Checklist
	}{
		{"clean", func(f *analysis.SolanaFacts) {}, scan.Checklist{NotHoneypot: true, HealthyHolders: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"freeze authority: sells can be blocked", func(f *analysis.SolanaFacts) { f.Mint.FreezeAuthority = solanaStr("F") },
			scan.Checklist{HealthyHolders: true, LiquidityLocked: true, NoMint: true}},
		{"mint authority", func(f *analysis.SolanaFacts) { f.Mint.MintAuthority = solanaStr("M") },
			scan.Checklist{NotHoneypot: true, HealthyHolders: true, LiquidityLocked: true}},
		{"metadata unknown is not renounced", func(f *analysis.SolanaFacts) { f.Metadata, f.MetadataKnown = nil, false },
			scan.Checklist{NotHoneypot: true, HealthyHolders: true, LiquidityLocked: true, NoMint: true}},
		{"insider check not run", func(f *analysis.SolanaFacts) { f.Insiders = nil },
			scan.Checklist{NotHoneypot: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"insiders hold 11%", func(f *analysis.SolanaFacts) {
			f.Holders.Accounts[2].Amount = 60_000_000
			f.Creator = &analysis.SolanaCreator{Address: "C"}
			f.Insiders.Funding = map[string]insider.Funding{"W1": {Chain: []string{"C"}}, "W2": {Chain: []string{"X", "C"}}}
		}, scan.Checklist{NotHoneypot: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"nowhere to sell", func(f *analysis.SolanaFacts) { f.Liquidity.Pools, f.Holders.Accounts = nil, f.Holders.Accounts[1:] },
			scan.Checklist{HealthyHolders: true, OwnershipRenounced: true, NoMint: true}},
		{"holders unknown", func(f *analysis.SolanaFacts) { f.Holders = nil },
			scan.Checklist{NotHoneypot: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"transfer fee of 60%", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{{Type: 1, Name: analysis.SolanaExtTransferFeeConfig, Params: analysis.SolanaTransferFeeParams{Newer: analysis.SolanaTransferFee{BasisPoints: 6000}}}}
		}, scan.Checklist{HealthyHolders: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"transfer fee of 1%", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{{Type: 1, Name: analysis.SolanaExtTransferFeeConfig, Params: analysis.SolanaTransferFeeParams{Newer: analysis.SolanaTransferFee{BasisPoints: 100}}}}
		}, scan.Checklist{NotHoneypot: true, HealthyHolders: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"paused, authority revoked: nobody can unpause", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{{Type: 26, Name: analysis.SolanaExtPausable, Params: analysis.SolanaPausableParams{Paused: true}}}
		}, scan.Checklist{HealthyHolders: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"pausable by an authority, running", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{{Type: 26, Name: analysis.SolanaExtPausable, Params: analysis.SolanaPausableParams{Authority: solanaStr("P")}}}
		}, scan.Checklist{HealthyHolders: true, OwnershipRenounced: false, LiquidityLocked: true, NoMint: true}},
		{"pausable, revoked and running", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{{Type: 26, Name: analysis.SolanaExtPausable, Params: analysis.SolanaPausableParams{}}}
		}, scan.Checklist{NotHoneypot: true, HealthyHolders: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
		{"unreadable extension", func(f *analysis.SolanaFacts) {
			f.Mint.Extensions = []analysis.SolanaExtension{{Type: 99, Name: "unknown_99", Params: analysis.SolanaRawParams{Length: 3}}}
		}, scan.Checklist{HealthyHolders: true, OwnershipRenounced: true, LiquidityLocked: true, NoMint: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			tt.modify(f)
			if got := analysis.SolanaChecklist(f); got != tt.want {
				t.Errorf("checklist = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestAnalyseSolanaHolderCount: the counting query's answer is the holder
// count (pools, burns and lockers among the largest left out) when its
// accounts hold the whole supply, else a lower bound with a warning.
func TestAnalyseSolanaHolderCount(t *testing.T) {
	for _, tt := range []struct {
		name     string
		count    analysis.SolanaHolderCount
		want     int
		exact    bool
		fewFlag  bool
		warnings string
	}{
		{"counted, whole supply", analysis.SolanaHolderCount{Accounts: 1502, Held: 1_000_000_000}, 1501, true, false, ""},
		// The count is never below the wallets listed (19).
		{"counted, few", analysis.SolanaHolderCount{Accounts: 8, Held: 1_000_000_000}, 19, true, true, ""},
		{"counted, index misses accounts", analysis.SolanaHolderCount{Accounts: 8, Held: 900_000_000}, 19, false, false, "is a lower bound"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			accounts := []analysis.SolanaTokenAccount{{Address: "L", Amount: 300_000_000, Owner: solanaStr("Locker")}}
			for i := range 19 {
				accounts = append(accounts, analysis.SolanaTokenAccount{Address: fmt.Sprint("A", i), Amount: 1_000_000, Owner: solanaStr(fmt.Sprint("W", i))})
			}
			c := tt.count
			f.Holders = &analysis.SolanaHolderFacts{Accounts: accounts, Count: &c}
			sec, warnings := analysis.AnalyseSolanaHolders(f)
			ev := sec.Evidence.(analysis.SolanaHolderEvidence)
			if ev.HolderCount == nil || *ev.HolderCount != tt.want || *ev.HolderCountExact != tt.exact {
				t.Errorf("holder count %v exact %v, want %d exact %v", ev.HolderCount, ev.HolderCountExact, tt.want, tt.exact)
			}
			if hasFew := slices.Contains(solanaCodes(sec.Flags), risk.FewHolders); hasFew != tt.fewFlag {
				t.Errorf("flags %v", solanaCodes(sec.Flags))
			}
			if tt.warnings != "" && !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, tt.warnings) }) {
				t.Errorf("no warning %q in %v", tt.warnings, warnings)
			}
		})
	}
}

// TestAssessSolanaUnestablished: a check that ran without establishing
// its fact is unchecked, whatever else is known.
func TestAssessSolanaUnestablished(t *testing.T) {
	now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name  string
		edit  func(*analysis.SolanaFacts)
		want  []string
		never []string
	}{
		{"everything established", func(f *analysis.SolanaFacts) {
			f.Creator = &analysis.SolanaCreator{Address: "W9", Source: analysis.SolanaCreatorBondingCurve}
			f.Holders.Complete = true
			f.Holders.Accounts[0].Amount = 910_000_000
		}, nil, []string{risk.CheckPools, risk.CheckHolders, risk.CheckInsiders, risk.CheckDeployer}},
		{"LP holders not listed", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools[0].LPBurnedPct = solanaFloat(0)
		}, []string{risk.CheckPools}, nil},
		{"the only pool without a USD value", func(f *analysis.SolanaFacts) {
			f.Liquidity.Pools[0].QuoteUSDStable, f.Liquidity.Pools[0].QuoteSymbol = false, ""
		}, []string{risk.CheckPools}, nil},
		{"a list with holes", func(f *analysis.SolanaFacts) {
			f.Holders.Inconsistent = true
		}, []string{risk.CheckHolders, risk.CheckInsiders, risk.CheckDeployer}, nil},
		// The insider check would skip the largest holder past the
		// pool: its owner is unknown.
		{"an insider verdict past an unresolved holder", func(f *analysis.SolanaFacts) {
			f.Holders.Accounts[1].Owner = nil
		}, []string{risk.CheckInsiders}, nil},
		{"no creator evidence", func(f *analysis.SolanaFacts) {}, []string{risk.CheckDeployer}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := solanaBaseFacts()
			f.Creator = &analysis.SolanaCreator{Address: "W9", Source: analysis.SolanaCreatorBondingCurve}
			if tt.name == "no creator evidence" {
				f.Creator = nil
			}
			tt.edit(f)
			a := analysis.AssessSolana(f, "solana", now)
			for _, c := range tt.want {
				if !slices.Contains(a.Unchecked, c) {
					t.Errorf("unchecked %v, want %s in it (warnings %v)", a.Unchecked, c, a.Warnings)
				}
			}
			for _, c := range tt.never {
				if slices.Contains(a.Unchecked, c) {
					t.Errorf("unchecked %v names %s (warnings %v)", a.Unchecked, c, a.Warnings)
				}
			}
			if ev := a.Holder.Evidence.(analysis.SolanaHolderEvidence); slices.Contains(tt.want, risk.CheckInsiders) && ev.Insiders != nil && ev.Insiders.Conclusive {
				t.Errorf("insiders conclusive over %d holders", ev.Insiders.Examined)
			}
		})
	}
}
