package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// TestStalledBodyIs408: through Serve, a scan or webhook body that stops
// arriving is answered 408 request_timeout as problem+json once the read
// timeout passes, not 400 invalid_json, and logs no error.
func TestStalledBodyIs408(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	addr, stop, served := startServeWith(t, h, httpapi.ServeOptions{
		ReadHeaderTimeout: time.Second, ReadTimeout: 300 * time.Millisecond, WriteTimeout: 5 * time.Second,
		IdleTimeout: time.Second, ShutdownTimeout: 5 * time.Second,
	})
	defer func() { stop(); <-served }()
	for _, path := range []string{"/api/v1/scan", "/api/v1/webhooks"} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		// 60 bytes announced, 12 sent, then nothing.
		io.WriteString(c, "POST "+path+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer "+key+
			"\r\nContent-Length: 60\r\n\r\n{\"address\":")
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		body, _ := io.ReadAll(res.Body)
		c.Close()
		var p httpapi.Problem
		if json.Unmarshal(body, &p) != nil || res.StatusCode != http.StatusRequestTimeout || p.Code != "request_timeout" ||
			res.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(p.Detail, "after 11 bytes") {
			t.Errorf("%s: %d %s %s, want 408 request_timeout problem+json", path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		if waited := time.Since(start); waited < 250*time.Millisecond {
			t.Errorf("%s: answered after %v, before the read timeout", path, waited)
		}
	}
	if logs := h.logs.String(); strings.Contains(logs, `"level":"ERROR"`) {
		t.Errorf("a stalled body logged as an error:\n%s", logs)
	}
}

// TestClientMistakesLogNoError: every client mistake, and a scan of a
// kind of chain this server does not serve, is answered with its problem
// and no ERROR line; the access log line records it at INFO.
func TestClientMistakesLogNoError(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	premium := h.key("premium")
	for _, c := range []struct {
		method, path, key, body string
		status                  int
		code                    string
	}{
		// the harness serves EVM only: a Solana mint is not served here
		{"POST", "/api/v1/scan", premium, `{"address":"` + bonk + `"}`, 503, "unavailable"},
		{"POST", "/api/v1/scan", premium, `{"address":"0x12"}`, 400, "invalid_address"},
		{"POST", "/api/v1/scan", premium, `{"adress":"` + pepe + `"}`, 400, "invalid_json"},
		{"POST", "/api/v1/scan", "trk_nope", `{"address":"` + pepe + `"}`, 401, "unauthorized"},
		{"GET", "/api/v1/scans?limit=abc", premium, "", 400, "invalid_request"},
		{"GET", "/api/v1/nowhere", premium, "", 404, "not_found"},
		{"POST", "/api/v1/webhooks", premium, `{"url":"https://[64:ff9b:1::a9fe:a9fe]/"}`, 400, "invalid_webhook_url"},
	} {
		res := h.request(c.method, c.path, c.key, c.body)
		if res.StatusCode != c.status || res.problem(t).Code != c.code {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, res.StatusCode, res.body, c.status, c.code)
		}
	}
	logs := h.logs.String()
	if strings.Contains(logs, `"level":"ERROR"`) {
		t.Errorf("a client's request logged as an error:\n%s", grepLines(logs, `"ERROR"`))
	}
	if !strings.Contains(logs, `"status":503`) {
		t.Errorf("the access log lacks the 503:\n%s", logs)
	}
	// An operator's problem still is an ERROR: a node that fails.
	h.setAssess(func(context.Context, scan.Request) (*scan.Assessment, error) {
		return nil, fault.Errorf(fault.UpstreamError, "ethereum: every RPC endpoint failed")
	})
	if res := h.scan(premium, pepe); res.StatusCode != 502 {
		t.Fatalf("failing node: %d %s", res.StatusCode, res.body)
	}
	if !strings.Contains(h.logs.String(), `"level":"ERROR"`) {
		t.Error("a failing node logged no error")
	}
}

// TestQueryParametersAreStrict: a parameter given twice, one this
// endpoint does not take, an unparseable value or a malformed query
// string is 400 invalid_request saying which, never silently taken.
func TestQueryParametersAreStrict(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	key := h.key("premium")
	for path, says := range map[string]string{
		"/api/v1/scans/export?format=csv&format=ndjson":        "format is given 2 times",
		"/api/v1/scans/export?format=xml":                      "format must be csv or ndjson",
		"/api/v1/scans/export?format=csv&limit=5":              `unknown query parameter "limit"`,
		"/api/v1/scans/export?format=csv&level=high&level=low": "level is given 2 times",
		"/api/v1/scans?limit=abc":                              "limit must be a whole number",
		"/api/v1/scans?limit=5&limit=6":                        "limit is given 2 times",
		"/api/v1/scans?limt=5":                                 `unknown query parameter "limt"`,
		"/api/v1/scans?limit=%zz":                              "malformed",
		"/api/v1/scans?limit=5;cursor=x":                       "malformed",
		"/api/v1/scans?from=yesterday":                         "from must be an RFC 3339 time",
		"/api/v1/webhooks/wh_x/deliveries?limit=abc":           "limit must be an integer",
		"/api/v1/webhooks/wh_x/deliveries?limit=1&limit=2":     "limit is given 2 times",
	} {
		res := h.request("GET", path, key, "")
		if p := res.problem(t); res.StatusCode != 400 || p.Code != "invalid_request" || !strings.Contains(p.Detail, says) {
			t.Errorf("%s: %d %s, want 400 invalid_request saying %q", path, res.StatusCode, res.body, says)
		}
	}
	for _, path := range []string{"/api/v1/scans?limit=5&level=", "/api/v1/scans/export?format=ndjson&chain=ethereum"} {
		if res := h.request("GET", path, key, ""); res.StatusCode != 200 {
			t.Errorf("%s: %d %s", path, res.StatusCode, res.body)
		}
	}
}
