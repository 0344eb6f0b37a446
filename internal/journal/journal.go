// Package journal is the history's write-ahead journal: a scan's row and
// usage charge are appended to a local file before its answer is sent,
// and a background drainer moves them into the database in large
// transactions.
//
// An append is one write(2) to the current segment file: once it
// returns, the entries are in the kernel's page cache and survive the
// process being killed (kill -9, a crash, an OOM kill), as a SQLite
// commit in WAL mode with synchronous=NORMAL does. Neither survives a
// power cut. Opening a journal replays what its segments hold into the
// database before anything else; the database's writes are idempotent
// (store.EntryRecorder), so replaying entries that were already drained
// (a crash between a drain's commit and its segment's removal) changes
// nothing.
//
// Reads of history wait until every entry appended before them is in the
// database (Sync), so a scan reads back as soon as it is answered; usage
// counts add the charges not yet drained.
package journal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Options configures a journal.
type Options struct {
	// Dir holds the segment files; it is created if missing.
	Dir string
	// SegmentSize is the size past which appends start a new segment; 0
	// means 64 MiB. A segment is removed once all of it is drained.
	SegmentSize int64
	// MaxPending bounds the entries appended and not yet drained; an
	// append past it is refused (fault.Unavailable). 0 means 200 000.
	MaxPending int
	// MaxBatch bounds one drain transaction; 0 means 1024.
	MaxBatch int
	// DrainInterval is how long the drainer lets entries gather before a
	// transaction (a read waiting on Sync cuts it short); 0 means 10ms.
	DrainInterval time.Duration
	// SyncTimeout bounds how long a read waits for the drainer before it
	// reads the database anyway; 0 means 2s.
	SyncTimeout time.Duration
	// MinBackoff and MaxBackoff space drain attempts after one failed; 0
	// means 50ms and 5s.
	MinBackoff, MaxBackoff time.Duration
	// CloseTimeout bounds how long Close keeps draining; 0 means 15s.
	// What it cannot drain stays in the segments for the next Open.
	CloseTimeout time.Duration
	// OnError, if not nil, sees every failed drain or segment removal.
	OnError func(error)
	// OnRecover, if not nil, is called when a drain succeeds after a
	// failed one.
	OnRecover func()
}

// Store is a store.Store whose history writes go through the journal.
// Reads and everything but history writes go to the wrapped store.
type Store struct {
	store.Store
	db   store.EntryRecorder
	opts Options
	lock *os.File // holds the directory's lock (lockDir) until Close

	mu        sync.Mutex
	closed    bool
	file      *os.File
	seg       *segment   // the segment appends go to
	segs      []*segment // segments not yet removed, oldest first
	nextSeq   uint64
	buf       []byte
	pending   []pendingEntry
	appended  uint64 // entries ever appended
	drained   uint64 // entries ever drained
	charges   map[usageKey]int64
	drainedCh chan struct{} // closed after each drain, then replaced
	failing   atomic.Bool
	replayed  int

	// drainMu is held by the drainer across a transaction and the
	// bookkeeping after it, and by usage reads across their database
	// read and the charges still pending, so a read counts a charge
	// exactly once.
	drainMu sync.RWMutex

	wake, hurry chan struct{}
	stop, done  chan struct{}
}

type usageKey struct{ key, day string }

type pendingEntry struct {
	entry store.Entry
	seg   *segment
}

// segment is one journal file.
type segment struct {
	seq     uint64
	path    string
	size    int64
	entries int // appended to it
	drained int // of those, in the database
	sealed  bool
	bases   map[[32]byte]struct{} // bases written to it
}

var (
	_ store.Store         = (*Store)(nil)
	_ store.EntryRecorder = (*Store)(nil)
)

// Open replays the segments in opts.Dir into db, removes them, starts a
// new segment and the drainer. reads serves every read and non-history
// write (it is closed by Close); db takes the drained entries.
func Open(ctx context.Context, reads store.Store, db store.EntryRecorder, opts Options) (*Store, error) {
	if opts.Dir == "" {
		return nil, errors.New("journal: no directory")
	}
	if opts.SegmentSize <= 0 {
		opts.SegmentSize = 64 << 20
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = 200_000
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 1024
	}
	if opts.DrainInterval <= 0 {
		opts.DrainInterval = 10 * time.Millisecond
	}
	if opts.SyncTimeout <= 0 {
		opts.SyncTimeout = 2 * time.Second
	}
	if opts.MinBackoff <= 0 {
		opts.MinBackoff = 50 * time.Millisecond
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = 5 * time.Second
	}
	if opts.CloseTimeout <= 0 {
		opts.CloseTimeout = 15 * time.Second
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	lock, err := lockDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	j := &Store{
		lock:      lock,
		Store:     reads,
		db:        db,
		opts:      opts,
		charges:   map[usageKey]int64{},
		drainedCh: make(chan struct{}),
		wake:      make(chan struct{}, 1),
		hurry:     make(chan struct{}, 1),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
	}
	last, err := j.replay(ctx)
	if err != nil {
		lock.Close()
		return nil, err
	}
	j.nextSeq = last + 1
	if err := j.rotate(); err != nil {
		lock.Close()
		return nil, err
	}
	go j.run()
	return j, nil
}

// lockDir takes an exclusive lock on dir (its LOCK file) for as long as
// the returned file is open: a second process on the same database would
// replay, and remove, the segments the first is appending to.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("journal: %s is in use by another process (one server per SQLite database)", dir)
		}
		return nil, fmt.Errorf("journal: lock %s: %w", dir, err)
	}
	return f, nil
}

// segmentName is a segment's file name: its sequence number, zero-padded
// so names sort in order.
func segmentName(seq uint64) string { return fmt.Sprintf("%020d.journal", seq) }

// replay writes every segment in the directory into the database, oldest
// first, and removes it; it returns the highest sequence number seen.
func (j *Store) replay(ctx context.Context) (uint64, error) {
	names, err := filepath.Glob(filepath.Join(j.opts.Dir, "*.journal"))
	if err != nil {
		return 0, fmt.Errorf("journal: %w", err)
	}
	slices.Sort(names)
	var last uint64
	for _, name := range names {
		seq, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(name), ".journal"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("journal: unexpected file %s", name)
		}
		last = max(last, seq)
		b, err := os.ReadFile(name)
		if err != nil {
			return 0, fmt.Errorf("journal: replay: %w", err)
		}
		entries, good, cut := readSegment(b)
		if cut != nil && good < len(b) && j.opts.OnError != nil {
			// A write the process did not finish (killed mid-write):
			// its entries were never acknowledged.
			j.opts.OnError(fmt.Errorf("journal: %s: %d bytes after its last whole entry dropped: %w", name, len(b)-good, cut))
		}
		j.replayed += len(entries)
		for from := 0; from < len(entries); from += j.opts.MaxBatch {
			batch := entries[from:min(from+j.opts.MaxBatch, len(entries))]
			if err := j.db.RecordEntries(ctx, batch); err != nil {
				return 0, fmt.Errorf("journal: replay %s: %w", name, err)
			}
		}
		if err := os.Remove(name); err != nil {
			return 0, fmt.Errorf("journal: replay: %w", err)
		}
	}
	return last, nil
}

// rotate seals the current segment and starts the next; j.mu is held
// (or the journal is not yet shared).
func (j *Store) rotate() error {
	seg := &segment{seq: j.nextSeq, path: filepath.Join(j.opts.Dir, segmentName(j.nextSeq)), bases: map[[32]byte]struct{}{}}
	f, err := os.OpenFile(seg.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("journal: new segment: %w", err)
	}
	if _, err := f.Write([]byte(magic)); err != nil {
		f.Close()
		os.Remove(seg.path)
		return fmt.Errorf("journal: new segment: %w", err)
	}
	seg.size = int64(len(magic))
	if j.file != nil {
		if err := j.file.Close(); err != nil && j.opts.OnError != nil {
			j.opts.OnError(fmt.Errorf("journal: close segment: %w", err))
		}
		j.seg.sealed = true
	}
	j.nextSeq++
	j.file, j.seg = f, seg
	j.segs = append(j.segs, seg)
	return nil
}

// RecordEntries appends entries to the journal with one write and
// returns once it is done: they are then as durable as a database
// commit, and Sync, reads and usage counts see them. The drainer saves
// them to the database later. An entry appended twice is saved once.
func (j *Store) RecordEntries(ctx context.Context, entries []store.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.closed:
		return errors.New("journal: append after close")
	case len(j.pending)+len(entries) > j.opts.MaxPending:
		return fault.Errorf(fault.Unavailable, "history journal full: %d scans wait for the database", len(j.pending))
	}
	if j.seg.size >= j.opts.SegmentSize {
		if err := j.rotate(); err != nil {
			return err
		}
	}
	buf := j.buf[:0]
	var payload []byte
	var newBases [][32]byte
	for _, e := range entries {
		if b := e.Scan.Base; b != nil {
			if _, ok := j.seg.bases[b.Digest]; !ok && !slices.Contains(newBases, b.Digest) {
				payload = appendBase(payload[:0], b)
				buf = appendFrame(buf, payload)
				newBases = append(newBases, b.Digest)
			}
		}
		payload = appendEntry(payload[:0], e)
		buf = appendFrame(buf, payload)
	}
	n, err := j.file.Write(buf)
	if err != nil {
		// Cut what was written so the segment ends on a whole frame.
		if n > 0 {
			if terr := j.file.Truncate(j.seg.size); terr != nil {
				err = errors.Join(err, terr)
			}
		}
		return fault.Wrap(fmt.Errorf("journal: append %d entries: %w", len(entries), err), fault.Unavailable, "the scan could not be recorded; retry")
	}
	if cap(buf) <= 1<<20 {
		j.buf = buf
	}
	j.seg.size += int64(n)
	j.seg.entries += len(entries)
	for _, d := range newBases {
		j.seg.bases[d] = struct{}{}
	}
	for _, e := range entries {
		if e.Scan.Base != nil {
			// The answer's bytes are its base and edits: holding them
			// too would keep ~7 KB per waiting row (GBs when the database
			// is down long); a read of a pending scan rebuilds them.
			e.Scan.Report = nil
		}
		j.pending = append(j.pending, pendingEntry{entry: e, seg: j.seg})
		if e.Day != "" {
			j.charges[usageKey{e.Scan.KeyID, e.Day}]++
		}
	}
	j.appended += uint64(len(entries))
	select {
	case j.wake <- struct{}{}:
	default:
	}
	return nil
}

// GroupWait is 0: an append costs one write, so a group-committing
// caller should not hold rows back to share it.
func (j *Store) GroupWait() time.Duration { return 0 }

// SaveScan appends sc with no charge.
func (j *Store) SaveScan(ctx context.Context, sc store.Scan) error {
	return j.RecordEntries(ctx, []store.Entry{{Scan: sc}})
}

// SaveScans appends scans with no charge.
func (j *Store) SaveScans(ctx context.Context, scans []store.Scan) error {
	entries := make([]store.Entry, len(scans))
	for i, sc := range scans {
		entries[i].Scan = sc
	}
	return j.RecordEntries(ctx, entries)
}

// Sync waits until every entry appended before it is in the database. It
// returns at once with an error while drains fail, and at most after
// SyncTimeout.
func (j *Store) Sync(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, j.opts.SyncTimeout)
	defer cancel()
	j.mu.Lock()
	target := j.appended
	j.mu.Unlock()
	for {
		j.mu.Lock()
		done, ch := j.drained >= target, j.drainedCh
		j.mu.Unlock()
		if done {
			return nil
		}
		if j.failing.Load() {
			return errors.New("journal: the database refuses the history (entries wait in the journal)")
		}
		select {
		case j.hurry <- struct{}{}:
		default:
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("journal: waiting for the drain: %w", ctx.Err())
		}
	}
}

// FindScan reads the scan from the database once the journal has drained
// what came before; while it cannot, a scan still in the journal answers.
func (j *Store) FindScan(ctx context.Context, keyID, scanID string) (store.Scan, error) {
	if err := j.Sync(ctx); err != nil {
		if sc, ok := j.pendingScan(func(sc store.Scan) bool { return sc.ID == scanID && sc.KeyID == keyID }); ok {
			return answered(sc)
		}
	}
	return j.Store.FindScan(ctx, keyID, scanID)
}

// LatestScan returns the newest scan of address once the journal has
// drained what came before; while it cannot, the newest of the database's
// and the journal's.
func (j *Store) LatestScan(ctx context.Context, address string) (store.Scan, error) {
	if err := j.Sync(ctx); err == nil {
		return j.Store.LatestScan(ctx, address)
	}
	stored, err := j.Store.LatestScan(ctx, address)
	found := err == nil
	j.mu.Lock()
	for _, p := range j.pending {
		sc := p.entry.Scan
		if sc.Address == address && (!found || store.Newer(sc, stored)) {
			stored, found = sc, true
		}
	}
	j.mu.Unlock()
	if found {
		return answered(stored)
	}
	return store.Scan{}, err
}

// answered returns sc with the bytes it was answered with: a pending scan
// on a base holds its base and edits only.
func answered(sc store.Scan) (store.Scan, error) {
	if sc.Base == nil || sc.Report != nil {
		return sc, nil
	}
	report, err := store.ApplyEdits(sc.Base.Body, sc.Edits)
	if err != nil {
		return store.Scan{}, fmt.Errorf("journal: scan %s: %w", sc.ID, err)
	}
	sc.Report = report
	return sc, nil
}

// pendingScan returns the newest scan still in the journal that match
// accepts.
func (j *Store) pendingScan(match func(store.Scan) bool) (store.Scan, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := len(j.pending) - 1; i >= 0; i-- {
		if sc := j.pending[i].entry.Scan; match(sc) {
			return sc, true
		}
	}
	return store.Scan{}, false
}

// FindScans lists history once the journal has drained what came before
// (while it cannot, the database's rows only).
func (j *Store) FindScans(ctx context.Context, f store.ScanFilter) ([]store.Scan, string, error) {
	_ = j.Sync(ctx)
	return j.Store.FindScans(ctx, f)
}

// ExportScans exports history once the journal has drained what came
// before (while it cannot, the database's rows only).
func (j *Store) ExportScans(ctx context.Context, f store.ScanFilter, fn func(store.Scan) error) error {
	_ = j.Sync(ctx)
	return j.Store.ExportScans(ctx, f, fn)
}

// Usage returns the key's count for day: the database's and the charges
// still in the journal.
func (j *Store) Usage(ctx context.Context, keyID, day string) (int64, error) {
	j.drainMu.RLock()
	defer j.drainMu.RUnlock()
	total, err := j.Store.Usage(ctx, keyID, day)
	if err != nil {
		return 0, err
	}
	j.mu.Lock()
	total += j.charges[usageKey{keyID, day}]
	j.mu.Unlock()
	return total, nil
}

// Replayed returns how many entries Open found in the journal and wrote
// to the database (those already there were skipped).
func (j *Store) Replayed() int { return j.replayed }

// Pending returns how many entries wait for the database.
func (j *Store) Pending() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.pending)
}

// Capacity returns the bound on entries waiting (MaxPending).
func (j *Store) Capacity() int { return j.opts.MaxPending }

// Degraded reports whether the last drain failed.
func (j *Store) Degraded() bool { return j.failing.Load() }

// Close refuses new appends, drains for up to CloseTimeout, closes the
// segment and the wrapped store. What it could not drain stays in the
// segments and is replayed by the next Open (it is not lost).
func (j *Store) Close() error {
	j.mu.Lock()
	already := j.closed
	j.closed = true
	j.mu.Unlock()
	if already {
		return nil
	}
	close(j.stop)
	<-j.done
	j.mu.Lock()
	left := len(j.pending)
	ferr := j.file.Close()
	j.mu.Unlock()
	var err error
	if left > 0 {
		err = fmt.Errorf("journal: %d entries not drained at close (kept in %s for the next start)", left, j.opts.Dir)
	} else if ferr == nil {
		ferr = j.removeDrained(true)
	}
	return errors.Join(err, ferr, j.lock.Close(), j.Store.Close())
}

// run drains until stopped, then drains what is left for CloseTimeout.
func (j *Store) run() {
	defer close(j.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	backoff := time.Duration(0)
	for {
		hurried := false
		select {
		case <-j.wake:
		case <-j.hurry:
			hurried = true
		case <-j.stop:
			j.closing()
			return
		}
		if backoff == 0 && !hurried && j.Pending() < j.opts.MaxBatch {
			// Let entries gather: one transaction of many rows costs far
			// less per row than many small ones. A read waiting on Sync
			// (hurry) or a full batch does not wait.
			t := time.NewTimer(j.opts.DrainInterval)
			select {
			case <-t.C:
			case <-j.hurry:
			case <-j.stop:
			}
			t.Stop()
		}
		if err := j.drainAll(ctx); err != nil {
			backoff = min(max(2*backoff, j.opts.MinBackoff), j.opts.MaxBackoff)
			select {
			case <-time.After(backoff):
			case <-j.stop:
				j.closing()
				return
			}
			select {
			case j.wake <- struct{}{}:
			default:
			}
			continue
		}
		backoff = 0
	}
}

// closing drains what is left, for up to CloseTimeout.
func (j *Store) closing() {
	ctx, cancel := context.WithTimeout(context.Background(), j.opts.CloseTimeout)
	defer cancel()
	for j.Pending() > 0 && ctx.Err() == nil {
		if err := j.drainAll(ctx); err != nil {
			select {
			case <-time.After(j.opts.MinBackoff):
			case <-ctx.Done():
			}
		}
	}
}

// drainAll writes pending entries to the database in batches until none
// is left or one fails.
func (j *Store) drainAll(ctx context.Context) error {
	for {
		j.mu.Lock()
		n := min(len(j.pending), j.opts.MaxBatch)
		batch := slices.Clone(j.pending[:n])
		j.mu.Unlock()
		if n == 0 {
			return nil
		}
		if err := j.drain(ctx, batch); err != nil {
			j.failing.Store(true)
			if j.opts.OnError != nil {
				j.opts.OnError(err)
			}
			return err
		}
		if j.failing.Swap(false) && j.opts.OnRecover != nil {
			j.opts.OnRecover()
		}
		if err := j.removeDrained(false); err != nil && j.opts.OnError != nil {
			j.opts.OnError(err)
		}
	}
}

// drain writes one batch (the oldest pending entries) and forgets it.
func (j *Store) drain(ctx context.Context, batch []pendingEntry) error {
	entries := make([]store.Entry, len(batch))
	for i, p := range batch {
		entries[i] = p.entry
	}
	j.drainMu.Lock()
	defer j.drainMu.Unlock()
	if err := j.db.RecordEntries(ctx, entries); err != nil {
		return fmt.Errorf("journal: drain %d entries: %w", len(entries), err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	clear(j.pending[:len(batch)])
	j.pending = j.pending[len(batch):]
	if len(j.pending) == 0 {
		j.pending = nil // let the backing array go
	}
	for _, p := range batch {
		p.seg.drained++
		if p.entry.Day != "" {
			k := usageKey{p.entry.Scan.KeyID, p.entry.Day}
			if j.charges[k]--; j.charges[k] <= 0 {
				delete(j.charges, k)
			}
		}
	}
	j.drained += uint64(len(batch))
	close(j.drainedCh)
	j.drainedCh = make(chan struct{})
	return nil
}

// removeDrained removes the sealed segments whose entries are all in the
// database (and, when all is true, the current one too if it is).
func (j *Store) removeDrained(all bool) error {
	j.mu.Lock()
	var gone []*segment
	kept := j.segs[:0]
	for _, s := range j.segs {
		if (s.sealed || all) && s.drained == s.entries {
			gone = append(gone, s)
			continue
		}
		kept = append(kept, s)
	}
	clear(j.segs[len(kept):])
	j.segs = kept
	j.mu.Unlock()
	var errs []error
	for _, s := range gone {
		if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, fmt.Errorf("journal: remove drained segment: %w", err))
		}
	}
	return errors.Join(errs...)
}
