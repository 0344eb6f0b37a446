// Package writeback is a store.Store that takes the history writes the
// database refused into a bounded queue and retries them until they are
// written, so scans keep answering through a database outage and nothing
// queued is lost if the database comes back within the queue's bound.
//
// Writes go straight to the wrapped store; only the caller decides to
// queue one (Enqueue), typically after the direct write failed or while
// the queue is Busy. The reads and writes a scan waits on are bounded in
// time, and after one fails they are not sent to the database for a
// moment, so a database that hangs costs one timeout, not one per
// request. Usage reads add the charges still queued and, while the
// database cannot be read, answer from the last total seen for that key
// and day, so daily quotas keep holding on this instance.
package writeback

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Options configures a Store.
type Options struct {
	// Capacity bounds the writes waiting in the queue; 0 means 10 000.
	Capacity int
	// MaxBatch bounds one write; 0 means 256.
	MaxBatch int
	// MinBackoff and MaxBackoff space retries after a failed write; 0
	// means 50ms and 5s.
	MinBackoff, MaxBackoff time.Duration
	// CloseTimeout bounds how long Close keeps writing what is queued; 0
	// means 15s.
	CloseTimeout time.Duration
	// OnError, if not nil, sees every failed write (for logs and metrics).
	OnError func(error)
	// OnRecover, if not nil, is called when a write succeeds after a
	// failed one.
	OnRecover func()
	// ReadTimeout bounds the reads a scan waits on (KeyByHash, Usage), so
	// a database that hangs is noticed; 0 means 2s.
	ReadTimeout time.Duration
	// WriteTimeout bounds the direct writes (SaveScan, SaveScans,
	// AddUsage); 0 means 5s.
	WriteTimeout time.Duration
	// ReadPause is how long reads and direct writes are not sent to a
	// database after one failed; 0 means 1s.
	ReadPause time.Duration
}

// Store wraps a store.Store with a retry queue for history writes.
type Store struct {
	store.Store
	opts Options

	mu      sync.Mutex
	pending []*entry // oldest first; only run removes, from the head
	closed  bool
	// idle is closed (and replaced) each time the queue empties.
	idle chan struct{}
	// known is the last usage total read or written per key and day.
	known map[usageKey]int64

	// pausedUntil is when reads go to the database again after one failed.
	pausedUntil time.Time

	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	failing atomic.Bool
}

// ErrUnreachable is what a read gets while the database is known to fail
// (a write or read failed moments ago) instead of waiting on it again.
var ErrUnreachable = fault.Errorf(fault.Unavailable, "the database is not reachable")

// entry is one queued write: a scan to save (unless saved) and one scan to
// charge to its key on day (unless day is "" or charged).
type entry struct {
	scan    store.Scan
	day     string
	saved   bool
	charged bool
}

type usageKey struct{ key, day string }

// maxKnown bounds the remembered usage totals.
const maxKnown = 10_000

var (
	_ store.Store        = (*Store)(nil)
	_ store.BatchSaver   = (*Store)(nil)
	_ store.ScanRecorder = (*Store)(nil)
)

// New starts the retry loop behind s. Close stops it.
func New(s store.Store, opts Options) *Store {
	if opts.Capacity <= 0 {
		opts.Capacity = 10_000
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 256
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
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = 2 * time.Second
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 5 * time.Second
	}
	if opts.ReadPause <= 0 {
		opts.ReadPause = time.Second
	}
	w := &Store{
		Store: s,
		opts:  opts,
		known: map[usageKey]int64{},
		wake:  make(chan struct{}, 1),
		idle:  make(chan struct{}),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go w.run()
	return w
}

// SaveScan writes sc straight to the wrapped store within WriteTimeout;
// while the database is known to fail it returns ErrUnreachable at once
// (the caller then queues).
func (w *Store) SaveScan(ctx context.Context, sc store.Scan) error {
	return w.direct(ctx, func(ctx context.Context) error { return w.Store.SaveScan(ctx, sc) })
}

// SaveScans writes scans straight to the wrapped store, in one batch when
// it can, like SaveScan.
func (w *Store) SaveScans(ctx context.Context, scans []store.Scan) error {
	return w.direct(ctx, func(ctx context.Context) error { return w.saveScans(ctx, scans) })
}

// saveScans writes scans in one batch when the wrapped store can.
func (w *Store) saveScans(ctx context.Context, scans []store.Scan) error {
	if bs, ok := w.Store.(store.BatchSaver); ok {
		return bs.SaveScans(ctx, scans)
	}
	for _, sc := range scans {
		if err := w.Store.SaveScan(ctx, sc); err != nil {
			return err
		}
	}
	return nil
}

// RecordScans saves scans and applies charges straight to the wrapped
// store within WriteTimeout, in one transaction when it can (else the
// scans, then each charge), and remembers the new totals. While the
// database is known to fail it returns ErrUnreachable at once.
func (w *Store) RecordScans(ctx context.Context, scans []store.Scan, charges []store.Charge) ([]int64, error) {
	var totals []int64
	err := w.direct(ctx, func(ctx context.Context) error {
		var err error
		totals, err = w.recordScans(ctx, scans, charges)
		return err
	})
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	for i, c := range charges {
		w.remember(usageKey{c.KeyID, c.Day}, totals[i])
	}
	w.mu.Unlock()
	return totals, nil
}

func (w *Store) recordScans(ctx context.Context, scans []store.Scan, charges []store.Charge) ([]int64, error) {
	if r, ok := w.Store.(store.ScanRecorder); ok {
		return r.RecordScans(ctx, scans, charges)
	}
	if len(scans) > 0 {
		if err := w.saveScans(ctx, scans); err != nil {
			return nil, err
		}
	}
	totals := make([]int64, len(charges))
	for i, c := range charges {
		var err error
		if totals[i], err = w.Store.AddUsage(ctx, c.KeyID, c.Day, c.N); err != nil {
			return nil, err
		}
	}
	return totals, nil
}

// Enqueue queues sc for saving (unless saved, when it is already stored)
// and one scan charged to sc.KeyID on day (none when day is ""). A full
// queue is fault.Unavailable: the write is then not taken. After Close it
// is an error too.
func (w *Store) Enqueue(sc store.Scan, day string, saved bool) error {
	w.mu.Lock()
	switch {
	case w.closed:
		w.mu.Unlock()
		return errors.New("writeback: enqueue after close")
	case len(w.pending) >= w.opts.Capacity:
		w.mu.Unlock()
		return fault.Errorf(fault.Unavailable, "scan history queue is full (%d writes waiting)", w.opts.Capacity)
	}
	w.pending = append(w.pending, &entry{scan: sc, day: day, saved: saved, charged: day == ""})
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return nil
}

// Busy reports whether writes are queued or the database is known to
// fail: a new write should then be queued rather than tried directly.
func (w *Store) Busy() bool { return w.unreachable() || w.Pending() > 0 }

// unreachable reports whether the last queued write failed or a read
// failed within ReadPause.
func (w *Store) unreachable() bool {
	if w.failing.Load() {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return time.Now().Before(w.pausedUntil)
}

// read runs one read bounded by ReadTimeout (see bounded).
func (w *Store) read(ctx context.Context, fn func(ctx context.Context) error) error {
	return w.bounded(ctx, w.opts.ReadTimeout, fn)
}

// direct runs one direct write bounded by WriteTimeout (see bounded).
func (w *Store) direct(ctx context.Context, fn func(ctx context.Context) error) error {
	return w.bounded(ctx, w.opts.WriteTimeout, fn)
}

// bounded runs fn against the database within timeout, unless the
// database is known to fail, and pauses such calls for ReadPause after a
// failure that is the database's (not the caller's, not a bad request).
func (w *Store) bounded(ctx context.Context, timeout time.Duration, fn func(ctx context.Context) error) error {
	if w.unreachable() {
		return ErrUnreachable
	}
	bctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := fn(bctx)
	if err != nil && ctx.Err() == nil && !errors.Is(err, store.ErrNotFound) && fault.CodeOf(err) != fault.InvalidRequest {
		w.mu.Lock()
		w.pausedUntil = time.Now().Add(w.opts.ReadPause)
		w.mu.Unlock()
	}
	return err
}

// KeyByHash looks the key up in the database within ReadTimeout; while
// the database is known to fail it returns ErrUnreachable at once (the
// caller falls back to keys it looked up before).
func (w *Store) KeyByHash(ctx context.Context, secretHash []byte) (store.Key, error) {
	var k store.Key
	err := w.read(ctx, func(ctx context.Context) error {
		var err error
		k, err = w.Store.KeyByHash(ctx, secretHash)
		return err
	})
	return k, err
}

// FindScan finds a queued scan first, so a scan can be read back as soon
// as it is answered.
func (w *Store) FindScan(ctx context.Context, keyID, scanID string) (store.Scan, error) {
	w.mu.Lock()
	for _, e := range w.pending {
		if !e.saved && e.scan.ID == scanID && e.scan.KeyID == keyID {
			w.mu.Unlock()
			return e.scan, nil
		}
	}
	w.mu.Unlock()
	return w.Store.FindScan(ctx, keyID, scanID)
}

// LatestScan returns the newest scan of address, queued or stored. The
// database is asked within ReadTimeout (public pages and badges wait on
// it); while it fails, a queued scan still answers.
func (w *Store) LatestScan(ctx context.Context, address string) (store.Scan, error) {
	var stored store.Scan
	err := w.read(ctx, func(ctx context.Context) error {
		var err error
		stored, err = w.Store.LatestScan(ctx, address)
		return err
	})
	found := err == nil
	w.mu.Lock()
	for _, e := range w.pending {
		if !e.saved && e.scan.Address == address && (!found || store.Newer(e.scan, stored)) {
			stored, found = e.scan, true
		}
	}
	w.mu.Unlock()
	if found {
		return stored, nil
	}
	return store.Scan{}, err
}

// AddUsage adds n to the key's counter for day in the wrapped store (a
// direct write, like SaveScan) and remembers the new total.
func (w *Store) AddUsage(ctx context.Context, keyID, day string, n int64) (int64, error) {
	var total int64
	err := w.direct(ctx, func(ctx context.Context) error {
		var err error
		total, err = w.Store.AddUsage(ctx, keyID, day, n)
		return err
	})
	if err != nil {
		return 0, err
	}
	w.mu.Lock()
	w.remember(usageKey{keyID, day}, total)
	w.mu.Unlock()
	return total, nil
}

// Usage returns the key's counter for day plus the charges still queued.
// While the wrapped store fails (or is known to) it answers from the last
// total seen for that key and day (plus what is queued); with none seen it
// returns the error.
func (w *Store) Usage(ctx context.Context, keyID, day string) (int64, error) {
	var total int64
	err := w.read(ctx, func(ctx context.Context) error {
		var err error
		total, err = w.Store.Usage(ctx, keyID, day)
		return err
	})
	k := usageKey{keyID, day}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		last, ok := w.known[k]
		if !ok || errors.Is(err, context.Canceled) || fault.CodeOf(err) == fault.InvalidRequest {
			return 0, err
		}
		total = last
	} else {
		w.remember(k, total)
	}
	for _, e := range w.pending {
		if !e.charged && e.scan.KeyID == keyID && e.day == day {
			total++
		}
	}
	return total, nil
}

// remember records total for k, forgetting other days when the map is
// full. w.mu is held.
func (w *Store) remember(k usageKey, total int64) {
	if _, ok := w.known[k]; !ok && len(w.known) >= maxKnown {
		for old := range w.known {
			if old.day != k.day {
				delete(w.known, old)
			}
		}
		if len(w.known) >= maxKnown {
			clear(w.known)
		}
	}
	w.known[k] = total
}

// Pending returns how many writes wait in the queue.
func (w *Store) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

// Capacity returns the queue's bound.
func (w *Store) Capacity() int { return w.opts.Capacity }

// Degraded reports whether the last queued write failed (for /readyz).
func (w *Store) Degraded() bool { return w.failing.Load() }

// Flush waits until every queued write is done or ctx ends.
func (w *Store) Flush(ctx context.Context) error {
	for {
		w.mu.Lock()
		n, idle := len(w.pending), w.idle
		w.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("writeback: %d writes not done yet: %w", n, ctx.Err())
		case <-idle:
		}
	}
}

// Close refuses new writes, keeps writing the queued ones for up to
// CloseTimeout, then closes the wrapped store. It reports writes it could
// not do (they are lost).
func (w *Store) Close() error {
	w.mu.Lock()
	already := w.closed
	w.closed = true
	w.mu.Unlock()
	if already {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.opts.CloseTimeout)
	flushErr := w.Flush(ctx)
	cancel()
	close(w.stop)
	<-w.done
	if n := w.Pending(); n > 0 {
		flushErr = fmt.Errorf("writeback: %d queued writes lost at close: %w", n, flushErr)
	}
	return errors.Join(flushErr, w.Store.Close())
}

// run writes queued entries, oldest first, until stopped.
func (w *Store) run() {
	defer close(w.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-w.stop
		cancel()
	}()
	backoff := w.opts.MinBackoff
	for {
		w.mu.Lock()
		batch := w.pending[:min(len(w.pending), w.opts.MaxBatch):min(len(w.pending), w.opts.MaxBatch)]
		w.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-w.wake:
				continue
			case <-w.stop:
				return
			}
		}
		if err := w.write(ctx, batch); err != nil {
			w.failing.Store(true)
			if w.opts.OnError != nil && ctx.Err() == nil {
				w.opts.OnError(err)
			}
			select {
			case <-time.After(backoff):
			case <-w.stop:
				return
			}
			backoff = min(2*backoff, w.opts.MaxBackoff)
			continue
		}
		if w.failing.Swap(false) && w.opts.OnRecover != nil {
			w.opts.OnRecover()
		}
		backoff = w.opts.MinBackoff
		w.mu.Lock()
		w.pausedUntil = time.Time{} // the database answers: reads may go to it
		// Only this goroutine removes, so the batch is still the head.
		w.pending = w.pending[len(batch):]
		if len(w.pending) == 0 {
			w.pending = nil
			close(w.idle)
			w.idle = make(chan struct{})
		}
		w.mu.Unlock()
	}
}

// write saves the batch's unsaved scans, then charges its uncharged scans
// with one counter update per key and day, marking each part done as it
// succeeds so a retry repeats only what failed. Saves are idempotent; a
// charge whose answer was lost may be counted twice.
func (w *Store) write(ctx context.Context, batch []*entry) error {
	ctx, cancel := context.WithTimeout(ctx, queuedWriteTimeout)
	defer cancel()
	w.mu.Lock()
	var scans []store.Scan
	for _, e := range batch {
		if !e.saved {
			scans = append(scans, e.scan)
		}
	}
	w.mu.Unlock()
	if len(scans) > 0 {
		if err := w.saveScans(ctx, scans); err != nil {
			return fmt.Errorf("writeback: write %d scans: %w", len(scans), err)
		}
		w.mu.Lock()
		for _, e := range batch {
			e.saved = true
		}
		w.mu.Unlock()
	}
	w.mu.Lock()
	charges := map[usageKey]int64{}
	for _, e := range batch {
		if !e.charged {
			charges[usageKey{e.scan.KeyID, e.day}]++
		}
	}
	w.mu.Unlock()
	for k, n := range charges {
		total, err := w.Store.AddUsage(ctx, k.key, k.day, n)
		if err != nil {
			return fmt.Errorf("writeback: charge %d scans: %w", n, err)
		}
		w.mu.Lock()
		for _, e := range batch {
			if e.scan.KeyID == k.key && e.day == k.day {
				e.charged = true
			}
		}
		w.remember(k, total)
		w.mu.Unlock()
	}
	return nil
}

// queuedWriteTimeout bounds one write of a queued batch: a connection that
// hangs is given up and the batch retried on a new one.
const queuedWriteTimeout = 10 * time.Second
