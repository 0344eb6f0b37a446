package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	"github.com/tokenrisk/tokenrisk/internal/journal"
	"github.com/tokenrisk/tokenrisk/internal/logsink"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	ratememory "github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/writeback"
)

// BenchmarkCachedScan measures cached scans through the whole stack as
// served: httpapi.Serve on a loopback listener, bearer auth against
// SQLite, the rate limiter (a pro key, 60/min raised so it never refuses,
// and a premium key), the engine's cache, the history row and usage
// charge appended to the history journal before each answer and drained
// into a SQLite file (rows per transaction are the drain's), the access log
// formatted and grouped as in production (then discarded). The load
// comes from rawClient, a lean keep-alive HTTP/1.1 client over TCP, so
// that the CPU measured is the server's far more than the client's. It
// prints scans/s, p50/p99 latency, CPU per scan and rows per transaction,
// and fails if an answered scan has no history row.
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
	// journal puts the history journal in front of the store, as serve
	// does for a SQLite file.
	journal bool
}

// embeddedBackends are the defaults: a SQLite file, in-process cache and
// limits.
func embeddedBackends(b *testing.B) benchBackends {
	b.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return benchBackends{store: st, cache: memory.New(memory.Options{}), limiter: ratememory.New(ratememory.Options{}), journal: true}
}

func benchCachedScan(b *testing.B, plan string, be benchBackends) {
	ctx := context.Background()
	// As served: the write-back queue in front of the store, which
	// counts the transactions that record history, and on SQLite the
	// history journal in front of both (its drains are the transactions).
	counted := &txCounter{Store: be.store, rec: be.store.(store.ScanRecorder)}
	var st store.Store = writeback.New(counted, writeback.Options{})
	if be.journal {
		j, err := journal.Open(ctx, st, counted, journal.Options{Dir: filepath.Join(b.TempDir(), "journal")})
		if err != nil {
			b.Fatal(err)
		}
		st = j
	}
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
	logs := logsink.New(io.Discard, 0)
	defer logs.Close()
	api, err := httpapi.NewServer(httpapi.Deps{
		Scanner: engine, Store: st, Auth: keys, Limiter: be.limiter, Metrics: m,
		Logger: slog.New(slog.NewJSONHandler(logs, nil)),
	})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() {
		served <- httpapi.Serve(sctx, ln, api, httpapi.ServeOptions{
			ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: time.Minute,
			IdleTimeout: 90 * time.Second, ShutdownTimeout: 10 * time.Second,
		})
	}()
	defer func() {
		stop()
		if err := <-served; err != nil {
			b.Error(err)
		}
	}()
	addr := ln.Addr().String()
	req := scanRequestBytes(secret, pepe)

	warm, err := dialRaw(addr, req)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := warm.scan(); err != nil { // fills the cache
		b.Fatal(err)
	}
	warm.Close()

	var mu sync.Mutex
	var lat []time.Duration
	var ids []string
	b.SetParallelism(8)
	b.ResetTimer()
	cpu0 := cpuTime()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		c, err := dialRaw(addr, req)
		if err != nil {
			b.Error(err)
			return
		}
		defer c.Close()
		local := make([]time.Duration, 0, 1024)
		localIDs := make([]string, 0, 1024)
		for pb.Next() {
			t0 := time.Now()
			id, err := c.scan()
			if err != nil {
				b.Error(err)
				return
			}
			local = append(local, time.Since(t0))
			localIDs = append(localIDs, id)
		}
		mu.Lock()
		lat = append(lat, local...)
		ids = append(ids, localIDs...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	// Every answered scan left its history row (a read through the
	// journal waits until what it holds is in the database, so the
	// transactions counted next include the last drain).
	keyList, _ := keys.List(ctx)
	rows := make(map[string]bool, len(ids)+1)
	if err := st.ExportScans(ctx, store.ScanFilter{KeyID: keyList[0].ID}, func(sc store.Scan) error { rows[sc.ID] = true; return nil }); err != nil {
		b.Fatal(err)
	}
	for _, id := range ids {
		if !rows[id] {
			b.Fatalf("scan %s was answered but has no history row (%d rows for %d answers)", id, len(rows), len(ids)+1)
		}
	}
	tx := counted.tx.Load()
	slices.Sort(lat)
	p := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
	rps := float64(len(lat)) / elapsed.Seconds()
	b.ReportMetric(rps, "scans/s")
	b.ReportMetric(float64(p(0.50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(p(0.99).Microseconds()), "p99-µs")
	// CPU per scan (the server's and the lean client's together, so a
	// slight overestimate of the server's) does not depend on what else
	// the machine runs as much as throughput does; it projects the
	// throughput of two idle cores.
	cpuPerScan := cpu / time.Duration(len(lat))
	b.ReportMetric(float64(cpuPerScan.Microseconds()), "cpu-µs/scan")
	b.ReportMetric(2*float64(time.Second)/float64(cpuPerScan), "scans/s-2cores")
	b.ReportMetric(float64(len(lat))/float64(max(tx, 1)), "rows/tx")
	b.Logf("%s: %d cached scans in %v: %.0f scans/s, p50 %v, p99 %v, CPU %v/scan (history rows %d)", keyList[0].Plan, len(lat), elapsed.Round(time.Millisecond), rps, p(0.50), p(0.99), cpuPerScan, len(rows))
}

// scanRequestBytes is a keep-alive POST /api/v1/scan/ of address, as
// bytes on the wire.
func scanRequestBytes(secret, address string) []byte {
	body := `{"address":"` + address + `"}`
	return []byte("POST /api/v1/scan/ HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n" +
		"Authorization: Bearer " + secret + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
}

// rawClient is a lean HTTP/1.1 load generator: one keep-alive connection,
// one prebuilt request sent again and again, and a response parser that
// reads the status line, the headers (for Content-Length) and the body
// into a reused buffer. Go's net/http client costs about as much CPU as
// the server's whole cached scan; this costs a few µs.
type rawClient struct {
	net.Conn
	r    *bufio.Reader
	req  []byte
	body []byte
}

func dialRaw(addr string, req []byte) (*rawClient, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &rawClient{Conn: c, r: bufio.NewReaderSize(c, 16<<10), req: req}, nil
}

var scanIDField = []byte(`"scan_id":"`)

// scan sends the request and reads its answer: a 200 with a body that
// carries a scan_id, which it returns.
func (c *rawClient) scan() (string, error) {
	if _, err := c.Write(c.req); err != nil {
		return "", fmt.Errorf("send: %w", err)
	}
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return "", fmt.Errorf("status line: %w", err)
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return "", fmt.Errorf("status line %q", line)
	}
	status := string(line[9:12])
	length := -1
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return "", fmt.Errorf("headers: %w", err)
		}
		if len(line) <= 2 { // the blank line
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(name, []byte("Content-Length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil {
				return "", fmt.Errorf("Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return "", errors.New("an answer with no Content-Length")
	}
	if cap(c.body) < length {
		c.body = make([]byte, length)
	}
	c.body = c.body[:length]
	if _, err := io.ReadFull(c.r, c.body); err != nil {
		return "", fmt.Errorf("body: %w", err)
	}
	if status != "200" {
		return "", fmt.Errorf("status %s: %.300s", status, c.body)
	}
	i := bytes.Index(c.body, scanIDField)
	if i < 0 {
		return "", fmt.Errorf("an answer with no scan_id: %.300s", c.body)
	}
	id := c.body[i+len(scanIDField):]
	end := bytes.IndexByte(id, '"')
	if end < 0 {
		return "", fmt.Errorf("an answer with no scan_id: %.300s", c.body)
	}
	return string(id[:end]), nil
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

// RecordEntries is a journal's drain transaction.
func (c *txCounter) RecordEntries(ctx context.Context, entries []store.Entry) error {
	c.tx.Add(1)
	return c.Store.(store.EntryRecorder).RecordEntries(ctx, entries)
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
