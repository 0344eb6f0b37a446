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

// TestHolderSellsProveHoneypots: a token a fresh wallet sells but whose
// real holders cannot is a honeypot with the holders named; one refused
// holder of many is a warning (a single blacklisted wallet), never the
// flag; siphoned balances raise BALANCES_SIPHONED naming the holders
// (and a warning); the router and holder proofs
// raise one HONEYPOT_CANNOT_SELL between them.
func TestHolderSellsProveHoneypots(t *testing.T) {
	sells := func(tried, failed int, siphoned ...string) *EVMSimulation {
		s := &EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(true), BuyTax: evmF(0), SellTax: evmF(0), TransferTax: evmF(0)}
		s.HolderSells = &EVMHolderSells{Tried: tried, Failed: failed, Siphoned: siphoned}
		for i := range failed {
			s.HolderSells.FailedHolders = append(s.HolderSells.FailedHolders, "0xh"+string(rune('a'+i)))
		}
		return s
	}
	tests := []struct {
		name        string
		sim         *EVMSimulation
		honeypots   int
		warning     string
		notHoneypot bool
		siphoned    bool
	}{
		{name: "every holder refused", sim: sells(8, 8), honeypots: 1, notHoneypot: false},
		{name: "half refused", sim: sells(6, 3), honeypots: 1},
		{name: "one of ten refused", sim: sells(10, 1), warning: "1 of 10 real holders' sells were refused (0xha)", notHoneypot: true},
		{name: "one holder tried and refused", sim: sells(1, 1), warning: "1 of 1", notHoneypot: true},
		{name: "all sold", sim: sells(9, 0), notHoneypot: true},
		{name: "siphoned", sim: sells(9, 0, "0xdead1"), warning: "hold less than their Transfer logs give", notHoneypot: true, siphoned: true},
		{name: "router and holders: one flag", sim: func() *EVMSimulation {
			s := sells(5, 5)
			s.RouterSell = &EVMRouterSell{CanSell: evmBoolPtr(false)}
			return s
		}(), honeypots: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flags, warnings := AnalyseEVMSimulation(tt.sim, true)
			n := 0
			for _, f := range flags {
				if f.Code == risk.HoneypotCannotSell {
					n++
					if tt.name == "every holder refused" && !strings.Contains(f.Detail, "0xha, 0xhb") {
						t.Errorf("detail %q does not name the holders", f.Detail)
					}
				}
			}
			if n != tt.honeypots {
				t.Errorf("%d HONEYPOT_CANNOT_SELL flags, want %d: %v", n, tt.honeypots, flags)
			}
			if tt.warning != "" && !strings.Contains(strings.Join(warnings, "|"), tt.warning) {
				t.Errorf("warnings %q, want one with %q", warnings, tt.warning)
			}
			siphon := false
			for _, f := range flags {
				if f.Code == risk.BalancesSiphoned {
					siphon = true
					if !strings.Contains(f.Detail, "0xdead1") {
						t.Errorf("BALANCES_SIPHONED detail %q does not name the holder", f.Detail)
					}
				}
			}
			if siphon != tt.siphoned {
				t.Errorf("BALANCES_SIPHONED raised %v, want %v: %v", siphon, tt.siphoned, flags)
			}
			if got := EVMNotHoneypot(tt.sim); got != tt.notHoneypot {
				t.Errorf("EVMNotHoneypot = %v, want %v", got, tt.notHoneypot)
			}
		})
	}
}
