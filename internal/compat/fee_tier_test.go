package compat_test

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/evm"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// TestAdapterOnV3FeeTier2500 enables PancakeSwap V3's 0.25% fee tier
// (2500, tick spacing 50) on the real Uniswap V3 factory, whose pool code
// PancakeSwap V3 forks, and scans a token whose only pool sits in that
// tier with the DEX configured as chains.json configures pancakeswap_v3:
// the pool is found with its fee, valued, and the simulation trades it.
func TestAdapterOnV3FeeTier2500(t *testing.T) {
	modules, bin := env(t)
	a := startAnvil(t, bin)
	u := deployUniswap(t, a, modules)
	a.transact(t, u.V3Factory, u.v3factory.ABI, nil, "enableFeeAmount", big.NewInt(2500), big.NewInt(50))

	usd := a.deploy(t, u.erc20, ether(10_000_000))
	u.addV2LiquidityETH(t, a, usd, ether(30_000), ether(10)) // 1 ETH = 3000 USD
	token := a.deploy(t, u.erc20, ether(1_000_000))
	pool := u.addV3LiquidityETH(t, a, token, 2500, ether(100_000), ether(10))

	ch := chains.Chain{
		Key: "anvil", Kind: chains.EVM, ChainID: 31337, Native: "ETH", RPC: []string{a.URL},
		DEXes: []chains.DEX{
			{Name: "uniswap_v2", Kind: "v2", Factory: u.V2Factory.Hex(), FeeBps: 30},
			{Name: "pancakeswap_v3", Kind: "v3", Factory: u.V3Factory.Hex(), FeeTiers: []int{100, 500, 2500, 10000}},
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
	addr, err := chains.ParseAddress(token.Hex())
	if err != nil {
		t.Fatal(err)
	}
	as, err := evm.NewAdapter(reg, evm.Options{}).Assess(context.Background(), scan.Request{Address: addr, Chains: []string{"anvil"}})
	if err != nil {
		t.Fatalf("Assess: %v", err)
	}
	r := scan.Build(risk.NewCatalogue(), addr, as)
	ev, ok := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
	if !ok || len(ev.Pools) != 1 {
		t.Fatalf("pools = %+v, want exactly the 2500 tier pool", ev.Pools)
	}
	p := ev.Pools[0]
	if p.DEX != "pancakeswap_v3" || p.Address != pool.Hex() || p.Fee == nil || *p.Fee != 2500 {
		t.Errorf("pool = %s %s fee %v, want pancakeswap_v3 %s fee 2500", p.DEX, p.Address, deref(p.Fee), pool.Hex())
	}
	if p.LiquidityUSD == nil || math.Abs(*p.LiquidityUSD-60_000) > 1_000 {
		t.Errorf("liquidity_usd = %v, want ~60000", deref(p.LiquidityUSD))
	}
	sim, _ := ev.Simulation.(*analysis.EVMSimulation)
	if sim == nil || !analysis.EVMNotHoneypot(sim) {
		t.Fatalf("simulation = %+v, want a clean buy and sell", sim)
	}
	for name, tax := range map[string]*float64{"buy": sim.BuyTax, "sell": sim.SellTax} {
		if tax == nil || *tax > 1 {
			t.Errorf("%s tax = %v, want < 1", name, deref(tax))
		}
	}
	for _, code := range []string{risk.HoneypotCannotBuy, risk.HoneypotCannotSell, risk.SimulationFailed} {
		if r.HasFlag(code) {
			t.Errorf("unexpected %s", code)
		}
	}
	t.Logf("level %s, pool fee %v, liquidity_usd %.0f, simulation path %s, warnings %q", r.RiskLevel, deref(p.Fee), deref(p.LiquidityUSD), sim.Path, r.Warnings)
}
