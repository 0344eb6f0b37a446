package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"

	"math"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// marketChain is the chain config of a test market.
func marketChain(m market, url string) chains.Chain {
	return chains.Chain{
		Key: "sim", Kind: chains.EVM, ChainID: 1337, Native: "ETH", RPC: []string{url},
		DEXes: []chains.DEX{{Name: "devswap", Kind: "v2", Factory: m.factory.Hex(), FeeBps: 30}},
		QuoteTokens: []chains.QuoteToken{
			{Symbol: "WETH", Address: m.weth.Hex(), Decimals: 18, Wrapped: true},
			{Symbol: "USD", Address: m.usd.Hex(), Decimals: 6, USDStable: true},
		},
		BurnAddresses: []string{"0x0000000000000000000000000000000000000000", dead.Hex()},
		Lockers:       []chains.NamedAddress{{Name: "TestLock", Address: "0x00000000000000000000000000000000000010cc"}},
	}
}

func TestPoolsValuedFromOnChainPrices(t *testing.T) {
	tc := newTestChain(t)
	m := newMarket(t, tc)
	ch := marketChain(m, tc.url)
	c := node.NewClient("sim", ch.RPC, node.ClientOptions{})
	tests := []struct {
		name      string
		token     common.Address
		wantPools int
		wantUSD   float64 // of the deepest pool
		wantBurn  float64
	}{
		// 1000 WETH at 3000 USD (from the WETH/USD pool), both sides.
		{"token against WETH", m.token, 1, 6_000_000, 50},
		// Scanning the quote token itself finds its USD pool only.
		{"WETH itself", m.weth, 1, 600_000, 0},
		{"token without pools", common.HexToAddress("0x00000000000000000000000000000000000000f0"), 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := pool.NewLensPlan(ch, tt.token, nil)
			el, decode, err := plan.Req.Call()
			if err != nil {
				t.Fatal(err)
			}
			elems := []rpc.BatchElem{el}
			if err := c.Batch(t.Context(), elems); err != nil || elems[0].Error != nil {
				t.Fatalf("lens: %v %v", err, elems[0].Error)
			}
			res, err := decode()
			if err != nil {
				t.Fatal(err)
			}
			pools := plan.Pools(res)
			if len(pools) != tt.wantPools {
				t.Fatalf("pools = %d, want %d", len(pools), tt.wantPools)
			}
			if tt.wantPools == 0 {
				return
			}
			p := pools[0].Report
			if p.LiquidityUSD == nil || math.Abs(*p.LiquidityUSD-tt.wantUSD) > tt.wantUSD*0.001 {
				t.Errorf("liquidity_usd = %v, want %v", p.LiquidityUSD, tt.wantUSD)
			}
			if p.LPBurnedPct == nil || math.Abs(*p.LPBurnedPct-tt.wantBurn) > 0.5 {
				t.Errorf("lp_burned_pct = %v, want ~%v", p.LPBurnedPct, tt.wantBurn)
			}
			if p.LPLockedPct == nil || *p.LPLockedPct != 0 {
				t.Errorf("lp_locked_pct = %v, want 0", p.LPLockedPct)
			}
			if pools[0].TokenIsToken0 == nil || pools[0].TokenReserve == nil {
				t.Errorf("pool orientation unknown: %+v", pools[0])
			}
		})
	}
}
