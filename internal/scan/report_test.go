package scan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

type contractEvidence struct {
	Owner              *string `json:"owner"`
	OwnershipRenounced *bool   `json:"ownership_renounced"`
}

func TestBuildScoresAndMergesEvidence(t *testing.T) {
	owner := "0x000000000000000000000000000000000000bEEF"
	a := &scan.Assessment{
		Chain: "devnet",
		Token: scan.Token{Name: "T", Symbol: "T"},
		Contract: scan.Section{
			Status:   scan.Complete,
			Flags:    []risk.Flag{risk.NewFlag(risk.OwnerNotRenounced, "Owner kept", "")},
			Evidence: contractEvidence{Owner: &owner},
		},
		Liquidity: scan.Section{
			Status: scan.Partial,
			Flags:  []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "Cannot sell", "")},
		},
	}
	addr, err := chains.ParseAddress("0x6982508145454ce325ddbe47a25d4ec3d2311933")
	if err != nil {
		t.Fatal(err)
	}
	r := scan.Build(risk.NewCatalogue(), addr, a)
	if r.RiskLevel != risk.LevelCritical || r.OverallRiskScore < 95 {
		t.Errorf("level %s score %v, want critical ≥ 95", r.RiskLevel, r.OverallRiskScore)
	}
	if r.Address != "0x6982508145454Ce325dDbE47a25d4ec3d2311933" {
		t.Errorf("address %s not checksummed", r.Address)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var contract map[string]any
	if err := json.Unmarshal(m["contract_analysis"], &contract); err != nil {
		t.Fatal(err)
	}
	if contract["owner"] != owner || contract["ownership_renounced"] != nil || contract["status"] != "complete" {
		t.Errorf("contract_analysis = %v", contract)
	}
	if _, present := contract["ownership_renounced"]; !present {
		t.Error("unknown ownership_renounced must be null, not absent")
	}
	if string(m["deployer_analysis"]) != `{"score":0,"status":"unavailable"}` {
		t.Errorf("deployer_analysis = %s", m["deployer_analysis"])
	}
	for _, field := range []string{"warnings", "also_deployed_on", "risk_flags"} {
		if strings.HasPrefix(string(m[field]), "null") {
			t.Errorf("%s is null, want an array", field)
		}
	}
	if !strings.Contains(string(m["disclaimer"]), "Not financial advice") {
		t.Errorf("disclaimer = %s", m["disclaimer"])
	}

	// A stored report decodes back and re-encodes to the same analysis.
	var back scan.Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	var m2 map[string]json.RawMessage
	if err := json.Unmarshal(b2, &m2); err != nil {
		t.Fatal(err)
	}
	var contract2 map[string]any
	if err := json.Unmarshal(m2["contract_analysis"], &contract2); err != nil {
		t.Fatal(err)
	}
	if contract2["owner"] != owner || contract2["score"] != contract["score"] {
		t.Errorf("round trip contract_analysis = %v, want %v", contract2, contract)
	}
}

func TestAnalysisRejectsNonObjectEvidence(t *testing.T) {
	if _, err := json.Marshal(scan.Analysis{Evidence: []int{1}}); err == nil {
		t.Error("array evidence was accepted")
	}
}

// TestBuildCompleteness: checks that could not run make a degraded report
// with SCAN_INCOMPLETE, listed apart from the checks the operator turned
// off; a report with only turned-off checks is complete. Both survive a
// JSON round trip (the cache and the history store reports as JSON).
func TestBuildCompleteness(t *testing.T) {
	addr, err := chains.ParseAddress("0x6982508145454ce325ddbe47a25d4ec3d2311933")
	if err != nil {
		t.Fatal(err)
	}
	cat := risk.NewCatalogue()
	t.Run("turned off is complete", func(t *testing.T) {
		r := scan.Build(cat, addr, &scan.Assessment{Chain: "devnet", NotConfigured: []string{risk.CheckSourceVerification, risk.CheckCreatorHistory}})
		if r.Completeness != scan.AllChecked || len(r.Unchecked) != 0 || r.HasFlag(risk.ScanIncomplete) || r.RiskLevel != risk.Minimal {
			t.Errorf("completeness %s unchecked %v flags %v level %s, want complete minimal", r.Completeness, r.Unchecked, r.RiskFlags, r.RiskLevel)
		}
		b, _ := json.Marshal(r)
		if !strings.Contains(string(b), `"completeness":"complete","unchecked":[],"not_configured":["creator_history","source_verification"]`) {
			t.Errorf("JSON %s", b)
		}
	})
	t.Run("could not run is degraded", func(t *testing.T) {
		a := &scan.Assessment{Chain: "devnet", Unchecked: []string{risk.CheckSimulation, risk.CheckHolders, risk.CheckSimulation}}
		r := scan.Build(cat, addr, a)
		if r.Completeness != scan.Degraded || !r.HasFlag(risk.ScanIncomplete) {
			t.Fatalf("completeness %s flags %v, want degraded with SCAN_INCOMPLETE", r.Completeness, r.RiskFlags)
		}
		if strings.Join(r.Unchecked, ",") != "holders,simulation" || r.NotConfigured == nil {
			t.Errorf("unchecked %v not_configured %v, want sorted unique names and []", r.Unchecked, r.NotConfigured)
		}
		if levelRank(r.RiskLevel) < levelRank(risk.LevelMedium) {
			t.Errorf("level %s with no simulation and no holders, want at least medium", r.RiskLevel)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back scan.Report
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.Completeness != scan.Degraded || strings.Join(back.Unchecked, ",") != "holders,simulation" || !back.HasFlag(risk.ScanIncomplete) {
			t.Errorf("round trip: %+v", back)
		}
	})
}

func levelRank(l risk.Level) int {
	return map[risk.Level]int{risk.Minimal: 0, risk.LevelLow: 1, risk.LevelMedium: 2, risk.LevelHigh: 3, risk.LevelCritical: 4}[l]
}
