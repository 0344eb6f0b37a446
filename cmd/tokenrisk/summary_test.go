package main

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/client"
)

// TestSummaryChecklistThreeStates: the summary says yes, no or unknown
// with what decided it; a report without states (stored before them)
// says unknown for every false, never a disproof it cannot know.
func TestSummaryChecklistThreeStates(t *testing.T) {
	r := &client.Report{Chain: "ethereum", RiskLevel: client.Critical,
		SafetyChecklist: client.Checklist{Verified: true},
		SafetyChecklistStates: &client.ChecklistStates{
			Verified:           client.ChecklistAnswer{State: client.Yes},
			NotHoneypot:        client.ChecklistAnswer{State: client.No, Because: []string{"HONEYPOT_CANNOT_SELL"}},
			HealthyHolders:     client.ChecklistAnswer{State: client.Unknown, Because: []string{"holders"}},
			OwnershipRenounced: client.ChecklistAnswer{State: client.No, Because: []string{"OWNER_NOT_RENOUNCED"}},
			LiquidityLocked:    client.ChecklistAnswer{State: client.No, Because: []string{"liquidity_analysis"}},
			NoMint:             client.ChecklistAnswer{State: client.Unknown, Because: []string{"privilege_probes"}},
		}}
	var b strings.Builder
	if err := printSummary(&b, r, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"verified             ✓ yes\n",
		"not honeypot         ✗ no (HONEYPOT_CANNOT_SELL)\n",
		"healthy holders      ? unknown (holders)\n",
		"no mint              ? unknown (privilege_probes)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	r.SafetyChecklistStates = nil
	b.Reset()
	if err := printSummary(&b, r, false); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "not honeypot         ? unknown\n") || strings.Contains(out, "✗") {
		t.Errorf("a report without states:\n%s", out)
	}
}
