package httpapi

import (
	"context"
	"fmt"
	"sync"

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
type recorder struct {
	store store.Store
	batch store.BatchSaver // nil: one SaveScan per row

	mu      sync.Mutex
	pending []*record
	writing bool
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

func newRecorder(st store.Store) *recorder {
	r := &recorder{store: st}
	r.batch, _ = st.(store.BatchSaver)
	return r
}

// save writes sc to history and charges one scan to its key on day.
func (r *recorder) save(ctx context.Context, sc store.Scan, day string) error {
	me := &record{scan: sc, day: day, done: make(chan outcome, 1)}
	r.mu.Lock()
	r.pending = append(r.pending, me)
	if r.writing {
		r.mu.Unlock()
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

// write stores a batch and returns each record's error.
func (r *recorder) write(ctx context.Context, batch []*record) []error {
	errs := make([]error, len(batch))
	if r.batch != nil && len(batch) > 1 {
		scans := make([]store.Scan, len(batch))
		for i, rec := range batch {
			scans[i] = rec.scan
		}
		if err := r.batch.SaveScans(ctx, scans); err != nil {
			for i := range errs {
				errs[i] = fmt.Errorf("save %d scans: %w", len(scans), err)
			}
			return errs
		}
	} else {
		for i, rec := range batch {
			if err := r.store.SaveScan(ctx, rec.scan); err != nil {
				errs[i] = fmt.Errorf("save scan %s: %w", rec.scan.ID, err)
			}
		}
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
	return errs
}
