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

	"github.com/tokenrisk/tokenrisk/internal/journal"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/writeback"
)

// countingStore counts transactions and can fail history writes.
type countingStore struct {
	store.Store
	batch   store.BatchSaver
	rec     store.ScanRecorder
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

func (c *countingStore) RecordScans(ctx context.Context, s []store.Scan, charges []store.Charge) ([]int64, error) {
	c.batches.Add(1)
	if c.fail.Load() {
		return nil, errors.New("disk full")
	}
	return c.rec.RecordScans(ctx, s, charges)
}

// busyRecorder is a recorder on a counting store that, as under load,
// expects the next row within a microsecond and would wait an hour for
// it: only the rows and the scans in flight end a leader's wait.
func busyRecorder(t *testing.T) (*countingStore, *recorder) {
	t.Helper()
	cs := openCounting(t)
	r := newRecorder(cs)
	r.wait = time.Hour
	r.gap = time.Microsecond
	return cs, r
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
	return &countingStore{Store: st, batch: st, rec: st}
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
				RiskLevel: "low", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", "")
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
	for name, wrap := range map[string]func(*countingStore) store.Store{
		"one transaction":  func(cs *countingStore) store.Store { return cs },
		"rows then counts": func(cs *countingStore) store.Store { return batchOnly{Store: cs, BatchSaver: cs} },
	} {
		t.Run(name, func(t *testing.T) {
			cs := openCounting(t)
			cs.fail.Store(true)
			r := newRecorder(wrap(cs))
			var wg sync.WaitGroup
			var failed atomic.Int64
			for i := range 20 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%d", i), KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", ""); err != nil {
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
		})
	}
}

// With a write-back queue, rows the database refuses are answered, queued
// and all written, each charged once, when it returns.
func TestRecorderQueuesWhatTheDatabaseRefuses(t *testing.T) {
	cs := openCounting(t)
	wb := writeback.New(cs, writeback.Options{MinBackoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	t.Cleanup(func() { wb.Close() })
	r := newRecorder(wb)
	save := func(i int) error {
		return r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%04d", i), KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", "")
	}
	if err := save(0); err != nil || wb.Pending() != 0 {
		t.Fatalf("healthy database: %v, %d queued", err, wb.Pending())
	}
	cs.fail.Store(true)
	var wg sync.WaitGroup
	for i := 1; i <= 100; i++ {
		wg.Go(func() {
			if err := save(i); err != nil {
				t.Errorf("save %d with the database down and room in the queue: %v", i, err)
			}
		})
	}
	wg.Wait()
	if wb.Pending() != 100 {
		t.Errorf("%d queued, want 100", wb.Pending())
	}
	if used, err := wb.Usage(context.Background(), "key_a", "2026-11-21"); err != nil || used != 101 {
		t.Errorf("usage seen while queued: %d %v, want 101", used, err)
	}
	cs.fail.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := wb.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	rows := 0
	if err := cs.ExportScans(ctx, store.ScanFilter{KeyID: "key_a"}, func(store.Scan) error { rows++; return nil }); err != nil {
		t.Fatal(err)
	}
	used, err := cs.Store.Usage(ctx, "key_a", "2026-11-21")
	if rows != 101 || err != nil || used != 101 {
		t.Errorf("database back: %d rows, usage %d (%v); want 101 and 101", rows, used, err)
	}
}

// A full queue fails the request: a row the client is told about is
// never dropped.
func TestRecorderFullQueueFails(t *testing.T) {
	cs := openCounting(t)
	cs.fail.Store(true)
	wb := writeback.New(cs, writeback.Options{Capacity: 3, CloseTimeout: 10 * time.Millisecond})
	defer wb.Close()
	r := newRecorder(wb)
	var failed int
	for i := range 5 {
		if err := r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%d", i), KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", ""); err != nil {
			failed++
		}
	}
	if failed != 2 || wb.Pending() != 3 {
		t.Errorf("%d of 5 saves failed with %d queued; want 2 failed, 3 queued", failed, wb.Pending())
	}
}

// Under load a leader waits for the scans in flight: five scans whose
// rows arrive one after another share one transaction (a leader that
// wrote at once would commit the first row alone).
func TestRecorderGathersScansInFlight(t *testing.T) {
	cs, r := busyRecorder(t)
	const n = 5
	dones := make([]func(), n)
	for i := range dones {
		dones[i] = r.expect()
	}
	errs := make(chan error, n)
	for i := range n {
		go func() {
			defer dones[i]()
			errs <- r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%d", i), KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", "")
		}()
	}
	for range n {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(time.Minute):
			t.Fatal("saves still waiting after a minute")
		}
	}
	if tx := cs.batches.Load(); tx != 1 {
		t.Errorf("%d transactions for %d scans in flight, want 1", tx, n)
	}
	if used, err := cs.Usage(context.Background(), "key_a", "2026-11-21"); err != nil || used != n {
		t.Errorf("usage %d (%v), want %d", used, err, n)
	}
}

// A scan alone in flight is written at once, however busy the service
// was a moment ago; so is one whose fellows ended without a row.
func TestRecorderLoneScanDoesNotWait(t *testing.T) {
	_, r := busyRecorder(t)
	failed := r.expect() // a scan that fails before its row
	done := r.expect()
	failed()
	failed() // calling it twice counts once
	// done runs before the answer is read: the count below checks it.
	saved := saveAsync(r, "scn_lone", "", done)
	saveReturns(t, saved, time.Minute, "a lone scan waited for rows that cannot come")
	if got := r.inflight.Load(); got != 0 {
		t.Errorf("%d scans still counted in flight after both ended", got)
	}
}

// A leader waiting for a scan in flight stops waiting when that scan
// ends without a row (it failed): its own row is written at once.
func TestRecorderStopsWaitingForAScanThatEnded(t *testing.T) {
	_, r := busyRecorder(t)
	other := r.expect() // will fail before its row
	mine := r.expect()
	saved := saveAsync(r, "scn_mine", "", mine)
	// The leader waits for the other scan's row (or it had not started).
	saveWaits(t, saved, 50*time.Millisecond, "the leader did not wait for a scan in flight")
	other()
	saveReturns(t, saved, time.Minute, "the leader still waits for a scan that ended without a row")
}

// Under load a leader also waits for a client that lately sent rows but
// has no scan in flight yet (a cached scan spends most of its time
// outside the handler): its next row shares the transaction.
func TestRecorderWaitsForClientsLatelySeen(t *testing.T) {
	cs, r := busyRecorder(t)
	r.clients["10.0.0.2:4000"] = time.Now() // a client seen a moment ago
	mine := r.expect()
	saved := saveAsync(r, "scn_a", "10.0.0.1:5000", mine)
	saveWaits(t, saved, 50*time.Millisecond, "the leader did not wait for the other client")
	other := r.expect()
	if err := r.save(context.Background(), store.Scan{ID: "scn_b", KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", "10.0.0.2:4000"); err != nil {
		t.Fatal(err)
	}
	other()
	saveReturns(t, saved, time.Minute, "the leader still waits after the other client's row")
	if tx := cs.batches.Load(); tx != 1 {
		t.Errorf("%d transactions for the two clients' rows, want 1", tx)
	}
}

// One client alone never waits, however fast it sends: its next row
// cannot come before its answer.
func TestRecorderLoneFastClientDoesNotWait(t *testing.T) {
	cs := openCounting(t)
	r := newRecorder(cs)
	r.wait = time.Hour
	for i := range 20 {
		r.gap = time.Microsecond
		done := r.expect()
		saved := saveAsync(r, fmt.Sprintf("scn_%d", i), "10.0.0.1:5000", nil)
		saveReturns(t, saved, time.Minute, fmt.Sprintf("scan %d of a lone client waited for rows that cannot come", i))
		done()
	}
}

// batchOnly is a store that saves rows in batches but cannot record rows
// and charges in one transaction: the recorder saves, then counts usage.
type batchOnly struct {
	store.Store
	store.BatchSaver
}

// rowByRow is a store that saves one row at a time.
type rowByRow struct{ store.Store }

// A batch holding several keys and days charges each key on each day
// exactly its own scans, whether the store records rows and charges in
// one transaction, saves the rows and then counts usage, or saves one
// row at a time.
func TestRecorderChargesEachKeyAndDay(t *testing.T) {
	for _, tc := range []struct {
		name    string
		wrap    func(*countingStore) store.Store
		batches int64 // batch writes for the rows in flight
	}{
		{"one transaction", func(cs *countingStore) store.Store { return cs }, 1},
		{"rows then counts", func(cs *countingStore) store.Store { return batchOnly{Store: cs, BatchSaver: cs} }, 1},
		{"row by row", func(cs *countingStore) store.Store { return rowByRow{cs} }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := openCounting(t)
			if err := cs.CreateKey(context.Background(), store.Key{ID: "key_b", Plan: "free", Prefix: "trk_b", CreatedAt: time.Now()}, []byte("b")); err != nil {
				t.Fatal(err)
			}
			r := newRecorder(tc.wrap(cs))
			r.wait = time.Hour // only the scans in flight end the wait
			r.gap = time.Microsecond
			rows := []struct{ key, day string }{
				{"key_a", "2026-11-21"}, {"key_b", "2026-11-21"}, {"key_a", "2026-11-22"},
				{"key_a", "2026-11-21"}, {"key_b", "2026-11-22"}, {"key_a", "2026-11-21"},
			}
			dones := make([]func(), len(rows))
			for i := range dones {
				dones[i] = r.expect()
			}
			errs := make(chan error, len(rows))
			for i, row := range rows {
				go func() {
					defer dones[i]()
					errs <- r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%d", i), KeyID: row.key, ScannedAt: time.Now(), Report: []byte(`{}`)}, row.day, "")
				}()
			}
			for range rows {
				select {
				case err := <-errs:
					if err != nil {
						t.Fatal(err)
					}
				case <-time.After(time.Minute):
					t.Fatal("saves still waiting after a minute")
				}
			}
			if tx := cs.batches.Load(); tx != tc.batches {
				t.Errorf("%d batch writes for %d scans in flight, want %d", tx, len(rows), tc.batches)
			}
			// A row alone (no scan in flight) is written and charged too.
			if err := r.save(context.Background(), store.Scan{ID: "scn_alone", KeyID: "key_b", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-22", ""); err != nil {
				t.Fatal(err)
			}
			for _, want := range []struct {
				key, day string
				n        int64
			}{{"key_a", "2026-11-21", 3}, {"key_b", "2026-11-21", 1}, {"key_a", "2026-11-22", 1}, {"key_b", "2026-11-22", 2}} {
				if used, err := cs.Usage(context.Background(), want.key, want.day); err != nil || used != want.n {
					t.Errorf("usage of %s on %s: %d (%v), want %d", want.key, want.day, used, err, want.n)
				}
			}
		})
	}
}

// A row that came by no connection (client "") is no client to wait
// for: a scan alone in flight after it is written at once.
func TestRecorderRowWithoutAClientIsNoClient(t *testing.T) {
	_, r := busyRecorder(t)
	if err := r.save(context.Background(), store.Scan{ID: "scn_a", KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", ""); err != nil {
		t.Fatal(err)
	}
	r.gap = time.Microsecond
	done := r.expect()
	saved := saveAsync(r, "scn_b", "10.0.0.1:5000", done)
	saveReturns(t, saved, 10*time.Second, "a lone scan waited for a client that never was one") // the write takes milliseconds; the wait would take an hour
}

// A leader waits only for the rows the recent rate brings within the
// wait, not for every scan in flight: at one row per wait it waits for
// one more row and writes the two.
func TestRecorderWaitsOnlyForTheRateExpected(t *testing.T) {
	cs := openCounting(t)
	r := newRecorder(cs)
	r.wait = time.Hour
	r.gap = time.Hour // one row per wait
	dones := []func(){r.expect(), r.expect(), r.expect()}
	defer dones[2]() // a third scan in flight whose row does not come yet
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			defer dones[i]()
			errs <- r.save(context.Background(), store.Scan{ID: fmt.Sprintf("scn_%d", i), KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", "")
		}()
	}
	for range 2 {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second): // the write takes milliseconds; the wait would take an hour
			t.Fatal("the leader waited for more rows than one per wait brings")
		}
	}
	if tx := cs.batches.Load(); tx != 1 {
		t.Errorf("%d transactions for the two rows, want 1", tx)
	}
}

// A client whose latest row is older than the client window is no
// longer waited for: a scan alone in flight is written at once.
func TestRecorderForgetsClientsGone(t *testing.T) {
	_, r := busyRecorder(t)
	r.clients["10.0.0.2:4000"] = time.Now().Add(-(clientWindow + 1) * r.wait) // gone
	done := r.expect()
	saved := saveAsync(r, "scn_a", "10.0.0.1:5000", done)
	saveReturns(t, saved, 10*time.Second, "a lone scan waited for a client gone for longer than the window") // the write takes milliseconds; the wait would take an hour
	if _, kept := r.clients["10.0.0.2:4000"]; kept {
		t.Error("the client gone is still remembered")
	}
}

// saveAsync saves a row of client's in the background and sends save's
// error; done, when not nil, runs before the error is sent.
func saveAsync(r *recorder, id, client string, done func()) <-chan error {
	saved := make(chan error, 1)
	go func() {
		err := r.save(context.Background(), store.Scan{ID: id, KeyID: "key_a", ScannedAt: time.Now(), Report: []byte(`{}`)}, "2026-11-21", client)
		if done != nil {
			done()
		}
		saved <- err
	}()
	return saved
}

// saveReturns fails the test unless the save ends without error within
// limit; why says what waiting longer means.
func saveReturns(t *testing.T, saved <-chan error, limit time.Duration, why string) {
	t.Helper()
	select {
	case err := <-saved:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(limit):
		t.Fatal(why)
	}
}

// saveWaits fails the test when the save ends within d: its leader
// should still be waiting for rows.
func saveWaits(t *testing.T, saved <-chan error, d time.Duration, why string) {
	t.Helper()
	select {
	case err := <-saved:
		t.Fatalf("%s (err %v)", why, err)
	case <-time.After(d):
	}
}

// On the history journal (an append, not a commit) a leader writes at
// once however many scans are in flight, and each row is charged to its
// key on its day through the journal.
func TestRecorderOnJournalDoesNotWait(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "r.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(ctx, st, st, journal.Options{Dir: filepath.Join(dir, "journal")})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	r := newRecorder(j)
	if r.wait != 0 {
		t.Fatalf("a leader on the journal waits up to %v for more rows", r.wait)
	}
	r.gap = time.Microsecond // as under load
	for range 5 {
		defer r.expect()()
	}
	start := time.Now()
	saveReturns(t, saveAsync(r, "scn_journal", "", nil), time.Minute, "the save never returned")
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("a save on the journal took %v with scans in flight", d)
	}
	if used, err := j.Usage(ctx, "key_a", "2026-11-21"); err != nil || used != 1 {
		t.Fatalf("usage %d %v, want the row charged once", used, err)
	}
	if _, err := j.FindScan(ctx, "key_a", "scn_journal"); err != nil {
		t.Fatal(err)
	}
}
