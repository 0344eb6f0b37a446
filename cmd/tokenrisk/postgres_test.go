package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/redistest"
)

// postgresDSN returns a DSN on a fresh schema of TOKENRISK_TEST_POSTGRES,
// dropped at cleanup, or skips.
func postgresDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("TOKENRISK_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL: set TOKENRISK_TEST_POSTGRES (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run")
	}
	ctx := context.Background()
	schema := fmt.Sprintf("trcmd_%d_%d", os.Getpid(), time.Now().UnixNano())
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("drop schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema
}

// TestServeOnPostgres: the same commands and service on PostgreSQL.
func TestServeOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	dsn := postgresDSN(t)
	if out, err := runCmd(t, nil, "migrate", "--postgres", dsn); err != nil || !strings.Contains(out, "postgres") || strings.Contains(out, dsn) {
		t.Fatalf("migrate: %q %v", out, err)
	}
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_LOG_LEVEL": "warn"}
	s := startServer(t, env, "--devnet-manifest", manifest)
	premium := s.key(t, "premium")
	clean, _ := readManifest(t, manifest).Token("clean")
	if r := s.scan(t, premium, clean.Address); r.status != 200 {
		t.Fatalf("scan: %d %s", r.status, r.body)
	}
	r := s.do(t, "GET", "/api/v1/scans/export?format=csv", premium, "")
	if r.status != 200 || strings.Count(string(r.body), "\n") != 2 {
		t.Errorf("export: %d %q", r.status, r.body)
	}
	if r := s.do(t, "GET", "/readyz", "", ""); r.status != 200 {
		t.Errorf("readyz: %d", r.status)
	}
}

// TestScaleOut runs two instances on one PostgreSQL and one Redis, the
// second scanning the first one's devnet node as a remote chain: a free
// key's per-minute rate holds across both, a scan cached by one is cached
// on the other, and history written through one is listed and exported
// through the other.
func TestScaleOut(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	redis := redistest.URL(t)
	dsn := postgresDSN(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_REDIS": redis, "TOKENRISK_LOG_LEVEL": "warn"}
	a := startServer(t, env, "--devnet-manifest", manifest)
	m := readManifest(t, manifest)
	envB := maps.Clone(env)
	envB["TOKENRISK_RPC_DEVNET"] = m.RPCURL // b starts no chain: both scan one node
	b := startServer(t, envB, "--devnet-manifest", manifest)
	clean, _ := m.Token("clean")
	owned, _ := m.Token("clean_owned")
	free, premium := a.key(t, "free"), b.key(t, "premium")

	// The per-minute rate is one count across instances.
	for i := range 10 {
		s := []*server{a, b}[i%2]
		if r := s.scan(t, free, clean.Address); r.status != 200 {
			t.Fatalf("free scan %d: %d %s", i+1, r.status, r.body)
		}
	}
	for name, s := range map[string]*server{"a": a, "b": b} {
		r := s.scan(t, free, clean.Address)
		if r.status != 429 || r.code() != "rate_limited" || r.header.Get("Retry-After") == "" {
			t.Errorf("11th free scan in the minute, through %s: %d %s", name, r.status, r.body)
		}
	}

	// A result cached by a is cached on b.
	var first, second struct {
		ScanID string `json:"scan_id"`
		Cached bool   `json:"cached"`
		Chain  string `json:"chain"`
	}
	r := a.scan(t, premium, owned.Address)
	if r.status != 200 || json.Unmarshal(r.body, &first) != nil {
		t.Fatalf("premium scan through a: %d %s", r.status, r.body)
	}
	r = b.scan(t, premium, owned.Address)
	if r.status != 200 || json.Unmarshal(r.body, &second) != nil {
		t.Fatalf("premium scan through b: %d %s", r.status, r.body)
	}
	if !second.Cached || second.ScanID == first.ScanID || second.Chain != "devnet" {
		t.Errorf("scan through b after a: cached=%v scan_id %s (a's %s) chain %s; want a cached answer with its own id",
			second.Cached, second.ScanID, first.ScanID, second.Chain)
	}

	// History written through a is listed and exported through b, and
	// the other way round.
	ids := []string{first.ScanID, second.ScanID}
	for name, s := range map[string]*server{"a": a, "b": b} {
		if lost := missing(ids, s.history(t, premium)); len(lost) > 0 {
			t.Errorf("history through %s lacks %v", name, lost)
		}
		for _, format := range []string{"csv", "ndjson"} {
			r := s.do(t, "GET", "/api/v1/scans/export?format="+format, premium, "")
			for _, id := range ids {
				if r.status != 200 || !strings.Contains(string(r.body), id) {
					t.Errorf("%s export through %s lacks %s: %d %s", format, name, id, r.status, r.body)
				}
			}
		}
	}
	if r := a.do(t, "GET", "/api/v1/scans/"+second.ScanID, premium, ""); r.status != 200 {
		t.Errorf("b's scan read through a: %d %s", r.status, r.body)
	}
	for name, s := range map[string]*server{"a": a, "b": b} {
		code, rd := s.readiness(t)
		if code != 200 || rd.Status != "ready" || rd.Backends["store"].Kind != "postgres" || rd.Backends["limiter"].Kind != "redis" {
			t.Errorf("/readyz of %s: %d %+v", name, code, rd)
		}
	}
}

// TestRedisOutageFallsBack cuts the instance's Redis mid-test (a TCP
// proxy in between): scans go on; the free plan (fail closed) is held to
// its 10 per minute by in-process limits; pro, configured to fail open,
// is served unchecked; /readyz and the log say so, and both recover when
// Redis returns.
func TestRedisOutageFallsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	s, proxy, clean := serveWithProxiedRedis(t, map[string]string{"TOKENRISK_LIMITS_FAIL_OPEN": "pro", "TOKENRISK_LOG_LEVEL": "info"}, false)
	free, pro := s.key(t, "free"), s.key(t, "pro")
	for range 2 {
		if r := s.scan(t, free, clean.Address); r.status != 200 || r.header.Get("RateLimit-Remaining") == "" {
			t.Fatalf("free scan with Redis up: %d %v", r.status, r.header)
		}
	}
	if r := s.scan(t, pro, clean.Address); r.status != 200 || r.header.Get("RateLimit-Limit") != "60" {
		t.Fatalf("pro scan with Redis up: %d %v", r.status, r.header)
	}

	proxy.cut()
	for i := range 11 {
		r := s.scan(t, free, clean.Address)
		want := 200
		if i == 10 {
			want = 429
		}
		if r.status != want || r.header.Get("RateLimit-Limit") != "10" {
			t.Fatalf("free scan %d with Redis down: %d %s, want %d under the in-process limit of 10", i+1, r.status, r.body, want)
		}
	}
	for i := range 12 {
		if r := s.scan(t, pro, clean.Address); r.status != 200 || r.header.Get("RateLimit-Limit") != "" {
			t.Fatalf("pro scan %d with Redis down (fail open): %d %v, want 200 with no RateLimit headers", i+1, r.status, r.header)
		}
	}
	code, rd := s.readiness(t)
	if code != 200 || rd.Status != "degraded" || rd.Backends["store"].Status != "ok" {
		t.Errorf("/readyz with Redis down: %d %+v, want 200 degraded", code, rd)
	}
	for _, name := range []string{"cache", "limiter", "dedupe"} {
		if b := rd.Backends[name]; b.Status != "degraded" || b.Detail == "" {
			t.Errorf("/readyz %s with Redis down: %+v", name, b)
		}
	}
	if !s.logged("redis rate limiter failing") {
		t.Errorf("the fallback is not logged:\n%s", s.stderr.String())
	}

	proxy.restore()
	time.Sleep(ratelimit.RetryEvery + 100*time.Millisecond)
	if r := s.scan(t, pro, clean.Address); r.status != 200 || r.header.Get("RateLimit-Limit") != "60" {
		t.Errorf("pro scan with Redis back: %d %v, want the shared limit again", r.status, r.header)
	}
	s.waitReady(t, "ready again", func(code int, rd httpapi.Readiness) bool { return code == 200 && rd.Status == "ready" })
	if !s.logged("redis rate limiter back") {
		t.Errorf("the recovery is not logged:\n%s", s.stderr.String())
	}
}

// TestStartsWithRedisDown: an instance started while Redis is down serves
// on its in-process fallbacks, says so, and shares again once Redis
// answers.
func TestStartsWithRedisDown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	s, proxy, clean := serveWithProxiedRedis(t, map[string]string{"TOKENRISK_LOG_LEVEL": "info"}, true)
	if !s.logged("redis not reachable at start") {
		t.Errorf("starting without Redis is not logged:\n%s", s.stderr.String())
	}
	free := s.key(t, "free")
	if r := s.scan(t, free, clean.Address); r.status != 200 || r.header.Get("RateLimit-Limit") != "10" {
		t.Fatalf("free scan with Redis down since start: %d %s, want 200 under the in-process limit", r.status, r.body)
	}
	if code, rd := s.readiness(t); code != 200 || rd.Status != "degraded" || rd.Backends["limiter"].Status != "degraded" {
		t.Errorf("/readyz with Redis down since start: %d %+v, want 200 degraded", code, rd)
	}
	proxy.restore()
	s.waitReady(t, "ready once Redis answers", func(code int, rd httpapi.Readiness) bool { return code == 200 && rd.Status == "ready" })
}

// viaProxy returns dsn pointed at a proxy of its host, to cut at will.
func viaProxy(t *testing.T, dsn string) (string, *tcpProxy) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(t, u.Host)
	u.Host = p.addr()
	return u.String(), p
}

// readiness fetches /readyz.
func (s *server) readiness(t *testing.T) (int, httpapi.Readiness) {
	t.Helper()
	r := s.do(t, "GET", "/readyz", "", "")
	var rd httpapi.Readiness
	if err := json.Unmarshal(r.body, &rd); err != nil {
		t.Fatalf("/readyz: %d %s: %v", r.status, r.body, err)
	}
	return r.status, rd
}

// waitReady polls /readyz until ok holds or the deadline passes.
func (s *server) waitReady(t *testing.T, what string, ok func(int, httpapi.Readiness) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, rd := s.readiness(t)
		if ok(code, rd) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz never showed %s: %d %+v", what, code, rd)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// scanID is a 200 answer's scan_id.
func (r reply) scanID(t *testing.T) string {
	t.Helper()
	var rep struct {
		ScanID string `json:"scan_id"`
		Cached bool   `json:"cached"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &rep) != nil || rep.ScanID == "" {
		t.Fatalf("want a scan: %d %s", r.status, r.body)
	}
	return rep.ScanID
}

// history lists every scan id of key through s.
func (s *server) history(t *testing.T, key string) []string {
	t.Helper()
	var ids []string
	path := "/api/v1/scans?limit=100"
	for {
		r := s.do(t, "GET", path, key, "")
		var page struct {
			Scans []struct {
				ScanID string `json:"scan_id"`
			} `json:"scans"`
			NextCursor *string `json:"next_cursor"`
		}
		if r.status != 200 || json.Unmarshal(r.body, &page) != nil {
			t.Fatalf("history: %d %s", r.status, r.body)
		}
		for _, sc := range page.Scans {
			ids = append(ids, sc.ScanID)
		}
		if page.NextCursor == nil {
			return ids
		}
		path = "/api/v1/scans?limit=100&cursor=" + url.QueryEscape(*page.NextCursor)
	}
}

// scansToday is the usage counter of key through s.
func (s *server) scansToday(t *testing.T, key string) int64 {
	t.Helper()
	r := s.do(t, "GET", "/api/v1/usage", key, "")
	var u struct {
		ScansToday int64 `json:"scans_today"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &u) != nil {
		t.Fatalf("usage: %d %s", r.status, r.body)
	}
	return u.ScansToday
}

func missing(want, got []string) []string {
	var out []string
	for _, id := range want {
		if !slices.Contains(got, id) {
			out = append(out, id)
		}
	}
	return out
}

// TestPostgresOutageLosesNoHistory cuts the instance's PostgreSQL mid-test
// (a TCP proxy in between): scans still answer, /readyz says degraded with
// the queue, and when the database returns every row and charge is there.
// Then the database is cut again and the instance stopped: shutdown keeps
// writing the queue, the database returns within --shutdown-timeout, and
// an instance started again on the same database lists every scan.
func TestPostgresOutageLosesNoHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	dsn, proxy := viaProxy(t, postgresDSN(t))
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_LOG_LEVEL": "info", "TOKENRISK_SHUTDOWN_TIMEOUT": "30s"}
	s := startServer(t, env, "--devnet-manifest", manifest)
	premium, free := s.key(t, "premium"), s.key(t, "free")
	clean, _ := readManifest(t, manifest).Token("clean")
	var premiumIDs []string
	scan := func(key string) {
		t.Helper()
		id := s.scan(t, key, clean.Address).scanID(t)
		if key == premium {
			premiumIDs = append(premiumIDs, id)
		}
	}
	scan(premium)
	scan(free)

	proxy.cut()
	for range 4 {
		scan(premium)
	}
	for range 2 {
		scan(free)
	}
	last := premiumIDs[len(premiumIDs)-1]
	if r := s.do(t, "GET", "/api/v1/scans/"+last, premium, ""); r.status != 200 {
		t.Errorf("a scan answered while the database is down cannot be read back: %d %s", r.status, r.body)
	}
	code, rd := s.readiness(t)
	q := rd.Backends["history_queue"]
	if code != 200 || rd.Status != "degraded" || rd.Backends["store"].Status != "degraded" ||
		q.Status != "degraded" || q.Pending == nil || *q.Pending != 6 {
		t.Errorf("/readyz with the database down: %d %+v, want 200 degraded with 6 queued", code, rd)
	}
	if !s.logged("history write failed; queued for retry") {
		t.Errorf("the outage is not logged:\n%s", s.stderr.String())
	}

	proxy.restore()
	s.waitReady(t, "the queue written", func(code int, rd httpapi.Readiness) bool {
		return code == 200 && rd.Status == "ready" && *rd.Backends["history_queue"].Pending == 0
	})
	if lost := missing(premiumIDs, s.history(t, premium)); len(lost) > 0 {
		t.Errorf("database back: scans %v not in history", lost)
	}
	if n := s.scansToday(t, free); n != 3 {
		t.Errorf("free key charged %d scans, want 3", n)
	}

	// Cut again and stop: the queue is written while shutdown waits.
	proxy.cut()
	for range 3 {
		scan(premium)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- s.stop() }()
	time.Sleep(time.Second)
	proxy.restore()
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v", err)
	}
	if !strings.Contains(s.stderr.String(), `"rows":3`) {
		t.Errorf("shutdown does not say it wrote the 3 queued rows:\n%s", s.stderr.String())
	}

	// A restart on the same database lists everything committed.
	s2 := startServer(t, env)
	got := s2.history(t, premium)
	if lost := missing(premiumIDs, got); len(lost) > 0 || len(got) != len(premiumIDs) {
		t.Errorf("after restart: %d scans listed, want %d; missing %v", len(got), len(premiumIDs), lost)
	}
	if n := s2.scansToday(t, free); n != 3 {
		t.Errorf("after restart: free key charged %d scans, want 3", n)
	}
}

// TestRedisHangingKeepsScansFast: a Redis that accepts connections and
// never answers costs scans little: its failures are noticed once and
// the fallbacks answer meanwhile.
func TestRedisHangingKeepsScansFast(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	// The cache is off so that every scan, before and during the hang, does
	// the same work: the hang's cost is the difference, not the scan's own
	// time (which grows with the engine and the race detector).
	s, proxy, clean := serveWithProxiedRedis(t, map[string]string{"TOKENRISK_LOG_LEVEL": "warn", "TOKENRISK_CACHE_TTL": "0"}, false)
	// A free key: its limits fail closed to the in-process limiter while
	// Redis hangs; 8 scans stay under its 10 a minute.
	free := s.key(t, "free")
	timed := func(phase string) []time.Duration {
		var took []time.Duration
		for i := range 4 {
			start := time.Now()
			if r := s.scan(t, free, clean.Address); r.status != 200 {
				t.Fatalf("scan %d %s: %d %s", i+1, phase, r.status, r.body)
			}
			took = append(took, time.Since(start))
		}
		slices.Sort(took)
		t.Logf("scans %s: %v", phase, took)
		return took
	}
	up := timed("with Redis up")
	proxy.hang()
	hanging := timed("with Redis hanging")
	upMedian, hangMedian := up[len(up)/2], hanging[len(hanging)/2]
	// While Redis hangs, one request a second is let through to see
	// whether it is back; the scan that carries it waits one I/O timeout.
	// Any scan waiting on Redis more than that is the failure. The slack
	// is the machine's own noise, read from the scans with Redis up (their
	// spread; at least 500ms): a loaded machine spreads both phases alike,
	// while a second I/O timeout per scan adds a whole second.
	slack := max(500*time.Millisecond, up[len(up)-1]-up[0])
	if bound := upMedian + redisIOTimeout + slack; hangMedian > bound {
		t.Errorf("median scan with Redis hanging took %v, with Redis up %v: want at most one Redis I/O timeout (%v) and %v more (the spread with Redis up)", hangMedian, upMedian, redisIOTimeout, slack)
	}
	code, rd := s.readiness(t)
	if code != 200 || rd.Status != "degraded" {
		t.Errorf("/readyz with Redis hanging: %d %+v", code, rd)
	}
	proxy.restore()
	time.Sleep(2 * time.Second)
	s.waitReady(t, "ready again", func(code int, rd httpapi.Readiness) bool { return code == 200 && rd.Status == "ready" })
}

// TestPostgresHangingKeepsScansFast: a PostgreSQL that accepts
// connections and never answers costs one bounded wait; the scans after
// it answer at once (keys and quotas from what the instance knows,
// history queued), and every row is written when it answers again.
func TestPostgresHangingKeepsScansFast(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	dsn, proxy := viaProxy(t, postgresDSN(t))
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_LOG_LEVEL": "warn"}
	s := startServer(t, env, "--devnet-manifest", manifest)
	premium, free := s.key(t, "premium"), s.key(t, "free")
	clean, _ := readManifest(t, manifest).Token("clean")
	ids := []string{s.scan(t, premium, clean.Address).scanID(t)}
	s.scan(t, free, clean.Address).scanID(t)

	proxy.hang()
	var took []time.Duration
	for range 4 {
		for _, key := range []string{premium, free} {
			start := time.Now()
			id := s.scan(t, key, clean.Address).scanID(t)
			took = append(took, time.Since(start))
			if key == premium {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(took)
	t.Logf("scans with PostgreSQL hanging: %v", took)
	if median := took[len(took)/2]; median > 500*time.Millisecond {
		t.Errorf("median scan with PostgreSQL hanging took %v, want under 500ms", median)
	}
	if slow := took[len(took)-1]; slow > 8*time.Second {
		t.Errorf("slowest scan with PostgreSQL hanging took %v, want one bounded wait", slow)
	}
	start := time.Now()
	if code, rd := s.readiness(t); code != 200 || rd.Status != "degraded" || time.Since(start) > 3*time.Second {
		t.Errorf("/readyz with PostgreSQL hanging: %d %+v after %v", code, rd, time.Since(start))
	}

	proxy.restore()
	s.waitReady(t, "the queue written", func(code int, rd httpapi.Readiness) bool {
		return code == 200 && rd.Status == "ready" && *rd.Backends["history_queue"].Pending == 0
	})
	if lost := missing(ids, s.history(t, premium)); len(lost) > 0 {
		t.Errorf("PostgreSQL answering again: scans %v not in history", lost)
	}
	if n := s.scansToday(t, free); n != 5 {
		t.Errorf("free key charged %d scans, want 5", n)
	}
}

// serveWithProxiedRedis runs serve --devnet on a fresh SQLite file with its
// Redis reached through a test-controlled TCP proxy (cut before start when
// cutFirst), so a test can take Redis away or make it hang. It returns the
// server, the proxy and the devnet's clean token.
func serveWithProxiedRedis(t *testing.T, extra map[string]string, cutFirst bool) (*server, *tcpProxy, devnet.ManifestToken) {
	t.Helper()
	u, err := url.Parse(redistest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newProxy(t, u.Host)
	u.Host = proxy.addr()
	if cutFirst {
		proxy.cut()
	}
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	env := map[string]string{"TOKENRISK_DB": filepath.Join(dir, "t.db"), "TOKENRISK_REDIS": u.String()}
	for k, v := range extra {
		env[k] = v
	}
	s := startServer(t, env, "--devnet-manifest", manifest)
	clean, ok := readManifest(t, manifest).Token("clean")
	if !ok {
		t.Fatal("manifest has no clean token")
	}
	return s, proxy, clean
}
