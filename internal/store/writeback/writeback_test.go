package writeback_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
	"github.com/tokenrisk/tokenrisk/internal/store/writeback"
)

// flaky is a real store whose writes and usage reads fail while the
// matching switch is set, as when the database is unreachable.
type flaky struct {
	*sqlite.Store
	scansDown atomic.Bool
	usageDown atomic.Bool
}

var errDown = errors.New("dial tcp 127.0.0.1:5432: connection refused")

func (f *flaky) down(v bool) { f.scansDown.Store(v); f.usageDown.Store(v) }

func (f *flaky) SaveScan(ctx context.Context, sc store.Scan) error {
	if f.scansDown.Load() {
		return errDown
	}
	return f.Store.SaveScan(ctx, sc)
}

func (f *flaky) SaveScans(ctx context.Context, scans []store.Scan) error {
	if f.scansDown.Load() {
		return errDown
	}
	return f.Store.SaveScans(ctx, scans)
}

func (f *flaky) AddUsage(ctx context.Context, key, day string, n int64) (int64, error) {
	if f.usageDown.Load() {
		return 0, errDown
	}
	return f.Store.AddUsage(ctx, key, day, n)
}

func (f *flaky) Usage(ctx context.Context, key, day string) (int64, error) {
	if f.usageDown.Load() {
		return 0, errDown
	}
	return f.Store.Usage(ctx, key, day)
}

func openSQLite(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newFlaky(t *testing.T) (*flaky, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tokenrisk.db")
	return &flaky{Store: openSQLite(t, path)}, path
}

const today = "2026-11-21"

func scan(i int) store.Scan {
	return store.Scan{ID: fmt.Sprintf("scn_%05d", i), KeyID: "key_a", Chain: "ethereum", RiskLevel: "low",
		ScannedAt: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Millisecond), Report: []byte("{}")}
}

func count(t *testing.T, s store.Store) int {
	t.Helper()
	n := 0
	if err := s.ExportScans(context.Background(), store.ScanFilter{KeyID: "key_a"}, func(store.Scan) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

func usage(t *testing.T, s store.Store) int64 {
	t.Helper()
	n, err := s.Usage(context.Background(), "key_a", today)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func flush(t *testing.T, w *writeback.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// The whole store contract holds through the wrapper. The suite's 5 000-row
// batches get a write bound a loaded CI machine cannot miss: the bound
// itself is tested elsewhere.
func TestSuite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return writeback.New(openSQLite(t, filepath.Join(t.TempDir(), "x.db")), writeback.Options{WriteTimeout: time.Minute})
	})
}

func TestDatabaseDownThenBack(t *testing.T) {
	fl, _ := newFlaky(t)
	var failures, recoveries atomic.Int64
	w := writeback.New(fl, writeback.Options{MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		OnError: func(error) { failures.Add(1) }, OnRecover: func() { recoveries.Add(1) }})
	defer w.Close()
	ctx := context.Background()
	if _, err := w.AddUsage(ctx, "key_a", today, 4); err != nil {
		t.Fatal(err)
	}
	if w.Busy() {
		t.Fatal("busy with an empty queue and a healthy database")
	}
	fl.down(true)
	for i := range 300 {
		if err := w.Enqueue(scan(i), today, false); err != nil {
			t.Fatalf("enqueue %d while the database is down: %v", i, err)
		}
	}
	if _, err := w.FindScan(ctx, "key_a", "scn_00007"); err != nil {
		t.Errorf("a queued scan cannot be read back: %v", err)
	}
	if _, err := w.FindScan(ctx, "key_b", "scn_00007"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a queued scan is visible to another key: %v", err)
	}
	if got := usage(t, w); got != 304 {
		t.Errorf("usage while the database is down: %d, want 304 (4 known + 300 queued)", got)
	}
	if n, err := w.Usage(ctx, "key_b", today); err == nil {
		t.Errorf("usage of a key never seen while the database is down: %d, want an error", n)
	}
	time.Sleep(100 * time.Millisecond)
	if !w.Degraded() || !w.Busy() || failures.Load() == 0 || w.Pending() != 300 {
		t.Fatalf("database down: degraded=%v busy=%v failures=%d pending=%d", w.Degraded(), w.Busy(), failures.Load(), w.Pending())
	}
	fl.down(false)
	flush(t, w)
	if got := count(t, fl.Store); got != 300 || w.Degraded() || w.Busy() || recoveries.Load() != 1 {
		t.Errorf("database back: %d of 300 scans stored, degraded=%v busy=%v recoveries=%d", got, w.Degraded(), w.Busy(), recoveries.Load())
	}
	if got := usage(t, fl.Store); got != 304 {
		t.Errorf("usage stored: %d, want 304", got)
	}
}

// A batch whose scans were written but whose charge failed retries only
// the charge: every scan is charged once.
func TestRetryRepeatsOnlyWhatFailed(t *testing.T) {
	fl, _ := newFlaky(t)
	w := writeback.New(fl, writeback.Options{MinBackoff: 5 * time.Millisecond, MaxBackoff: 10 * time.Millisecond})
	defer w.Close()
	fl.usageDown.Store(true)
	for i := range 50 {
		if err := w.Enqueue(scan(i), today, i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for count(t, fl.Store) != 25 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // several failed charge attempts
	if w.Pending() != 50 {
		t.Fatalf("pending %d, want 50 while charges fail", w.Pending())
	}
	fl.usageDown.Store(false)
	flush(t, w)
	if got := usage(t, fl.Store); got != 50 {
		t.Errorf("usage after retries: %d, want 50", got)
	}
	if got := count(t, fl.Store); got != 25 {
		t.Errorf("%d scans stored, want the 25 not marked saved", got)
	}
}

func TestQueueIsBounded(t *testing.T) {
	fl, _ := newFlaky(t)
	fl.down(true)
	w := writeback.New(fl, writeback.Options{Capacity: 10, CloseTimeout: 50 * time.Millisecond})
	for i := range 10 {
		if err := w.Enqueue(scan(i), today, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Enqueue(scan(10), today, false); fault.CodeOf(err) != fault.Unavailable {
		t.Errorf("11th write into a queue of 10: %v, want unavailable", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close with 10 unwritten scans: no error")
	}
}

func TestCloseWritesEverything(t *testing.T) {
	fl, path := newFlaky(t)
	fl.down(true)
	w := writeback.New(fl, writeback.Options{MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, CloseTimeout: 2 * time.Minute})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				if err := w.Enqueue(scan(g*500+i), today, false); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	fl.down(false)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Enqueue(scan(9999), today, false); err == nil {
		t.Error("enqueue after Close: no error")
	}
	s := openSQLite(t, path)
	defer s.Close()
	if got := count(t, s); got != 2000 {
		t.Errorf("after Close and reopen: %d of 2000 scans stored", got)
	}
	if got := usage(t, s); got != 2000 {
		t.Errorf("after Close and reopen: usage %d, want 2000", got)
	}
}

func BenchmarkEnqueue(b *testing.B) {
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w := writeback.New(s, writeback.Options{Capacity: 1 << 20})
	defer w.Close()
	var seq atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := w.Enqueue(scan(int(seq.Add(1))), today, false); err != nil {
				b.Error(err)
				return
			}
		}
	})
	if err := w.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// hanging is a real store whose reads block until their context ends, as
// when the database accepts connections and never answers.
type hanging struct {
	*sqlite.Store
	hang atomic.Bool
}

func (h *hanging) wait(ctx context.Context) error {
	if h.hang.Load() {
		<-ctx.Done()
		return fmt.Errorf("read: %w", ctx.Err())
	}
	return nil
}

func (h *hanging) KeyByHash(ctx context.Context, hash []byte) (store.Key, error) {
	if err := h.wait(ctx); err != nil {
		return store.Key{}, err
	}
	return h.Store.KeyByHash(ctx, hash)
}

func (h *hanging) Usage(ctx context.Context, key, day string) (int64, error) {
	if err := h.wait(ctx); err != nil {
		return 0, err
	}
	return h.Store.Usage(ctx, key, day)
}

// A database that hangs costs one bounded read; the reads after it answer
// at once from what is known (usage) or fail at once (keys), so callers'
// fallbacks answer instead of waiting on it.
func TestHangingDatabaseCostsOneTimeout(t *testing.T) {
	h := &hanging{Store: openSQLite(t, filepath.Join(t.TempDir(), "h.db"))}
	w := writeback.New(h, writeback.Options{ReadTimeout: 200 * time.Millisecond, ReadPause: time.Hour})
	defer w.Close()
	ctx := context.Background()
	if _, err := w.AddUsage(ctx, "key_a", today, 7); err != nil {
		t.Fatal(err)
	}
	h.hang.Store(true)
	start := time.Now()
	n, err := w.Usage(ctx, "key_a", today)
	if first := time.Since(start); err != nil || n != 7 || first > time.Second {
		t.Fatalf("first usage read of a hanging database: %d %v after %v, want 7 (known) within the read timeout", n, err, first)
	}
	start = time.Now()
	for range 20 {
		if n, err := w.Usage(ctx, "key_a", today); err != nil || n != 7 {
			t.Fatalf("usage while paused: %d %v", n, err)
		}
		if _, err := w.KeyByHash(ctx, []byte("x")); fault.CodeOf(err) != fault.Unavailable {
			t.Fatalf("key lookup while paused: %v, want unavailable", err)
		}
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("20 reads while the database is known to hang took %v", d)
	}
	if !w.Busy() {
		t.Error("not busy while the database hangs: writes would be tried directly")
	}
}
