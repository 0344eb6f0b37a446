package analysis

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// TestPowersSurvivingTheRenounce: a live owner whose powers the probes
// proved again after the token's own renounce path cleared owner() is a
// hidden owner (renouncing would be a lie); one whose powers died with
// the renounce is not; a second address's surviving power says so in
// the hidden owner's detail; the privileged addresses are reported.
func TestPowersSurvivingTheRenounce(t *testing.T) {
	after := func(v bool) *bool { return &v }
	tests := []struct {
		name       string
		privileged []EVMPrivilegedAddress
		caps       []EVMCapability
		hidden     bool
		detail     string
	}{
		{name: "owner's mint survives", hidden: true, detail: "would keep owner powers after renouncing",
			caps:       []EVMCapability{{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestOwner, Role: "owner"}},
			privileged: []EVMPrivilegedAddress{{Address: evmTestOwner, Role: "owner", Powers: []string{EVMCapMint}, AfterRenounce: after(true), AfterRenounceDetail: "probed again"}}},
		{name: "owner's mint dies with the renounce",
			caps:       []EVMCapability{{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestOwner, Role: "owner"}},
			privileged: []EVMPrivilegedAddress{{Address: evmTestOwner, Role: "owner", Powers: []string{EVMCapMint}, AfterRenounce: after(false)}}},
		{name: "owner's survival unknown",
			caps:       []EVMCapability{{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestOwner, Role: "owner"}},
			privileged: []EVMPrivilegedAddress{{Address: evmTestOwner, Role: "owner", Powers: []string{EVMCapMint}}}},
		{name: "a guard's seizure survives", hidden: true, detail: "Its powers (seize) survive the token's own renounce",
			caps:       []EVMCapability{{Name: EVMCapSeize, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "guard"}},
			privileged: []EVMPrivilegedAddress{{Address: evmTestHidden, Role: "guard", Slot: "0x11", Powers: []string{EVMCapSeize}, AfterRenounce: after(true)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := evmBaseContract()
			f.Owner = evmTestOwner
			f.Probe.Capabilities = tt.caps
			f.Probe.Privileged = tt.privileged
			sec, _, _ := AnalyseEVMContract(f)
			ev := sec.Evidence.(EVMContractEvidence)
			if got := evmHas(sec.Flags, risk.HiddenOwner); got != tt.hidden {
				t.Fatalf("HIDDEN_OWNER raised %v, want %v (%v)", got, tt.hidden, evmCodes(sec))
			}
			if tt.hidden && (ev.HiddenOwner == nil || !strings.Contains(ev.HiddenOwner.Detail, tt.detail)) {
				t.Errorf("hidden_owner = %+v, want a detail with %q", ev.HiddenOwner, tt.detail)
			}
			if len(ev.PrivilegedAddresses) != len(tt.privileged) {
				t.Errorf("privileged_addresses = %+v, want %d", ev.PrivilegedAddresses, len(tt.privileged))
			}
		})
	}
}
