package solana_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// The tests in this file add SYNTHETIC accounts (built here, not mainnet
// dumps) next to the real fixtures, for layouts the fixture set lacks: a
// Raydium AMM v4 pool and a pump.fun curve still trading.

func putKey(b []byte, off int, k string) {
	raw, err := base58.Decode(k)
	if err != nil || len(raw) != 32 {
		panic("bad key " + k)
	}
	copy(b[off:], raw)
}

// syntheticMint is an 82-byte SPL mint with no authorities.
func syntheticMint(supply uint64, decimals uint8) []byte {
	b := make([]byte, 82)
	binary.LittleEndian.PutUint64(b[36:], supply)
	b[44] = decimals
	b[45] = 1
	return b
}

func TestAssessRaydiumAMMv4Pool(t *testing.T) {
	srv := newServer(t)
	pool := syntheticKey("amm-v4-pool")
	coinVault, pcVault, lpMint := syntheticKey("coin-vault"), syntheticKey("pc-vault"), syntheticKey("lp-mint")
	ammAuthority := "5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1" // Raydium AMM v4 authority

	// USDC is the coin (base) side and the mayhem mint the pc (quote)
	// side, so the pool is found by the second memcmp position (432).
	data := make([]byte, 752)
	binary.LittleEndian.PutUint64(data[0:], 6)           // status
	binary.LittleEndian.PutUint64(data[32:], 6)          // coin decimals (USDC)
	binary.LittleEndian.PutUint64(data[40:], 6)          // pc decimals
	binary.LittleEndian.PutUint64(data[192:], 1_000_000) // need_take_pnl_coin: 1 USDC
	binary.LittleEndian.PutUint64(data[224:], 1_700_000_000)
	putKey(data, 336, coinVault)
	putKey(data, 368, pcVault)
	putKey(data, 400, usdcMint)
	putKey(data, 432, mayhemMint)
	putKey(data, 464, lpMint)
	// lp_amount: 10^6 (10^lp decimals) of it was never minted.
	binary.LittleEndian.PutUint64(data[720:], 1_001_000_000)
	srv.SetAccount(pool, solanatest.Account{Lamports: 6124800, Owner: "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8", Data: data})
	// 20 001 USDC (1 owed as PnL) against 1 000 000 tokens: 0.02 USDC each.
	if err := srv.AddTokenAccount(coinVault, usdcMint, ammAuthority, 20_001_000_000, solanatest.TokenProgram); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddTokenAccount(pcVault, mayhemMint, ammAuthority, 1_000_000_000_000, solanatest.Token2022Program); err != nil {
		t.Fatal(err)
	}
	// 950 000 000 of 1 000 000 000 LP burned.
	srv.SetAccount(lpMint, solanatest.Account{Lamports: 1461600, Owner: solanatest.TokenProgram, Data: syntheticMint(50_000_000, 6)})

	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, mayhemMint))
	if err != nil {
		t.Fatal(err)
	}
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	if len(l.Pools) != 1 {
		t.Fatalf("pools = %+v", l.Pools)
	}
	p := l.Pools[0]
	if p.DEX != "raydium_amm_v4" || p.QuoteSymbol != "USDC" || p.TokenVault != pcVault || p.QuoteVault != coinVault || p.LPMint != lpMint {
		t.Errorf("pool = %+v", p)
	}
	if *p.TokenReserve != 1_000_000_000_000 || *p.QuoteReserve != 20_000_000_000 {
		t.Errorf("reserves = %d / %d, want the vaults less pending PnL", *p.TokenReserve, *p.QuoteReserve)
	}
	if p.PriceInQuote == nil || *p.PriceInQuote != 0.02 || p.LiquidityUSD == nil || *p.LiquidityUSD != 40_000 {
		t.Errorf("price %v liquidity %v, want 0.02 and 40000", p.PriceInQuote, p.LiquidityUSD)
	}
	if p.LPBurnedPct == nil || *p.LPBurnedPct != 95 {
		t.Errorf("LP burned = %v, want 95", p.LPBurnedPct)
	}
	if hasFlag(got.Liquidity.Flags, risk.LPNotLocked) || !got.Checklist.LiquidityLocked {
		t.Errorf("95%% burned LP: flags %+v, liquidity_locked %v", got.Liquidity.Flags, got.Checklist.LiquidityLocked)
	}
	// The vault is labelled a pool holder.
	h := got.Holder.Evidence.(analysis.SolanaHolderEvidence)
	if len(h.TopHolders) != 1 || h.TopHolders[0].Label != analysis.SolanaLabelPool || h.TopHolders[0].Address != ammAuthority {
		t.Errorf("holders = %+v", h.TopHolders)
	}
}

func TestAssessActiveBondingCurve(t *testing.T) {
	srv := newServer(t)
	curve := "4sp4hbyfAurnXPvBtkRcSNHnBxDXkfXJjqxeFPszjnMQ" // the mayhem mint's curve
	data, _ := fixture(t, curve)
	// Rewind the real (completed) curve to a curve still trading.
	binary.LittleEndian.PutUint64(data[8:], 800_000_000_000_000) // virtual token reserves
	binary.LittleEndian.PutUint64(data[16:], 40_000_000_000)     // virtual SOL reserves: 40 SOL
	binary.LittleEndian.PutUint64(data[24:], 520_000_000_000_000)
	binary.LittleEndian.PutUint64(data[32:], 10_000_000_000) // real SOL: 10
	data[48] = 0
	srv.SetAccount(curve, solanatest.Account{Lamports: 10_001_941_840, Owner: "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", Data: data})
	if err := srv.AddTokenAccount(syntheticKey("curve-vault"), mayhemMint, curve, 600_000_000_000_000, solanatest.Token2022Program); err != nil {
		t.Fatal(err)
	}

	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, mayhemMint))
	if err != nil {
		t.Fatal(err)
	}
	if !hasFlag(got.Liquidity.Flags, risk.BondingCurve) || hasFlag(got.Liquidity.Flags, risk.NoLiquidity) {
		t.Errorf("liquidity flags = %+v", got.Liquidity.Flags)
	}
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	bc := l.BondingCurve
	if bc == nil || bc.Complete || bc.RealSOLReserves != 10_000_000_000 {
		t.Fatalf("curve = %+v", bc)
	}
	// 40 SOL / 800 000 000 tokens.
	if bc.PriceInSOL == nil || *bc.PriceInSOL != 5e-8 {
		t.Errorf("price = %v SOL", bc.PriceInSOL)
	}
	if bc.LiquidityUSD == nil || *bc.LiquidityUSD < 403 || *bc.LiquidityUSD > 404 {
		t.Errorf("curve liquidity = %v USD, want 10 SOL at ~40.36", bc.LiquidityUSD)
	}
	if !got.Checklist.LiquidityLocked || !got.Checklist.NotHoneypot {
		t.Errorf("checklist = %+v: curve liquidity cannot be pulled and can be sold into", got.Checklist)
	}
	h := got.Holder.Evidence.(analysis.SolanaHolderEvidence)
	if len(h.TopHolders) != 1 || h.TopHolders[0].Label != analysis.SolanaLabelPool || h.TopHolders[0].Address != curve {
		t.Errorf("holders = %+v", h.TopHolders)
	}
	d := got.Deployer.Evidence.(analysis.SolanaDeployerEvidence)
	if strPtr(d.Creator) != "D71wPQpF1Vw2wXSCHevtQMLmwq3ES7TW7pR2LUdchyPt" {
		t.Errorf("creator = %s", strPtr(d.Creator))
	}
}

func TestAssessPumpSwapPool(t *testing.T) {
	srv := newServer(t)
	pool := syntheticKey("pumpswap-pool")
	baseVault, quoteVault, lpMint := syntheticKey("ps-base"), syntheticKey("ps-quote"), syntheticKey("ps-lp")
	// A 300-byte Pool (the size after the coin-creator upgrade): found by
	// discriminator and base mint, not by size.
	data := make([]byte, 300)
	copy(data, anchorDisc("Pool"))
	putKey(data, 43, mayhemMint)
	putKey(data, 75, wsolMint)
	putKey(data, 107, lpMint)
	putKey(data, 139, baseVault)
	putKey(data, 171, quoteVault)
	binary.LittleEndian.PutUint64(data[203:], 4_000_000_000_000) // lp_supply
	srv.SetAccount(pool, solanatest.Account{Lamports: 3_000_000, Owner: "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", Data: data})
	if err := srv.AddTokenAccount(baseVault, mayhemMint, pool, 200_000_000_000_000, solanatest.Token2022Program); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddTokenAccount(quoteVault, wsolMint, pool, 85_000_000_000, solanatest.TokenProgram); err != nil {
		t.Fatal(err)
	}
	// Every LP token burned at migration.
	srv.SetAccount(lpMint, solanatest.Account{Lamports: 1461600, Owner: solanatest.Token2022Program, Data: syntheticMint(0, 9)})

	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, mayhemMint))
	if err != nil {
		t.Fatal(err)
	}
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	if len(l.Pools) != 1 || l.Pools[0].DEX != "pumpswap" {
		t.Fatalf("pools = %+v", l.Pools)
	}
	p := l.Pools[0]
	if *p.TokenReserve != 200_000_000_000_000 || *p.QuoteReserve != 85_000_000_000 || p.LPBurnedPct == nil || *p.LPBurnedPct != 100 {
		t.Errorf("pool = reserves %d/%d, LP burned %v", *p.TokenReserve, *p.QuoteReserve, p.LPBurnedPct)
	}
	// 85 SOL a side at ~40.36 USD.
	if p.LiquidityUSD == nil || *p.LiquidityUSD < 6850 || *p.LiquidityUSD > 6870 {
		t.Errorf("liquidity = %v USD", p.LiquidityUSD)
	}
	if !hasFlag(got.Liquidity.Flags, risk.LowLiquidity) || hasFlag(got.Liquidity.Flags, risk.NoLiquidity) || !got.Checklist.LiquidityLocked {
		t.Errorf("flags %+v, checklist %+v", got.Liquidity.Flags, got.Checklist)
	}
}

// anchorDisc is sha256("account:<name>")[:8], written out here so the test
// does not share the code under test.
func anchorDisc(name string) []byte {
	h := sha256.Sum256([]byte("account:" + name))
	return h[:8]
}

func TestAssessManyPoolsKeepsQuotePools(t *testing.T) {
	srv := newServer(t)
	var spam []string
	whirl := func(name, quote string) {
		spam = append(spam, syntheticKey(name))
		data := make([]byte, 653)
		copy(data, anchorDisc("Whirlpool"))
		binary.LittleEndian.PutUint64(data[65:], 1<<62) // sqrt price
		putKey(data, 101, mayhemMint)
		putKey(data, 133, syntheticKey(name+"-va"))
		putKey(data, 181, quote)
		putKey(data, 213, syntheticKey(name+"-vb"))
		srv.SetAccount(syntheticKey(name), solanatest.Account{Lamports: 1, Owner: "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc", Data: data})
	}
	for i := range 45 {
		whirl("spam-"+string(rune('a'+i%26))+string(rune('a'+i/26)), syntheticKey("spam-quote"+string(rune('a'+i))))
	}
	// The server lists accounts in key order: give the USDC pool a key
	// after every spam pool, so that keeping it proves the ranking.
	usdcPool := ""
	for i := 0; usdcPool == ""; i++ {
		k := syntheticKey(fmt.Sprintf("usdc-pool-%d", i))
		if k > slices.Max(spam) {
			usdcPool = fmt.Sprintf("usdc-pool-%d", i)
		}
	}
	whirl(usdcPool, usdcMint)
	a := newAdapter(t, solana.Options{}, srv.URL())
	got, err := a.Assess(context.Background(), request(t, mayhemMint))
	if err != nil {
		t.Fatal(err)
	}
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	found := false
	for _, p := range l.Pools {
		if p.Address == syntheticKey(usdcPool) {
			found = true
			if p.PriceInQuote == nil {
				t.Error("the USDC Whirlpool has no price from its sqrt price")
			}
		}
	}
	if len(l.Pools) != 40 || !found {
		t.Errorf("%d pools valued, USDC pool kept %v; want 40 with the USDC pool", len(l.Pools), found)
	}
	if got.Liquidity.Status != "partial" {
		t.Errorf("liquidity status = %s after truncation", got.Liquidity.Status)
	}
}
