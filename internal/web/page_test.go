package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/web"
)

// adapter is an EVM scan.Adapter answering a fixed assessment, counting
// the scans that reach it.
type adapter struct {
	calls  atomic.Int32
	assess func(req scan.Request) *scan.Assessment
}

func (a *adapter) Kind() chains.Kind { return chains.EVM }
func (a *adapter) Assess(_ context.Context, req scan.Request) (*scan.Assessment, error) {
	a.calls.Add(1)
	return a.assess(req), nil
}

// simulation and pool are the evidence shapes the EVM adapter reports.
type simulation struct {
	CanBuy  *bool    `json:"can_buy"`
	CanSell *bool    `json:"can_sell"`
	BuyTax  *float64 `json:"buy_tax"`
	SellTax *float64 `json:"sell_tax"`
	Error   *string  `json:"error"`
}

type liquidity struct {
	Pools      []map[string]any `json:"pools"`
	Simulation simulation       `json:"simulation"`
}

type holders struct {
	TopHolders []map[string]any `json:"top_holders"`
	Top10      *float64         `json:"top10_pct"`
}

type deployer struct {
	Creator        *string `json:"creator"`
	CreatorTxCount *int    `json:"creator_tx_count"`
}

func ptr[T any](v T) *T { return &v }

// honeypotAssessment is a token that cannot be sold, with evidence in
// every analysis.
func honeypotAssessment(name string) func(scan.Request) *scan.Assessment {
	return func(scan.Request) *scan.Assessment {
		id := int64(1)
		return &scan.Assessment{
			Chain: "ethereum", ChainID: &id, Token: scan.Token{Name: name, Symbol: "TRAP"},
			Contract: scan.Section{Status: scan.Complete, Flags: []risk.Flag{
				risk.NewFlag(risk.OwnerCanBlacklist, "Owner can blacklist", "setBlacklist(address) blocks a holder").
					WithEvidence(risk.EvidenceProbe, "setBlacklist(address): victim's transfer reverted"),
			}},
			Liquidity: scan.Section{Status: scan.Complete,
				Flags: []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "Token cannot be sold", "a simulated sell failed")},
				Evidence: liquidity{
					Pools: []map[string]any{{"dex": "uniswap_v2", "address": "0x86191928c5158BFDdF6547e3468482A30bad2431",
						"liquidity_usd": 123000.5, "lp_burned_pct": 100.0}},
					Simulation: simulation{CanBuy: ptr(true), CanSell: ptr(false), BuyTax: ptr(0.0), Error: ptr("sell failed: TRANSFER_FROM_FAILED")},
				}},
			Deployer: scan.Section{Status: scan.Partial, Evidence: deployer{Creator: ptr("0x8E9D0e5fc08cb8F4a99DF8de11d6d079801F0b14")}},
			Holder: scan.Section{Status: scan.Complete, Evidence: holders{
				TopHolders: []map[string]any{{"address": "0x86191928c5158BFDdF6547e3468482A30bad2431", "share_pct": 48.7, "label": "pool"}},
				Top10:      ptr(11.8),
			}},
			Warnings: []string{"deployer: no explorer configured; creator history unknown"},
		}
	}
}

type site struct {
	url     string
	adapter *adapter
	store   *sqlite.Store
	now     time.Time
}

// newSite serves the pages with a real engine (cache off) over an EVM
// adapter answering assess, page scans at rate per IP.
func newSite(t testing.TB, rate int64, assess func(scan.Request) *scan.Assessment) *site {
	t.Helper()
	return newSiteWith(t, rate, assess, web.Deps{})
}

// newSiteWith is newSite with deps' PublicURL.
func newSiteWith(t testing.TB, rate int64, assess func(scan.Request) *scan.Assessment, deps web.Deps) *site {
	t.Helper()
	return newSiteRecording(t, rate, assess, deps, false)
}

// newSiteRecording is newSiteWith whose engine keeps the reputation
// record in the site's store when record is set.
func newSiteRecording(t testing.TB, rate int64, assess func(scan.Request) *scan.Assessment, deps web.Deps, record bool) *site {
	t.Helper()
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	a := &adapter{assess: assess}
	st := openStore(t)
	opts := scan.EngineOptions{Adapters: []scan.Adapter{a}, Registry: reg, Version: "test"}
	if record {
		opts.Record = st
	}
	engine, err := scan.NewEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &site{adapter: a, store: st, now: time.Now()}
	p, err := web.New(web.Deps{
		Scanner: engine, Store: st, Limiter: memory.New(memory.Options{}), Rate: rate,
		Chains: []string{"bsc", "ethereum"}, Priority: scan.PriorityLow, PublicURL: deps.PublicURL,
	})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	p.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// text is the page's visible text with tags removed and spaces folded.
func text(html []byte) string {
	s := regexp.MustCompile(`(?s)<script.*?</script>|<[^>]*>`).ReplaceAllString(string(html), " ")
	s = strings.NewReplacer("&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`).Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

func TestTokenPageScansOnceThenShowsTheStoredVerdict(t *testing.T) {
	s := newSite(t, 10, honeypotAssessment("Moon Rocket"))
	res, body := get(t, s.url+"/token/"+pepeLower)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d %s: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	page := text(body)
	for _, want := range []string{
		"Moon Rocket · TRAP", "ethereum", pepe, "critical risk", "Likely to lose money now.",
		// checklist
		"Can be bought and sold (not a honeypot): no (HONEYPOT_CANNOT_SELL)",
		// flags with their evidence
		"HONEYPOT_CANNOT_SELL", "Token cannot be sold", "OWNER_CAN_BLACKLIST",
		"Evidence: proven by a probe — setBlacklist(address): victim's transfer reverted",
		// simulation, pools, holders, deployer
		"Can sell no", "Sell tax unknown", "sell failed: TRANSFER_FROM_FAILED", "uniswap_v2", "$123,000.50", "LP burned %", "100 %",
		"Top holders", "48.7 %", "pool", "Creator 0x8E9D0e5fc08cb8F4a99DF8de11d6d079801F0b14", "Creator tx count unknown",
		"deployer: no explorer configured", "Scores are probabilistic and informational only. Not financial advice.",
		"Scanned",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q\n%s", want, page)
		}
	}
	if got := s.adapter.calls.Load(); got != 1 {
		t.Fatalf("scans = %d, want 1", got)
	}
	// The page scan is stored: the next visit shows it with its age, and
	// the badge has a verdict, without another scan.
	_, body = get(t, s.url+"/token/"+pepe)
	if page := text(body); !strings.Contains(page, "Stored verdict, scanned") || !strings.Contains(page, "critical risk") {
		t.Errorf("second visit:\n%s", page)
	}
	_, badge := get(t, s.url+"/badge/"+pepe+".svg")
	if !strings.Contains(string(badge), "critical") {
		t.Errorf("badge after a page scan: %s", badge)
	}
	if got := s.adapter.calls.Load(); got != 1 {
		t.Errorf("scans after a revisit = %d, want still 1", got)
	}
	// Scan again is a POST from this origin, then back to the page.
	req, _ := http.NewRequest(http.MethodPost, s.url+"/token/"+pepe, nil)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || s.adapter.calls.Load() != 2 {
		t.Errorf("scan again: status %d after redirect, scans %d; want 200 and 2", res.StatusCode, s.adapter.calls.Load())
	}
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site scan again: %v %v, want 403", err, res.StatusCode)
	}
}

func TestScanFormRedirectsToTheTokenPage(t *testing.T) {
	s := newSite(t, 10, honeypotAssessment("x"))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(s.url + "/scan?address=++" + pepeLower + "+")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/token/"+pepe {
		t.Errorf("form: %d to %q, want 303 to /token/%s", res.StatusCode, res.Header.Get("Location"), pepe)
	}
	res, body := get(t, s.url+"/scan?address=0x1234")
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `aria-invalid="true"`) {
		t.Errorf("bad address: %d\n%s", res.StatusCode, text(body))
	}
	if s.adapter.calls.Load() != 0 {
		t.Error("the form scanned by itself")
	}
}

func TestPageScansArePerIPRateLimited(t *testing.T) {
	s := newSite(t, 2, honeypotAssessment("x"))
	for i := range 2 {
		addr := fmt.Sprintf("0x%040x", i+1)
		if res, body := get(t, s.url+"/token/"+addr); res.StatusCode != 200 {
			t.Fatalf("scan %d: %d %s", i, res.StatusCode, text(body))
		}
	}
	res, body := get(t, s.url+"/token/0x"+strings.Repeat("0", 39)+"9")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("third scan in a minute: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if !strings.Contains(text(body), "Too many scans") {
		t.Errorf("429 page: %s", text(body))
	}
	// Stored verdicts are still shown: no scan needed.
	if res, _ := get(t, s.url+"/token/0x"+strings.Repeat("0", 39)+"1"); res.StatusCode != 200 {
		t.Errorf("stored verdict after the allowance: %d", res.StatusCode)
	}
}

func TestWebRateZeroTurnsPageScansOff(t *testing.T) {
	s := newSite(t, 0, honeypotAssessment("x"))
	res, body := get(t, s.url+"/token/"+pepe)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(text(body), "turned off") {
		t.Errorf("no stored verdict, scans off: %d %s", res.StatusCode, text(body))
	}
	saveScan(t, s.store, "scn_1", pepe, "low", 25, time.Now().Add(-3*time.Hour))
	res, _ = get(t, s.url+"/token/"+pepe)
	if res.StatusCode != 200 {
		t.Errorf("stored verdict, scans off: %d", res.StatusCode)
	}
	if s.adapter.calls.Load() != 0 {
		t.Error("a page scanned with --web-rate 0")
	}
	res, body = get(t, s.url+"/")
	if !strings.Contains(text(body), "Scans from this page are turned off") {
		t.Errorf("home page does not say scans are off: %s", text(body))
	}
}

func TestPageShowsWhatCouldNotBeChecked(t *testing.T) {
	s := newSite(t, 0, nil)
	report := `{"scan_id":"scn_1","address":"` + pepe + `","chain":"ethereum","chain_id":1,"also_deployed_on":[],
		"token_name":"Pepe","token_symbol":"PEPE","decimals":18,"total_supply":"1","overall_risk_score":45,
		"risk_level":"medium","completeness":"degraded","unchecked":["holders: deadline passed"],"not_configured":["explorer"],
		"contract_analysis":{"score":0,"status":"complete"},"liquidity_analysis":{"score":0,"status":"complete"},
		"deployer_analysis":{"score":0,"status":"unavailable"},"holder_analysis":{"score":0,"status":"unavailable"},
		"safety_checklist":{"verified":false,"not_honeypot":true,"healthy_holders":false,"ownership_renounced":false,"liquidity_locked":false,"no_mint":true},
		"risk_flags":[{"code":"SCAN_INCOMPLETE","severity":"medium","category":"holder","title":"Scan incomplete","detail":"holders"}],
		"warnings":[],"scanned_at":"2026-11-21T10:00:00Z","duration_ms":5,"cached":false,"engine_version":"t",
		"disclaimer":"Scores are probabilistic and informational only. Not financial advice."}`
	saveReport(t, s.store, "scn_1", pepe, "medium", 45, report)
	_, body := get(t, s.url+"/token/"+pepe)
	page := text(body)
	for _, want := range []string{"Not checked", "holders: deadline passed", "explorer", "unknown risk, not the absence of risk", "SCAN_INCOMPLETE"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	// Nothing else was found: the missing check alone set the level, so it
	// is the verdict's first reason and its box is the prominent one.
	if !strings.Contains(string(body), `class="unchecked raised"`) {
		t.Errorf("the box of checks that raised the level is not the prominent one")
	}
	why := regexp.MustCompile(`(?s)<ol class="reasons".*?</ol>`).FindString(string(body))
	if !strings.Contains(why, `href="#unchecked"`) || !strings.Contains(why, "holders: deadline passed") {
		t.Errorf("reasons %q: want the unchecked holders first, linking to the box", why)
	}
}

// A report whose flags alone set its level shows what was not checked
// after the reasons, as a quiet note: the reasons are the flags.
func TestUncheckedThatDidNotRaiseTheLevelIsQuiet(t *testing.T) {
	s := newSite(t, 0, nil)
	report := `{"scan_id":"scn_2","address":"` + pepe + `","chain":"ethereum","chain_id":1,"also_deployed_on":[],
		"token_name":"Pepe","token_symbol":"PEPE","decimals":6,"total_supply":"123456789012","overall_risk_score":92,
		"risk_level":"critical","completeness":"degraded","unchecked":["creator_history"],"not_configured":[],
		"contract_analysis":{"score":0,"status":"complete","proxy":{"kind":"none","upgradeable":false},
			"hidden_owner":{"found":false,"address":null,"detail":"No address but the declared owner proved an owner power."},"owner":null},
		"liquidity_analysis":{"score":95,"status":"complete","main_pool":"0x86191928c5158BFDdF6547e3468482A30bad2431",
			"pools":[{"dex":"uniswap_v2","kind":"v2","address":"0x86191928c5158BFDdF6547e3468482A30bad2431","token_reserve":"2000000000","liquidity_usd":1000}]},
		"deployer_analysis":{"score":0,"status":"partial"},
		"holder_analysis":{"score":0,"status":"complete","top_holders":[{"address":"0x86191928c5158BFDdF6547e3468482A30bad2431","balance":"1500000000","share_pct":1.2}]},
		"safety_checklist":{"verified":false,"not_honeypot":false,"healthy_holders":false,"ownership_renounced":false,"liquidity_locked":false,"no_mint":true},
		"risk_flags":[{"code":"HONEYPOT_CANNOT_SELL","severity":"critical","category":"liquidity","title":"Token cannot be sold","detail":"a sell failed"},
			{"code":"OWNER_NOT_RENOUNCED","severity":"low","category":"contract","title":"Ownership not renounced","detail":"owner"},
			{"code":"SCAN_INCOMPLETE","severity":"medium","category":"contract","title":"Scan incomplete","detail":"creator_history"}],
		"warnings":[],"scanned_at":"2026-11-21T10:00:00Z","duration_ms":5,"cached":false,"engine_version":"t",
		"disclaimer":"Scores are probabilistic and informational only. Not financial advice."}`
	saveReport(t, s.store, "scn_2", pepe, "critical", 92, report)
	_, body := get(t, s.url+"/token/"+pepe)
	page := string(body)
	if !strings.Contains(page, `class="unchecked"`) || strings.Contains(page, `class="unchecked raised"`) {
		t.Errorf("a check that did not raise the level is not a quiet note")
	}
	why := regexp.MustCompile(`(?s)<ol class="reasons".*?</ol>`).FindString(page)
	if strings.Count(why, "<li") != 1 || !strings.Contains(why, "Token cannot be sold") || strings.Contains(why, "renounced") {
		t.Errorf("reasons %q: want the unsellable token alone (a low flag does not set a critical level)", why)
	}
	if strings.Index(page, `id="why"`) > strings.Index(page, `id="unchecked"`) {
		t.Errorf("what was not checked comes before the reasons")
	}
	// 1.5e9 base units of 6 decimals at the pool's price ($500 of tokens
	// for 2 000 of them: $0.25 each) is 1,500 PEPE, about $375.
	text := text(body)
	for _, want := range []string{"supply 123,456.79 PEPE", "1,500 PEPE≈ $375.00",
		// Stored before safety_checklist_states: yes where proven, else
		// unknown (its false did not say which).
		"No one can mint more: yes", "Can be bought and sold (not a honeypot): unknown",
		// None, some and unknown read no, yes and unknown.
		"Proxy no", "Hidden owner no — No address but the declared owner", "Owner unknown"} {
		if !strings.Contains(strings.ReplaceAll(text, " ≈", "≈"), want) {
			t.Errorf("page lacks %q:\n%s", want, text)
		}
	}
}

func TestHostileTokenNameIsText(t *testing.T) {
	s := newSite(t, 10, honeypotAssessment(`<script>alert(1)</script><img src=x onerror=alert(2)>`))
	_, body := get(t, s.url+"/token/"+pepe)
	if strings.Contains(string(body), "<script>alert") || strings.Contains(string(body), "<img src=x") {
		t.Errorf("the token's name reached the page as markup")
	}
	if !strings.Contains(text(body), "<script>alert(1)</script>") {
		t.Errorf("the token's name is not shown as text")
	}
}

// TestPagesObeyTheirPolicy: every page is served with a strict CSP and
// contains nothing it would block: no inline script or style, no event
// handler attributes, no resource from another origin.
func TestPagesObeyTheirPolicy(t *testing.T) {
	s := newSite(t, 10, honeypotAssessment("Moon"))
	inline := regexp.MustCompile(`(?i)\sstyle=|\son[a-z]+=|<style`)
	scripts := regexp.MustCompile(`(?is)<script([^>]*)>(.*?)</script>`)
	external := regexp.MustCompile(`(?i)(src|href)="(https?:)?//`)
	for _, path := range []string{"/", "/token/" + pepe, "/scan?address=nope", "/token/nope"} {
		res, body := get(t, s.url+path)
		csp := res.Header.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, d) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, d)
			}
		}
		if m := inline.Find(body); m != nil {
			t.Errorf("%s: inline code the CSP blocks: %q", path, m)
		}
		for _, m := range scripts.FindAllSubmatch(body, -1) {
			if !strings.Contains(string(m[1]), `src="/assets/`) || strings.TrimSpace(string(m[2])) != "" {
				t.Errorf("%s: inline script the CSP blocks: %q", path, m[0])
			}
		}
		if m := external.Find(body); m != nil {
			t.Errorf("%s: resource from another origin: %q", path, m)
		}
		for _, m := range regexp.MustCompile(`(?:src|href)="(/assets/[^"]+)"`).FindAllSubmatch(body, -1) {
			if res, _ := get(t, s.url+string(m[1])); res.StatusCode != 200 {
				t.Errorf("%s links %s: %d", path, m[1], res.StatusCode)
			}
		}
		if !strings.Contains(string(body), `<html lang="en">`) || !strings.Contains(string(body), `<main id="main"`) {
			t.Errorf("%s: no lang or main landmark", path)
		}
	}
}

// TestThemesMeetWCAGAA reads both themes' colours from the stylesheet and
// checks text contrast: body and muted text, links and every level's
// colour on the background and on the surface.
func TestThemesMeetWCAGAA(t *testing.T) {
	css, err := os.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`--([a-z-]+):\s*light-dark\(#([0-9a-fA-F]{3,6}),\s*#([0-9a-fA-F]{3,6})\);`)
	themes := map[string]map[string]string{"light": {}, "dark": {}}
	for _, m := range decl.FindAllSubmatch(css, -1) {
		themes["light"][string(m[1])], themes["dark"][string(m[1])] = string(m[2]), string(m[3])
	}
	for theme, vars := range themes {
		for _, fg := range []string{"fg", "muted", "link", "ok", "no", "lv-minimal", "lv-low", "lv-medium", "lv-high", "lv-critical"} {
			for _, bg := range []string{"bg", "surface"} {
				if vars[fg] == "" || vars[bg] == "" {
					t.Errorf("%s: --%s or --%s missing", theme, fg, bg)
					continue
				}
				if r := contrast(vars[fg], vars[bg]); r < 4.5 {
					t.Errorf("%s: --%s on --%s contrast %.2f < 4.5", theme, fg, bg, r)
				}
			}
		}
		if r := contrast("ffffff", vars["btn"]); r < 4.5 {
			t.Errorf("%s: button text on --btn contrast %.2f < 4.5", theme, r)
		}
	}
}
