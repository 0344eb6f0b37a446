// Package storetest is the behaviour every store.Store must have, as one
// suite each backend runs against itself.
package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Open returns a fresh, empty store for one test; the suite closes it.
type Open func(t *testing.T) store.Store

// Run runs the suite against the stores open returns.
func Run(t *testing.T, open Open) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Keys", testKeys},
		{"RevokeKey", testRevokeKey},
		{"DuplicateKeyHash", testDuplicateKeyHash},
		{"Usage", testUsage},
		{"ConcurrentAddUsageIsAtomic", testConcurrentUsage},
		{"SaveAndFindScan", testSaveAndFindScan},
		{"SaveScanTwiceKeepsTheFirst", testSaveScanTwice},
		{"RecordScans", testRecordScans},
		{"FindScansFilters", testFilters},
		{"Pagination", testPagination},
		{"PaginationWithNewerInserts", testPaginationWithInserts},
		{"PageLimits", testPageLimits},
		{"BadCursor", testBadCursor},
		{"Export", testExport},
		{"ExportStopsOnError", testExportStops},
		{"Export100k", testExport100k},
		{"LatestScanOfAddress", testLatestScan},
		{"ReportBases", testReportBases},
		{"Watchlist", testWatchlist},
		{"WatchLimitUnderConcurrency", testWatchLimit},
		{"WatchedTokens", testWatchedTokens},
		{"WatchLease", testWatchLease},
		{"Reputation", testReputation},
		{"ReputationPoolCreator", testReputationPoolCreator},
		{"ReputationDispatcher", testReputationDispatcher},
		{"RecordedHarm", testRecordedHarm},
		{"RecordedHarmUnderConcurrency", testRecordedHarmUnderConcurrency},
		{"LinkedWatches", testLinkedWatches},
	}
	for _, wt := range webhookTests {
		tests = append(tests, struct {
			name string
			fn   func(t *testing.T, s store.Store)
		}{wt.name, func(t *testing.T, s store.Store) { wt.fn(t, webhookStore(t, s)) }})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			if err := s.Ping(context.Background()); err != nil {
				t.Fatalf("Ping: %v", err)
			}
			tc.fn(t, s)
		})
	}
}

// t0 is the suite's reference time: microsecond precision, as stored.
var t0 = time.Date(2026, 11, 21, 10, 0, 0, 123456000, time.UTC)

func hash(s string) []byte {
	h := make([]byte, 32)
	copy(h, s)
	return h
}

func testKeys(t *testing.T, s store.Store) {
	ctx := context.Background()
	keys := []store.Key{
		{ID: "key_b", Name: "second", Plan: "pro", Prefix: "trk_bbbbbbbb", CreatedAt: t0.Add(time.Second)},
		{ID: "key_a", Name: "first", Plan: "free", Prefix: "trk_aaaaaaaa", CreatedAt: t0},
		{ID: "key_c", Name: "", Plan: "premium", Prefix: "trk_cccccccc", CreatedAt: t0.Add(time.Second)},
	}
	for _, k := range keys {
		if err := s.CreateKey(ctx, k, hash(k.ID)); err != nil {
			t.Fatalf("CreateKey(%s): %v", k.ID, err)
		}
	}
	for _, want := range keys {
		got, err := s.KeyByHash(ctx, hash(want.ID))
		if err != nil {
			t.Fatalf("KeyByHash(%s): %v", want.ID, err)
		}
		assertKey(t, got, want)
	}
	if _, err := s.KeyByHash(ctx, hash("key_unknown")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("KeyByHash(unknown): %v, want ErrNotFound", err)
	}
	list, err := s.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, k := range list {
		ids = append(ids, k.ID)
	}
	if want := []string{"key_a", "key_b", "key_c"}; !slices.Equal(ids, want) {
		t.Errorf("ListKeys order %v, want %v (oldest first, then by id)", ids, want)
	}
}

func assertKey(t *testing.T, got, want store.Key) {
	t.Helper()
	if got.ID != want.ID || got.Name != want.Name || got.Plan != want.Plan || got.Prefix != want.Prefix ||
		!got.CreatedAt.Equal(want.CreatedAt) || got.CreatedAt.Location() != time.UTC {
		t.Errorf("key %+v, want %+v (in UTC)", got, want)
	}
	if (got.RevokedAt == nil) != (want.RevokedAt == nil) ||
		(got.RevokedAt != nil && !got.RevokedAt.Equal(*want.RevokedAt)) {
		t.Errorf("key %s revoked at %v, want %v", got.ID, got.RevokedAt, want.RevokedAt)
	}
}

func testRevokeKey(t *testing.T, s store.Store) {
	ctx := context.Background()
	k := store.Key{ID: "key_r", Name: "r", Plan: "free", Prefix: "trk_rrrrrrrr", CreatedAt: t0}
	if err := s.CreateKey(ctx, k, hash("r")); err != nil {
		t.Fatal(err)
	}
	at := t0.Add(time.Hour)
	if err := s.RevokeKey(ctx, "key_r", at); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeKey(ctx, "key_r", at.Add(time.Hour)); err != nil {
		t.Fatalf("revoking twice: %v", err)
	}
	k.RevokedAt = &at
	got, err := s.KeyByHash(ctx, hash("r"))
	if err != nil {
		t.Fatalf("a revoked key must still be found (to say it is revoked): %v", err)
	}
	assertKey(t, got, k)
	if err := s.RevokeKey(ctx, "key_nope", at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RevokeKey(unknown): %v, want ErrNotFound", err)
	}
}

func testDuplicateKeyHash(t *testing.T, s store.Store) {
	ctx := context.Background()
	if err := s.CreateKey(ctx, store.Key{ID: "key_1", Plan: "free", CreatedAt: t0}, hash("same")); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateKey(ctx, store.Key{ID: "key_2", Plan: "free", CreatedAt: t0}, hash("same")); err == nil {
		t.Error("two keys with one secret hash: no error")
	}
	if err := s.CreateKey(ctx, store.Key{ID: "key_1", Plan: "free", CreatedAt: t0}, hash("other")); err == nil {
		t.Error("two keys with one id: no error")
	}
}

func testUsage(t *testing.T, s store.Store) {
	ctx := context.Background()
	steps := []struct {
		key, day string
		add      int64
		want     int64
	}{
		{"key_a", "2026-11-21", 1, 1},
		{"key_a", "2026-11-21", 2, 3},
		{"key_a", "2026-11-22", 1, 1},
		{"key_b", "2026-11-21", 5, 5},
		{"key_a", "2026-11-21", 1, 4},
	}
	for _, st := range steps {
		got, err := s.AddUsage(ctx, st.key, st.day, st.add)
		if err != nil {
			t.Fatal(err)
		}
		if got != st.want {
			t.Errorf("AddUsage(%s, %s, %d) = %d, want %d", st.key, st.day, st.add, got, st.want)
		}
	}
	for _, c := range []struct {
		key, day string
		want     int64
	}{{"key_a", "2026-11-21", 4}, {"key_a", "2026-11-22", 1}, {"key_b", "2026-11-21", 5}, {"key_c", "2026-11-21", 0}} {
		if got, err := s.Usage(ctx, c.key, c.day); err != nil || got != c.want {
			t.Errorf("Usage(%s, %s) = %d, %v; want %d", c.key, c.day, got, err, c.want)
		}
	}
	for _, day := range []string{"", "21-11-2026", "2026-13-01", "today"} {
		if _, err := s.AddUsage(ctx, "key_a", day, 1); fault.CodeOf(err) != fault.InvalidRequest {
			t.Errorf("AddUsage(day %q): %v, want invalid_request", day, err)
		}
	}
}

func testConcurrentUsage(t *testing.T, s store.Store) {
	ctx := context.Background()
	const workers, each = 20, 25
	totals := make(chan int64, workers*each)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				n, err := s.AddUsage(ctx, "key_a", "2026-11-21", 1)
				if err != nil {
					errs <- err
					return
				}
				totals <- n
			}
		})
	}
	wg.Wait()
	close(totals)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for n := range totals {
		if seen[n] {
			t.Fatalf("two AddUsage calls returned the same total %d", n)
		}
		seen[n] = true
	}
	if got, _ := s.Usage(ctx, "key_a", "2026-11-21"); got != workers*each {
		t.Errorf("usage after %d concurrent adds: %d", workers*each, got)
	}
}

func newScan(id, key, chain, level string, at time.Time) store.Scan {
	return store.Scan{
		ID: id, KeyID: key, Address: "0x" + strings.Repeat("ab", 20), Chain: chain, RiskLevel: level,
		Score: 42.5, ScannedAt: at, Report: []byte(`{"scan_id":"` + id + `"}`),
	}
}

func save(t *testing.T, s store.Store, scans ...store.Scan) {
	t.Helper()
	for _, sc := range scans {
		if err := s.SaveScan(context.Background(), sc); err != nil {
			t.Fatalf("SaveScan(%s): %v", sc.ID, err)
		}
	}
}

func assertScan(t *testing.T, got, want store.Scan) {
	t.Helper()
	if got.ID != want.ID || got.KeyID != want.KeyID || got.Address != want.Address || got.Chain != want.Chain ||
		got.RiskLevel != want.RiskLevel || got.Score != want.Score || got.Cached != want.Cached ||
		!got.ScannedAt.Equal(want.ScannedAt) || got.ScannedAt.Location() != time.UTC ||
		!bytes.Equal(got.Report, want.Report) {
		t.Errorf("scan\n got %+v\nwant %+v", got, want)
	}
}

// testRecordScans: rows and usage charges written together; each
// charge's new total returned; a stored ID skipped, its charge applied.
func testRecordScans(t *testing.T, s store.Store) {
	rec, ok := s.(store.ScanRecorder)
	if !ok {
		t.Skip("store does not record scans and usage in one transaction")
	}
	ctx := context.Background()
	if _, err := s.AddUsage(ctx, "key_a", "2026-11-21", 2); err != nil {
		t.Fatal(err)
	}
	first := []store.Scan{newScan("scn_r1", "key_a", "ethereum", "low", t0), newScan("scn_r2", "key_b", "bsc", "high", t0.Add(time.Second))}
	totals, err := rec.RecordScans(ctx, first, []store.Charge{{KeyID: "key_a", Day: "2026-11-21", N: 1}, {KeyID: "key_b", Day: "2026-11-21", N: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != 2 || totals[0] != 3 || totals[1] != 1 {
		t.Errorf("totals %v, want [3 1]", totals)
	}
	again := newScan("scn_r1", "key_a", "solana", "critical", t0)
	totals, err = rec.RecordScans(ctx, []store.Scan{again, newScan("scn_r3", "key_a", "ethereum", "low", t0)},
		[]store.Charge{{KeyID: "key_a", Day: "2026-11-21", N: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) != 1 || totals[0] != 5 {
		t.Errorf("totals %v, want [5]", totals)
	}
	got, err := s.FindScan(ctx, "key_a", "scn_r1")
	if err != nil {
		t.Fatal(err)
	}
	assertScan(t, got, first[0])
	for key, want := range map[string]int64{"key_a": 5, "key_b": 1} {
		if n, err := s.Usage(ctx, key, "2026-11-21"); err != nil || n != want {
			t.Errorf("usage of %s: %d (%v), want %d", key, n, err, want)
		}
	}
	if _, err := rec.RecordScans(ctx, nil, []store.Charge{{KeyID: "key_a", Day: "21/11/2026", N: 1}}); err == nil {
		t.Error("a charge on an invalid day was accepted")
	}
	if n, _ := s.Usage(ctx, "key_a", "2026-11-21"); n != 5 {
		t.Errorf("usage of key_a after a refused charge: %d, want 5", n)
	}
}

func testSaveAndFindScan(t *testing.T, s store.Store) {
	ctx := context.Background()
	want := newScan("scn_1", "key_a", "solana", "critical", t0)
	want.Cached, want.Score = true, 99.9
	want.Report = []byte(`{"scan_id":"scn_1","token_name":"Ünïcødé 🚀","risk_flags":[]}`)
	save(t, s, want)
	got, err := s.FindScan(ctx, "key_a", "scn_1")
	if err != nil {
		t.Fatal(err)
	}
	assertScan(t, got, want)
	for _, c := range []struct{ key, id string }{{"key_b", "scn_1"}, {"key_a", "scn_2"}} {
		if _, err := s.FindScan(ctx, c.key, c.id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("FindScan(%s, %s): %v, want ErrNotFound", c.key, c.id, err)
		}
	}
}

func testSaveScanTwice(t *testing.T, s store.Store) {
	first := newScan("scn_1", "key_a", "bsc", "low", t0)
	second := newScan("scn_1", "key_a", "bsc", "high", t0.Add(time.Minute))
	save(t, s, first, second) // a retried save must not fail
	got, err := s.FindScan(context.Background(), "key_a", "scn_1")
	if err != nil {
		t.Fatal(err)
	}
	assertScan(t, got, first)
}

// fixture saves key_a's scans s00..s11, one minute apart, on rotating
// chains and levels, plus scans of another key.
func fixture(t *testing.T, s store.Store) []store.Scan {
	t.Helper()
	chains := []string{"ethereum", "bsc", "solana"}
	levels := []string{"minimal", "low", "high", "critical"}
	var all []store.Scan
	for i := range 12 {
		all = append(all, newScan(fmt.Sprintf("s%02d", i), "key_a", chains[i%3], levels[i%4], t0.Add(time.Duration(i)*time.Minute)))
	}
	save(t, s, all...)
	save(t, s, newScan("other", "key_b", "ethereum", "minimal", t0.Add(5*time.Minute)))
	return all
}

func ids(scans []store.Scan) []string {
	out := []string{}
	for _, sc := range scans {
		out = append(out, sc.ID)
	}
	return out
}

func testFilters(t *testing.T, s store.Store) {
	fixture(t, s)
	tests := []struct {
		name string
		f    store.ScanFilter
		want []string
	}{
		{"all newest first", store.ScanFilter{}, []string{"s11", "s10", "s09", "s08", "s07", "s06", "s05", "s04", "s03", "s02", "s01", "s00"}},
		{"chain", store.ScanFilter{Chain: "solana"}, []string{"s11", "s08", "s05", "s02"}},
		{"level", store.ScanFilter{Level: "critical"}, []string{"s11", "s07", "s03"}},
		{"chain and level", store.ScanFilter{Chain: "ethereum", Level: "minimal"}, []string{"s00"}},
		{"from is inclusive", store.ScanFilter{From: t0.Add(9 * time.Minute)}, []string{"s11", "s10", "s09"}},
		{"to is exclusive", store.ScanFilter{To: t0.Add(2 * time.Minute)}, []string{"s01", "s00"}},
		{"range", store.ScanFilter{From: t0.Add(3 * time.Minute), To: t0.Add(6 * time.Minute)}, []string{"s05", "s04", "s03"}},
		{"range and chain", store.ScanFilter{Chain: "bsc", From: t0.Add(3 * time.Minute), To: t0.Add(8 * time.Minute)}, []string{"s07", "s04"}},
		{"nothing matches", store.ScanFilter{Chain: "polygon"}, []string{}},
		{"empty range", store.ScanFilter{From: t0.Add(time.Hour)}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f.KeyID = "key_a"
			got, next, err := s.FindScans(context.Background(), tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), tc.want) || next != "" {
				t.Errorf("FindScans = %v (next %q), want %v and no next page", ids(got), next, tc.want)
			}
			var exported []string
			err = s.ExportScans(context.Background(), tc.f, func(sc store.Scan) error {
				exported = append(exported, sc.ID)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(append([]string{}, exported...), tc.want) {
				t.Errorf("ExportScans = %v, want %v", exported, tc.want)
			}
		})
	}
}

// pageAll lists f page by page with limit and returns every id in order.
func pageAll(t *testing.T, s store.Store, f store.ScanFilter, limit int, between func()) []string {
	t.Helper()
	f.Limit = limit
	var out []string
	for range 1000 {
		page, next, err := s.FindScans(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > limit {
			t.Fatalf("page of %d, limit %d", len(page), limit)
		}
		out = append(out, ids(page)...)
		if next == "" {
			return out
		}
		if strings.Contains(next, "s0") || strings.Contains(next, "key_") {
			t.Errorf("cursor %q is not opaque", next)
		}
		if between != nil {
			between()
		}
		f.Cursor = next
	}
	t.Fatal("pagination never ended")
	return nil
}

func testPagination(t *testing.T, s store.Store) {
	// 25 scans, ten of them at the very same instant: the order must still
	// be total so pages neither repeat nor skip.
	var all []store.Scan
	for i := range 25 {
		at := t0.Add(time.Duration(i) * time.Second)
		if i >= 8 && i < 18 {
			at = t0.Add(8 * time.Second)
		}
		all = append(all, newScan(fmt.Sprintf("p%02d", i), "key_a", "ethereum", "low", at))
	}
	save(t, s, all...)
	f := store.ScanFilter{KeyID: "key_a"}
	want, _, err := s.FindScans(context.Background(), store.ScanFilter{KeyID: "key_a", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 25 {
		t.Fatalf("one page of 100: %d scans, want 25", len(want))
	}
	for _, limit := range []int{1, 3, 7, 10, 24, 25} {
		got := pageAll(t, s, f, limit, nil)
		if !slices.Equal(got, ids(want)) {
			t.Errorf("pages of %d: %v\nwant %v", limit, got, ids(want))
		}
	}
	// Filters apply on every page.
	f.Level = "none"
	if got := pageAll(t, s, f, 5, nil); len(got) != 0 {
		t.Errorf("filtered pages returned %v", got)
	}
}

func testPaginationWithInserts(t *testing.T, s store.Store) {
	want := ids(fixture(t, s))
	slices.Reverse(want)
	n := 0
	got := pageAll(t, s, store.ScanFilter{KeyID: "key_a"}, 5, func() {
		n++
		save(t, s, newScan(fmt.Sprintf("new%d", n), "key_a", "ethereum", "low", t0.Add(time.Hour+time.Duration(n))))
	})
	if !slices.Equal(got, want) {
		t.Errorf("with newer scans saved between pages: %v\nwant %v", got, want)
	}
}

func testPageLimits(t *testing.T, s store.Store) {
	var all []store.Scan
	for i := range store.MaxLimit + 10 {
		all = append(all, newScan(fmt.Sprintf("l%04d", i), "key_a", "bsc", "low", t0.Add(time.Duration(i)*time.Millisecond)))
	}
	saveMany(t, s, all)
	for _, c := range []struct{ limit, want int }{{0, store.DefaultLimit}, {-1, store.DefaultLimit}, {store.MaxLimit + 1, store.MaxLimit}, {3, 3}} {
		got, next, err := s.FindScans(context.Background(), store.ScanFilter{KeyID: "key_a", Limit: c.limit})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.want || next == "" {
			t.Errorf("limit %d: %d scans (next %q), want %d and a next page", c.limit, len(got), next, c.want)
		}
	}
}

func testBadCursor(t *testing.T, s store.Store) {
	fixture(t, s)
	_, next, err := s.FindScans(context.Background(), store.ScanFilter{KeyID: "key_a", Limit: 2})
	if err != nil || next == "" {
		t.Fatalf("first page: %v, next %q", err, next)
	}
	for _, c := range []string{"x", "!!!", "bm90IGEgY3Vyc29y", next[:len(next)-3], "A" + next, strings.Repeat("QUFB", 100)} {
		_, _, err := s.FindScans(context.Background(), store.ScanFilter{KeyID: "key_a", Cursor: c})
		if fault.CodeOf(err) != fault.InvalidRequest {
			t.Errorf("cursor %q: %v, want invalid_request", c, err)
		}
	}
}

func testExport(t *testing.T, s store.Store) {
	// More than one internal batch of any reasonable size, with ties.
	var all []store.Scan
	for i := range 2500 {
		all = append(all, newScan(fmt.Sprintf("e%04d", i), "key_a", "ethereum", "low", t0.Add(time.Duration(i/3)*time.Second)))
	}
	saveMany(t, s, all)
	save(t, s, newScan("other", "key_b", "ethereum", "low", t0))
	var got []string
	err := s.ExportScans(context.Background(), store.ScanFilter{KeyID: "key_a", Limit: 1, Cursor: "ignored"}, func(sc store.Scan) error {
		got = append(got, sc.ID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := ids(all)
	slices.Reverse(want)
	if !slices.Equal(got, want) {
		t.Errorf("exported %d scans, want %d newest first (first %v)", len(got), len(want), got[:min(3, len(got))])
	}
}

func testExportStops(t *testing.T, s store.Store) {
	fixture(t, s)
	stop := errors.New("client went away")
	n := 0
	err := s.ExportScans(context.Background(), store.ScanFilter{KeyID: "key_a"}, func(store.Scan) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Errorf("export after fn failed: %v after %d scans, want the fn's error after 3", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.ExportScans(ctx, store.ScanFilter{KeyID: "key_a"}, func(store.Scan) error { return nil }); err == nil {
		t.Error("export with a cancelled context: no error")
	}
}

// saveMany saves scans in batches when the store can, else one by one.
func saveMany(t *testing.T, s store.Store, scans []store.Scan) {
	t.Helper()
	bs, ok := s.(store.BatchSaver)
	if !ok {
		save(t, s, scans...)
		return
	}
	for i := 0; i < len(scans); i += 5000 {
		if err := bs.SaveScans(context.Background(), scans[i:min(i+5000, len(scans))]); err != nil {
			t.Fatal(err)
		}
	}
}

func testExport100k(t *testing.T, s store.Store) {
	if testing.Short() {
		t.Skip("the 100k-row export is skipped with -short")
	}
	const rows = exportRows
	report := bytes.Repeat([]byte("x"), exportRowSize)
	batch := make([]store.Scan, 0, 5000)
	begin := time.Now()
	for i := range rows {
		sc := newScan(fmt.Sprintf("big%06d", i), "key_a", "ethereum", "low", t0.Add(time.Duration(i)*time.Millisecond))
		sc.Report = report
		batch = append(batch, sc)
		if len(batch) == cap(batch) {
			saveMany(t, s, batch)
			batch = batch[:0]
		}
	}
	t.Logf("saved %d rows in %v", rows, time.Since(begin).Round(time.Millisecond))

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	n := 0
	prev := ""
	begin = time.Now()
	err := s.ExportScans(context.Background(), store.ScanFilter{KeyID: "key_a"}, func(sc store.Scan) error {
		if prev != "" && sc.ID >= prev {
			return fmt.Errorf("scan %s after %s: not newest first", sc.ID, prev)
		}
		prev = sc.ID
		n++
		if n%(rows/10) == 0 {
			runtime.GC() // measure what is live, not garbage awaiting collection
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != rows {
		t.Fatalf("exported %d rows, want %d", n, rows)
	}
	grew := int64(peak) - int64(base)
	t.Logf("exported %d rows in %v; live heap grew by at most %d MiB", n, time.Since(begin).Round(time.Millisecond), grew>>20)
	if grew > 64<<20 {
		t.Errorf("heap grew by %d MiB while exporting: rows are being held in memory", grew>>20)
	}
}

func testLatestScan(t *testing.T, s store.Store) {
	ctx := context.Background()
	const addr = "0x6982508145454Ce325dDbE47a25d4ec3d2311933"
	if _, err := s.LatestScan(ctx, addr); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LatestScan of an address never scanned: %v, want ErrNotFound", err)
	}
	at := func(id, key, address string, d time.Duration) store.Scan {
		sc := newScan(id, key, "ethereum", "high", t0.Add(d))
		sc.Address = address
		return sc
	}
	// Scans of other addresses (one newer, one differing only in case)
	// and of several keys; the newest of addr is key_b's, and a tie on
	// time goes to the greater id, as in history order.
	save(t, s,
		at("a1", "key_a", addr, 0),
		at("a3", "key_b", addr, 2*time.Minute),
		at("a2", "key_a", addr, time.Minute),
		at("a0", "key_c", addr, 2*time.Minute),
		at("b1", "key_a", "0x"+strings.Repeat("cd", 20), 5*time.Minute),
		at("b2", "key_a", strings.ToLower(addr), 6*time.Minute))
	got, err := s.LatestScan(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "a3" || got.KeyID != "key_b" || !got.ScannedAt.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("LatestScan = %s by %s at %v, want a3 by key_b at %v", got.ID, got.KeyID, got.ScannedAt, t0.Add(2*time.Minute))
	}
	if string(got.Report) != `{"scan_id":"a3"}` {
		t.Errorf("LatestScan report = %s, want the stored bytes", got.Report)
	}
	save(t, s, at("a4", "key_a", addr, 3*time.Minute))
	if got, err := s.LatestScan(ctx, addr); err != nil || got.ID != "a4" {
		t.Errorf("after a newer scan: LatestScan = %s, %v; want a4", got.ID, err)
	}
}

// testReportBases: scans saved as a shared base and their edits (one by
// one, in a batch, with their charges) read back as the exact bytes of
// their reports from every read path, beside rows kept whole; a base
// saved again (another batch, another instance) is no error.
func testReportBases(t *testing.T, s store.Store) {
	ctx := context.Background()
	body := []byte(`{"scan_id":"scn_first","address":"0xab","duration_ms":1234,"cached":false,"token_name":"Ünïcødé 🚀"}`)
	base := &store.Base{Digest: sha256.Sum256(body), Body: body}
	var want []store.Scan
	withBase := func(id string, d time.Duration, dur string) store.Scan {
		sc := newScan(id, "key_a", "ethereum", "low", t0.Add(d))
		sc.Cached = true
		sc.Base, sc.Edits = base, []store.Edit{
			{From: 11, To: 22, With: []byte(`"` + id + `"`)},
			{From: 54, To: 58, With: []byte(dur)},
			{From: 68, To: 73, With: []byte(`true`)},
		}
		report, err := store.ApplyEdits(body, sc.Edits)
		if err != nil {
			t.Fatal(err)
		}
		sc.Report = report
		want = append(want, sc)
		return sc
	}
	if got := string(withBase("scn_probe", 0, "0").Report); got != `{"scan_id":"scn_probe","address":"0xab","duration_ms":0,"cached":true,"token_name":"Ünïcødé 🚀"}` {
		t.Fatalf("the test's edits do not hit the fields: %s", got)
	}
	want = want[:0]
	save(t, s, withBase("scn_b1", time.Second, "5"))
	if bs, ok := s.(store.BatchSaver); ok {
		if err := bs.SaveScans(ctx, []store.Scan{withBase("scn_b2", 2*time.Second, "0"), withBase("scn_b3", 3*time.Second, "17")}); err != nil {
			t.Fatal(err)
		}
	}
	if rec, ok := s.(store.ScanRecorder); ok {
		if _, err := rec.RecordScans(ctx, []store.Scan{withBase("scn_b4", 4*time.Second, "2"), withBase("scn_b5", 5*time.Second, "1")},
			[]store.Charge{{KeyID: "key_a", Day: "2026-11-21", N: 2}}); err != nil {
			t.Fatal(err)
		}
	}
	whole := newScan("scn_w", "key_a", "ethereum", "low", t0.Add(6*time.Second))
	save(t, s, whole)
	want = append(want, whole)
	slices.Reverse(want) // newest first

	for _, w := range want {
		got, err := s.FindScan(ctx, "key_a", w.ID)
		if err != nil {
			t.Fatal(err)
		}
		assertScan(t, got, w)
	}
	page, _, err := s.FindScans(ctx, store.ScanFilter{KeyID: "key_a", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var exported []store.Scan
	if err := s.ExportScans(ctx, store.ScanFilter{KeyID: "key_a"}, func(sc store.Scan) error {
		exported = append(exported, sc)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]store.Scan{"FindScans": page, "ExportScans": exported} {
		if len(got) != len(want) {
			t.Fatalf("%s: %d scans, want %d", name, len(got), len(want))
		}
		for i := range want {
			assertScan(t, got[i], want[i])
			if got[i].Base != nil || got[i].Edits != nil {
				t.Errorf("%s: %s read back with a base", name, got[i].ID)
			}
		}
	}
	latest, err := s.LatestScan(ctx, whole.Address)
	if err != nil {
		t.Fatal(err)
	}
	assertScan(t, latest, whole)
	// The newest of another address is a row with a base.
	last := withBase("scn_b6", 7*time.Second, "3")
	last.Address = "0x" + strings.Repeat("cd", 20)
	save(t, s, last)
	if latest, err = s.LatestScan(ctx, last.Address); err != nil {
		t.Fatal(err)
	}
	assertScan(t, latest, last)
}
