package scan

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// TestChecklistStates: a checklist false is "no" when a flag disproves it
// or its analysis completed, "unknown" when its check did not run.
func TestChecklistStates(t *testing.T) {
	complete := map[string]Status{"contract_analysis": Complete, "liquidity_analysis": Complete, "holder_analysis": Complete}
	partial := map[string]Status{"contract_analysis": Partial, "liquidity_analysis": Partial, "holder_analysis": Partial}
	flag := func(code string) []risk.Flag { return []risk.Flag{{Code: code}} }
	for _, tc := range []struct {
		name      string
		ck        Checklist
		flags     []risk.Flag
		unchecked []string
		status    map[string]Status
		pick      func(ChecklistStates) ChecklistAnswer
		want      string
		because   string
	}{
		{"proven", Checklist{NotHoneypot: true}, nil, nil, partial, func(s ChecklistStates) ChecklistAnswer { return s.NotHoneypot }, Yes, ""},
		{"a proven honeypot", Checklist{}, flag(risk.HoneypotCannotSell), []string{risk.CheckHolders}, partial,
			func(s ChecklistStates) ChecklistAnswer { return s.NotHoneypot }, No, risk.HoneypotCannotSell},
		{"simulation did not run", Checklist{}, nil, []string{risk.CheckSimulation}, partial,
			func(s ChecklistStates) ChecklistAnswer { return s.NotHoneypot }, Unknown, risk.CheckSimulation},
		{"not verified", Checklist{}, flag(risk.NotVerified), nil, complete, func(s ChecklistStates) ChecklistAnswer { return s.Verified }, No, risk.NotVerified},
		{"verification unknown", Checklist{}, nil, []string{risk.CheckSourceVerification}, partial,
			func(s ChecklistStates) ChecklistAnswer { return s.Verified }, Unknown, risk.CheckSourceVerification},
		{"holders complete, not healthy", Checklist{}, nil, nil, complete, func(s ChecklistStates) ChecklistAnswer { return s.HealthyHolders }, No, "holder_analysis"},
		{"holders partial, nothing named", Checklist{}, nil, nil, partial, func(s ChecklistStates) ChecklistAnswer { return s.HealthyHolders }, Unknown, "holder_analysis"},
		{"owner live", Checklist{}, flag(risk.OwnerNotRenounced), nil, complete, func(s ChecklistStates) ChecklistAnswer { return s.OwnershipRenounced }, No, risk.OwnerNotRenounced},
		{"mint proven", Checklist{}, flag(risk.OwnerCanMint), nil, complete, func(s ChecklistStates) ChecklistAnswer { return s.NoMint }, No, risk.OwnerCanMint},
		{"probes did not run", Checklist{}, nil, []string{risk.CheckPrivilegeProbes}, partial, func(s ChecklistStates) ChecklistAnswer { return s.NoMint }, Unknown, risk.CheckPrivilegeProbes},
		{"LP unlocked", Checklist{}, flag(risk.LPNotLocked), nil, complete, func(s ChecklistStates) ChecklistAnswer { return s.LiquidityLocked }, No, risk.LPNotLocked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.pick(checklistStates(tc.ck, tc.flags, tc.unchecked, tc.status))
			if got.State != tc.want || strings.Join(got.Because, ",") != tc.because {
				t.Errorf("got %s %v, want %s because %q", got.State, got.Because, tc.want, tc.because)
			}
		})
	}
}
