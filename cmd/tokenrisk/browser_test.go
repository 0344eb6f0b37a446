package main

import (
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chromiumPath finds a Chromium: TOKENRISK_CHROMIUM ("none" turns the
// test off), else the usual names on PATH.
func chromiumPath() string {
	if p := os.Getenv("TOKENRISK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artifactDir is where screenshots go: TOKENRISK_CI_ARTIFACTS (set by
// .ci/run to .ci/artifacts), else the test's temporary directory.
func artifactDir(t *testing.T) string {
	if d := os.Getenv("TOKENRISK_CI_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// TestBrowser drives the web page of the real server (devnet) in headless
// Chromium: a zoo token scanned from the form shows its level and flags,
// the honeypot shows the honeypot verdict, the badge image renders and
// names the level, the theme switch and a premium key's history work, no
// console error happens, and desktop and phone screenshots are saved.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser: starts the devnet and Chromium")
	}
	chromium := chromiumPath()
	if chromium == "none" {
		t.Skip("TOKENRISK_CHROMIUM=none: the browser tier is off")
	}
	if chromium == "" {
		t.Skip("no Chromium found (install the Debian package chromium, or set TOKENRISK_CHROMIUM); .ci/run's browser tier installs it")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "browser.db"),
		"TOKENRISK_LOG_LEVEL":    "warn",
		"TOKENRISK_SOURCIFY_URL": "none",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	tax, ok1 := m.Token("tax_sell_high")
	honeypot, ok2 := m.Token("honeypot_sell_blocked")
	if !ok1 || !ok2 {
		t.Fatal("manifest lacks tax_sell_high or honeypot_sell_blocked")
	}
	premium := s.key(t, "premium")
	shots := artifactDir(t)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start Chromium: %v", err)
	}
	// Bound every later step (the browser itself lives on the untimed ctx).
	ctx, cancelSteps := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelSteps()
	var errs []string
	messages := chromedp.Console(ctx)
	consoleDone := make(chan struct{})
	var mu sync.Mutex
	go func() {
		defer close(consoleDone)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				mu.Lock()
				errs = append(errs, string(m.Type)+": "+m.Text+" "+m.URL)
				mu.Unlock()
			}
		}
	}()
	flags := func() []string {
		codes, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".flag[data-code]")).map(e => e.dataset.code)`))
		if err != nil {
			t.Errorf("read flags: %v", err)
		}
		return codes
	}
	text := func(sel string) string {
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Errorf("read %s: %v", sel, err)
		}
		return strings.TrimSpace(v)
	}

	t.Run("the form scans a zoo token and shows its level and flags", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.Navigate(s.url+"/"),
			chromedp.WaitVisible(chromedp.ID("address")),
			chromedp.SendKeys(chromedp.ID("address"), strings.ToLower(tax.Address)),
			chromedp.Submit(chromedp.ID("address")),
			chromedp.WaitVisible(chromedp.CSS(".level-name")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if level := text(".level-name"); !strings.EqualFold(level, "high risk") {
			t.Errorf("level shown %q, want high risk", level)
		}
		if codes := flags(); !slices.Contains(codes, "SELL_TAX_HIGH") {
			t.Errorf("flags shown %v, want SELL_TAX_HIGH", codes)
		}
		if url, err := chromedp.Run(ctx, chromedp.Location()); err != nil || !strings.HasSuffix(url, "/token/"+tax.Address) {
			t.Errorf("page address %q (%v), want the checksummed token page", url, err)
		}
		// The verdict leads with the facts that set it, each linking to
		// evidence that is on the page; what is off on this server comes
		// after them, then the checklist.
		reasons, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".reasons li")).map(li => {
			const a = li.querySelector("a.evidence-link");
			const target = a && document.querySelector(a.getAttribute("href"));
			return li.querySelector(".reason-text").textContent.trim() + " → " + (target ? target.id : "MISSING " + (a && a.getAttribute("href")));
		})`))
		if err != nil || len(reasons) == 0 || !strings.HasPrefix(reasons[0], "Sell tax is 30%") || !strings.HasSuffix(reasons[0], "→ liquidity-simulation") {
			t.Errorf("reasons %q (%v), want the 30%% sell tax first, linking to the simulation", reasons, err)
		}
		for _, r := range reasons {
			if strings.Contains(r, "MISSING") {
				t.Errorf("reason %q links to nothing on the page", r)
			}
		}
		if pos, _ := chromedp.Run(ctx, chromedp.Evaluate[[]int](`["#why", "#unchecked", ".checklist", "#liquidity"].map(s => {
			const e = document.querySelector(s); return e ? Math.round(e.getBoundingClientRect().top + window.scrollY) : -1; })`)); !slices.IsSorted(pos) || slices.Contains(pos, -1) {
			t.Errorf("verdict, not-checked box, checklist, evidence at %v: want them in that order", pos)
		}
		// Amounts in token units with the symbol, in USD where the pool
		// prices them; lists as tables; no raw JSON, no raw base units.
		main := text("main")
		for _, want := range []string{"PAYDAY", "≈ $", "Top holders", "Insiders"} {
			if !strings.Contains(main, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		if raw := regexp.MustCompile(`\b\d{16,}\b|\{"|":`).FindString(main); raw != "" {
			t.Errorf("page shows raw data %q (base units or JSON)", raw)
		}
		if cells, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#holder-top-holders + .table-wrap tbody tr:first-child td")).map(td => td.textContent.trim())`)); !slices.ContainsFunc(cells, func(c string) bool {
			return regexp.MustCompile(`^[\d,]+(\.\d+)? PAYDAY≈ \$[\d,.]+$`).MatchString(c)
		}) {
			t.Errorf("top holder row %q: want a balance in PAYDAY with thousands separators and its USD value", cells)
		}
		for _, theme := range []string{"light", "dark"} {
			// The page's own switch (it follows the system theme, light here,
			// until clicked).
			if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const b = document.getElementById("theme");
				if ((document.documentElement.dataset.theme || "light") !== "`+theme+`") b.click(); })()`)); err != nil {
				t.Fatal(err)
			}
			screenshot(t, ctx, filepath.Join(shots, "token-"+theme+"-desktop.png"), 1280, 900, false)
			checkAccessibility(t, ctx, "token page ("+theme+")")
			screenshot(t, ctx, filepath.Join(shots, "token-"+theme+"-phone.png"), 390, 844, true)
			checkAccessibility(t, ctx, "token page, phone ("+theme+")")
			if err := chromedp.Do(ctx, chromedp.EmulateReset()); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("the honeypot shows the honeypot verdict", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.EmulateReset(),
			chromedp.Navigate(s.url+"/token/"+honeypot.Address),
			chromedp.WaitVisible(chromedp.CSS(".level-name")),
		)
		if err != nil {
			t.Fatal(err)
		}
		level, codes := text(".level-name"), flags()
		if !strings.EqualFold(level, "critical risk") || !slices.Contains(codes, "HONEYPOT_CANNOT_SELL") {
			t.Errorf("honeypot page: level %q flags %v, want critical with HONEYPOT_CANNOT_SELL", level, codes)
		}
		if checklist := text(".checklist"); !strings.Contains(checklist, "not a honeypot): no (HONEYPOT_CANNOT_SELL)") {
			t.Errorf("checklist %q does not answer not-a-honeypot no, by HONEYPOT_CANNOT_SELL", checklist)
		}
		if first := text(".reasons li:first-child .reason-text"); !strings.Contains(first, "cannot be sold") && !strings.Contains(first, "sell") {
			t.Errorf("honeypot's first reason %q, want that it cannot be sold", first)
		}
		screenshot(t, ctx, filepath.Join(shots, "honeypot-desktop.png"), 1280, 900, false)
		checkAccessibility(t, ctx, "honeypot page")
	})

	t.Run("the badge renders and names the level", func(t *testing.T) {
		width, err := chromedp.Run(ctx, chromedp.Poll[int](
			`(() => { const i = document.querySelector(".embed img"); return i && i.complete && i.naturalWidth > 0 ? i.naturalWidth : 0; })()`,
			chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil || width < 60 {
			t.Errorf("badge image width %d (%v): the browser did not render it", width, err)
		}
		r := s.do(t, "GET", "/badge/"+honeypot.Address+".svg", "", "")
		var svg struct {
			Title string   `xml:"title"`
			Texts []string `xml:"g>text"`
		}
		if err := xml.Unmarshal(r.body, &svg); err != nil {
			t.Fatalf("badge SVG does not parse: %v", err)
		}
		if !strings.HasPrefix(svg.Title, "tokenrisk: critical ") || !slices.Contains(svg.Texts, strings.TrimPrefix(svg.Title, "tokenrisk: ")) {
			t.Errorf("badge title %q texts %v, want the critical level", svg.Title, svg.Texts)
		}
	})

	t.Run("the home page is accessible", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.ID("address"))); err != nil {
			t.Fatal(err)
		}
		checkAccessibility(t, ctx, "home page")
	})

	t.Run("keyboard, theme and a premium key's history", func(t *testing.T) {
		if r := s.scan(t, premium, honeypot.Address); r.status != 200 {
			t.Fatalf("premium scan: %d %s", r.status, r.body)
		}
		err := chromedp.Do(ctx,
			chromedp.Navigate(s.url+"/token/"+tax.Address),
			chromedp.WaitVisible(chromedp.CSS(".level-name")),
			chromedp.KeyEvent(kb.Tab),
		)
		if err != nil {
			t.Fatal(err)
		}
		if focused, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.textContent`)); focused != "Skip to content" {
			t.Errorf("first Tab focuses %q, want the skip link", focused)
		}
		before, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("theme"))); err != nil {
			t.Fatal(err)
		}
		theme, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.dataset.theme || ""`))
		after, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
		if theme == "" || before == after {
			t.Errorf("theme switch: data-theme %q, background %s → %s", theme, before, after)
		}
		err = chromedp.Do(ctx,
			chromedp.SendKeys(chromedp.ID("key"), premium),
			// A click, not form.submit(): the script handles the submit event.
			chromedp.Click(chromedp.CSS("#key-form button[type=submit]")),
			chromedp.WaitVisible(chromedp.ID("history")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if rows, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#history-rows tr").length`)); rows < 1 {
			t.Errorf("a premium key's history shows %d rows", rows)
		}
		screenshot(t, ctx, filepath.Join(shots, "token-"+theme+"-phone.png"), 390, 844, true)
	})

	cancel()
	<-consoleDone
	mu.Lock()
	defer mu.Unlock()
	if len(errs) > 0 {
		t.Errorf("browser console errors:\n%s", strings.Join(errs, "\n"))
	}
	t.Logf("screenshots in %s", shots)
}

// checkAccessibility runs axe-core (TOKENRISK_AXE: the path of its
// axe.min.js, which .ci/run's browser tier installs from npm) on the page
// and fails on any serious or critical violation. Without it the check
// skips, except in CI (TOKENRISK_CI_ARTIFACTS set), where it fails.
func checkAccessibility(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	path := os.Getenv("TOKENRISK_AXE")
	if path == "" {
		if os.Getenv("TOKENRISK_CI_ARTIFACTS") != "" {
			t.Errorf("%s: TOKENRISK_AXE is not set: the browser tier's accessibility check did not run", page)
		} else {
			t.Logf("%s: accessibility not checked (set TOKENRISK_AXE to axe-core's axe.min.js)", page)
		}
		return
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](string(src)+"\n;true")); err != nil {
		t.Fatalf("%s: inject axe-core: %v", page, err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ["violations"]}).then(r => {
		const out = r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
			.map(v => v.id + " (" + v.impact + "): " + v.help + " at " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join("; "));
		out.push("checked " + r.passes.length + " rules passed, " + r.violations.length + " violations in all");
		return out;
	})`, chromedp.EvalAwaitPromise))
	if err != nil || len(res) == 0 {
		t.Errorf("%s: axe-core did not run: %v", page, err)
		return
	}
	summary, serious := res[len(res)-1], res[:len(res)-1]
	t.Logf("%s: axe-core %s, %d serious or critical", page, summary, len(serious))
	for _, v := range serious {
		t.Errorf("%s: %s", page, v)
	}
}

// screenshot saves the page at a viewport of w×h (a phone when mobile):
// the whole page, and the first screen a visitor sees (path-top.png).
func screenshot(t *testing.T, ctx context.Context, path string, w, h int64, mobile bool) {
	t.Helper()
	viewport := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if mobile {
		viewport = append(viewport, chromedp.EmulateMobile, chromedp.EmulatePortrait)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h, viewport...)); err != nil {
		t.Errorf("viewport %dx%d: %v", w, h, err)
		return
	}
	if mobile {
		// The page fits the phone: nothing makes it scroll sideways.
		widths, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`))
		if err != nil || len(widths) != 2 || widths[0] > widths[1] {
			t.Errorf("%s: page width %v (scroll, client) at a %d px phone (%v)", path, widths, w, err)
		}
	}
	save := func(path string, shot chromedp.Action[[]byte]) {
		png, err := chromedp.Run(ctx, shot)
		if err != nil {
			t.Errorf("screenshot %s: %v", path, err)
			return
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Error(err)
		}
		fmt.Fprintln(os.Stderr, "screenshot:", path)
	}
	save(path, chromedp.FullScreenshot(100))
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
		t.Errorf("scroll to the top: %v", err)
	}
	save(strings.TrimSuffix(path, ".png")+"-top.png", chromedp.CaptureScreenshot())
}
