package compat_test

import (
	"context"
	"math"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/evm"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// TestAdapterFindsRealUniswapPools runs the whole EVM adapter against the
// real Uniswap V2 factory and V3 factory (npm bytecode) on anvil: the lens
// must find each token's pool on the right DEX, value it from the chain's
// own WETH/USD pool, and the simulation must pass a plain ERC-20.
func TestAdapterFindsRealUniswapPools(t *testing.T) {
	modules, bin := env(t)
	a := startAnvil(t, bin)
	u := deployUniswap(t, a, modules)

	usd := a.deploy(t, u.erc20, ether(10_000_000))
	u.addV2LiquidityETH(t, a, usd, ether(30_000), ether(10)) // 1 ETH = 3000 USD
	v2Token := a.deploy(t, u.erc20, ether(1_000_000))
	pair := u.addV2LiquidityETH(t, a, v2Token, ether(100_000), ether(10))
	v3Token := a.deploy(t, u.erc20, ether(1_000_000))
	pool := u.addV3LiquidityETH(t, a, v3Token, 3000, ether(100_000), ether(10))

	ch := chains.Chain{
		Key: "anvil", Kind: chains.EVM, ChainID: 31337, Native: "ETH", RPC: []string{a.URL},
		DEXes: []chains.DEX{
			{Name: "uniswap_v2", Kind: "v2", Factory: u.V2Factory.Hex(), FeeBps: 30},
			{Name: "uniswap_v3", Kind: "v3", Factory: u.V3Factory.Hex(), FeeTiers: []int{500, 3000, 10000}},
		},
		QuoteTokens: []chains.QuoteToken{
			{Symbol: "WETH", Address: u.WETH.Hex(), Decimals: 18, Wrapped: true},
			{Symbol: "USD", Address: usd.Hex(), Decimals: 18, USDStable: true},
		},
		BurnAddresses: []string{"0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dEaD"},
	}
	reg, err := chains.Parse([]byte(`{"chains":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(ch)
	ad := evm.NewAdapter(reg, evm.Options{})

	for _, tt := range []struct {
		name, dex, pool string
		token           string
	}{
		{"uniswap v2", "uniswap_v2", pair.Hex(), v2Token.Hex()},
		{"uniswap v3", "uniswap_v3", pool.Hex(), v3Token.Hex()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr, err := chains.ParseAddress(tt.token)
			if err != nil {
				t.Fatal(err)
			}
			as, err := ad.Assess(context.Background(), scan.Request{Address: addr, Chains: []string{"anvil"}})
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			r := scan.Build(risk.NewCatalogue(), addr, as)
			ev, ok := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
			if !ok || len(ev.Pools) != 1 {
				t.Fatalf("pools = %+v, want exactly the %s pool", ev.Pools, tt.dex)
			}
			p := ev.Pools[0]
			if p.DEX != tt.dex || p.Address != tt.pool || p.QuoteToken != "WETH" {
				t.Errorf("pool = %s %s %s, want %s %s WETH", p.DEX, p.Address, p.QuoteToken, tt.dex, tt.pool)
			}
			// 10 WETH at 3000 USD, both sides: about 60k USD.
			if p.LiquidityUSD == nil || math.Abs(*p.LiquidityUSD-60_000) > 1_000 {
				t.Errorf("liquidity_usd = %v, want ~60000", p.LiquidityUSD)
			}
			sim, _ := ev.Simulation.(*analysis.EVMSimulation)
			if sim == nil || !analysis.EVMNotHoneypot(sim) {
				t.Errorf("simulation = %+v, want a clean buy and sell", sim)
			}
			for _, code := range []string{risk.HoneypotCannotBuy, risk.HoneypotCannotSell, risk.SimulationFailed, risk.NoLiquidity} {
				if r.HasFlag(code) {
					t.Errorf("unexpected %s", code)
				}
			}
			t.Logf("%s: level %s, liquidity_usd %.0f, warnings %q", tt.name, r.RiskLevel, deref(p.LiquidityUSD), r.Warnings)
		})
	}
}
