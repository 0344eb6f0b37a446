package risk_test

import (
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// TestUncheckedIsUnknownRiskNotNoRisk: a scan whose checks could not run
// reads at least the floor of what is missing, and never lower than what
// the checks that ran imply.
func TestUncheckedIsUnknownRiskNotNoRisk(t *testing.T) {
	cat := risk.NewCatalogue()
	incomplete := func(unchecked ...string) []risk.Flag {
		return []risk.Flag{risk.IncompleteFlag(unchecked)}
	}
	tests := map[string]struct {
		flags     []risk.Flag
		unchecked []string
		wantLevel risk.Level
		minScore  float64
	}{
		"holders missing, nothing found: thin evidence": {incomplete(risk.CheckHolders), []string{risk.CheckHolders}, risk.LevelMedium, 40},
		"creator unknown, nothing found: not minimal":   {incomplete(risk.CheckDeployer), []string{risk.CheckDeployer}, risk.LevelLow, 20},
		"no simulation: at least medium":                {incomplete(risk.CheckSimulation), []string{risk.CheckSimulation}, risk.LevelMedium, 40},
		"no holders and no simulation: not low": {incomplete(risk.CheckHolders, risk.CheckSimulation),
			[]string{risk.CheckHolders, risk.CheckSimulation}, risk.LevelMedium, 40},
		"no probes: at least medium": {incomplete(risk.CheckPrivilegeProbes), []string{risk.CheckPrivilegeProbes}, risk.LevelMedium, 40},
		"what ran still counts above the floor": {append(flags(risk.SellTaxHigh), incomplete(risk.CheckHolders)...),
			[]string{risk.CheckHolders}, risk.LevelHigh, 62},
		"a proven honeypot stays critical": {append(flags(risk.HoneypotCannotSell), incomplete(risk.CheckPrivilegeProbes)...),
			[]string{risk.CheckPrivilegeProbes}, risk.LevelCritical, 95},
		"an unknown check name counts as a serious gap": {incomplete("some_new_check"), []string{"some_new_check"}, risk.LevelMedium, 40},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := cat.Score(tt.flags, tt.unchecked...)
			if got.Level != tt.wantLevel || got.Overall < tt.minScore {
				t.Errorf("level %s score %v, want %s with score ≥ %v", got.Level, got.Overall, tt.wantLevel, tt.minScore)
			}
			// The flags alone, without the floor, may read lower: the
			// floor is what keeps a gap from reading safe.
			if alone := cat.Score(tt.flags); alone.Overall > got.Overall {
				t.Errorf("floor lowered the score: %v without, %v with", alone.Overall, got.Overall)
			}
		})
	}
}

func TestChecksAreDocumented(t *testing.T) {
	cat := risk.NewCatalogue()
	seen := map[string]bool{}
	for _, c := range cat.Checks() {
		if seen[c.Name] || c.Meaning == "" || c.Floor == "" || !risk.IsCheck(c.Name) {
			t.Errorf("check %+v: duplicate, undocumented or unknown", c)
		}
		seen[c.Name] = true
	}
	for _, n := range []string{risk.CheckOwner, risk.CheckPools, risk.CheckSimulation, risk.CheckPrivilegeProbes, risk.CheckProxy,
		risk.CheckHolders, risk.CheckDeployer, risk.CheckSourceVerification, risk.CheckCreatorHistory} {
		if !seen[n] {
			t.Errorf("check %s has no definition", n)
		}
	}
}
