package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/client"
)

// TestWebEndToEnd drives the served pages and badges of the real binary
// with the devnet.
func TestWebEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "web.db"),
		"TOKENRISK_LOG_LEVEL":    "warn",
		"TOKENRISK_SOURCIFY_URL": "none",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	honeypot, ok := m.Token("honeypot_sell_blocked")
	if !ok {
		t.Fatal("manifest has no honeypot token")
	}
	pro := s.key(t, "pro")

	t.Run("badge names the level of the latest API scan", func(t *testing.T) {
		r := s.do(t, "GET", "/badge/"+honeypot.Address+".svg", "", "")
		if r.status != 200 || !strings.Contains(string(r.body), "not scanned") {
			t.Fatalf("before any scan: %d %s", r.status, r.body)
		}
		sr := s.scan(t, pro, honeypot.Address)
		if sr.status != 200 {
			t.Fatalf("scan: %d %s", sr.status, sr.body)
		}
		var rep struct {
			Level string  `json:"risk_level"`
			Score float64 `json:"overall_risk_score"`
		}
		if err := json.Unmarshal(sr.body, &rep); err != nil {
			t.Fatal(err)
		}
		r = s.do(t, "GET", "/badge/"+strings.ToLower(honeypot.Address)+".svg", "", "")
		var svg struct {
			Title string `xml:"title"`
		}
		if err := xml.Unmarshal(r.body, &svg); err != nil || r.status != 200 {
			t.Fatalf("badge: %d %v %s", r.status, err, r.body)
		}
		if !strings.HasPrefix(svg.Title, "tokenrisk: "+rep.Level+" ") || rep.Level != "critical" {
			t.Errorf("badge title %q for a %s report, want the honeypot's critical", svg.Title, rep.Level)
		}
		r = s.do(t, "GET", "/badge/"+honeypot.Address+".json", "", "")
		if r.status != 200 || !strings.Contains(string(r.body), `"message":"`+rep.Level) {
			t.Errorf("json badge: %d %s", r.status, r.body)
		}
	})

	t.Run("the home page offers the dev chain's tokens", func(t *testing.T) {
		r := s.do(t, "GET", "/", "", "")
		if r.status != 200 {
			t.Fatalf("home: %d", r.status)
		}
		for _, kind := range []string{"clean", "tax_sell_high", "honeypot_sell_blocked"} {
			tok, _ := m.Token(kind)
			if !strings.Contains(string(r.body), `href="/token/`+tok.Address+`"`) {
				t.Errorf("home page does not offer %s (%s)", kind, tok.Address)
			}
		}
	})

	t.Run("the page scans a zoo token without a key", func(t *testing.T) {
		tax, ok := m.Token("tax_sell_high")
		if !ok {
			t.Fatal("manifest has no tax_sell_high token")
		}
		r := s.do(t, "GET", "/token/"+strings.ToLower(tax.Address), "", "")
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			t.Fatalf("page: %d %s", r.status, r.header.Get("Content-Type"))
		}
		page := string(r.body)
		for _, want := range []string{"high risk", "SELL_TAX_HIGH", "Sell tax", "30 %", "Top holders", "Scores are probabilistic"} {
			if !strings.Contains(page, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		if r.header.Get("Content-Security-Policy") == "" {
			t.Error("no Content-Security-Policy")
		}
		// API paths keep answering problem+json, not pages.
		if r := s.do(t, "GET", "/api/v1/nothing", "", ""); r.status != 404 || r.header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("unknown API path: %d %s", r.status, r.header.Get("Content-Type"))
		}
	})

	t.Run("the Go client: scan, problems, history by cursor, export", func(t *testing.T) {
		ctx := context.Background()
		premium := s.key(t, "premium")
		c, err := client.New(s.url, premium)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := c.Scan(ctx, honeypot.Address)
		if err != nil {
			t.Fatal(err)
		}
		if rep.RiskLevel != client.Critical || !rep.HasFlag("HONEYPOT_CANNOT_SELL") || rep.Disclaimer == "" {
			t.Errorf("honeypot report: %s %v", rep.RiskLevel, rep.RiskFlags)
		}
		var p *client.Problem
		if _, err := c.Scan(ctx, "0x1234"); !errors.As(err, &p) || p.Code != "invalid_address" || p.Status != 400 || p.RequestID == "" {
			t.Errorf("invalid address: %v", err)
		}
		clean, _ := m.Token("clean")
		tax, _ := m.Token("tax_sell_high")
		for _, a := range []string{clean.Address, tax.Address} {
			if _, err := c.Scan(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		var ids []string
		for row, err := range c.History(ctx, client.HistoryFilter{PageSize: 1}) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, row.ScanID)
		}
		if len(ids) != 3 || ids[2] != rep.ScanID {
			t.Errorf("history over pages of 1: %v, want 3 scans ending with %s", ids, rep.ScanID)
		}
		var exported []string
		err = c.ExportReports(ctx, client.HistoryFilter{}, func(r *client.Report) error {
			exported = append(exported, r.ScanID)
			return nil
		})
		if err != nil || strings.Join(exported, ",") != strings.Join(ids, ",") {
			t.Errorf("export: %v %v, want %v", exported, err, ids)
		}
		body, err := c.Export(ctx, client.CSV, client.HistoryFilter{Level: client.Critical})
		if err != nil {
			t.Fatal(err)
		}
		csv, _ := io.ReadAll(body)
		body.Close()
		if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); len(lines) != 2 || !strings.Contains(lines[1], rep.ScanID) {
			t.Errorf("critical CSV export:\n%s", csv)
		}
		free, _ := client.New(s.url, s.key(t, "free"), client.WithRetries(0))
		for _, err := range free.History(ctx, client.HistoryFilter{}) {
			if !errors.As(err, &p) || p.Code != "plan_forbidden" {
				t.Errorf("free history: %v, want plan_forbidden", err)
			}
		}
	})

	t.Run("scan --server prints a summary, --json the report", func(t *testing.T) {
		env := map[string]string{"TOKENRISK_KEY": pro, "TOKENRISK_SERVER": s.url}
		out, err := runCmd(t, env, "scan", honeypot.Address)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"risk: CRITICAL", "HONEYPOT_CANNOT_SELL", "checklist:", "not honeypot         ✗ no (HONEYPOT_CANNOT_SELL", "Not financial advice"} {
			if !strings.Contains(out, want) {
				t.Errorf("summary lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "\x1b[") {
			t.Error("colour codes written to a file")
		}
		out, err = runCmd(t, env, "scan", "--json", honeypot.Address)
		var raw map[string]any
		if err != nil || json.Unmarshal([]byte(out), &raw) != nil || raw["risk_level"] != "critical" {
			t.Errorf("scan --json: %v %.300s", err, out)
		}
		if _, err := runCmd(t, map[string]string{"TOKENRISK_KEY": "trk_wrong"}, "scan", "--server", s.url, honeypot.Address); err == nil || !strings.Contains(err.Error(), "unauthorized") {
			t.Errorf("a wrong key: %v, want unauthorized", err)
		}
		if _, err := runCmd(t, map[string]string{}, "scan", "--server", s.url, honeypot.Address); err == nil || !strings.Contains(err.Error(), "set TOKENRISK_KEY") {
			t.Errorf("no key: %v, want a message saying to set TOKENRISK_KEY", err)
		}
	})

	t.Run("examples/prebuy gates on level and completeness", func(t *testing.T) {
		bin := filepath.Join(t.TempDir(), "prebuy")
		if out, err := exec.Command("go", "build", "-o", bin, "../../examples/prebuy").CombinedOutput(); err != nil {
			t.Fatalf("build prebuy: %v\n%s", err, out)
		}
		gate := func(addr string, args ...string) (int, string) {
			cmd := exec.Command(bin, append(append([]string{"-server", s.url}, args...), addr)...)
			cmd.Env = append(os.Environ(), "TOKENRISK_KEY="+pro)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				return exit.ExitCode(), string(out)
			}
			if err != nil {
				t.Fatal(err)
			}
			return 0, string(out)
		}
		if code, out := gate(honeypot.Address); code != 1 || !strings.Contains(out, "do not buy") {
			t.Errorf("honeypot: exit %d\n%s", code, out)
		}
		tax, _ := m.Token("tax_sell_high")
		if code, out := gate(tax.Address, "-max-level", "critical"); code != 0 {
			t.Errorf("a high token under -max-level critical: exit %d\n%s", code, out)
		}
		if code, out := gate(tax.Address, "-max-level", "high"); code != 1 {
			t.Errorf("a high token under -max-level high: exit %d\n%s", code, out)
		}
		if code, _ := gate("0x1234"); code != 2 {
			t.Errorf("an invalid address: exit %d, want 2 (no verdict)", code)
		}
	})
}
