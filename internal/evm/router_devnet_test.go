package evm

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// TestRouterSellThroughDEXRouter: where the chain names its DEX's router
// (the devnet's V2 router, Router02's interface), the fresh wallet's
// router sell goes through it: a clean token and a taxed one sell there
// (paying their tax), a token that traps transferFrom into the pair is
// refused there while its direct sell works (a honeypot). Without a
// router in the chain's file the simulator acting as the router still
// proves the same trap.
func TestRouterSellThroughDEXRouter(t *testing.T) {
	dn := startAdapterNet(t)
	router := common.HexToAddress(dn.Manifest().Router).Hex()
	withRouter := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	bare := dn.Chain()
	for i := range bare.DEXes {
		bare.DEXes[i].Router = ""
	}
	without := NewAdapter(devnetRegistry(t, bare), Options{})
	cases := []struct {
		kind    string
		canSell bool
		tax     float64
	}{{"clean", true, 0}, {"tax_sell_high", true, 30}, {"honeypot_transferfrom", false, 0}}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			tok, _ := dn.Manifest().Token(c.kind)
			for _, ad := range []*Adapter{withRouter, without} {
				r, err := assess(t, ad, tok.Address)
				if err != nil {
					t.Fatal(err)
				}
				s := simOf(t, r)
				rs := s.RouterSell
				want := router
				if ad == without {
					want = simulation.SimulatorAddress.Hex()
				}
				if rs == nil || rs.Router != want || rs.CanSell == nil || *rs.CanSell != c.canSell {
					t.Fatalf("router sell %+v (notes %v), want through %s, can_sell %v", rs, s.Notes, want, c.canSell)
				}
				if c.canSell {
					near(t, "router sell_tax", rs.SellTax, c.tax, 1.5)
					continue
				}
				if rs.Error == nil || !strings.Contains(*rs.Error, "sell failed") {
					t.Errorf("refused router sell without its reason: %+v", rs)
				}
				found := false
				for _, f := range r.RiskFlags {
					found = found || f.Code == risk.HoneypotCannotSell && strings.Contains(f.Detail, "router")
				}
				if !found || s.CanSell == nil || !*s.CanSell {
					t.Errorf("direct can_sell %v, flags %v: want a direct sell that works and the router's refusal as HONEYPOT_CANNOT_SELL", fmtPtr(s.CanSell), r.RiskFlags)
				}
			}
		})
	}
}
