package metrics_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/metrics"
)

func TestExposition(t *testing.T) {
	m := metrics.New()
	m.Request("POST /api/v1/scan", 200, 3*time.Millisecond)
	m.Request("POST /api/v1/scan", 429, time.Millisecond)
	m.ScanDuration("ethereum", 700*time.Millisecond)
	m.Upstream("ethereum", "eth_call")
	m.Upstream("ethereum", "eth_call")
	m.QueueDepth("low", 4)
	m.CacheLookup(true)
	m.CacheLookup(false)
	m.DedupeShared()
	m.WebhookAttempt(204, 20*time.Millisecond)
	m.WebhookAttempt(0, 15*time.Second)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`tokenrisk_http_requests_total{route="POST /api/v1/scan",status="429"} 1`,
		`tokenrisk_http_request_duration_seconds_count{route="POST /api/v1/scan"} 2`,
		`tokenrisk_scan_duration_seconds_bucket{chain="ethereum",le="1"} 1`,
		`tokenrisk_upstream_calls_total{chain="ethereum",method="eth_call"} 2`,
		`tokenrisk_admission_queue_depth{priority="low"} 4`,
		`tokenrisk_admission_queue_depth{priority="high"} 0`,
		`tokenrisk_scan_cache_total{result="hit"} 1`,
		`tokenrisk_scan_dedupe_shared_total 1`,
		`tokenrisk_webhook_attempt_duration_seconds_count{status="2xx"} 1`,
		`tokenrisk_webhook_attempt_duration_seconds_count{status="none"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("exposition lacks %s", want)
		}
	}
	// Two servers in one process do not collide (no global registry).
	_ = metrics.New()
}
