package httpapi_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

func TestScanAnswersAReport(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("free")
	for _, path := range []string{"/api/v1/scan/", "/api/v1/scan"} {
		res := h.request(http.MethodPost, path, key, `{"address": " `+pepeLower+` "}`)
		rep := res.report(t)
		if rep.Address != pepe || rep.Chain != "ethereum" || rep.ScanID == "" {
			t.Errorf("%s: address %s chain %s id %q", path, rep.Address, rep.Chain, rep.ScanID)
		}
		if rep.OverallRiskScore <= 0 || rep.RiskLevel == "" || len(rep.RiskFlags) != 2 {
			t.Errorf("%s: score %v level %q flags %d", path, rep.OverallRiskScore, rep.RiskLevel, len(rep.RiskFlags))
		}
		if res.Header.Get("RateLimit-Limit") != "10" || res.Header.Get("X-Request-ID") == "" {
			t.Errorf("%s: headers %v", path, res.Header)
		}
	}
}

// TestErrorCodes covers every row of SPEC §4 reachable through the API,
// each as problem+json with its status, code and request id.
func TestErrorCodes(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	free, premium := h.key("free"), h.key("premium")
	revoked := h.key("pro")
	keys, _ := h.keys.List(context.Background())
	for _, k := range keys {
		if k.Plan == "pro" {
			if err := h.keys.Revoke(context.Background(), k.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	adapterErr := func(code fault.Code) func(context.Context, scan.Request) (*scan.Assessment, error) {
		return func(context.Context, scan.Request) (*scan.Assessment, error) {
			return nil, fault.Errorf(code, "adapter says %s", code)
		}
	}
	tests := []struct {
		name    string
		method  string
		path    string
		key     string
		body    string
		headers []string
		assess  func(context.Context, scan.Request) (*scan.Assessment, error)
		status  int
		code    fault.Code
	}{
		{name: "malformed json", key: free, body: `{"address":`, status: 400, code: fault.InvalidJSON},
		{name: "unknown field", key: free, body: `{"address":"` + pepe + `","chain":"ethereum"}`, status: 400, code: fault.InvalidJSON},
		{name: "trailing data", key: free, body: `{"address":"` + pepe + `"} {}`, status: 400, code: fault.InvalidJSON},
		{name: "address not a string", key: free, body: `{"address":42}`, status: 400, code: fault.InvalidJSON},
		{name: "array body", key: free, body: `["` + pepe + `"]`, status: 400, code: fault.InvalidJSON},
		{name: "missing address", key: free, body: `{}`, status: 400, code: fault.InvalidAddress},
		{name: "short address", key: free, body: `{"address":"0x1234"}`, status: 400, code: fault.InvalidAddress},
		{name: "solana too short", key: free, body: `{"address":"abc"}`, status: 400, code: fault.InvalidAddress},
		{name: "bad checksum", key: free, body: `{"address":"0x6982508145454ce325dDbE47a25d4ec3d2311933"}`, status: 400, code: fault.InvalidChecksum},
		{name: "no key", body: `{"address":"` + pepe + `"}`, status: 401, code: fault.Unauthorized},
		{name: "basic auth", body: `{"address":"` + pepe + `"}`, headers: []string{"Authorization", "Basic dXNlcjpwYXNz"}, status: 401, code: fault.Unauthorized},
		{name: "unknown key", key: "trk_3yZe7d5nTzXwQ8vKjBWnUu4sS2pWZ9cAfHqJx1mLrVgE", body: `{"address":"` + pepe + `"}`, status: 401, code: fault.Unauthorized},
		{name: "malformed key", key: "hunter2", body: `{"address":"` + pepe + `"}`, status: 401, code: fault.Unauthorized},
		{name: "revoked key", key: revoked, body: `{"address":"` + pepe + `"}`, status: 401, code: fault.Unauthorized},
		{name: "chain not in plan", key: free, body: `{"address":"` + bonk + `"}`, status: 403, code: fault.PlanForbidden},
		{name: "history not in plan", method: "GET", path: "/api/v1/scans", key: free, status: 403, code: fault.PlanForbidden},
		{name: "export not in plan", method: "GET", path: "/api/v1/scans/export?format=csv", key: free, status: 403, code: fault.PlanForbidden},
		{name: "token not found", key: free, body: `{"address":"` + pepe + `"}`, assess: adapterErr(fault.TokenNotFound), status: 404, code: fault.TokenNotFound},
		{name: "unknown scan", method: "GET", path: "/api/v1/scans/scn_01JD0000000000000000000000", key: premium, status: 404, code: fault.NotFound},
		{name: "unknown path", method: "GET", path: "/api/v2/scan", status: 404, code: fault.NotFound},
		{name: "GET scan", method: "GET", path: "/api/v1/scan/", key: free, status: 405, code: fault.MethodNotAllowed},
		{name: "DELETE scans", method: "DELETE", path: "/api/v1/scans", key: premium, status: 405, code: fault.MethodNotAllowed},
		{name: "body too large", key: free, body: `{"address":"` + pepe + `","x":"` + strings.Repeat("a", 5000) + `"}`, status: 413, code: fault.BodyTooLarge},
		{name: "wrong content type", key: free, body: `{"address":"` + pepe + `"}`, headers: []string{"Content-Type", "text/plain"}, status: 415, code: fault.UnsupportedMediaType},
		{name: "no content type", key: free, body: `{"address":"` + pepe + `"}`, headers: []string{"Content-Type", ""}, status: 415, code: fault.UnsupportedMediaType},
		{name: "not a token", key: free, body: `{"address":"` + pepe + `"}`, assess: adapterErr(fault.NotAToken), status: 422, code: fault.NotAToken},
		{name: "upstream error", key: free, body: `{"address":"` + pepe + `"}`, assess: adapterErr(fault.UpstreamError), status: 502, code: fault.UpstreamError},
		{name: "upstream timeout", key: free, body: `{"address":"` + pepe + `"}`, assess: adapterErr(fault.UpstreamTimeout), status: 504, code: fault.UpstreamTimeout},
		{name: "bad level", method: "GET", path: "/api/v1/scans?level=scary", key: premium, status: 400, code: fault.InvalidRequest},
		{name: "bad limit", method: "GET", path: "/api/v1/scans?limit=0", key: premium, status: 400, code: fault.InvalidRequest},
		{name: "bad time", method: "GET", path: "/api/v1/scans?from=yesterday", key: premium, status: 400, code: fault.InvalidRequest},
		{name: "bad cursor", method: "GET", path: "/api/v1/scans?cursor=%21%21%21", key: premium, status: 400, code: fault.InvalidRequest},
		{name: "bad export format", method: "GET", path: "/api/v1/scans/export?format=xml", key: premium, status: 400, code: fault.InvalidRequest},
		{name: "internal error hides its cause", key: premium, body: `{"address":"` + pepe + `"}`,
			assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
				return nil, fmt.Errorf("dial https://user:secret@rpc.example/v1: refused")
			}, status: 500, code: fault.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.assess != nil {
				h.setAssess(tt.assess)
				defer h.setAssess(okAssessment)
			}
			method, path := tt.method, tt.path
			if method == "" {
				method, path = http.MethodPost, "/api/v1/scan/"
			}
			res := h.request(method, path, tt.key, tt.body, tt.headers...)
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tt.status, res.body)
			}
			p := res.problem(t)
			if p.Code != string(tt.code) || p.Status != tt.status || p.Title == "" || p.Detail == "" || p.Type == "" {
				t.Errorf("problem %+v, want code %s", p, tt.code)
			}
			if p.RequestID == "" || p.RequestID != res.Header.Get("X-Request-ID") {
				t.Errorf("request_id %q, header %q", p.RequestID, res.Header.Get("X-Request-ID"))
			}
			if strings.Contains(string(res.body), "secret") || strings.Contains(string(res.body), "rpc.example") {
				t.Errorf("problem leaks the cause: %s", res.body)
			}
			if logs := h.logs.String(); strings.Contains(logs, "secret@") || strings.Contains(logs, "rpc.example") || (tt.key != "" && strings.Contains(logs, tt.key)) {
				t.Errorf("logs leak a URL or key:\n%s", logs)
			}
			switch tt.status {
			case 401:
				if !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("WWW-Authenticate = %q", res.Header.Get("WWW-Authenticate"))
				}
			case 405:
				if res.Header.Get("Allow") == "" {
					t.Error("405 without Allow")
				}
			}
		})
	}
}

func TestFreePlanRateLimit(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("free")
	for i := range 10 {
		res := h.scan(key, pepe)
		if res.StatusCode != 200 {
			t.Fatalf("scan %d: %d %s", i+1, res.StatusCode, res.body)
		}
		if got, want := res.Header.Get("RateLimit-Remaining"), strconv.Itoa(9-i); got != want {
			t.Errorf("scan %d: RateLimit-Remaining %s, want %s", i+1, got, want)
		}
	}
	res := h.scan(key, pepe)
	if res.StatusCode != http.StatusTooManyRequests || res.problem(t).Code != string(fault.RateLimited) {
		t.Fatalf("11th scan: %d %s, want 429 rate_limited", res.StatusCode, res.body)
	}
	ra, err := strconv.Atoi(res.Header.Get("Retry-After"))
	if err != nil || ra < 1 || ra > 61 {
		t.Errorf("Retry-After = %q, want about a minute at most", res.Header.Get("Retry-After"))
	}
	if res.Header.Get("RateLimit-Remaining") != "0" || res.Header.Get("RateLimit-Limit") != "10" {
		t.Errorf("RateLimit headers %v", res.Header)
	}
	// Invalid requests and reads are not charged; a minute later scans pass.
	if res := h.request("GET", "/api/v1/usage", key, ""); res.StatusCode != 200 {
		t.Errorf("usage while rate limited: %d", res.StatusCode)
	}
	h.advance(61 * time.Second)
	if res := h.scan(key, pepe); res.StatusCode != 200 {
		t.Errorf("scan a minute later: %d %s", res.StatusCode, res.body)
	}
}

func TestInvalidRequestsAreNotCharged(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("free")
	for range 15 {
		if res := h.scan(key, "0xnope"); res.StatusCode != 400 {
			t.Fatalf("status %d", res.StatusCode)
		}
		// Reads of usage and of the flag catalogue are not charged either.
		for _, path := range []string{"/api/v1/usage", "/api/v1/flags"} {
			if res := h.request("GET", path, key, ""); res.StatusCode != 200 {
				t.Fatalf("%s: %d %s", path, res.StatusCode, res.body)
			}
		}
	}
	var u usage
	if err := json.Unmarshal(h.request("GET", "/api/v1/usage", key, "").body, &u); err != nil || u.ScansToday != 0 {
		t.Errorf("usage after invalid requests and reads: %+v, %v; want 0 scans", u, err)
	}
	if res := h.scan(key, pepe); res.StatusCode != 200 {
		t.Fatalf("valid scan after invalid ones and reads: %d %s", res.StatusCode, res.body)
	}
}

func TestDailyQuota(t *testing.T) {
	plans := auth.DefaultPlans()
	tiny := plans["free"]
	tiny.DailyQuota = 3
	tiny.RatePerMinute = 0
	plans["free"] = tiny
	h := newHarness(t, harnessOptions{plans: plans})
	key := h.key("free")
	for i := range 3 {
		if res := h.scan(key, pepe); res.StatusCode != 200 {
			t.Fatalf("scan %d: %d", i, res.StatusCode)
		}
	}
	res := h.scan(key, pepe)
	if res.StatusCode != 429 || res.problem(t).Code != string(fault.QuotaExceeded) {
		t.Fatalf("4th scan: %d %s, want 429 quota_exceeded", res.StatusCode, res.body)
	}
	// 10:00 UTC: the quota resets in 14 hours.
	if got := res.Header.Get("Retry-After"); got != strconv.Itoa(14*3600) {
		t.Errorf("Retry-After = %s, want %d", got, 14*3600)
	}
	var u usage
	if err := json.Unmarshal(h.request("GET", "/api/v1/usage", key, "").body, &u); err != nil {
		t.Fatal(err)
	}
	if u.ScansToday != 3 || u.Remaining == nil || *u.Remaining != 0 {
		t.Errorf("usage %+v, want 3 used, 0 remaining", u)
	}
	h.advance(14 * time.Hour)
	if res := h.scan(key, pepe); res.StatusCode != 200 {
		t.Errorf("next day: %d %s", res.StatusCode, res.body)
	}
}

type usage struct {
	Plan       string `json:"plan"`
	ScansToday int64  `json:"scans_today"`
	DailyQuota *int64 `json:"daily_quota"`
	Remaining  *int64 `json:"remaining_today"`
	RatePerMin *int64 `json:"rate_per_minute"`
}

func TestPremiumIsUnlimited(t *testing.T) {
	h := newHarness(t, harnessOptions{cacheTTL: time.Minute})
	key := h.key("premium")
	for i := range 30 {
		res := h.scan(key, pepe)
		if res.StatusCode != 200 {
			t.Fatalf("scan %d: %d", i, res.StatusCode)
		}
		if res.Header.Get("RateLimit-Limit") != "" {
			t.Fatalf("premium got RateLimit-Limit %s", res.Header.Get("RateLimit-Limit"))
		}
	}
	var u usage
	if err := json.Unmarshal(h.request("GET", "/api/v1/usage", key, "").body, &u); err != nil {
		t.Fatal(err)
	}
	if u.ScansToday != 30 || u.DailyQuota != nil || u.RatePerMin != nil || u.Plan != "premium" {
		t.Errorf("usage %+v, want 30 scans, null limits", u)
	}
}

func TestCachedScanKeepsFactsWithFreshID(t *testing.T) {
	h := newHarness(t, harnessOptions{cacheTTL: time.Minute})
	key := h.key("premium")
	answers := []response{h.scan(key, pepe), h.scan(key, pepeLower), h.scan(key, pepe)}
	first, second := answers[0].report(t), answers[1].report(t)
	if first.Cached || !second.Cached {
		t.Errorf("cached %v then %v, want false then true", first.Cached, second.Cached)
	}
	if first.ScanID == second.ScanID || !first.ScannedAt.Equal(second.ScannedAt) || first.OverallRiskScore != second.OverallRiskScore {
		t.Errorf("first %s %v %v, second %s %v %v", first.ScanID, first.ScannedAt, first.OverallRiskScore, second.ScanID, second.ScannedAt, second.OverallRiskScore)
	}
	// Each is in history under its own id, read back (one by one and
	// exported) byte for byte as answered, though the cached ones are
	// stored as the first one's report and their own fields.
	exported := strings.Split(strings.TrimSpace(string(h.request("GET", "/api/v1/scans/export?format=ndjson", key, "").body)), "\n")
	if len(exported) != len(answers) {
		t.Fatalf("exported %d scans, want %d", len(exported), len(answers))
	}
	for i, a := range answers {
		id := a.report(t).ScanID
		res := h.request("GET", "/api/v1/scans/"+id, key, "")
		if !bytes.Equal(res.body, a.body) {
			t.Errorf("GET %s answered\n%s\nwant\n%s", id, res.body, a.body)
		}
		if got := exported[len(answers)-1-i] + "\n"; got != string(a.body) {
			t.Errorf("exported\n%s\nwant\n%s", got, a.body)
		}
	}
}

func TestHistoryPaginationAndFilters(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key, other := h.key("premium"), h.key("premium")
	var ids []string
	for i := range 7 {
		if i == 5 {
			h.setAssess(func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
				a, _ := okAssessment(ctx, req)
				a.Chain = "bsc"
				return a, nil
			})
		}
		ids = append(ids, h.scan(key, pepe).report(t).ScanID)
		h.advance(time.Minute)
	}
	h.scan(other, pepe)
	// Newest first, 3 per page, no duplicates or gaps.
	var got []string
	cursor := ""
	for page := 0; ; page++ {
		path := "/api/v1/scans?limit=3"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		var p httpapi.ScanPage
		res := h.request("GET", path, key, "")
		if res.StatusCode != 200 {
			t.Fatalf("page %d: %d %s", page, res.StatusCode, res.body)
		}
		if err := json.Unmarshal(res.body, &p); err != nil {
			t.Fatal(err)
		}
		for _, s := range p.Scans {
			got = append(got, s.ScanID)
		}
		if p.NextCursor == nil {
			break
		}
		cursor = *p.NextCursor
		if page > 5 {
			t.Fatal("pagination does not end")
		}
	}
	if len(got) != 7 {
		t.Fatalf("listed %d scans, want 7: %v", len(got), got)
	}
	for i := range got {
		if got[i] != ids[6-i] {
			t.Fatalf("order %v, want newest first of %v", got, ids)
		}
	}
	count := func(query string) int {
		var p httpapi.ScanPage
		res := h.request("GET", "/api/v1/scans?"+query, key, "")
		if err := json.Unmarshal(res.body, &p); err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, res.StatusCode, res.body)
		}
		return len(p.Scans)
	}
	filters := []struct {
		query string
		want  int
	}{
		{"chain=bsc", 2},
		{"chain=ethereum", 5},
		{"chain=polygon", 0},
		{"level=critical", 0},
		{"from=2026-11-21T10:02:00Z", 5},
		{"from=2026-11-21T10:02:00Z&to=2026-11-21T10:04:00Z", 2},
		{"to=2026-11-21T10:00:30Z", 1},
	}
	for _, f := range filters {
		if got := count(f.query); got != f.want {
			t.Errorf("%s: %d scans, want %d", f.query, got, f.want)
		}
	}
	// Another key's scans are invisible.
	if res := h.request("GET", "/api/v1/scans/"+ids[0], other, ""); res.StatusCode != 404 {
		t.Errorf("other key reads a foreign scan: %d", res.StatusCode)
	}
}

func TestExport(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	for range 3 {
		h.scan(key, pepe)
		h.advance(time.Second)
	}
	res := h.request("GET", "/api/v1/scans/export?format=csv", key, "")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	rows, err := csv.NewReader(strings.NewReader(string(res.body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || rows[0][0] != "scan_id" || rows[1][2] != pepe || rows[1][3] != "ethereum" {
		t.Errorf("csv rows %v", rows)
	}
	res = h.request("GET", "/api/v1/scans/export?format=ndjson&chain=ethereum", key, "")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("ndjson: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := strings.Split(strings.TrimSpace(string(res.body)), "\n")
	if len(lines) != 3 {
		t.Fatalf("ndjson has %d lines, want 3", len(lines))
	}
	for _, l := range lines {
		var rep scan.Report
		if err := json.Unmarshal([]byte(l), &rep); err != nil || rep.Address != pepe {
			t.Errorf("ndjson line %s: %v", l, err)
		}
	}
	// An empty export is a header only / an empty body, still 200.
	res = h.request("GET", "/api/v1/scans/export?format=csv&chain=solana", key, "")
	if res.StatusCode != 200 || strings.Count(string(res.body), "\n") != 1 {
		t.Errorf("empty csv export: %d %q", res.StatusCode, res.body)
	}
}

func TestFlagsAndHealth(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	var fl httpapi.FlagList
	res := h.request("GET", "/api/v1/flags", "", "")
	if err := json.Unmarshal(res.body, &fl); err != nil || res.StatusCode != 200 {
		t.Fatalf("flags: %d %v", res.StatusCode, err)
	}
	found := false
	for _, f := range fl.Flags {
		if f.Code == "HONEYPOT_CANNOT_SELL" && f.Weight > 0 && f.Meaning != "" {
			found = true
		}
	}
	if !found || len(fl.Flags) < 40 {
		t.Errorf("catalogue has %d flags, HONEYPOT_CANNOT_SELL found %v", len(fl.Flags), found)
	}
	for _, p := range []string{"/healthz", "/readyz", "/api/v1/openapi.json"} {
		if res := h.request("GET", p, "", ""); res.StatusCode != 200 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	h.store.Close()
	if res := h.request("GET", "/readyz", "", ""); res.StatusCode != 503 {
		t.Errorf("readyz with a closed store: %d, want 503", res.StatusCode)
	}
}

func TestMetrics(t *testing.T) {
	h := newHarness(t, harnessOptions{cacheTTL: time.Minute})
	key := h.key("premium")
	h.scan(key, pepe)
	h.scan(key, pepe)
	h.request("GET", "/api/v1/scans/nope", "", "")
	body := string(h.request("GET", "/metrics", "", "").body)
	for _, want := range []string{
		`tokenrisk_http_requests_total{route="POST /api/v1/scan/{$}",status="200"} 2`,
		`tokenrisk_http_requests_total{route="GET /api/v1/scans/{scan_id}",status="401"} 1`,
		`tokenrisk_scan_cache_total{result="hit"} 1`,
		`tokenrisk_scan_duration_seconds_count{chain="ethereum"} 1`,
		`tokenrisk_admission_queue_depth`,
		`tokenrisk_admission_scan_limit 16`, // the default limit's starting point
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestRequestID(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	res := h.request("GET", "/healthz", "", "", "X-Request-ID", "client-abc.1")
	if got := res.Header.Get("X-Request-ID"); got != "client-abc.1" {
		t.Errorf("plain client id not echoed: %q", got)
	}
	res = h.request("GET", "/healthz", "", "", "X-Request-ID", "evil\u2028id<script>")
	if got := res.Header.Get("X-Request-ID"); !strings.HasPrefix(got, "req_") {
		t.Errorf("unsafe client id echoed: %q", got)
	}
}

func TestOverloaded(t *testing.T) {
	h := newHarness(t, harnessOptions{maxConcurrent: 1, queueLimit: 1})
	started, release := h.holdScans(10)
	free := h.key("free")
	done := make(chan response, 2)
	// Distinct addresses, so that in-flight dedupe does not merge them.
	go func() { done <- h.scan(free, "0x0000000000000000000000000000000000000001") }()
	<-started
	go func() { done <- h.scan(free, "0x0000000000000000000000000000000000000002") }()
	deadline := time.Now().Add(5 * time.Second)
	for h.engine.Queued() != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	res := h.scan(free, "0x0000000000000000000000000000000000000003")
	if res.StatusCode != 503 || res.problem(t).Code != string(fault.Overloaded) || res.Header.Get("Retry-After") == "" {
		t.Fatalf("third scan: %d %s, want 503 overloaded with Retry-After", res.StatusCode, res.body)
	}
	release()
	for range 2 {
		if r := <-done; r.StatusCode != 200 {
			t.Errorf("queued scan: %d %s", r.StatusCode, r.body)
		}
	}
}

// TestExportStreamsManyRows: an export larger than one flush arrives
// whole, newest first, in both formats.
func TestExportStreamsManyRows(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	rep := h.scan(key, pepe)
	if rep.StatusCode != 200 {
		t.Fatal(rep.StatusCode)
	}
	keys, _ := h.keys.List(context.Background())
	const n = 3000
	rows := make([]store.Scan, n)
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		rows[i] = store.Scan{ID: fmt.Sprintf("scn_%026d", i), KeyID: keys[0].ID, Address: pepe, Chain: "ethereum",
			RiskLevel: "low", Score: 25, ScannedAt: base.Add(time.Duration(i) * time.Second), Report: rep.body[:len(rep.body)-1]}
	}
	if err := h.store.SaveScans(context.Background(), rows); err != nil {
		t.Fatal(err)
	}
	res := h.request("GET", "/api/v1/scans/export?format=csv", key, "")
	got, err := csv.NewReader(strings.NewReader(string(res.body))).ReadAll()
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("csv: %d %v", res.StatusCode, err)
	}
	if len(got) != n+2 || got[2][0] != rows[n-1].ID || got[n+1][0] != rows[0].ID {
		t.Errorf("csv has %d rows (want %d), second %v, last %v", len(got), n+2, got[2][0], got[len(got)-1][0])
	}
	res = h.request("GET", "/api/v1/scans/export?format=ndjson", key, "")
	if lines := strings.Count(string(res.body), "\n"); lines != n+1 {
		t.Errorf("ndjson has %d lines, want %d", lines, n+1)
	}
}

// TestDailyQuotaHoldsUnderConcurrency: scans of one key that arrive
// together are counted against the quota before any of them is recorded,
// so a burst cannot take more than what is left of the day.
func TestDailyQuotaHoldsUnderConcurrency(t *testing.T) {
	plans := auth.DefaultPlans()
	tiny := plans["free"]
	tiny.DailyQuota = 3
	tiny.RatePerMinute = 0
	plans["free"] = tiny
	h := newHarness(t, harnessOptions{plans: plans})
	key := h.key("free")
	var started atomic.Int64
	release := make(chan struct{})
	h.setAssess(func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
		started.Add(1)
		<-release
		return okAssessment(ctx, req)
	})
	const burst = 8
	results := make(chan response, burst)
	for i := range burst {
		go func() { results <- h.scan(key, fmt.Sprintf("0x%040x", i+1)) }()
	}
	var got []response
	deadline := time.After(5 * time.Second)
	for int(started.Load())+len(got) < burst {
		select {
		case r := <-results:
			got = append(got, r)
		case <-deadline:
			t.Fatalf("%d scans started and %d answered, want %d in all", started.Load(), len(got), burst)
		case <-time.After(5 * time.Millisecond):
		}
	}
	close(release)
	for len(got) < burst {
		got = append(got, <-results)
	}
	ok, refused := 0, 0
	for _, r := range got {
		switch {
		case r.StatusCode == 200:
			ok++
		case r.StatusCode == 429 && r.problem(t).Code == string(fault.QuotaExceeded):
			refused++
		default:
			t.Errorf("scan: %d %s", r.StatusCode, r.body)
		}
	}
	if ok != 3 || refused != burst-3 {
		t.Errorf("%d scans answered and %d refused, want 3 and %d (quota 3)", ok, refused, burst-3)
	}
}

// brokenExport fails an export after its first rows.
type brokenExport struct {
	store.Store
	rows int
}

func (b brokenExport) ExportScans(ctx context.Context, f store.ScanFilter, fn func(store.Scan) error) error {
	rows := 0
	return b.Store.ExportScans(ctx, f, func(sc store.Scan) error {
		if rows++; rows > b.rows {
			return errors.New("connection lost")
		}
		return fn(sc)
	})
}

// TestAbortedExportIsLoggedAndCounted: an export cut off mid-stream still
// gets its access-log line and its count in the request metrics.
func TestAbortedExportIsLoggedAndCounted(t *testing.T) {
	h := newHarness(t, harnessOptions{wrapStore: func(s store.Store) store.Store { return brokenExport{s, 1} }})
	key := h.key("premium")
	for range 3 {
		h.scan(key, pepe)
		h.advance(time.Second)
	}
	req := httptest.NewRequest("GET", "/api/v1/scans/export?format=ndjson", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	func() {
		defer func() {
			if v := recover(); v != http.ErrAbortHandler {
				t.Errorf("the handler ended with %v, want http.ErrAbortHandler (the stream is cut)", v)
			}
		}()
		h.handler.ServeHTTP(httptest.NewRecorder(), req)
	}()
	if logs := h.logs.String(); !strings.Contains(logs, `"route":"GET /api/v1/scans/export","status":200`) || !strings.Contains(logs, `"aborted":true`) {
		t.Errorf("no access-log line marks the aborted export:\n%s", logs)
	}
	body := string(h.request("GET", "/metrics", "", "").body)
	if want := `tokenrisk_http_requests_total{route="GET /api/v1/scans/export",status="200"} 1`; !strings.Contains(body, want) {
		t.Errorf("metrics lack %s", want)
	}
}

// TestExportFailingAtOnceIsAProblem: an export whose store fails before
// the first row answers a problem document, not an attachment.
func TestExportFailingAtOnceIsAProblem(t *testing.T) {
	h := newHarness(t, harnessOptions{wrapStore: func(s store.Store) store.Store { return brokenExport{s, 0} }})
	key := h.key("premium")
	h.scan(key, pepe)
	for _, format := range []string{"csv", "ndjson"} {
		res := h.request("GET", "/api/v1/scans/export?format="+format, key, "")
		if res.StatusCode != 500 || res.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s: %d %s %s, want a 500 problem", format, res.StatusCode, res.Header.Get("Content-Type"), res.body)
		}
		if cd := res.Header.Get("Content-Disposition"); cd != "" {
			t.Errorf("%s: the problem is sent as an attachment (%s)", format, cd)
		}
	}
}
