package evm

import (
	"testing"

	"github.com/holiman/uint256"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
)

// TestChangers: who can change a stored callee is established only when
// every guarded setter of its slot was run by a privileged caller with
// the probes' test wallet (a contract that answers any call) as its
// address: a setter only ever given numbers (its argument read as one)
// could not point the transfers anywhere the probes watch, so the
// callee is unknown (null), never "no privileged caller could change it".
func TestChangers(t *testing.T) {
	setter := bytecode.SelectorOf("changeController(address)")
	slot := uint256.NewInt(0)
	code := bytecode.CodeReport{Methods: method.Report{Methods: []method.Method{{
		Selector: setter, Args: []method.Arg{{Kind: method.Uint}}, Complete: true, Reaches: true, Guarded: true,
		Writes: []uint256.Int{*slot}, SetSlots: []uint256.Int{*slot},
	}}}}
	guard := "0x00000000000000000000000000000000000000A1"
	proof := analysis.EVMCapability{Name: bytecode.CapExternalTarget, Proven: new(true), Caller: guard, Role: probe.RoleGuard,
		Selector: setter.String(), Evidence: "0x3cebb823 (address) victim, supply/10: transfers then called the address it was given (as guard)"}
	tests := []struct {
		name   string
		probes *analysis.EVMProbeFacts
		want   string // "null", "none" or the changer's function
	}{
		{"probes did not run", nil, "null"},
		{"the setter was given numbers only", &analysis.EVMProbeFacts{Complete: true, Exercised: map[string]bool{setter.String(): true}}, "null"},
		{"the setter was given the test wallet and transfers did not call it",
			&analysis.EVMProbeFacts{Complete: true, CalledWithWallet: map[string]bool{setter.String(): true}}, "none"},
		{"the setter pointed the transfers at the test wallet",
			&analysis.EVMProbeFacts{Complete: true, CalledWithWallet: map[string]bool{setter.String(): true}, Capabilities: []analysis.EVMCapability{proof}},
			"0x3cebb823 (address)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := changers(slot, 1, code, tt.probes)
			desc := "none"
			switch {
			case got == nil:
				desc = "null"
			case len(got) > 0:
				desc = got[0].Function
			}
			if desc != tt.want {
				t.Errorf("changers = %s (%+v), want %s", desc, got, tt.want)
			}
		})
	}
}
