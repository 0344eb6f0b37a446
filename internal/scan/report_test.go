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
