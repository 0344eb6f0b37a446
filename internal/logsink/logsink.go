// Package logsink groups log lines into few writes: a busy server's
// access log costs one write(2) per batch of lines instead of one per
// line.
package logsink

import (
	"io"
	"sync"
)

// DefaultCapacity is the buffer a Writer holds when New is given none:
// about a thousand access-log lines, far more than a busy server logs
// during one write to a healthy stderr.
const DefaultCapacity = 256 << 10

// Writer is an io.Writer that hands lines to one goroutine, which writes
// whatever has accumulated in one call to the underlying writer. An idle
// Writer writes a line at once (no timer); while a write is under way,
// the lines that arrive meanwhile wait in the buffer and go together in
// the next one. A full buffer makes Write wait for room: lines are never
// dropped to keep up.
//
// What a process killed without warning (kill -9, OOM) loses is the
// lines in the buffer, not yet written: those logged during the last
// write, microseconds' worth. Close writes everything first.
type Writer struct {
	out      io.Writer
	capacity int
	wake     chan struct{} // a line is waiting (capacity 1)
	done     chan struct{} // the writing goroutine has returned

	mu       sync.Mutex
	progress sync.Cond // room in buf, or lines written
	buf      []byte    // lines not yet taken by the goroutine
	queued   int64     // bytes ever appended to buf
	written  int64     // bytes handed to out (written or failed)
	closing  bool
	exited   bool  // the goroutine has drained buf and returned
	err      error // the first write that failed
}

// New starts a Writer over out with a buffer of capacity bytes
// (DefaultCapacity when capacity <= 0). Close it to write what is
// buffered and stop its goroutine.
func New(out io.Writer, capacity int) *Writer {
	if capacity <= 0 {
		capacity = DefaultCapacity
	}
	w := &Writer{
		out:      out,
		capacity: capacity,
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		buf:      make([]byte, 0, 4<<10),
	}
	w.progress.L = &w.mu
	go w.run()
	return w
}

// Write appends p (one or more whole lines, as slog hands them) to the
// buffer and returns; the goroutine writes it. It waits while the buffer
// cannot take p. A line larger than the whole buffer waits for an empty
// buffer and goes alone. After Close it writes p itself.
//
// Write reports no error of the underlying writer (the line is written
// later); Err and Close do.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.buf) > 0 && len(w.buf)+len(p) > w.capacity && !w.exited {
		w.progress.Wait()
	}
	if w.exited {
		// Closed and drained: nothing is buffered, so writing here
		// keeps the order. The lock keeps late lines whole.
		n, err := w.out.Write(p)
		w.queued += int64(len(p))
		w.written += int64(len(p))
		w.fail(err)
		return n, err
	}
	wasEmpty := len(w.buf) == 0
	w.buf = append(w.buf, p...)
	w.queued += int64(len(p))
	if wasEmpty {
		// A non-empty buffer already has its wake-up pending or being
		// served: the goroutine takes everything when it runs.
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

// run writes the buffer's contents, a batch at a time, until Close.
func (w *Writer) run() {
	defer close(w.done)
	spare := make([]byte, 0, 4<<10)
	for {
		w.mu.Lock()
		for len(w.buf) == 0 {
			if w.closing {
				w.exited = true
				w.mu.Unlock()
				w.progress.Broadcast()
				return
			}
			w.mu.Unlock()
			<-w.wake
			w.mu.Lock()
		}
		batch := w.buf
		w.buf = spare[:0]
		w.mu.Unlock()
		w.progress.Broadcast() // room for writers that waited

		_, err := w.out.Write(batch)

		w.mu.Lock()
		w.written += int64(len(batch))
		w.fail(err)
		w.mu.Unlock()
		w.progress.Broadcast() // for Flush
		if cap(batch) > 4*w.capacity {
			// One oversized line grew it; do not keep that much around.
			batch = make([]byte, 0, 4<<10)
		}
		spare = batch
	}
}

// fail remembers the first error; w.mu is held.
func (w *Writer) fail(err error) {
	if err != nil && w.err == nil {
		w.err = err
	}
}

// Flush waits until every line written before it has been handed to the
// underlying writer, and returns the first error that writer returned.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	target := w.queued
	for w.written < target {
		w.progress.Wait()
	}
	return w.err
}

// Err returns the first error the underlying writer returned, if any. A
// failed write loses its batch (there is nowhere else to put it); later
// lines are still tried, so a passing failure does not silence the log.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close writes every buffered line, stops the goroutine and returns the
// first error the underlying writer returned. Lines written after Close
// go straight to the underlying writer. Close may be called more than
// once.
func (w *Writer) Close() error {
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	<-w.done
	return w.Err()
}
