package scan_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/cache"
	"github.com/tokenrisk/tokenrisk/internal/cache/memory"
	"github.com/tokenrisk/tokenrisk/internal/cache/redis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/redistest"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// TestDegradedReportsAreNotCached: a degraded report is answered but
// never cached, so the next scan asks the chain again; the complete
// result that follows is cached and answered from then on. It runs on
// both caches the server can use.
func TestDegradedReportsAreNotCached(t *testing.T) {
	caches := map[string]func(t *testing.T) cache.Cache{
		"memory": func(*testing.T) cache.Cache { return memory.New(memory.Options{}) },
		"redis": func(t *testing.T) cache.Cache {
			return redis.New(redistest.Client(t), redis.Options{Prefix: redistest.Prefix()})
		},
	}
	for name, newCache := range caches {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			degraded := atomic.Bool{}
			degraded.Store(true)
			a := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
				calls.Add(1)
				as := assessment("ethereum")
				if degraded.Load() {
					as.Unchecked = []string{risk.CheckSimulation}
				}
				return as, nil
			}}
			e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Cache: newCache(t), CacheTTL: time.Minute})
			ctx := context.Background()
			req := scan.ScanRequest{Address: pepe, Chains: []string{"ethereum"}}
			scanOnce := func() *scan.Report {
				t.Helper()
				r, err := e.Scan(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			for i := range 2 {
				r := scanOnce()
				if r.Completeness != scan.Degraded || r.Cached || !r.HasFlag(risk.ScanIncomplete) {
					t.Fatalf("scan %d: completeness %s cached %v flags %v, want a fresh degraded report with SCAN_INCOMPLETE", i, r.Completeness, r.Cached, r.RiskFlags)
				}
			}
			if calls.Load() != 2 {
				t.Fatalf("adapter called %d times for two degraded scans, want 2 (nothing cached)", calls.Load())
			}
			degraded.Store(false) // the node recovered
			if r := scanOnce(); r.Completeness != scan.AllChecked || r.Cached || r.HasFlag(risk.ScanIncomplete) {
				t.Fatalf("after recovery: completeness %s cached %v, want a fresh complete report", r.Completeness, r.Cached)
			}
			r := scanOnce()
			if !r.Cached || r.Completeness != scan.AllChecked || len(r.Unchecked) != 0 {
				t.Errorf("next scan: cached %v completeness %s unchecked %v, want the complete report from the cache", r.Cached, r.Completeness, r.Unchecked)
			}
			if calls.Load() != 3 {
				t.Errorf("adapter called %d times, want 3", calls.Load())
			}
		})
	}
}
