package web_test

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/codeprint"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/web"
)

// TestPageShowsTheRecord: a creator's second token, named like USDT, is
// shown as pretending to be USDT (linking the real token's page) and as
// launched by a creator whose earlier token was critical (linking its
// page) and sharing the code of that critical token; the first token's
// page says there were no earlier scans of either.
func TestPageShowsTheRecord(t *testing.T) {
	const second = "0x0000000000000000000000000000000000000abc"
	creator := "0x8E9D0e5fc08cb8F4a99DF8de11d6d079801F0b14"
	honeypot := honeypotAssessment("Moon Rocket")
	s := newSiteRecording(t, 10, func(req scan.Request) *scan.Assessment {
		as := honeypot(req)
		as.Deployer.Evidence = analysis.EVMDeployerEvidence{Creator: &creator}
		as.CodePrint = codeprint.Print{Code: "cp1_0123456789abcdef0123456789abcdef"}
		if req.Address.Canonical != pepe {
			as.Token.Symbol = "USDT"
			as.Liquidity.Flags, as.Contract.Flags = nil, nil
		}
		return as
	}, web.Deps{}, true)

	_, body := get(t, s.url+"/token/"+pepe)
	if page := text(body); !strings.Contains(page, "The creator's other tokens: no earlier scans") ||
		!strings.Contains(page, "Tokens with the same code: no earlier scans") || strings.Contains(page, "Pretends to be") {
		t.Errorf("first launch's record:\n%s", page)
	}
	_, body = get(t, s.url+"/token/"+second)
	page := text(body)
	for _, want := range []string{
		"Record", "Pretends to be USDT (real: 0xdAC17F958D2ee523a2206206994597C13D831ec7 )",
		"Creator launched 1 other token(s) scanned here: 1 critical.", pepe + " : ethereum, critical risk, found honeypot",
		"Same code as 1 token(s) scanned here: 1 critical, 1 found honeypot.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("second launch's page lacks %q\n%s", want, page)
		}
	}
	for _, href := range []string{`href="/token/0xdAC17F958D2ee523a2206206994597C13D831ec7"`, `href="/token/` + pepe + `"`} {
		if !strings.Contains(string(body), href) {
			t.Errorf("second launch's page lacks the link %s", href)
		}
	}
}
