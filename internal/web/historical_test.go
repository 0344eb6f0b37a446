package web_test

import (
	"strings"
	"testing"
)

// A stored verdict from before reports said their completeness is shown
// with the note that its completeness is unknown, not as complete.
func TestPageSaysAnOldVerdictsCompletenessIsUnknown(t *testing.T) {
	s := newSite(t, 0, nil)
	report := `{"scan_id":"scn_old","address":"` + pepe + `","chain":"ethereum","chain_id":1,"also_deployed_on":[],
		"token_name":"Pepe","token_symbol":"PEPE","decimals":18,"total_supply":"1","overall_risk_score":0,
		"risk_level":"minimal",
		"contract_analysis":{"score":0,"status":"complete"},"liquidity_analysis":{"score":0,"status":"complete"},
		"deployer_analysis":{"score":0,"status":"complete"},"holder_analysis":{"score":0,"status":"complete"},
		"safety_checklist":{"verified":false,"not_honeypot":true,"healthy_holders":true,"ownership_renounced":true,"liquidity_locked":true,"no_mint":true},
		"risk_flags":[],"warnings":[],"scanned_at":"2026-11-01T10:00:00Z","duration_ms":5,"cached":false,"engine_version":"old",
		"disclaimer":"Scores are probabilistic and informational only. Not financial advice."}`
	saveReport(t, s.store, "scn_old", pepe, "minimal", 0, report)
	_, body := get(t, s.url+"/token/"+pepe)
	if page := text(body); !strings.Contains(page, "its completeness is unknown") {
		t.Errorf("the page of a verdict from before completeness lacks the note:\n%s", page)
	}
}
