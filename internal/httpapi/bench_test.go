package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/cache"
	"github.com/tokenrisk/tokenrisk/internal/cache/memory"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	ratememory "github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/writeback"
)

// BenchmarkCachedScan measures cached scans through the whole stack: a
// real TCP listener and keep-alive client, bearer auth against SQLite,
// the rate limiter (a pro key, 60/min raised so it never refuses, and a
// premium key), the engine's cache, and the history row and usage counter
// written to a SQLite file before each answer. It prints scans/s and
// p50/p99 latency.
func BenchmarkCachedScan(b *testing.B) {
	for _, plan := range []string{"premium", "pro"} {
		b.Run(plan, func(b *testing.B) { benchCachedScan(b, plan, embeddedBackends(b)) })
	}
}

// benchBackends are the store, cache and limiter a benchmark runs on.
type benchBackends struct {
	store   store.Store
	cache   cache.Cache
	limiter ratelimit.Limiter
}

// embeddedBackends are the defaults: a SQLite file, in-process cache and
// limits.
func embeddedBackends(b *testing.B) benchBackends {
	b.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return benchBackends{store: st, cache: memory.New(memory.Options{}), limiter: ratememory.New(ratememory.Options{})}
}

func benchCachedScan(b *testing.B, plan string, be benchBackends) {
	ctx := context.Background()
	// As served: the write-back queue in front of the store, which
	// counts the transactions that record history.
	counted := &txCounter{Store: be.store, rec: be.store.(store.ScanRecorder)}
	st := writeback.New(counted, writeback.Options{})
	defer st.Close()
	plans := auth.DefaultPlans()
	pro := plans["pro"]
	pro.RatePerMinute, pro.DailyQuota = 1<<40, 1<<40 // limits checked, never reached
	plans["pro"] = pro
	keys := auth.NewKeys(st, plans, auth.Options{})
	secret, _, err := keys.Create(ctx, plan, "bench")
	if err != nil {
		b.Fatal(err)
	}
	reg, err := chains.Load("")
	if err != nil {
		b.Fatal(err)
	}
	m := metrics.New()
	engine, err := scan.NewEngine(scan.EngineOptions{
		Adapters: []scan.Adapter{&fakeAdapter{kind: chains.EVM, assess: devnetAssessment(b)}}, Registry: reg,
		Cache: be.cache, CacheTTL: time.Hour, Observer: m,
	})
	if err != nil {
		b.Fatal(err)
	}
	api, err := httpapi.NewServer(httpapi.Deps{
		Scanner: engine, Store: st, Auth: keys, Limiter: be.limiter, Metrics: m,
		// The access log is formatted as in production, then discarded.
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
	})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(api)
	defer srv.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}
	client := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	do := func() (time.Duration, error) {
		req, _ := http.NewRequest("POST", srv.URL+"/api/v1/scan/", strings.NewReader(`{"address":"`+pepe+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+secret)
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			return 0, fmt.Errorf("status %d", res.StatusCode)
		}
		return time.Since(start), nil
	}
	if _, err := do(); err != nil { // warm the cache
		b.Fatal(err)
	}
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(8)
	b.ResetTimer()
	cpu0 := cpuTime()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		local := make([]time.Duration, 0, 1024)
		for pb.Next() {
			d, err := do()
			if err != nil {
				b.Error(err)
				return
			}
			local = append(local, d)
		}
		mu.Lock()
		lat = append(lat, local...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	tx := counted.tx.Load()
	slices.Sort(lat)
	p := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	rps := float64(len(lat)) / elapsed.Seconds()
	b.ReportMetric(rps, "scans/s")
	b.ReportMetric(float64(p(0.50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(p(0.99).Microseconds()), "p99-µs")
	// CPU per scan (server and load-generating client together, so an
	// upper bound) does not depend on what else the machine runs; it
	// projects the throughput of two idle cores.
	cpuPerScan := cpu / time.Duration(len(lat))
	b.ReportMetric(float64(cpuPerScan.Microseconds()), "cpu-µs/scan")
	b.ReportMetric(2*float64(time.Second)/float64(cpuPerScan), "scans/s-2cores")
	b.ReportMetric(float64(len(lat))/float64(max(tx, 1)), "rows/tx")
	// Every answered scan left a history row.
	keyList, _ := keys.List(ctx)
	n := 0
	if err := st.ExportScans(ctx, store.ScanFilter{KeyID: keyList[0].ID}, func(store.Scan) error { n++; return nil }); err != nil {
		b.Fatal(err)
	}
	if n != len(lat)+1 {
		b.Fatalf("%d history rows for %d scans", n, len(lat)+1)
	}
	b.Logf("%s: %d cached scans in %v: %.0f scans/s, p50 %v, p99 %v, CPU %v/scan (history rows %d)", keyList[0].Plan, len(lat), elapsed.Round(time.Millisecond), rps, p(0.50), p(0.99), cpuPerScan, n)
}

// txCounter counts the transactions that record history.
type txCounter struct {
	store.Store
	rec store.ScanRecorder
	tx  atomic.Int64
}

func (c *txCounter) RecordScans(ctx context.Context, scans []store.Scan, charges []store.Charge) ([]int64, error) {
	c.tx.Add(1)
	return c.rec.RecordScans(ctx, scans, charges)
}

// devnetAssessment answers with the facts of a real devnet scan
// (testdata/devnet_report.json, 5.4 KB as answered), so that the report
// the benchmark encodes, sends and stores has a real report's size.
func devnetAssessment(b *testing.B) func(context.Context, scan.Request) (*scan.Assessment, error) {
	b.Helper()
	raw, err := os.ReadFile("testdata/devnet_report.json")
	if err != nil {
		b.Fatal(err)
	}
	var r scan.Report
	if err := json.Unmarshal(raw, &r); err != nil {
		b.Fatal(err)
	}
	section := func(a scan.Analysis) scan.Section { return scan.Section{Status: a.Status, Evidence: a.Evidence} }
	return func(context.Context, scan.Request) (*scan.Assessment, error) {
		a := &scan.Assessment{
			Chain: "ethereum", ChainID: r.ChainID, AlsoDeployedOn: r.AlsoDeployedOn,
			Token:    scan.Token{Name: r.TokenName, Symbol: r.TokenSymbol, Decimals: r.Decimals, TotalSupply: r.TotalSupply},
			Contract: section(r.ContractAnalysis), Liquidity: section(r.LiquidityAnalysis),
			Deployer: section(r.DeployerAnalysis), Holder: section(r.HolderAnalysis),
			Checklist: r.SafetyChecklist, Warnings: r.Warnings,
		}
		a.Contract.Flags = r.RiskFlags
		return a, nil
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
