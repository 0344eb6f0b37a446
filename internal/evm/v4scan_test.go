package evm

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
)

// A token that is a currency of many V4 pools (a stablecoin is one of
// thousands) costs a bounded scan: the state of 64 pools is read, those
// against the native coin or a quote token first, 4 are simulated (each
// by the contract and the wallet path), the
// 8 deepest are listed, and warnings say so.
func TestV4PoolsBounded(t *testing.T) {
	token := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	quote := common.HexToAddress("0x0000000000000000000000000000000000000bee")
	manager := common.HexToAddress("0x0000000000000000000000000000000000004444")
	ch := chains.Chain{Key: "x", Kind: chains.EVM, ChainID: 9, Native: "ETH",
		DEXes:       []chains.DEX{{Name: "u4", Kind: "v4", PoolManager: manager.Hex()}},
		QuoteTokens: []chains.QuoteToken{{Symbol: "WETH", Address: quote.Hex(), Decimals: 18, Wrapped: true}}}
	vs := newV4Search(ch, token)
	for i := range 70 {
		other := common.BigToAddress(big.NewInt(int64(0x100000 + i))) // unknown currencies
		if i >= 60 {
			other = quote // the last ten pair with the quote token
		}
		k := v4.Key{Currency0: token, Currency1: other, Fee: uint32(100 + i), TickSpacing: 1}
		vs.pools = append(vs.pools, v4.Pool{Manager: manager, Key: k, ID: k.ID()})
		vs.dexOf = append(vs.dexOf, ch.DEXes[0])
	}
	r := &scanRun{token: token, s: &sighting{chain: ch, plan: pool.NewLensPlan(ch, token, nil), v4: vs}}
	var plan batchPlan
	vr := r.v4Calls(&plan)
	// Each simulated pool has its contract path (eth_call) and its wallet
	// path (eth_simulateV1).
	if len(vr.states) != 1 || len(vr.sims) != 4 || len(plan.elems) != 9 {
		t.Fatalf("%d state reads, %d simulations, %d calls; want 1, 4, 9", len(vr.states), len(vr.sims), len(plan.elems))
	}
	for _, sc := range vr.sims {
		if vs.pools[sc.pool].Key.Other(token) != quote {
			t.Errorf("simulated a pool against %s before the quote pools", vs.pools[sc.pool].Key.Other(token).Hex())
		}
	}
	f := r.v4Apply(vr, false)
	if len(f.Pools) != 8 || len(r.s.pools) != 8 {
		t.Errorf("%d V4 facts, %d pools listed; want 8", len(f.Pools), len(r.s.pools))
	}
	for _, p := range r.s.pools {
		if p.Report.Kind != "v4" || p.Report.V4Key == nil || p.Report.PoolManager != manager.Hex() {
			t.Errorf("listed %+v", p.Report)
		}
	}
	if len(f.Reports) != 4 {
		t.Errorf("%d simulation reports, want 4 (each a failure: the node did not answer)", len(f.Reports))
	}
	for _, rep := range f.Reports {
		if rep.Error == nil || rep.CanBuy != nil {
			t.Errorf("an unanswered simulation reads %+v, want an error and can_buy unknown", rep)
		}
	}
	w := strings.Join(r.warnings, "\n")
	for _, want := range []string{"70 Uniswap V4 pools found; the first 64", "4 simulated", "8 deepest are listed"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
}
