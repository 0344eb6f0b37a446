package httpapi_test

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// TestDegradedScanOverHTTP: a scan whose holder check could not run is
// answered degraded with SCAN_INCOMPLETE, its history row is the answer
// byte for byte, and it is not cached: the next request scans again and
// the complete answer that follows is the one cached.
func TestDegradedScanOverHTTP(t *testing.T) {
	h := newHarness(t, harnessOptions{cacheTTL: time.Minute})
	var degraded atomic.Bool
	degraded.Store(true)
	h.setAssess(func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
		a, _ := okAssessment(ctx, req)
		a.NotConfigured = []string{risk.CheckSourceVerification}
		if degraded.Load() {
			a.Unchecked = []string{risk.CheckHolders}
		}
		return a, nil
	})
	key := h.key("premium")
	res := h.scan(key, pepe)
	r := res.report(t)
	if r.Completeness != scan.Degraded || len(r.Unchecked) != 1 || r.Unchecked[0] != risk.CheckHolders || !r.HasFlag(risk.ScanIncomplete) {
		t.Fatalf("completeness %s unchecked %v flags %v, want degraded by holders with SCAN_INCOMPLETE", r.Completeness, r.Unchecked, r.RiskFlags)
	}
	stored := h.request("GET", "/api/v1/scans/"+r.ScanID, key, "")
	if !bytes.Equal(bytes.TrimSpace(stored.body), bytes.TrimSpace(res.body)) {
		t.Errorf("history row differs from the answer:\n%s\n%s", stored.body, res.body)
	}
	if again := h.scan(key, pepe).report(t); again.Cached || again.Completeness != scan.Degraded {
		t.Errorf("second scan cached %v completeness %s, want a fresh degraded scan", again.Cached, again.Completeness)
	}
	degraded.Store(false) // the node recovered
	if fresh := h.scan(key, pepe).report(t); fresh.Cached || fresh.Completeness != scan.AllChecked || fresh.HasFlag(risk.ScanIncomplete) {
		t.Errorf("after recovery cached %v completeness %s, want a fresh complete scan", fresh.Cached, fresh.Completeness)
	}
	if hit := h.scan(key, pepe).report(t); !hit.Cached || hit.Completeness != scan.AllChecked {
		t.Errorf("then cached %v completeness %s, want the complete report from the cache", hit.Cached, hit.Completeness)
	}
}
