// Package writeback is a store.Store whose scan-history writes are queued
// and written behind the request in batches: a scan's answer never waits
// for the database, writes are retried while the database is down, and
// nothing queued is lost if it comes back within the queue's bound.
package writeback

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Options configures a Store.
type Options struct {
	// Capacity bounds the scans waiting to be written; 0 means 10 000.
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
}

// Store wraps a store.Store: SaveScan queues, everything else goes
// straight to the wrapped store.
type Store struct {
	store.Store
	opts Options

	mu      sync.Mutex
	pending []store.Scan // oldest first
	closed  bool
	// idle is closed (and replaced) each time the queue empties.
	idle chan struct{}

	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	failing atomic.Bool
}

var _ store.Store = (*Store)(nil)

// New starts writing behind s. Close stops it.
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
	w := &Store{
		Store: s,
		opts:  opts,
		wake:  make(chan struct{}, 1),
		idle:  make(chan struct{}),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go w.run()
	return w
}

// SaveScan queues sc. A full queue is fault.Unavailable (the scan is then
// not stored); after Close it is an error too.
func (w *Store) SaveScan(_ context.Context, sc store.Scan) error {
	w.mu.Lock()
	switch {
	case w.closed:
		w.mu.Unlock()
		return errors.New("writeback: save scan after close")
	case len(w.pending) >= w.opts.Capacity:
		w.mu.Unlock()
		return fault.Errorf(fault.Unavailable, "scan history queue is full (%d scans waiting)", w.opts.Capacity)
	}
	w.pending = append(w.pending, sc)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return nil
}

// FindScan finds a queued scan first, so a scan can be read back as soon
// as it is answered.
func (w *Store) FindScan(ctx context.Context, keyID, scanID string) (store.Scan, error) {
	w.mu.Lock()
	for _, sc := range w.pending {
		if sc.ID == scanID && sc.KeyID == keyID {
			w.mu.Unlock()
			return sc, nil
		}
	}
	w.mu.Unlock()
	return w.Store.FindScan(ctx, keyID, scanID)
}

// Pending returns how many scans wait to be written.
func (w *Store) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

// Degraded reports whether the last write failed (for /readyz).
func (w *Store) Degraded() bool { return w.failing.Load() }

// Flush waits until every queued scan is written or ctx ends.
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
			return fmt.Errorf("writeback: %d scans not written yet: %w", n, ctx.Err())
		case <-idle:
		}
	}
}

// Close refuses new scans, keeps writing the queued ones for up to
// CloseTimeout, then closes the wrapped store. It reports scans it could
// not write.
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
	if n := w.Pending(); n > 0 && flushErr == nil {
		flushErr = fmt.Errorf("writeback: %d scans not written", n)
	}
	return errors.Join(flushErr, w.Store.Close())
}

// run writes queued scans, oldest first, until stopped.
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
		batch := slices.Clone(w.pending[:min(len(w.pending), w.opts.MaxBatch)])
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
		w.failing.Store(false)
		backoff = w.opts.MinBackoff
		w.mu.Lock()
		// Only this goroutine removes, so the batch is still the head.
		w.pending = slices.Delete(w.pending, 0, len(batch))
		if len(w.pending) == 0 {
			close(w.idle)
			w.idle = make(chan struct{})
		}
		w.mu.Unlock()
	}
}

// write stores batch; saves are idempotent, so a retried batch that was
// partly written is fine.
func (w *Store) write(ctx context.Context, batch []store.Scan) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if bs, ok := w.Store.(store.BatchSaver); ok {
		if err := bs.SaveScans(ctx, batch); err != nil {
			return fmt.Errorf("writeback: write %d scans: %w", len(batch), err)
		}
		return nil
	}
	for _, sc := range batch {
		if err := w.Store.SaveScan(ctx, sc); err != nil {
			return fmt.Errorf("writeback: write scan %s: %w", sc.ID, err)
		}
	}
	return nil
}
