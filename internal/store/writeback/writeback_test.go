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

// flaky is a real store whose scan writes fail while down is set, as when
// the database is unreachable.
type flaky struct {
	*sqlite.Store
	down atomic.Bool
}

var errDown = errors.New("dial tcp 127.0.0.1:5432: connection refused")

func (f *flaky) SaveScan(ctx context.Context, sc store.Scan) error {
	if f.down.Load() {
		return errDown
	}
	return f.Store.SaveScan(ctx, sc)
}

func (f *flaky) SaveScans(ctx context.Context, scans []store.Scan) error {
	if f.down.Load() {
		return errDown
	}
	return f.Store.SaveScans(ctx, scans)
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

// The whole store contract still holds through the queue, once what was
// queued is written.
func TestSuite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return flushing{writeback.New(openSQLite(t, filepath.Join(t.TempDir(), "x.db")), writeback.Options{})}
	})
}

// flushing waits for the queue after each save, so the suite reads what it
// wrote.
type flushing struct{ *writeback.Store }

func (f flushing) SaveScan(ctx context.Context, sc store.Scan) error {
	if err := f.Store.SaveScan(ctx, sc); err != nil {
		return err
	}
	return f.Flush(ctx)
}

func (f flushing) SaveScans(ctx context.Context, scans []store.Scan) error {
	for _, sc := range scans {
		if err := f.Store.SaveScan(ctx, sc); err != nil {
			return err
		}
	}
	return f.Flush(ctx)
}

func TestDatabaseDownThenBack(t *testing.T) {
	fl, _ := newFlaky(t)
	var failures atomic.Int64
	w := writeback.New(fl, writeback.Options{MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		OnError: func(error) { failures.Add(1) }})
	defer w.Close()
	ctx := context.Background()
	fl.down.Store(true)
	for i := range 300 {
		if err := w.SaveScan(ctx, scan(i)); err != nil {
			t.Fatalf("save %d while the database is down: %v", i, err)
		}
	}
	if _, err := w.FindScan(ctx, "key_a", "scn_00007"); err != nil {
		t.Errorf("a queued scan cannot be read back: %v", err)
	}
	if _, err := w.FindScan(ctx, "key_b", "scn_00007"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a queued scan is visible to another key: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if !w.Degraded() || failures.Load() == 0 || w.Pending() != 300 {
		t.Fatalf("database down: degraded=%v failures=%d pending=%d", w.Degraded(), failures.Load(), w.Pending())
	}
	fl.down.Store(false)
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := w.Flush(fctx); err != nil {
		t.Fatal(err)
	}
	if got := count(t, fl.Store); got != 300 || w.Degraded() {
		t.Errorf("database back: %d of 300 scans stored, degraded=%v", got, w.Degraded())
	}
}

func TestQueueIsBounded(t *testing.T) {
	fl, _ := newFlaky(t)
	fl.down.Store(true)
	w := writeback.New(fl, writeback.Options{Capacity: 10, CloseTimeout: 50 * time.Millisecond})
	ctx := context.Background()
	for i := range 10 {
		if err := w.SaveScan(ctx, scan(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SaveScan(ctx, scan(10)); fault.CodeOf(err) != fault.Unavailable {
		t.Errorf("11th scan into a queue of 10: %v, want unavailable", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close with 10 unwritten scans: no error")
	}
}

func TestCloseWritesEverything(t *testing.T) {
	fl, path := newFlaky(t)
	w := writeback.New(fl, writeback.Options{})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				if err := w.SaveScan(context.Background(), scan(g*500+i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.SaveScan(context.Background(), scan(9999)); err == nil {
		t.Error("save after Close: no error")
	}
	s := openSQLite(t, path)
	defer s.Close()
	if got := count(t, s); got != 2000 {
		t.Errorf("after Close and reopen: %d of 2000 scans stored", got)
	}
}

func BenchmarkSaveScan(b *testing.B) {
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w := writeback.New(s, writeback.Options{Capacity: 1 << 20})
	defer w.Close()
	var seq atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := w.SaveScan(context.Background(), scan(int(seq.Add(1)))); err != nil {
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
