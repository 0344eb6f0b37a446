package analysis

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func TestAnalyseEVMSimulation(t *testing.T) {
	ok := func(buy, sell, xfer float64) *EVMSimulation {
		return &EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(true), BuyTax: evmF(buy), SellTax: evmF(sell), TransferTax: evmF(xfer)}
	}
	reason := "Trading is not active."
	tests := []struct {
		name        string
		sim         *EVMSimulation
		hasPool     bool
		want        []string
		absent      []string
		notHoneypot bool
	}{
		{name: "clean", sim: ok(0, 0, 0), hasPool: true, absent: []string{risk.HoneypotCannotSell, risk.SimulationFailed, risk.SellTaxHigh}, notHoneypot: true},
		{name: "no pool: no verdict at all", sim: nil, hasPool: false, absent: []string{risk.SimulationFailed, risk.HoneypotCannotBuy, risk.HoneypotCannotSell}},
		{name: "did not run", sim: nil, hasPool: true, want: []string{risk.SimulationFailed}},
		{name: "call failed", sim: &EVMSimulation{Error: &reason}, hasPool: true, want: []string{risk.SimulationFailed}, absent: []string{risk.HoneypotCannotBuy}},
		{name: "cannot buy", sim: &EVMSimulation{CanBuy: evmBoolPtr(false), Error: &reason}, hasPool: true, want: []string{risk.HoneypotCannotBuy}, absent: []string{risk.HoneypotCannotSell}},
		{name: "cannot sell", sim: &EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(false), BuyTax: evmF(0)}, hasPool: true, want: []string{risk.HoneypotCannotSell}},
		{name: "sell unknown", sim: &EVMSimulation{CanBuy: evmBoolPtr(true), BuyTax: evmF(0)}, hasPool: true, want: []string{risk.SimulationFailed}},
		{name: "sell tax 30 buy tax 5", sim: ok(5, 30, 0), hasPool: true, want: []string{risk.SellTaxHigh}, absent: []string{risk.BuyTaxHigh, risk.TaxExtreme}, notHoneypot: true},
		{name: "buy tax 12", sim: ok(12, 0, 0), hasPool: true, want: []string{risk.BuyTaxHigh}, notHoneypot: true},
		{name: "tax exactly 10 is not high", sim: ok(10, 10, 0), hasPool: true, absent: []string{risk.BuyTaxHigh, risk.SellTaxHigh}, notHoneypot: true},
		{name: "sell tax 99", sim: ok(0, 99, 0), hasPool: true, want: []string{risk.SellTaxHigh, risk.TaxExtreme}},
		{name: "transfer tax 5", sim: ok(0, 0, 5), hasPool: true, want: []string{risk.TransferTax}, notHoneypot: true},
		{name: "transfer tax 1 is not flagged", sim: ok(0, 0, 1), hasPool: true, absent: []string{risk.TransferTax}, notHoneypot: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flags, _ := AnalyseEVMSimulation(tt.sim, tt.hasPool)
			for _, c := range tt.want {
				if !evmHas(flags, c) {
					t.Errorf("flag %s missing; got %v", c, flags)
				}
			}
			for _, c := range tt.absent {
				if evmHas(flags, c) {
					t.Errorf("flag %s raised", c)
				}
			}
			if got := EVMNotHoneypot(tt.sim); got != tt.notHoneypot {
				t.Errorf("EVMNotHoneypot = %v, want %v", got, tt.notHoneypot)
			}
		})
	}
}

func TestAnalyseEVMSimulationTaxValue(t *testing.T) {
	flags, _ := AnalyseEVMSimulation(&EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(true), BuyTax: evmF(5), SellTax: evmF(24), TransferTax: evmF(0)}, true)
	for _, f := range flags {
		if f.Code == risk.SellTaxHigh {
			if f.Value == nil || *f.Value != 24 || f.Title != "Sell tax is 24%" {
				t.Errorf("flag = %+v, want value 24 and title %q", f, "Sell tax is 24%")
			}
			return
		}
	}
	t.Fatal("SELL_TAX_HIGH missing")
}

func TestAnalyseEVMSimulationNamesAMissingCooldownCheck(t *testing.T) {
	sim := &EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(false), BuyTax: evmF(0)}
	_, warnings := AnalyseEVMSimulation(sim, true)
	found := false
	for _, w := range warnings {
		found = found || strings.Contains(w, "cooldown check")
	}
	if !found {
		t.Errorf("warnings = %q, want the skipped cooldown check named", warnings)
	}
	sim.Cooldown = evmBoolPtr(false)
	if _, warnings = AnalyseEVMSimulation(sim, true); len(warnings) > 1 {
		t.Errorf("warnings = %q after the delayed sell ran", warnings)
	}
}

// TestAnalyseEVMSimulationReportsNotes: the paths' notes (a disagreement,
// a path that did not run) reach the warnings, also beside a failure.
func TestAnalyseEVMSimulationReportsNotes(t *testing.T) {
	note := "a contract buyer was refused (buy failed) but a wallet's buy worked"
	failed := "simulation call failed"
	tests := map[string]*EVMSimulation{
		"a wallet verdict": {CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(true), BuyTax: evmF(0), SellTax: evmF(0), TransferTax: evmF(0),
			Path: "wallet", Notes: []string{note}},
		"neither path ran": {Error: &failed, Path: "contract", Notes: []string{note}},
	}
	for name, sim := range tests {
		t.Run(name, func(t *testing.T) {
			_, warnings := AnalyseEVMSimulation(sim, true)
			found := false
			for _, w := range warnings {
				found = found || w == "simulation: "+note
			}
			if !found {
				t.Errorf("warnings = %q, want the note", warnings)
			}
		})
	}
}
