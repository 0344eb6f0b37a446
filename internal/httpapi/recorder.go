package httpapi

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// recorder writes history rows and usage counts with group commit: scans
// answered at the same moment share one transaction. Every request still
// waits until its own row is written before it answers, so nothing is
// lost on shutdown or crash that a client was told about.
//
// There is no background goroutine: the first request to arrive while no
// write runs leads and writes everything pending; whoever arrives during
// that write waits, and the oldest of them leads the next batch.
//
// A transaction costs much more than a row (WAL frames of the indexes and
// the usage counter, the commit; on SQLite a batch of 16 costs a third of
// what 16 single-row commits cost per row), but a commit is short, so a
// leader that wrote at once would write 1–3 rows however busy the
// service. Under load the leader therefore waits up to commitWait for the
// scans in flight to reach it: only while other scans are in flight and
// rows have recently been arriving faster than one per commitWait, so a
// lone client or a quiet service never waits.
//
// The scans in flight are few even under load: a cached scan spends most
// of its time outside the handler (reading the request, writing the
// answer, waiting for a core), so a leader that waited only for them
// still wrote 2–4 rows a transaction. When rows arrive at least
// busyRows per commitWait, it also waits for rows from the other clients
// (connections) that sent one in the last clientWindow: they are likely
// to send the next within the wait. A lone client, however fast, is one
// client and never waits.
//
// When the store also is a historyQueue (store/writeback), a row the
// database refused is handed to the queue, which retries it, and the scan
// still answers; while the queue is busy new rows go straight to it, so
// requests do not each wait on a database that is down.
type recorder struct {
	store   store.Store
	entries store.EntryRecorder // nil: see rec
	rec     store.ScanRecorder  // nil: rows, then charges (batch or one by one)
	batch   store.BatchSaver    // nil: one SaveScan per row
	queue   historyQueue        // nil: a failed write fails the request

	// inflight counts scans between their start and their row's save
	// (see expect): those that may still join a batch.
	inflight atomic.Int64
	// wait bounds how long a leader waits for more rows (commitWait).
	wait time.Duration

	mu      sync.Mutex
	pending []*record
	writing bool
	// gap is a moving average of the time between rows arriving; last is
	// when the latest one arrived.
	gap  time.Duration
	last time.Time
	// arrived is signalled when a row joins pending while a leader waits.
	arrived chan struct{}
	// clients maps the clients whose rows arrived lately to when their
	// latest did; forgot is when the stale ones were last dropped.
	clients map[string]time.Time
	forgot  time.Time
}

// groupWaiter is implemented by stores that say how long a leader should
// wait for more rows: a journal, whose write is one append, says 0.
type groupWaiter interface {
	GroupWait() time.Duration
}

// historyQueue takes history writes the store refused and retries them
// (store/writeback.Store implements it).
type historyQueue interface {
	// Enqueue queues sc (unless saved) and one scan charged to its key on
	// day; an error means the write was not taken.
	Enqueue(sc store.Scan, day string, saved bool) error
	// Busy reports writes waiting or failing: new ones should queue.
	Busy() bool
}

type record struct {
	scan store.Scan
	day  string
	done chan outcome
}

type outcome struct {
	err  error
	lead bool
}

// maxBatch bounds one transaction.
const maxBatch = 512

// commitWait bounds how long a leader waits for more rows under load.
const commitWait = time.Millisecond

// busyRows is the rate, in rows per wait, from which a leader also waits
// for the rows of clients that are not in flight yet.
const busyRows = 2

// clientWindow is how long after its latest row a client counts as one
// that may send another (in waits: a client's round trip under load is a
// few milliseconds).
const clientWindow = 4

// maxClients bounds the clients remembered: past it a new one is not
// (the count is then at its most anyway).
const maxClients = 4096

func newRecorder(st store.Store) *recorder {
	r := &recorder{store: st, wait: commitWait, arrived: make(chan struct{}, 1), clients: map[string]time.Time{}}
	r.entries, _ = st.(store.EntryRecorder)
	r.rec, _ = st.(store.ScanRecorder)
	if g, ok := st.(groupWaiter); ok {
		r.wait = g.GroupWait()
	}
	r.batch, _ = st.(store.BatchSaver)
	r.queue, _ = st.(historyQueue)
	return r
}

// expect tells the recorder a scan has started whose row may come; the
// returned func must be called once it has saved (or will not save) it.
func (r *recorder) expect() (done func()) {
	r.inflight.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			r.inflight.Add(-1)
			// A leader waiting for this scan's row stops waiting for it.
			select {
			case r.arrived <- struct{}{}:
			default:
			}
		})
	}
}

// save writes sc to history and charges one scan to its key on day, or
// queues both for retry when the store has a queue. client names the
// connection the scan came by ("" when none).
func (r *recorder) save(ctx context.Context, sc store.Scan, day, client string) error {
	if r.queue != nil && r.queue.Busy() {
		if err := r.queue.Enqueue(sc, day, false); err != nil {
			return fmt.Errorf("queue scan %s: %w", sc.ID, err)
		}
		return nil
	}
	me := &record{scan: sc, day: day, done: make(chan outcome, 1)}
	r.mu.Lock()
	r.pending = append(r.pending, me)
	now := time.Now()
	if !r.last.IsZero() {
		r.gap += (now.Sub(r.last) - r.gap) / 8
	}
	r.last = now
	if _, known := r.clients[client]; client != "" && (known || r.forget(now) < maxClients) {
		r.clients[client] = now
	}
	if r.writing {
		r.mu.Unlock()
		select {
		case r.arrived <- struct{}{}:
		default:
		}
		if o := <-me.done; !o.lead {
			return o.err
		}
		r.mu.Lock()
	} else {
		r.writing = true
	}
	// We lead until our own row is written (more than maxBatch may be
	// ahead of us), then hand the lead to the oldest waiter.
	for {
		r.gather()
		n := min(len(r.pending), maxBatch)
		batch := r.pending[:n:n]
		r.pending = r.pending[n:]
		r.mu.Unlock()

		errs := r.write(ctx, batch)
		mine, done := error(nil), false
		for i, rec := range batch {
			if rec == me {
				mine, done = errs[i], true
				continue
			}
			rec.done <- outcome{err: errs[i]}
		}

		r.mu.Lock()
		if !done {
			continue
		}
		if len(r.pending) > 0 {
			next := r.pending[0]
			r.mu.Unlock()
			next.done <- outcome{lead: true}
		} else {
			r.writing = false
			r.mu.Unlock()
		}
		return mine
	}
}

// gather waits, with r.mu held (released while waiting), up to r.wait
// for more rows to join pending while more are expected: scans are in
// flight beyond those pending and rows have lately been arriving at
// least one per r.wait. It returns at once on a quiet service.
func (r *recorder) gather() {
	if r.wait <= 0 || r.gap <= 0 || r.gap > r.wait {
		return
	}
	// Rows expected within r.wait at the recent rate (this one and at
	// least one more), and no more than the scans in flight can bring,
	// or when busy the clients lately seen.
	expected := int(r.wait / r.gap)
	clients := 0
	if expected >= busyRows {
		clients = r.forget(time.Now())
	}
	want := min(maxBatch, max(2, expected), max(int(r.inflight.Load()), clients))
	if len(r.pending) >= want {
		return
	}
	// A signal left from before this wait would only cost one more check.
	timer := time.NewTimer(r.wait)
	defer timer.Stop()
	for len(r.pending) < want {
		r.mu.Unlock()
		select {
		case <-r.arrived:
			r.mu.Lock()
		case <-timer.C:
			r.mu.Lock()
			return
		}
		want = min(want, max(int(r.inflight.Load()), clients))
	}
}

// forget drops the clients whose latest row is older than clientWindow
// waits and returns how many are left; r.mu is held. It looks at them at
// most once a window (leaders come far more often under load), so the
// count may hold clients up to two windows old.
func (r *recorder) forget(now time.Time) int {
	window := clientWindow * r.wait
	if now.Sub(r.forgot) < window {
		return len(r.clients)
	}
	r.forgot = now
	for c, at := range r.clients {
		if now.Sub(at) > window {
			delete(r.clients, c)
		}
	}
	return len(r.clients)
}

// write stores a batch and returns each record's error; with a queue,
// what failed is queued and only a refused queue is an error.
func (r *recorder) write(ctx context.Context, batch []*record) []error {
	errs, saved := r.writeNow(ctx, batch)
	if r.queue == nil {
		return errs
	}
	for i, rec := range batch {
		if errs[i] == nil {
			continue
		}
		if err := r.queue.Enqueue(rec.scan, rec.day, saved[i]); err != nil {
			errs[i] = errors.Join(errs[i], fmt.Errorf("queue scan %s: %w", rec.scan.ID, err))
			continue
		}
		errs[i] = nil
	}
	return errs
}

// writeAll writes a batch's rows and charges at once, through the
// store's EntryRecorder (rows charged one each, idempotently) or its
// ScanRecorder.
func (r *recorder) writeAll(ctx context.Context, batch []*record) error {
	if r.entries != nil {
		entries := make([]store.Entry, len(batch))
		for i, rec := range batch {
			entries[i] = store.Entry{Scan: rec.scan, Day: rec.day}
		}
		return r.entries.RecordEntries(ctx, entries)
	}
	scans := make([]store.Scan, len(batch))
	var charges []store.Charge
	for i, rec := range batch {
		scans[i] = rec.scan
		charges = store.AddCharge(charges, rec.scan.KeyID, rec.day)
	}
	_, err := r.rec.RecordScans(ctx, scans, charges)
	return err
}

// writeNow stores a batch and returns each record's error and whether its
// scan row was saved (its charge may still have failed).
func (r *recorder) writeNow(ctx context.Context, batch []*record) ([]error, []bool) {
	errs := make([]error, len(batch))
	saved := make([]bool, len(batch))
	if r.entries != nil || r.rec != nil {
		// One transaction (or one journal append): every row and charge,
		// or none.
		if err := r.writeAll(ctx, batch); err != nil {
			err = fmt.Errorf("record %d scans: %w", len(batch), err)
			for i := range errs {
				errs[i] = err
			}
			return errs, saved
		}
		for i := range saved {
			saved[i] = true
		}
		return errs, saved
	}
	if r.batch != nil && len(batch) > 1 {
		scans := make([]store.Scan, len(batch))
		for i, rec := range batch {
			scans[i] = rec.scan
		}
		if err := r.batch.SaveScans(ctx, scans); err != nil {
			for i := range errs {
				errs[i] = fmt.Errorf("save %d scans: %w", len(scans), err)
			}
			return errs, saved
		}
	} else {
		for i, rec := range batch {
			if err := r.store.SaveScan(ctx, rec.scan); err != nil {
				errs[i] = fmt.Errorf("save scan %s: %w", rec.scan.ID, err)
			}
		}
	}
	for i := range batch {
		saved[i] = errs[i] == nil
	}
	// One counter update per key and day, charging only saved scans.
	type counter struct{ key, day string }
	counts := map[counter]int64{}
	for i, rec := range batch {
		if errs[i] == nil {
			counts[counter{rec.scan.KeyID, rec.day}]++
		}
	}
	failed := map[counter]error{}
	for c, n := range counts {
		if _, err := r.store.AddUsage(ctx, c.key, c.day, n); err != nil {
			failed[c] = fmt.Errorf("add usage: %w", err)
		}
	}
	for i, rec := range batch {
		if errs[i] == nil {
			errs[i] = failed[counter{rec.scan.KeyID, rec.day}]
		}
	}
	return errs, saved
}
