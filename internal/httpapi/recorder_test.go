package httpapi

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// countingStore counts transactions and can fail history writes.
type countingStore struct {
	store.Store
	batch   store.BatchSaver
	batches atomic.Int64
	singles atomic.Int64
	fail    atomic.Bool
}

func (c *countingStore) SaveScan(ctx context.Context, s store.Scan) error {
	c.singles.Add(1)
	if c.fail.Load() {
		return errors.New("disk full")
	}
	return c.Store.SaveScan(ctx, s)
}

func (c *countingStore) SaveScans(ctx context.Context, s []store.Scan) error {
	c.batches.Add(1)
	if c.fail.Load() {
		return errors.New("disk full")
	}
	return c.batch.SaveScans(ctx, s)
}

func openCounting(t *testing.T) *countingStore {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "r.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.CreateKey(context.Background(), store.Key{ID: "key_a", Plan: "free", Prefix: "trk_a", CreatedAt: time.Now()}, []byte("a")); err != nil {
		t.Fatal(err)
	}
	return &countingStore{Store: st, batch: st}
}

func TestRecorderGroupCommit(t *testing.T) {
	cs := openCounting(t)
	r := newRecorder(cs)
	const n = 300
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%04d", i), KeyID: "key_a", Address: "0x", Chain: "ethereum",
				RiskLevel: "low", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21")
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	used, err := cs.Usage(context.Background(), "key_a", "2026-11-21")
	if err != nil || used != n {
		t.Fatalf("usage %d (%v), want %d", used, err, n)
	}
	rows := 0
	if err := cs.ExportScans(context.Background(), store.ScanFilter{KeyID: "key_a"}, func(store.Scan) error { rows++; return nil }); err != nil {
		t.Fatal(err)
	}
	if rows != n {
		t.Fatalf("%d rows, want %d", rows, n)
	}
	tx := cs.batches.Load() + cs.singles.Load()
	t.Logf("%d scans in %d transactions", n, tx)
	if tx >= n {
		t.Errorf("%d transactions for %d concurrent scans: no grouping", tx, n)
	}
}

func TestRecorderFailureIsNotCharged(t *testing.T) {
	cs := openCounting(t)
	cs.fail.Store(true)
	r := newRecorder(cs)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%d", i), KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21"); err != nil {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	if failed.Load() != 20 {
		t.Errorf("%d of 20 saves failed, want all", failed.Load())
	}
	if used, _ := cs.Usage(context.Background(), "key_a", "2026-11-21"); used != 0 {
		t.Errorf("usage %d after failed saves, want 0", used)
	}
}
