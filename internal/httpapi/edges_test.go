package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// TestUncleanPathsAreProblems: a path the mux would redirect (dot
// segments, repeated slashes) is answered 404 problem+json, never a
// redirect or HTML.
func TestUncleanPathsAreProblems(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	premium := h.key("premium")
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/scans/../x"},
		{"GET", "/api/v1/scans/./export"},
		{"POST", "/api/v1/scan//"},
		{"POST", "//api/v1/scan"},
		{"GET", "/api/v1//usage"},
		{"GET", "/api/v1/scans/%2e%2e/usage"},
		{"GET", "/healthz/.."},
	} {
		body := ""
		if c.method == "POST" {
			body = `{"address":"` + pepe + `"}`
		}
		res := h.request(c.method, c.path, premium, body)
		if res.StatusCode != http.StatusNotFound || res.Header.Get("Location") != "" {
			t.Errorf("%s %s: %d (Location %q) %s, want 404 without a redirect", c.method, c.path, res.StatusCode, res.Header.Get("Location"), res.body)
			continue
		}
		if p := res.problem(t); p.Code != string(fault.NotFound) {
			t.Errorf("%s %s: code %s, want not_found", c.method, c.path, p.Code)
		}
	}
	// Clean paths, with and without the slash the SPEC allows, still work.
	for _, p := range []string{"/api/v1/scan", "/api/v1/scan/"} {
		if res := h.request("POST", p, premium, `{"address":"`+pepe+`"}`); res.StatusCode != 200 {
			t.Errorf("POST %s: %d %s", p, res.StatusCode, res.body)
		}
	}
}

// TestStrictScanBodies: through the whole handler, a body that repeats
// "address" (the last one valid) or spells it in another case is a 400
// and costs nothing.
func TestStrictScanBodies(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	free := h.key("free")
	for _, body := range []string{
		`{"address":"junk","address":"` + pepe + `"}`,
		`{"ADDRESS":"` + pepe + `"}`,
		`{"Address":"` + pepe + `"}`,
	} {
		res := h.request("POST", "/api/v1/scan", free, body)
		if res.StatusCode != 400 || res.problem(t).Code != string(fault.InvalidJSON) {
			t.Errorf("%s: %d %s, want 400 invalid_json", body, res.StatusCode, res.body)
		}
	}
	if res := h.request("GET", "/api/v1/usage", free, ""); !strings.Contains(string(res.body), `"scans_today":0`) {
		t.Errorf("refused bodies were charged: %s", res.body)
	}
}

// failingHistory is a store whose history writes fail (and which has no
// write-back queue): a scan must not be answered without its row.
type failingHistory struct{ store.Store }

func (failingHistory) SaveScan(context.Context, store.Scan) error { return errors.New("disk full") }

// TestScanWithoutItsRowFails: when the history write fails, the scan is
// answered 503 unavailable, not 200 with a report that has no row.
func TestScanWithoutItsRowFails(t *testing.T) {
	h := newHarness(t, harnessOptions{wrapStore: func(s store.Store) store.Store { return failingHistory{s} }})
	premium := h.key("premium")
	res := h.scan(premium, pepe)
	if res.StatusCode != http.StatusServiceUnavailable || res.problem(t).Code != string(fault.Unavailable) {
		t.Fatalf("scan with a failing history write: %d %s, want 503 unavailable", res.StatusCode, res.body)
	}
	if strings.Contains(string(res.body), "overall_risk_score") {
		t.Errorf("the answer carries the report: %s", res.body)
	}
}

// TestClientHangUpIsNotAServerError: a client that hangs up while its
// scan waits for a slot is logged and counted as 499 (client closed),
// never as a 5xx, and no error is logged.
func TestClientHangUpIsNotAServerError(t *testing.T) {
	h := newHarness(t, harnessOptions{maxConcurrent: 1})
	started, release := h.holdScans(1)
	defer release()
	free := h.key("free")
	go h.scan(free, "0x0000000000000000000000000000000000000001")
	<-started

	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("POST", "/api/v1/scan", strings.NewReader(`{"address":"0x0000000000000000000000000000000000000002"}`)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+free)
	done := make(chan struct{})
	go func() { h.handler.ServeHTTP(httptest.NewRecorder(), req); close(done) }()
	deadline := time.Now().Add(5 * time.Second)
	for h.engine.Queued() != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done

	logs := h.logs.String()
	if !strings.Contains(logs, `"status":499`) {
		t.Errorf("access log has no status 499:\n%s", logs)
	}
	if strings.Contains(logs, `"status":500`) || strings.Contains(logs, `"level":"ERROR"`) {
		t.Errorf("a hang-up logged as a server error:\n%s", logs)
	}
	m := h.request("GET", "/metrics", "", "")
	if !strings.Contains(string(m.body), `status="499"`) || strings.Contains(string(m.body), `status="500"`) {
		t.Errorf("metrics do not count the hang-up as 499:\n%s", grepLines(string(m.body), "tokenrisk_http_requests_total"))
	}
}

// TestRequestIDThatLooksLikeAKey: an X-Request-ID carrying a key or a
// long secret is replaced, and neither echoed nor logged.
func TestRequestIDThatLooksLikeAKey(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("free")
	for _, id := range []string{
		key,
		"trk_short",
		"TRK_Abc",
		"3yZe7d4mQnWfCqHjLk9PxT2vRb8sUaG6hN1oEi5cYwKD",                     // 44 base58 characters
		"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", // hex SHA-256
		"session-0123456789abcdef0123456789abcdef",
	} {
		res := h.request("GET", "/api/v1/usage", key, "", "X-Request-ID", id)
		if got := res.Header.Get("X-Request-ID"); got == id || !strings.HasPrefix(got, "req_") {
			t.Errorf("request id %q: answered %q, want a req_ id of ours", id, got)
		}
		if strings.Contains(h.logs.String(), id) {
			t.Errorf("request id %q logged", id)
		}
	}
	for _, id := range []string{"client-abc.1", "6f1c3e8e-3c1a-4b2e-9d7e-1a2b3c4d5e6f", "01JD8X3Q2K7V9M4N6P8R0S2T4W"} {
		if got := h.request("GET", "/healthz", "", "", "X-Request-ID", id).Header.Get("X-Request-ID"); got != id {
			t.Errorf("plain request id %q not echoed: %q", id, got)
		}
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
