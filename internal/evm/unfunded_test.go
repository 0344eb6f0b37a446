package evm

import (
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/chaos"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// TestUnfundedProbesAreUnchecked: with the node failing eth_getLogs the
// holders are unknown, so the probes' victim gets no tokens from them: the
// seizing and transfer-blocking probes did not run, and privilege_probes
// is among the unchecked checks. On a healthy node a token that refuses
// every transfer to the victim is complete (the holders, owner, pools and
// swap were read: the token refused), with the warning.
func TestUnfundedProbesAreUnchecked(t *testing.T) {
	m := startAdapterNet(t).Manifest()
	clean, _ := m.Token("clean")
	p, ad := chaosChain(t)
	p.Set(chaos.Fault{Methods: []string{"eth_getLogs"}, Error: &chaos.CallError{Code: -32603, Message: "internal error"}})
	r, err := assess(t, ad, clean.Address)
	if err != nil {
		t.Fatalf("Assess: %v", err)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "could not give a test wallet tokens") }) {
		t.Fatalf("the victim was funded without holders (warnings %q): the case is not exercised", r.Warnings)
	}
	if !slices.Contains(r.Unchecked, risk.CheckPrivilegeProbes) || !r.HasFlag(risk.ScanIncomplete) {
		t.Errorf("unchecked %v, SCAN_INCOMPLETE %v: an unfunded victim's probes did not run", r.Unchecked, r.HasFlag(risk.ScanIncomplete))
	}

	stopped, _ := m.Token("trading_disabled")
	p.Heal()
	r, err = assess(t, ad, stopped.Address)
	if err != nil {
		t.Fatalf("Assess: %v", err)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "could not give a test wallet tokens") }) {
		t.Fatalf("trading_disabled: the victim was funded (warnings %q): the case is not exercised", r.Warnings)
	}
	if slices.Contains(r.Unchecked, risk.CheckPrivilegeProbes) {
		t.Errorf("unchecked %v on a healthy node for a token that refuses transfers: the check ran", r.Unchecked)
	}
}
