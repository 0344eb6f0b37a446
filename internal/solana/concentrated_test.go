package solana_test

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

const (
	clmmPool       = "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv" // Raydium CLMM WSOL/USDC, mainnet
	clmmVaultUSDC  = "5it83u57VRrVgc51oNV19TTmAJuffPx5GtGwQr7gQNUo"
	dlmmPair       = "FJbEo74c2W4QLBBVUfUvi8VBWXtMdJVPuFpq2f6UV1iB" // Meteora DLMM, dlmm-sdk test artifact
	dlmmTokenX     = "FQuMNJ6UcrkA3xMLsmmLL8sk47RkZYod57mX3a8w1brg"
	dlmmReserveX   = "7wREtTX5xKWF4N4LPA1vDtjk5ZpYhKySaekiAwPmHAPD"
	dlmmReserveY   = "4MGE3U4GUXCdaPBDcN8ctf49ujwYkUYRn5BwZLQvjRdo"
	clmmProgram    = "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK"
	clmmVaultWSOL  = "4ct7br2vTPzfdmY3S5HLtTxcGSBfn6pnw98hsS6v359A"
	clmmUSDCAmount = 2572703453420
)

func TestDecodeConcentratedPools(t *testing.T) {
	data, owner := fixture(t, clmmPool)
	if owner != clmmProgram {
		t.Fatalf("owner %s", owner)
	}
	c, err := solana.DecodeRaydiumCLMM(data)
	if err != nil {
		t.Fatal(err)
	}
	if c.MintA.String() != wsolMint || c.MintB.String() != usdcMint || c.VaultA.String() != clmmVaultWSOL || c.VaultB.String() != clmmVaultUSDC {
		t.Errorf("clmm mints/vaults = %s %s %s %s", c.MintA, c.MintB, c.VaultA, c.VaultB)
	}
	if *c.DecimalsA != 9 || *c.DecimalsB != 6 || c.LPMint != nil {
		t.Errorf("clmm decimals %d/%d, LP mint %v", *c.DecimalsA, *c.DecimalsB, c.LPMint)
	}
	if c.SqrtPriceX64.String() != "5881519752448695797" || c.Liquidity.String() != "266757992707251" {
		t.Errorf("clmm sqrt price %s liquidity %s", c.SqrtPriceX64, c.Liquidity)
	}
	// Protocol fees + fund fees, per side.
	if c.OwedA != 123348918+56698791 || c.OwedB != 7625042+3643807 {
		t.Errorf("clmm owed = %d / %d", c.OwedA, c.OwedB)
	}
	if c.OpenTime == nil || *c.OpenTime != 1723037622 {
		t.Errorf("clmm open time %v", c.OpenTime)
	}
	if _, err := solana.DecodeWhirlpool(data[:653]); err == nil {
		t.Error("a CLMM pool cut to 653 bytes decoded as a Whirlpool")
	}

	data, _ = fixture(t, dlmmPair)
	d, err := solana.DecodeMeteoraDLMM(data)
	if err != nil {
		t.Fatal(err)
	}
	if d.MintA.String() != dlmmTokenX || d.MintB.String() != wsolMint || d.VaultA.String() != dlmmReserveX || d.VaultB.String() != dlmmReserveY {
		t.Errorf("dlmm = %+v", d)
	}
	if d.RawPrice == nil || *d.RawPrice != 1 || d.OwedA != 0 || d.OwedB != 0 || d.LPMint != nil {
		t.Errorf("dlmm price %v owed %d/%d", d.RawPrice, d.OwedA, d.OwedB)
	}
	// The active bin sets the price: bin step 10 bps, bin 100 is
	// 1.001^100 raw y per raw x.
	binary.LittleEndian.PutUint32(data[76:], 100)
	if d, err = solana.DecodeMeteoraDLMM(data); err != nil || math.Abs(*d.RawPrice-math.Pow(1.001, 100)) > 1e-12 {
		t.Errorf("dlmm price at bin 100 = %v (%v)", d.RawPrice, err)
	}
	// Protocol fees owed sit in the reserves: x at 216, y at 224.
	binary.LittleEndian.PutUint64(data[216:], 7)
	binary.LittleEndian.PutUint64(data[224:], 9)
	if d, err = solana.DecodeMeteoraDLMM(data); err != nil || d.OwedA != 7 || d.OwedB != 9 {
		t.Errorf("dlmm owed = %d / %d (%v)", d.OwedA, d.OwedB, err)
	}
	neg := int32(-100)
	binary.LittleEndian.PutUint32(data[76:], uint32(neg))
	if d, err = solana.DecodeMeteoraDLMM(data); err != nil || math.Abs(*d.RawPrice-math.Pow(1.001, -100)) > 1e-12 {
		t.Errorf("dlmm price at bin -100 = %v (%v)", d.RawPrice, err)
	}
}

// TestAssessRaydiumCLMMPool: a token that trades only on a Raydium CLMM
// pool has that pool valued, net of the fees owed, and no NO_LIQUIDITY.
// The pool is the real mainnet CLMM account with one side rewritten to a
// fixture mint (SYNTHETIC edit: mint, vault, decimals); the other side's
// vault is real.
func TestAssessRaydiumCLMMPool(t *testing.T) {
	const owedWSOL, owedUSDC = 123348918 + 56698791, 7625042 + 3643807
	const wsolAmount = 42496858798891
	sqrtP := 5881519752448695797 / math.Pow(2, 64)
	tests := []struct {
		name string
		// side 0 rewrites token_mint_0 (WSOL), side 1 token_mint_1 (USDC).
		side              int
		token, program    string
		decimals          uint8
		quote, quoteVault string
		quoteReserve      uint64
		tokenOwed         uint64
		// price of one token in the quote token.
		price float64
	}{
		// mint_0 with 9 decimals against USDC (6): (s/2^64)^2 * 10^3 USDC.
		{"token is mint 0", 0, dlmmTokenX, solanatest.TokenProgram, 9, "USDC", clmmVaultUSDC, clmmUSDCAmount - owedUSDC, owedWSOL, sqrtP * sqrtP * 1e3},
		// mint_1 with 6 decimals against WSOL (9): 1 / ((s/2^64)^2 * 10^3) SOL.
		{"token is mint 1", 1, mayhemMint, solanatest.Token2022Program, 6, "wSOL", clmmVaultWSOL, wsolAmount - owedWSOL, owedUSDC, 1 / (sqrtP * sqrtP * 1e3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			srv.DeleteAccount(dlmmPair) // dlmmTokenX's other pool
			data, _ := fixture(t, clmmPool)
			tokenVault := syntheticKey("clmm-token-vault")
			putKey(data, 73+32*tt.side, tt.token)
			putKey(data, 137+32*tt.side, tokenVault)
			data[233+tt.side] = tt.decimals
			srv.SetAccount(clmmPool, solanatest.Account{Lamports: 1358091805, Owner: clmmProgram, Data: data})
			if err := srv.AddTokenAccount(tokenVault, tt.token, clmmPool, 10_000_000_000_000+tt.tokenOwed, tt.program); err != nil {
				t.Fatal(err)
			}
			got, l, p := assessOnePool(t, srv, tt.token, "raydium_clmm")
			if p.Address != clmmPool || p.QuoteSymbol != tt.quote || p.TokenVault != tokenVault || p.QuoteVault != tt.quoteVault {
				t.Errorf("pool = %+v", p)
			}
			if *p.TokenReserve != 10_000_000_000_000 || *p.QuoteReserve != tt.quoteReserve {
				t.Errorf("reserves = %d / %d, want the vaults less the protocol and fund fees", *p.TokenReserve, *p.QuoteReserve)
			}
			if p.PriceInQuote == nil || math.Abs(*p.PriceInQuote/tt.price-1) > 1e-9 {
				t.Errorf("price = %v, want %v", p.PriceInQuote, tt.price)
			}
			if p.LiquidityUSD == nil || *p.LiquidityUSD < 100_000 {
				t.Errorf("liquidity = %v USD", p.LiquidityUSD)
			}
			if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) || hasFlag(got.Liquidity.Flags, risk.LowLiquidity) {
				t.Errorf("flags = %+v", got.Liquidity.Flags)
			}
			if !containsDEX(l.DEXesSearched, "raydium_clmm") || !containsDEX(l.DEXesSearched, "meteora_dlmm") {
				t.Errorf("dexes searched = %v", l.DEXesSearched)
			}
		})
	}
}

// TestAssessMeteoraDLMMPair scans the DLMM pair's real token X: the pair
// is found on the DLMM program and valued from its active bin. The pair
// and the mint are the SDK's dumps; the two reserve accounts are not in
// the upstream set and are SYNTHETIC, holding what the pair's bin arrays
// hold (2 000 000 000 raw x, 2 000 000 lamports).
func TestAssessMeteoraDLMMPair(t *testing.T) {
	srv := newServer(t)
	const pairAuthority = dlmmPair // reserves are owned by the pair
	if err := srv.AddTokenAccount(dlmmReserveX, dlmmTokenX, pairAuthority, 2_000_000_000, solanatest.TokenProgram); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddTokenAccount(dlmmReserveY, wsolMint, pairAuthority, 2_000_000, solanatest.TokenProgram); err != nil {
		t.Fatal(err)
	}
	got, l, p := assessOnePool(t, srv, dlmmTokenX, "meteora_dlmm")
	if p.Address != dlmmPair || *p.TokenReserve != 2_000_000_000 || *p.QuoteReserve != 2_000_000 || p.QuoteSymbol != "wSOL" {
		t.Errorf("pool = %+v", p)
	}
	// Active bin 0: one raw x per raw y, both with 9 decimals: 1 SOL.
	if p.PriceInQuote == nil || *p.PriceInQuote != 1 {
		t.Errorf("price = %v SOL, want 1", p.PriceInQuote)
	}
	if p.LiquidityUSD == nil || l.SOLPriceUSD == nil || math.Abs(*p.LiquidityUSD-2.002**l.SOLPriceUSD) > 1e-6 {
		t.Errorf("liquidity = %v USD at SOL %v", p.LiquidityUSD, l.SOLPriceUSD)
	}
	if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) || !hasFlag(got.Liquidity.Flags, risk.LowLiquidity) {
		t.Errorf("flags = %+v, want LOW_LIQUIDITY and not NO_LIQUIDITY", got.Liquidity.Flags)
	}
}

func TestDecodeConcentratedPoolsRejectOtherAccounts(t *testing.T) {
	for _, tt := range []struct {
		pubkey string
		decode func([]byte) (*solana.PoolState, error)
	}{{clmmPool, solana.DecodeRaydiumCLMM}, {dlmmPair, solana.DecodeMeteoraDLMM}} {
		data, _ := fixture(t, tt.pubkey)
		data[0] ^= 1
		if _, err := tt.decode(data); err == nil {
			t.Errorf("%s: decoded with a wrong discriminator", tt.pubkey)
		}
		data[0] ^= 1
		if _, err := tt.decode(data[:len(data)-1]); err == nil {
			t.Errorf("%s: decoded one byte short", tt.pubkey)
		}
	}
}

// assessOnePool scans mint on srv and returns the assessment, its
// liquidity evidence and its only pool, which must be on dex.
func assessOnePool(t *testing.T, srv *solanatest.Server, mint, dex string) (*scan.Assessment, analysis.SolanaLiquidityEvidence, analysis.SolanaPool) {
	t.Helper()
	got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, mint))
	if err != nil {
		t.Fatal(err)
	}
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	if len(l.Pools) != 1 || l.Pools[0].DEX != dex {
		t.Fatalf("pools = %+v, want one on %s", l.Pools, dex)
	}
	return got, l, l.Pools[0]
}

func containsDEX(list []string, name string) bool {
	for _, n := range list {
		if n == name {
			return true
		}
	}
	return false
}

// TestAssessRefusedDEXSearch: scnSOL has no pool on any configured DEX.
// Only when every DEX answered is that NO_LIQUIDITY; when the node
// refuses the search on some programs (as public nodes do on the largest)
// the liquidity is unknown: partial, the refused DEXes named, no flag.
func TestAssessRefusedDEXSearch(t *testing.T) {
	tests := []struct {
		name       string
		refuse     map[string]string // program -> DEX name
		noLiq      bool
		unsearched []string
	}{
		{"every DEX answered", nil, true, nil},
		{"AMM v4 and Whirlpool refused", map[string]string{
			"675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8": "raydium_amm_v4",
			"whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc":  "orca_whirlpool",
		}, false, []string{"raydium_amm_v4", "orca_whirlpool"}},
		{"DLMM refused", map[string]string{"LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo": "meteora_dlmm"}, false, []string{"meteora_dlmm"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			for program := range tt.refuse {
				srv.RefuseProgram(program, "excluded from account secondary indexes; this RPC method unavailable for key")
			}
			got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, scnSOL))
			if err != nil {
				t.Fatal(err)
			}
			l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
			if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) != tt.noLiq {
				t.Errorf("NO_LIQUIDITY = %v, want %v", !tt.noLiq, tt.noLiq)
			}
			if len(l.DEXesUnsearched) != len(tt.unsearched) {
				t.Fatalf("dexes_unsearched = %v, want %v", l.DEXesUnsearched, tt.unsearched)
			}
			for _, name := range tt.unsearched {
				if !containsDEX(l.DEXesUnsearched, name) || containsDEX(l.DEXesSearched, name) {
					t.Errorf("%s: searched %v, unsearched %v", name, l.DEXesSearched, l.DEXesUnsearched)
				}
				named := false
				for _, w := range got.Warnings {
					named = named || strings.Contains(w, name+" pools could not be searched")
				}
				if !named {
					t.Errorf("no warning names %s: %v", name, got.Warnings)
				}
			}
			want := scan.Complete
			if !tt.noLiq {
				want = scan.Partial
			}
			if got.Liquidity.Status != want {
				t.Errorf("liquidity status = %s, want %s", got.Liquidity.Status, want)
			}
			if slices.Contains(got.Unchecked, risk.CheckPools) == tt.noLiq {
				t.Errorf("unchecked = %v; pools unchecked must be said exactly when a search failed", got.Unchecked)
			}
			if len(l.DEXesSearched)+len(l.DEXesUnsearched) != 10 {
				t.Errorf("searched %v + unsearched %v, want the ten DEXes", l.DEXesSearched, l.DEXesUnsearched)
			}
		})
	}
}

// TestAssessUnreadableCurve: the mayhem mint has no pool and a completed
// pump.fun curve (NO_LIQUIDITY: it migrated somewhere not configured).
// When the curve account cannot be decoded (SYNTHETIC corruption of the
// real curve) the launchpad side is unknown, not absent.
func TestAssessUnreadableCurve(t *testing.T) {
	const curve = "4sp4hbyfAurnXPvBtkRcSNHnBxDXkfXJjqxeFPszjnMQ"
	for _, corrupt := range []bool{false, true} {
		srv := newServer(t)
		if corrupt {
			data, owner := fixture(t, curve)
			data[48] = 7 // the complete flag is a bool
			srv.SetAccount(curve, solanatest.Account{Lamports: 1_500_000, Owner: owner, Data: data})
		}
		got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, mayhemMint))
		if err != nil {
			t.Fatal(err)
		}
		l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
		if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) == corrupt || containsDEX(l.DEXesUnsearched, "pumpfun") != corrupt || slices.Contains(got.Unchecked, risk.CheckPools) != corrupt {
			t.Errorf("corrupt curve %v: flags %+v, unsearched %v", corrupt, got.Liquidity.Flags, l.DEXesUnsearched)
		}
	}
}

const (
	dammV2Pool    = "3u2BK3ykdjv1hAeGQwAkZMxjb4otV5yvW7g72uviCaZZ" // Meteora DAMM v2 AVA/USDC, mainnet
	dammV2Program = "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG"
)

func TestDecodeMeteoraDAMMv2(t *testing.T) {
	data, owner := fixture(t, dammV2Pool)
	if owner != dammV2Program {
		t.Fatalf("owner %s", owner)
	}
	p, err := solana.DecodeMeteoraDAMMv2(data)
	if err != nil {
		t.Fatal(err)
	}
	if p.MintA.String() != "AVA6P5fq7btshKU8zZLueyJJqybLGT7x72jaPYBqjups" || p.MintB.String() != usdcMint ||
		p.VaultA.String() != "HZH4SAPt7BgiX5vFE5MBz2kMVvrL7CLC91GWmdT24rQk" || p.VaultB.String() != "EmxS55zvGV9ySNjBujxkQXQ8GHcPPuW6PPUMnALWPa8K" {
		t.Errorf("damm v2 = %+v", p)
	}
	if p.SqrtPriceX64.String() != "122236770151747246" || p.Liquidity.String() != "42878469542342432177958898623909" || p.OwedA != 0 || p.OwedB != 1855116578 {
		t.Errorf("damm v2 sqrt price %s liquidity %s owed %d/%d", p.SqrtPriceX64, p.Liquidity, p.OwedA, p.OwedB)
	}
	if p.PermanentLockPct == nil || *p.PermanentLockPct != 0 || p.LPMint != nil {
		t.Errorf("damm v2 permanent lock %v", p.PermanentLockPct)
	}
	sol, _ := fixture(t, "CGPxT5d1uf9a8cKVJuZaJAU76t2EfLGbTmRbfvLLZp5j")
	if q, err := solana.DecodeMeteoraDAMMv2(sol); err != nil || q.PermanentLockPct == nil || math.Abs(*q.PermanentLockPct-0.020206667781) > 1e-9 {
		t.Errorf("SOL/USDC damm v2 permanent lock %v (%v)", q.PermanentLockPct, err)
	}
	// More locked than the pool holds is not a pool.
	copy(data[552:568], data[360:376])
	data[567]++
	if _, err := solana.DecodeMeteoraDAMMv2(data); err == nil {
		t.Error("decoded a pool whose locked liquidity exceeds its liquidity")
	}
	data[0] ^= 1
	if _, err := solana.DecodeMeteoraDAMMv2(data); err == nil {
		t.Error("decoded with a wrong discriminator")
	}
}

// TestAssessMeteoraDAMMv2Pool: a token on a DAMM v2 pool is valued from
// the pool's sqrt price net of protocol fees, and the pool's own record
// of permanently locked liquidity decides whether it is locked. The pool
// is the real mainnet account with its AVA side rewritten to the mayhem
// mint (SYNTHETIC edit); both vaults are SYNTHETIC (not in the upstream
// set).
func TestAssessMeteoraDAMMv2Pool(t *testing.T) {
	for _, lockAll := range []bool{false, true} {
		srv := newServer(t)
		data, _ := fixture(t, dammV2Pool)
		tokenVault, usdcVault := syntheticKey("damm-token-vault"), syntheticKey("damm-usdc-vault")
		putKey(data, 168, mayhemMint)
		putKey(data, 232, tokenVault)
		putKey(data, 264, usdcVault)
		if lockAll {
			copy(data[552:568], data[360:376])
		}
		srv.SetAccount(dammV2Pool, solanatest.Account{Lamports: 8_630_400, Owner: dammV2Program, Data: data})
		poolAuthority := syntheticKey("damm-authority")
		if err := srv.AddTokenAccount(tokenVault, mayhemMint, poolAuthority, 50_000_000_000_000, solanatest.Token2022Program); err != nil {
			t.Fatal(err)
		}
		if err := srv.AddTokenAccount(usdcVault, usdcMint, poolAuthority, 3_000_000_000+1855116578, solanatest.TokenProgram); err != nil {
			t.Fatal(err)
		}
		got, _, p := assessOnePool(t, srv, mayhemMint, "meteora_damm_v2")
		if *p.QuoteReserve != 3_000_000_000 || *p.TokenReserve != 50_000_000_000_000 {
			t.Errorf("reserves %d / %d, want the USDC vault less the protocol fee", *p.TokenReserve, *p.QuoteReserve)
		}
		want := math.Pow(122236770151747246/math.Pow(2, 64), 2)
		if p.PriceInQuote == nil || math.Abs(*p.PriceInQuote/want-1) > 1e-9 {
			t.Errorf("price = %v, want %v", p.PriceInQuote, want)
		}
		lockedPct := 0.0
		if lockAll {
			lockedPct = 100
		}
		if p.LPLockedPct == nil || *p.LPLockedPct != lockedPct || got.Checklist.LiquidityLocked != lockAll {
			t.Errorf("locked all %v: lp_locked_pct %v, liquidity_locked %v", lockAll, p.LPLockedPct, got.Checklist.LiquidityLocked)
		}
		if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) {
			t.Errorf("flags = %+v", got.Liquidity.Flags)
		}
	}
}

// dbcPool is a real mainnet Meteora DBC VirtualPool (raw data; its address
// is not in the upstream file, so tests serve it at a synthetic one).
func dbcPool(tb testing.TB) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "meteora_dbc_pool.bin"))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func TestDecodeMeteoraDBCPool(t *testing.T) {
	data := dbcPool(t)
	p, err := solana.DecodeMeteoraDBCPool(data)
	if err != nil {
		t.Fatal(err)
	}
	if p.MintA.String() != "2nxV4TpLb4zBdHfGoL32R8SdnRpoPyCVpu6CTrgzDh42" || !p.MintB.IsZero() ||
		p.VaultA.String() != "8c8T79UnieXPEdjn74JRXEq8vDjUEn3gzvzWPVcn9sAQ" || p.VaultB.String() != "53ZjcZkJmCZb7CnBJJENbzLc96aRo956SYjdCiaFxAYy" {
		t.Errorf("dbc = %+v", p)
	}
	// Quote fees owed: protocol 1555532073 + partner 204761889 + creator 381745273.
	if p.OwedA != 0 || p.OwedB != 1555532073+204761889+381745273 || !p.Curve || keyPtr(p.Creator) != "GD32KhxLkqoG7YtPN9CweUgq5Ws2RhdhHS8MYJbh78Dy" {
		t.Errorf("dbc owed %d/%d curve %v creator %s", p.OwedA, p.OwedB, p.Curve, keyPtr(p.Creator))
	}
	if p.SqrtPriceX64.String() != "117336341276038830" {
		t.Errorf("dbc sqrt price %s", p.SqrtPriceX64)
	}
	data[305] = 1 // migrated: the curve is over
	if m, err := solana.DecodeMeteoraDBCPool(data); err != nil || m.Curve {
		t.Errorf("migrated dbc: curve %v (%v)", m.Curve, err)
	}
	data[305] = 2
	if _, err := solana.DecodeMeteoraDBCPool(data); err == nil {
		t.Error("decoded an is_migrated byte of 2")
	}
}

// TestAssessMeteoraDBCCurve: a token still on a Meteora dynamic bonding
// curve is found on the DBC program, its quote named by the quote vault,
// valued from the curve's sqrt price net of the fees owed, and its
// liquidity counted locked (a curve's reserves cannot be withdrawn). The
// VirtualPool is real with its base mint rewritten to the mayhem mint;
// the vaults are SYNTHETIC.
func TestAssessMeteoraDBCCurve(t *testing.T) {
	srv := newServer(t)
	data := dbcPool(t)
	pool, baseVault, quoteVault := syntheticKey("dbc-pool"), syntheticKey("dbc-base"), syntheticKey("dbc-quote")
	putKey(data, 136, mayhemMint)
	putKey(data, 168, baseVault)
	putKey(data, 200, quoteVault)
	srv.SetAccount(pool, solanatest.Account{Lamports: 3_841_920, Owner: "dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN", Data: data})
	const owedQuote = 1555532073 + 204761889 + 381745273
	if err := srv.AddTokenAccount(baseVault, mayhemMint, pool, 781359557863101, solanatest.Token2022Program); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddTokenAccount(quoteVault, wsolMint, pool, 7018473489+owedQuote, solanatest.TokenProgram); err != nil {
		t.Fatal(err)
	}
	got, _, p := assessOnePool(t, srv, mayhemMint, "meteora_dbc")
	if p.QuoteMint != wsolMint || p.QuoteSymbol != "wSOL" || *p.QuoteReserve != 7018473489 || *p.TokenReserve != 781359557863101 {
		t.Errorf("pool = %+v", p)
	}
	// Base 6 decimals, quote 9: (s/2^64)^2 * 10^-3 SOL per token.
	want := math.Pow(117336341276038830/math.Pow(2, 64), 2) / 1e3
	if p.PriceInQuote == nil || math.Abs(*p.PriceInQuote/want-1) > 1e-9 {
		t.Errorf("price = %v, want %v", p.PriceInQuote, want)
	}
	if p.LPLockedPct == nil || *p.LPLockedPct != 100 || !got.Checklist.LiquidityLocked || hasFlag(got.Liquidity.Flags, risk.NoLiquidity) {
		t.Errorf("locked %v, checklist %+v, flags %+v", p.LPLockedPct, got.Checklist, got.Liquidity.Flags)
	}
}
