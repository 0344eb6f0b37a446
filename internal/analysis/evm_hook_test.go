package analysis

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// A V4 hook's cut is paid by the trader like a tax: a hook taking 60% of
// sells through a token with no tax of its own reads SELL_TAX_HIGH and
// TAX_EXTREME naming the hook and the split, and not_honeypot false; a 3%
// hook on its own raises no tax flag; the token's own taxes stay apart.
func TestHookCutWeighsInTaxFlags(t *testing.T) {
	yes := true
	zero := 0.0
	sim := func(buyCut, sellCut float64) *EVMSimulation {
		return &EVMSimulation{CanBuy: &yes, CanSell: &yes, BuyTax: &zero, SellTax: &zero, TransferTax: &zero, Path: "v4",
			Hook: &EVMHookCut{Address: "0x00000000000000000000000000000000000000c4", BuyFee: &buyCut, SellFee: &sellCut}}
	}
	codes := func(fs []risk.Flag) map[string]risk.Flag {
		m := map[string]risk.Flag{}
		for _, f := range fs {
			m[f.Code] = f
		}
		return m
	}

	greedy := sim(1, 60)
	flags, _ := AnalyseEVMSimulation(greedy, true)
	got := codes(flags)
	sell, ok := got[risk.SellTaxHigh]
	if !ok || got[risk.TaxExtreme].Code == "" {
		t.Fatalf("flags %v, want SELL_TAX_HIGH and TAX_EXTREME", flags)
	}
	if sell.Value == nil || *sell.Value != 60 || !strings.Contains(sell.Detail, "0x00000000000000000000000000000000000000c4") || !strings.Contains(sell.Detail, "the hook took 60%") {
		t.Errorf("SELL_TAX_HIGH %+v, want value 60 naming the hook and its cut", sell)
	}
	if EVMNotHoneypot(greedy) {
		t.Error("not_honeypot true with a hook taking 60% of sells")
	}
	if *greedy.SellTax != 0 {
		t.Errorf("sell_tax %v: the token's own tax must stay apart from the hook's cut", *greedy.SellTax)
	}

	capped := sim(3, 3)
	flags, _ = AnalyseEVMSimulation(capped, true)
	for _, f := range flags {
		if f.Code == risk.SellTaxHigh || f.Code == risk.BuyTaxHigh || f.Code == risk.TaxExtreme {
			t.Errorf("a 3%% hook raised %s", f.Code)
		}
	}
	if !EVMNotHoneypot(capped) {
		t.Error("not_honeypot false for a 3% hook")
	}

	// Both take: 1 - (1 - 20%)(1 - 20%) = 36%.
	both := sim(0, 20)
	tax := 20.0
	both.SellTax = &tax
	flags, _ = AnalyseEVMSimulation(both, true)
	if f := codes(flags)[risk.SellTaxHigh]; f.Value == nil || *f.Value != 36 {
		t.Errorf("SELL_TAX_HIGH %+v, want 36 (token 20%% and hook 20%%)", f)
	}
}
