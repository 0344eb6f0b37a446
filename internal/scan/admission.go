package scan

import (
	"context"
	"fmt"
	"sync"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// Priority orders scans waiting for admission: higher is served first.
type Priority int

// Queue priorities (SPEC §5: free low, pro normal, premium high).
const (
	PriorityLow Priority = iota
	PriorityNormal
	PriorityHigh
)

var priorityNames = [...]string{PriorityLow: "low", PriorityNormal: "normal", PriorityHigh: "high"}

// String returns low, normal or high.
func (p Priority) String() string {
	if p < PriorityLow || p > PriorityHigh {
		return fmt.Sprintf("priority(%d)", int(p))
	}
	return priorityNames[p]
}

// MarshalText writes the priority's name (plans are configured by it).
func (p Priority) MarshalText() ([]byte, error) {
	if p < PriorityLow || p > PriorityHigh {
		return nil, fmt.Errorf("scan: invalid priority %d", int(p))
	}
	return []byte(priorityNames[p]), nil
}

// UnmarshalText reads "low", "normal" or "high".
func (p *Priority) UnmarshalText(b []byte) error {
	for i, name := range priorityNames {
		if string(b) == name {
			*p = Priority(i)
			return nil
		}
	}
	return fmt.Errorf("scan: unknown priority %q (want low, normal or high)", b)
}

// admission bounds how many upstream-heavy scans run at once. When every
// slot is taken, scans wait in one FIFO per priority and a freed slot goes
// to the oldest waiter of the highest priority. Past limit waiters, a low
// or normal scan is refused (overloaded); high-priority scans always wait.
type admission struct {
	mu      sync.Mutex
	free    int
	limit   int
	waiting [PriorityHigh + 1][]*waiter
	depth   func(p Priority, n int)
}

type waiter struct {
	ready   chan struct{}
	granted bool
}

func newAdmission(slots, limit int, depth func(Priority, int)) *admission {
	if depth == nil {
		depth = func(Priority, int) {}
	}
	return &admission{free: slots, limit: limit, depth: depth}
}

// acquire waits for a slot and returns the function that gives it back.
func (a *admission) acquire(ctx context.Context, p Priority) (func(), error) {
	if p < PriorityLow || p > PriorityHigh {
		p = PriorityLow
	}
	a.mu.Lock()
	if a.free > 0 && a.queued() == 0 {
		a.free--
		a.mu.Unlock()
		return a.release, nil
	}
	if p != PriorityHigh && len(a.waiting[p]) >= a.limit {
		a.mu.Unlock()
		return nil, fault.Errorf(fault.Overloaded, "too many scans are waiting; retry shortly")
	}
	w := &waiter{ready: make(chan struct{})}
	a.waiting[p] = append(a.waiting[p], w)
	a.depth(p, len(a.waiting[p]))
	a.mu.Unlock()

	select {
	case <-w.ready:
		return a.release, nil
	case <-ctx.Done():
		a.mu.Lock()
		if w.granted {
			// The slot arrived as we gave up: pass it on.
			a.mu.Unlock()
			a.release()
		} else {
			a.remove(p, w)
			a.mu.Unlock()
		}
		return nil, fmt.Errorf("scan: waiting for admission: %w", ctx.Err())
	}
}

func (a *admission) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for p := PriorityHigh; p >= PriorityLow; p-- {
		if q := a.waiting[p]; len(q) > 0 {
			w := q[0]
			q[0] = nil
			a.waiting[p] = q[1:]
			a.depth(p, len(a.waiting[p]))
			w.granted = true
			close(w.ready)
			return
		}
	}
	a.free++
}

func (a *admission) remove(p Priority, w *waiter) {
	q := a.waiting[p]
	for i := range q {
		if q[i] == w {
			a.waiting[p] = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	a.depth(p, len(a.waiting[p]))
}

func (a *admission) queued() int {
	n := 0
	for _, q := range a.waiting {
		n += len(q)
	}
	return n
}
