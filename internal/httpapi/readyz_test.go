package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	ratememory "github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
)

func state(kind, status string) httpapi.Check {
	return httpapi.Check{Probe: func(context.Context) httpapi.Backend { return httpapi.Backend{Kind: kind, Status: status} }}
}

func checks(states map[string]httpapi.Check) []httpapi.Check {
	var out []httpapi.Check
	for name, c := range states {
		c.Name = name
		out = append(out, c)
	}
	return out
}

func TestReadyzReportsEachBackend(t *testing.T) {
	hang := httpapi.Check{Probe: func(ctx context.Context) httpapi.Backend {
		<-ctx.Done() // a backend that never answers is reported by the deadline
		return httpapi.Backend{Kind: "redis", Status: httpapi.BackendDegraded, Detail: "not reachable"}
	}}
	for _, tc := range []struct {
		name       string
		backends   map[string]httpapi.Check
		wantCode   int
		wantStatus string
	}{
		{"all ok", map[string]httpapi.Check{"store": state("postgres", "ok"), "cache": state("redis", "ok")}, 200, "ready"},
		{"redis down", map[string]httpapi.Check{"store": state("postgres", "ok"), "limiter": state("redis", "degraded"), "cache": hang}, 200, "degraded"},
		{"queue full", map[string]httpapi.Check{"store": state("postgres", "degraded"), "history_queue": state("queue", "down")}, 503, "unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{checks: checks(tc.backends)})
			start := time.Now()
			res := h.request("GET", "/readyz", "", "")
			if time.Since(start) > 3*time.Second {
				t.Errorf("/readyz took %v", time.Since(start))
			}
			var got httpapi.Readiness
			if err := json.Unmarshal(res.body, &got); err != nil {
				t.Fatalf("%s: %v", res.body, err)
			}
			if res.StatusCode != tc.wantCode || got.Status != tc.wantStatus || len(got.Backends) != len(tc.backends) {
				t.Errorf("got %d %s, want %d with status %q and %d backends", res.StatusCode, res.body, tc.wantCode, tc.wantStatus, len(tc.backends))
			}
		})
	}
}

// down is a shared limiter that cannot be reached.
type down struct{}

func (down) Allow(context.Context, string, int64, time.Duration) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, errors.New("dial tcp 127.0.0.1:6379: connection refused")
}

// With the shared limiter down, a fail-closed plan is held to its limit by
// the in-process limiter, and a fail-open plan is served unchecked with
// no RateLimit headers (nothing was counted).
func TestLimiterFailsClosedOrOpenPerPlan(t *testing.T) {
	f := ratelimit.NewFallback(down{}, ratememory.New(ratememory.Options{}), nil)
	h := newHarness(t, harnessOptions{limiter: f, planLimiters: map[string]ratelimit.Limiter{"pro": f.FailOpen()}})
	free, pro := h.key("free"), h.key("pro")
	for i := range 11 {
		res := h.scan(free, pepe)
		want := 200
		if i == 10 {
			want = 429
		}
		if res.StatusCode != want || res.Header.Get("RateLimit-Limit") != "10" {
			t.Fatalf("free scan %d with Redis down: %d limit=%q, want %d with the local limit of 10", i+1, res.StatusCode, res.Header.Get("RateLimit-Limit"), want)
		}
	}
	for i := range 65 {
		res := h.scan(pro, pepe)
		if res.StatusCode != 200 || res.Header.Get("RateLimit-Remaining") != "" {
			t.Fatalf("pro scan %d failing open: %d remaining=%q, want 200 and no RateLimit headers", i+1, res.StatusCode, res.Header.Get("RateLimit-Remaining"))
		}
	}
}
