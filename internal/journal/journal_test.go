package journal

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

const today = "2026-11-24"

// flaky is the SQLite store whose drains fail while down is set.
type flaky struct {
	*sqlite.Store
	down  atomic.Bool
	calls atomic.Int64
}

func (f *flaky) RecordEntries(ctx context.Context, entries []store.Entry) error {
	f.calls.Add(1)
	if f.down.Load() {
		return errors.New("database is down")
	}
	return f.Store.RecordEntries(ctx, entries)
}

func openDB(t *testing.T, path string) *flaky {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &flaky{Store: st}
}

func openJournal(t *testing.T, db *flaky, dir string, opts Options) *Store {
	t.Helper()
	opts.Dir = dir
	if opts.MinBackoff == 0 {
		opts.MinBackoff = time.Millisecond
		opts.MaxBackoff = 5 * time.Millisecond
	}
	j, err := Open(context.Background(), db, db, opts)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

var testBase = func() *store.Base {
	body := []byte(`{"scan_id":"scn_x","duration_ms":1,"cached":true,"risk_level":"low"}`)
	return &store.Base{Digest: sha256.Sum256(body), Body: body}
}()

// entry is the n-th scan of key: on the shared base for even n, a whole
// report for odd n.
func entry(key string, n int) store.Entry {
	sc := store.Scan{
		ID: fmt.Sprintf("scn_%s_%06d", key, n), KeyID: key, Address: "0x00000000000000000000000000000000000000a1",
		Chain: "devnet", RiskLevel: "low", Score: 12.5, Cached: n%2 == 0,
		ScannedAt: time.Date(2026, 11, 24, 8, 0, 0, n*1000, time.UTC),
	}
	if n%2 == 0 {
		sc.Base = testBase
		sc.Edits = []store.Edit{{From: 12, To: 17, With: []byte(fmt.Sprintf(`"%d"`, n))}}
	} else {
		sc.Report = []byte(fmt.Sprintf(`{"scan_id":"%s"}`, sc.ID))
	}
	return store.Entry{Scan: sc, Day: today}
}

func entries(key string, from, n int) []store.Entry {
	var out []store.Entry
	for i := from; i < from+n; i++ {
		out = append(out, entry(key, i))
	}
	return out
}

// rows returns the IDs of key's scans in the database itself.
func rows(t *testing.T, db store.Store, key string) []string {
	t.Helper()
	var ids []string
	if err := db.ExportScans(context.Background(), store.ScanFilter{KeyID: key}, func(sc store.Scan) error {
		ids = append(ids, sc.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return ids
}

func ids(es []store.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Scan.ID)
	}
	slices.Sort(out)
	return out
}

func usage(t *testing.T, s store.Store, key string) int64 {
	t.Helper()
	n, err := s.Usage(context.Background(), key, today)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// An appended scan reads back at once (by ID, in listings, as the
// address's latest), counts in usage before and after the drain, and its
// report is the bytes answered.
func TestAppendedScansReadBackAtOnce(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "h.db"))
	// A drain interval far longer than the test: only reads make the
	// drainer hurry.
	j := openJournal(t, db, filepath.Join(dir, "j"), Options{DrainInterval: time.Hour})
	defer j.Close()
	ctx := context.Background()
	es := entries("k1", 0, 5)
	if err := j.RecordEntries(ctx, es); err != nil {
		t.Fatal(err)
	}
	if got := usage(t, j, "k1"); got != 5 {
		t.Fatalf("usage before the drain %d, want 5", got)
	}
	sc, err := j.FindScan(ctx, "k1", es[2].Scan.ID)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := store.ApplyEdits(testBase.Body, es[2].Scan.Edits)
	if !bytes.Equal(sc.Report, want) {
		t.Fatalf("report %s, want %s", sc.Report, want)
	}
	if got := rows(t, db, "k1"); !slices.Equal(got, ids(es)) {
		t.Fatalf("database rows %v after a read, want %v", got, ids(es))
	}
	if got := usage(t, j, "k1"); got != 5 {
		t.Fatalf("usage after the drain %d, want 5 (a charge counted once)", got)
	}
	if err := j.RecordEntries(ctx, entries("k1", 5, 1)); err != nil {
		t.Fatal(err)
	}
	latest, err := j.LatestScan(ctx, es[0].Scan.Address)
	if err != nil || latest.ID != "scn_k1_000005" {
		t.Fatalf("latest %q %v, want the scan just appended", latest.ID, err)
	}
	page, _, err := j.FindScans(ctx, store.ScanFilter{KeyID: "k1", Limit: 10})
	if err != nil || len(page) != 6 {
		t.Fatalf("listing %d scans %v, want 6", len(page), err)
	}
}

// The drainer writes without being asked, in transactions of many rows.
func TestDrainerBatches(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "h.db"))
	j := openJournal(t, db, filepath.Join(dir, "j"), Options{DrainInterval: 20 * time.Millisecond})
	defer j.Close()
	for i := range 100 {
		if err := j.RecordEntries(context.Background(), entries("k1", i, 1)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for j.Pending() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := len(rows(t, db, "k1")); n != 100 {
		t.Fatalf("%d rows drained, want 100", n)
	}
	if calls := db.calls.Load(); calls > 20 {
		t.Fatalf("100 appends drained in %d transactions: the drainer does not let them gather", calls)
	}
}

// A process killed before its drains leaves the entries in the journal:
// the next Open writes them, each charged once, and replaying entries
// already in the database charges nothing again.
func TestReplayAfterKill(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(dir, "j")
	db := openDB(t, filepath.Join(dir, "h.db"))
	db.down.Store(true)
	j := openJournal(t, db, jdir, Options{MinBackoff: time.Hour, MaxBackoff: time.Hour})
	es := entries("k1", 0, 150)
	for from := 0; from < len(es); from += 10 {
		if err := j.RecordEntries(context.Background(), es[from:from+10]); err != nil {
			t.Fatal(err)
		}
	}
	// Half of them reached the database before the "kill" (the drain
	// committed, its segment was not removed yet).
	if err := db.Store.RecordEntries(context.Background(), es[:75]); err != nil {
		t.Fatal(err)
	}
	// The kill: the journal is abandoned as it is (no Close).
	kill(j)
	again := openJournal(t, openDBFrom(t, db), jdir, Options{})
	defer again.Close()
	if got := rows(t, db, "k1"); !slices.Equal(got, ids(es)) {
		t.Fatalf("%d rows after the replay, want %d", len(got), len(es))
	}
	if got := usage(t, again, "k1"); got != 150 {
		t.Fatalf("usage %d after the replay, want 150 (each scan charged once)", got)
	}
	if again.Replayed() != 150 {
		t.Fatalf("Replayed %d, want 150", again.Replayed())
	}
	left, _ := filepath.Glob(filepath.Join(jdir, "*.journal"))
	if len(left) != 1 {
		t.Fatalf("segments after the replay: %v, want only the new one", left)
	}
}

// kill abandons j as a killed process would: no drain, no Close; the
// kernel releases a dead process's lock and files.
func kill(j *Store) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.file.Close()
	j.lock.Close()
}

// openDBFrom is a second handle on db's file (the next process's).
func openDBFrom(t *testing.T, db *flaky) *flaky {
	t.Helper()
	return &flaky{Store: db.Store}
}

// A write cut short by the kill (the tail of the last append) is not an
// entry: the replay keeps every whole one before it and says what it
// dropped.
func TestReplayDropsTornTail(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(dir, "j")
	db := openDB(t, filepath.Join(dir, "h.db"))
	db.down.Store(true)
	j := openJournal(t, db, jdir, Options{MinBackoff: time.Hour, MaxBackoff: time.Hour})
	es := entries("k1", 0, 4)
	for _, e := range es {
		if err := j.RecordEntries(context.Background(), []store.Entry{e}); err != nil {
			t.Fatal(err)
		}
	}
	segs, _ := filepath.Glob(filepath.Join(jdir, "*.journal"))
	info, err := os.Stat(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(segs[0], info.Size()-7); err != nil {
		t.Fatal(err)
	}
	torn, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	_, good, _ := readSegment(torn)
	dropped := fmt.Sprintf("%d bytes", len(torn)-good)
	kill(j)
	var reported []error
	again := openJournal(t, openDBFrom(t, db), jdir, Options{OnError: func(err error) { reported = append(reported, err) }})
	defer again.Close()
	if got := rows(t, db, "k1"); !slices.Equal(got, ids(es[:3])) {
		t.Fatalf("rows %v after replaying a torn segment, want the 3 whole entries", got)
	}
	if len(reported) != 1 || !errors.Is(reported[0], errTorn) || !strings.Contains(reported[0].Error(), dropped) {
		t.Fatalf("reported %v, want the torn tail's %s", reported, dropped)
	}
}

// Segments rotate past SegmentSize, each holding the bases its entries
// use, and a segment is removed once drained.
func TestSegmentsRotateAndGo(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(dir, "j")
	db := openDB(t, filepath.Join(dir, "h.db"))
	db.down.Store(true)
	j := openJournal(t, db, jdir, Options{SegmentSize: 1024, MinBackoff: time.Hour, MaxBackoff: time.Hour})
	es := entries("k1", 0, 40)
	for _, e := range es {
		if err := j.RecordEntries(context.Background(), []store.Entry{e}); err != nil {
			t.Fatal(err)
		}
	}
	segs, _ := filepath.Glob(filepath.Join(jdir, "*.journal"))
	if len(segs) < 3 {
		t.Fatalf("%d segments for 40 entries of 1 KiB segments", len(segs))
	}
	// Each segment replays on its own: the later ones carry the base too.
	for _, name := range segs[1:] {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, good, cut := readSegment(b)
		if cut != nil || good != len(b) || len(got) == 0 {
			t.Fatalf("%s: %d entries, %d of %d bytes, %v", name, len(got), good, len(b), cut)
		}
		for _, e := range got {
			if e.Scan.Base != nil && !bytes.Equal(e.Scan.Base.Body, testBase.Body) {
				t.Fatalf("%s: entry %s lost its base", name, e.Scan.ID)
			}
		}
	}
	db.down.Store(false)
	if err := j.Sync(context.Background()); err != nil {
		// The drainer is in its hour of backoff: a Close drains.
		t.Log(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(jdir, "*.journal")); len(left) != 0 {
		t.Fatalf("segments left after a full drain: %v", left)
	}
	reopened := openDB(t, filepath.Join(dir, "h.db"))
	defer reopened.Close()
	if got := rows(t, reopened, "k1"); !slices.Equal(got, ids(es)) {
		t.Fatalf("%d rows, want 40", len(got))
	}
}

// While the database refuses the history, appends still succeed, reads
// do not wait (a scan in the journal answers), the journal says it is
// degraded; once the database is back, everything drains.
func TestDatabaseDown(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "h.db"))
	var mu sync.Mutex
	var failures int
	recovered := make(chan struct{}, 1)
	j := openJournal(t, db, filepath.Join(dir, "j"), Options{
		OnError:   func(error) { mu.Lock(); failures++; mu.Unlock() },
		OnRecover: func() { recovered <- struct{}{} },
	})
	defer j.Close()
	db.down.Store(true)
	ctx := context.Background()
	es := entries("k1", 0, 3)
	if err := j.RecordEntries(ctx, es); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); !j.Degraded(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the journal never says the drain fails")
		}
	}
	start := time.Now()
	for _, e := range es {
		sc, err := j.FindScan(ctx, "k1", e.Scan.ID)
		if err != nil || sc.ID != e.Scan.ID {
			t.Fatalf("FindScan while the database is down: %q %v", sc.ID, err)
		}
		want := e.Scan.Report
		if e.Scan.Base != nil {
			want, _ = store.ApplyEdits(testBase.Body, e.Scan.Edits)
		}
		if !bytes.Equal(sc.Report, want) {
			t.Fatalf("%s read from the journal: %s, want the bytes answered %s", sc.ID, sc.Report, want)
		}
	}
	// The token's latest scan is the newest in the journal.
	latest, err := j.LatestScan(ctx, es[0].Scan.Address)
	if err != nil || latest.ID != es[2].Scan.ID || len(latest.Report) == 0 {
		t.Fatalf("LatestScan while the database is down: %q %v (%d bytes), want %s", latest.ID, err, len(latest.Report), es[2].Scan.ID)
	}
	if _, err := j.LatestScan(ctx, "0x00000000000000000000000000000000000000b2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LatestScan of a token never scanned while the database is down: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("a read waited %v on a failing drain", d)
	}
	if got := usage(t, j, "k1"); got != 3 {
		t.Fatalf("usage %d while the database is down, want 3", got)
	}
	db.down.Store(false)
	select {
	case <-recovered:
	case <-time.After(10 * time.Second):
		t.Fatal("never recovered")
	}
	if err := j.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rows(t, db, "k1"); !slices.Equal(got, ids(es)) {
		t.Fatalf("rows %v after recovery", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if failures == 0 {
		t.Fatal("failed drains were not reported")
	}
}

// Past MaxPending an append is refused (the caller answers 503), not
// held in memory without bound; Close with the database down keeps the
// entries for the next start and says so.
func TestBoundAndCloseKeeps(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(dir, "j")
	db := openDB(t, filepath.Join(dir, "h.db"))
	db.down.Store(true)
	j := openJournal(t, db, jdir, Options{MaxPending: 10, CloseTimeout: 50 * time.Millisecond})
	if err := j.RecordEntries(context.Background(), entries("k1", 0, 10)); err != nil {
		t.Fatal(err)
	}
	if err := j.RecordEntries(context.Background(), entries("k1", 10, 1)); err == nil {
		t.Fatal("an append past MaxPending was taken")
	}
	if err := j.Close(); err == nil {
		t.Fatal("Close with 10 entries undrained reported nothing")
	}
	if err := j.RecordEntries(context.Background(), entries("k1", 20, 1)); err == nil {
		t.Fatal("an append after Close was taken")
	}
	again := openJournal(t, openDB(t, filepath.Join(dir, "h.db")), jdir, Options{})
	defer again.Close()
	if got := len(rows(t, again, "k1")); got != 10 {
		t.Fatalf("%d rows after the next start, want the 10 kept", got)
	}
}

// Usage never counts a charge twice or misses one while drains commit
// concurrently.
func TestUsageExactUnderDrain(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "h.db"))
	j := openJournal(t, db, filepath.Join(dir, "j"), Options{DrainInterval: time.Millisecond})
	defer j.Close()
	ctx := context.Background()
	var appended atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 400 {
			if err := j.RecordEntries(ctx, entries("k1", i, 1)); err != nil {
				t.Error(err)
				return
			}
			appended.Add(1)
		}
	}()
	for {
		select {
		case <-done:
			if got := usage(t, j, "k1"); got != 400 {
				t.Fatalf("final usage %d, want 400", got)
			}
			return
		default:
		}
		before := appended.Load()
		got := usage(t, j, "k1")
		after := appended.Load()
		// One append may be done and not yet counted by the writer.
		if got < before || got > after+1 {
			t.Fatalf("usage %d while %d..%d were appended", got, before, after)
		}
	}
}

// Open with zero options takes the documented defaults.
func TestDefaults(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "h.db"))
	j, err := Open(context.Background(), db, db, Options{Dir: filepath.Join(dir, "j")})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	want := Options{Dir: filepath.Join(dir, "j"), SegmentSize: 64 << 20, MaxPending: 200_000, MaxBatch: 1024,
		DrainInterval: 10 * time.Millisecond, SyncTimeout: 2 * time.Second, MinBackoff: 50 * time.Millisecond,
		MaxBackoff: 5 * time.Second, CloseTimeout: 15 * time.Second}
	got := j.opts
	got.OnError, got.OnRecover = nil, nil
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("options %+v, want %+v", j.opts, want)
	}
	if j.Capacity() != 200_000 || j.GroupWait() != 0 {
		t.Fatalf("capacity %d, group wait %v", j.Capacity(), j.GroupWait())
	}
}

// A process killed between creating a segment and writing its header
// leaves an empty file (or a few bytes): the next start drops it, with or
// without an error hook, and goes on.
func TestReplaySkipsHeaderlessSegment(t *testing.T) {
	for _, hook := range []bool{true, false} {
		dir := t.TempDir()
		jdir := filepath.Join(dir, "j")
		if err := os.MkdirAll(jdir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(jdir, segmentName(7)), []byte("TRJ"), 0o600); err != nil {
			t.Fatal(err)
		}
		var reported []error
		opts := Options{}
		if hook {
			opts.OnError = func(err error) { reported = append(reported, err) }
		}
		j := openJournal(t, openDB(t, filepath.Join(dir, "h.db")), jdir, opts)
		if err := j.RecordEntries(context.Background(), entries("k1", 0, 1)); err != nil {
			t.Fatal(err)
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		if hook && len(reported) != 1 {
			t.Fatalf("reported %v, want the headerless segment", reported)
		}
		// A segment holding its header alone (killed before any append)
		// is no damage: nothing to report.
		if err := os.WriteFile(filepath.Join(jdir, segmentName(100)), []byte(magic), 0o600); err != nil {
			t.Fatal(err)
		}
		reported = nil
		j = openJournal(t, openDB(t, filepath.Join(dir, "h.db")), jdir, opts)
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		if len(reported) != 0 {
			t.Fatalf("a header-only segment reported %v", reported)
		}
		if left, _ := filepath.Glob(filepath.Join(jdir, "*.journal")); len(left) != 0 {
			t.Fatalf("segments left: %v", left)
		}
	}
}

// An append the disk refuses is an error the caller answers 503 with; it
// is not pending, not counted, and the journal goes on once the disk
// takes writes again.
func TestAppendRefusedByTheDisk(t *testing.T) {
	dir := t.TempDir()
	db := openDB(t, filepath.Join(dir, "h.db"))
	j := openJournal(t, db, filepath.Join(dir, "j"), Options{DrainInterval: time.Hour})
	defer j.Close()
	good := j.file
	ro, err := os.Open(good.Name()) // read-only: every write fails
	if err != nil {
		t.Fatal(err)
	}
	j.mu.Lock()
	j.file = ro
	j.mu.Unlock()
	err = j.RecordEntries(context.Background(), entries("k1", 0, 2))
	if err == nil || fault.CodeOf(err) != fault.Unavailable {
		t.Fatalf("append to a refusing disk: %v", err)
	}
	if j.Pending() != 0 || usage(t, j, "k1") != 0 {
		t.Fatalf("a refused append is pending (%d) or counted (%d)", j.Pending(), usage(t, j, "k1"))
	}
	j.mu.Lock()
	j.file = good
	j.mu.Unlock()
	ro.Close()
	if err := j.RecordEntries(context.Background(), entries("k1", 2, 1)); err != nil {
		t.Fatal(err)
	}
	if got := usage(t, j, "k1"); got != 1 {
		t.Fatalf("usage %d, want 1", got)
	}
}

// One journal directory, one process: a second Open on it (a second
// server on the same database) is refused while the first holds it, and
// allowed once it is closed.
func TestOneProcessPerJournal(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(dir, "j")
	first := openJournal(t, openDB(t, filepath.Join(dir, "h.db")), jdir, Options{})
	db := openDB(t, filepath.Join(dir, "h.db"))
	if _, err := Open(context.Background(), db, db, Options{Dir: jdir}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("a second journal on the same directory: %v", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again := openJournal(t, db, jdir, Options{})
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
}
