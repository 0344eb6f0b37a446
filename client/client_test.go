package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/client"
)

// refusingThen answers the first n requests with a problem (status, code,
// Retry-After seconds) in the API's shape, then a report.
func refusingThen(t *testing.T, n int32, status int, code string, retryAfter int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer trk_test" {
			t.Errorf("Authorization = %q", r.Header.Get("Authorization"))
		}
		if calls.Add(1) <= n {
			w.Header().Set("Content-Type", "application/problem+json")
			w.Header().Set("Retry-After", fmt.Sprint(retryAfter))
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"type":"urn:tokenrisk:problem:%s","title":"t","status":%d,"detail":"refused","code":"%s","request_id":"req_1"}`, code, status, code)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"scan_id":"scn_1","risk_level":"high","overall_risk_score":67.7,"completeness":"complete","unchecked":[]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestScanWaitsOutRetryAfter(t *testing.T) {
	srv, calls := refusingThen(t, 1, http.StatusServiceUnavailable, "overloaded", 1)
	c, err := client.New(srv.URL, "trk_test")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rep, err := c.Scan(context.Background(), "0x6982508145454Ce325dDbE47a25d4ec3d2311933")
	if err != nil {
		t.Fatal(err)
	}
	if rep.RiskLevel != client.High || !rep.Complete() || calls.Load() != 2 {
		t.Errorf("report %+v after %d requests", rep, calls.Load())
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("retried after %v, before the server's Retry-After of 1s", d)
	}
}

func TestRetriesAreBounded(t *testing.T) {
	srv, calls := refusingThen(t, 100, http.StatusTooManyRequests, "rate_limited", 0)
	c, _ := client.New(srv.URL, "trk_test", client.WithRetries(3))
	_, err := c.Scan(context.Background(), "x")
	var p *client.Problem
	if !errors.As(err, &p) || p.Code != "rate_limited" || p.Status != 429 {
		t.Fatalf("err = %v, want the rate_limited problem", err)
	}
	// Retry-After: 0 is no instruction to wait: returned at once.
	if calls.Load() != 1 {
		t.Errorf("%d requests for Retry-After 0, want 1", calls.Load())
	}

	srv, calls = refusingThen(t, 100, http.StatusServiceUnavailable, "overloaded", 1)
	c, _ = client.New(srv.URL, "trk_test", client.WithRetries(2))
	if _, err := c.Scan(context.Background(), "x"); !errors.As(err, &p) || p.Code != "overloaded" || p.RetryAfter != time.Second {
		t.Fatalf("err = %v, want the overloaded problem with its Retry-After", err)
	}
	if calls.Load() != 3 {
		t.Errorf("%d requests with 2 retries, want 3", calls.Load())
	}
}

func TestLongRetryAfterIsReturnedAtOnce(t *testing.T) {
	srv, calls := refusingThen(t, 1, http.StatusTooManyRequests, "quota_exceeded", 3600)
	c, _ := client.New(srv.URL, "trk_test")
	start := time.Now()
	_, err := c.Scan(context.Background(), "x")
	var p *client.Problem
	if !errors.As(err, &p) || p.Code != "quota_exceeded" || p.RetryAfter != time.Hour {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 1 || time.Since(start) > 500*time.Millisecond {
		t.Errorf("%d requests in %v: a daily quota must not be waited out", calls.Load(), time.Since(start))
	}
}

func TestBadServerURL(t *testing.T) {
	for _, u := range []string{"", "localhost:8080", "ftp://x"} {
		if _, err := client.New(u, "k"); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
}
