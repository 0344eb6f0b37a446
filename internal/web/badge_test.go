package web_test

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/web"
)

const (
	pepe      = "0x6982508145454Ce325dDbE47a25d4ec3d2311933"
	pepeLower = "0x6982508145454ce325ddbe47a25d4ec3d2311933"
)

func openStore(t testing.TB) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// saveScan stores a scan of address as the API would.
func saveScan(t testing.TB, st store.Store, id, address, level string, score float64, at time.Time) {
	t.Helper()
	err := st.SaveScan(context.Background(), store.Scan{
		ID: id, KeyID: "key_a", Address: address, Chain: "ethereum", RiskLevel: level, Score: score,
		ScannedAt: at, Report: []byte(`{"scan_id":"` + id + `"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
}

// refusingScanner fails the test if a badge ever starts a scan.
type refusingScanner struct{ t testing.TB }

func (s refusingScanner) Allowed(string, []string) (chains.Address, error) {
	s.t.Error("a badge asked whether it may scan")
	return chains.Address{}, nil
}

func (s refusingScanner) Scan(context.Context, scan.ScanRequest) (*scan.Report, error) {
	s.t.Error("a badge started a scan")
	return nil, context.Canceled
}

func badgeServer(t testing.TB, st store.Store) *httptest.Server {
	t.Helper()
	p, err := web.New(web.Deps{Store: st, Scanner: refusingScanner{t}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	p.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func get(t testing.TB, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1] // a forged Host header
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// svgBadge is the part of a badge a reader sees: its title, its texts and
// the fill of the message half.
type svgBadge struct {
	Title string    `xml:"title"`
	Rects []svgRect `xml:"g>rect"`
	Texts []string  `xml:"g>text"`
}

type svgRect struct {
	X    string `xml:"x,attr"`
	Fill string `xml:"fill,attr"`
}

func parseBadge(t *testing.T, b []byte) svgBadge {
	t.Helper()
	var v svgBadge
	if err := xml.Unmarshal(b, &v); err != nil {
		t.Fatalf("badge is not XML: %v\n%s", err, b)
	}
	return v
}

func (b svgBadge) messageFill() string {
	for _, r := range b.Rects {
		if r.X != "" {
			return r.Fill
		}
	}
	return ""
}

func TestBadgeShowsTheLatestStoredVerdict(t *testing.T) {
	st := openStore(t)
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	saveScan(t, st, "scn_old", pepe, "minimal", 5, t0)
	saveScan(t, st, "scn_new", pepe, "high", 67.7, t0.Add(time.Hour))
	srv := badgeServer(t, st)

	// The lower-case spelling reaches the checksummed address's rows.
	res, body := get(t, srv.URL+"/badge/"+pepeLower+".svg")
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	if ct := res.Header.Get("Content-Type"); ct != "image/svg+xml" {
		t.Errorf("Content-Type = %q", ct)
	}
	b := parseBadge(t, body)
	if b.Title != "tokenrisk: high 67" {
		t.Errorf("title = %q, want %q", b.Title, "tokenrisk: high 67")
	}
	if strings.Join(b.Texts, "|") != "tokenrisk|high 67" {
		t.Errorf("texts = %q", b.Texts)
	}
	if got := b.messageFill(); got != "#c2410c" {
		t.Errorf("message colour = %q, want high's #c2410c", got)
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=") || !strings.Contains(cc, "public") {
		t.Errorf("Cache-Control = %q", cc)
	}
	if lm := res.Header.Get("Last-Modified"); lm != t0.Add(time.Hour).Format(http.TimeFormat) {
		t.Errorf("Last-Modified = %q", lm)
	}
	etag := res.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}

	res, body = get(t, srv.URL+"/badge/"+pepe+".svg", "If-None-Match", etag)
	if res.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("If-None-Match the current ETag: %d with %d bytes, want 304 and none", res.StatusCode, len(body))
	}

	// A newer verdict is a new badge under a new ETag.
	saveScan(t, st, "scn_newer", pepe, "critical", 95, t0.Add(2*time.Hour))
	res, body = get(t, srv.URL+"/badge/"+pepe+".svg", "If-None-Match", etag)
	if res.StatusCode != 200 {
		t.Fatalf("after a new scan: status %d, want 200", res.StatusCode)
	}
	if b := parseBadge(t, body); b.Title != "tokenrisk: critical 95" || b.messageFill() != "#b91c1c" {
		t.Errorf("after a new scan: %q in %s", b.Title, b.messageFill())
	}
	if res.Header.Get("ETag") == etag {
		t.Error("the ETag did not change with the verdict")
	}
}

// TestBadgeMarksADegradedVerdict: a stored report whose checks did not
// all run shows its level as incomplete, never as a full verdict.
func TestBadgeMarksADegradedVerdict(t *testing.T) {
	st := openStore(t)
	err := st.SaveScan(context.Background(), store.Scan{
		ID: "scn_deg", KeyID: "key_a", Address: pepe, Chain: "ethereum", RiskLevel: "medium", Score: 45,
		ScannedAt: time.Now(), Report: []byte(`{"scan_id":"scn_deg","completeness":"degraded","unchecked":["holders"]}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	_, body := get(t, badgeServer(t, st).URL+"/badge/"+pepe+".svg")
	if b := parseBadge(t, body); b.Title != "tokenrisk: medium 45 (incomplete)" {
		t.Errorf("title = %q, want the level marked incomplete", b.Title)
	}
}

func TestBadgeScoreNeverReadsAsTheNextLevel(t *testing.T) {
	st := openStore(t)
	saveScan(t, st, "scn_1", pepe, "minimal", 19.6, time.Now())
	_, body := get(t, badgeServer(t, st).URL+"/badge/"+pepe+".svg")
	if b := parseBadge(t, body); b.Title != "tokenrisk: minimal 19" {
		t.Errorf("title = %q, want minimal 19 (a score of 19.6 is below low's 20)", b.Title)
	}
}

func TestBadgeNotScanned(t *testing.T) {
	srv := badgeServer(t, openStore(t))
	res, body := get(t, srv.URL+"/badge/"+pepe+".svg")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	b := parseBadge(t, body)
	if b.Title != "tokenrisk: not scanned" {
		t.Errorf("title = %q", b.Title)
	}
	for _, level := range []string{"minimal", "low", "medium", "high", "critical"} {
		if strings.Contains(string(body), level) {
			t.Errorf("a badge with no scan names the level %q", level)
		}
	}
	res, body = get(t, srv.URL+"/badge/"+pepe+".json")
	var e map[string]any
	if err := json.Unmarshal(body, &e); err != nil || res.StatusCode != 200 {
		t.Fatalf("json: %d %v %s", res.StatusCode, err, body)
	}
	if e["message"] != "not scanned" {
		t.Errorf("json message = %v", e["message"])
	}
}

func TestBadgeInvalidAddress(t *testing.T) {
	srv := badgeServer(t, openStore(t))
	for _, path := range []string{"/badge/0x1234.svg", "/badge/0x6982508145454Ce325dDbE47a25d4ec3d2311934.svg", "/badge/nothing.json"} {
		res, body := get(t, srv.URL+path)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "invalid address") {
			t.Errorf("%s: %d %s, want 400 invalid address", path, res.StatusCode, body)
		}
	}
	if res, _ := get(t, srv.URL+"/badge/"+pepe+".png"); res.StatusCode != http.StatusNotFound {
		t.Errorf(".png: %d, want 404", res.StatusCode)
	}
}

func TestBadgeJSONIsAShieldsEndpoint(t *testing.T) {
	st := openStore(t)
	saveScan(t, st, "scn_1", pepe, "medium", 45.2, time.Now())
	res, body := get(t, badgeServer(t, st).URL+"/badge/"+pepe+".json")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var e struct {
		SchemaVersion *int    `json:"schemaVersion"`
		Label         string  `json:"label"`
		Message       string  `json:"message"`
		Color         string  `json:"color"`
		IsError       *bool   `json:"isError"`
		CacheSeconds  float64 `json:"cacheSeconds"`
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if e.SchemaVersion == nil || *e.SchemaVersion != 1 || e.Label != "tokenrisk" || e.Message != "medium 45" || e.Color != "8a5a00" || e.IsError != nil {
		t.Errorf("endpoint = %s", body)
	}
	if e.CacheSeconds < 300 {
		t.Errorf("cacheSeconds = %v; shields needs at least 300", e.CacheSeconds)
	}
	if res.Header.Get("ETag") == "" {
		t.Error("no ETag on the JSON badge")
	}
}

// TestLevelColoursMeetWCAGAA checks white badge text on every level's
// colour has a contrast ratio of at least 4.5:1.
func TestLevelColoursMeetWCAGAA(t *testing.T) {
	for level, hex := range web.LevelColors() {
		if r := contrast(hex, "ffffff"); r < 4.5 {
			t.Errorf("%s #%s: contrast with white %.2f < 4.5", level, hex, r)
		}
	}
}

// contrast is the WCAG 2 contrast ratio of two hex colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(hex string) float64 {
	hex = strings.TrimPrefix(hex, "#")
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	ch := func(i int) float64 {
		v, _ := strconv.ParseUint(hex[i:i+2], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(0) + 0.7152*ch(2) + 0.0722*ch(4)
}

// saveReport stores a scan with its report bytes.
func saveReport(t testing.TB, st store.Store, id, address, level string, score float64, report string) {
	t.Helper()
	err := st.SaveScan(context.Background(), store.Scan{
		ID: id, KeyID: "key_a", Address: address, Chain: "ethereum", RiskLevel: level, Score: score,
		ScannedAt: time.Now(), Report: []byte(report),
	})
	if err != nil {
		t.Fatal(err)
	}
}
