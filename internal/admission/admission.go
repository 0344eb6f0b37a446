// Package admission decides when an upstream-heavy scan may run: an
// adaptive concurrency limit driven by measured scan latency, a share of
// it reserved for the highest class (premium), weighted turns between the
// other classes so that none starves, and bounded waiting.
package admission

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// Class is a caller's queue class: Low, Normal or High.
type Class int

// The classes, in increasing precedence. High (premium) may use the whole
// limit, including the reserved share, and is never refused a place in
// the queue; Low and Normal share the rest by weighted turns.
const (
	Low Class = iota
	Normal
	High
	classes
)

// weight is each class's share of the unreserved slots when both Low and
// Normal wait: Normal gets three turns for every one of Low's.
var weight = [classes]float64{Low: 1, Normal: 3}

// Options configures a Controller. Zero values get the defaults noted.
type Options struct {
	// MinLimit and MaxLimit bound the adaptive limit (defaults 4 and 32);
	// equal values make it fixed.
	MinLimit, MaxLimit int
	// InitialLimit is where the limit starts (default MaxLimit/2, within
	// the bounds).
	InitialLimit int
	// Reserve is the share of the limit that only High may use, rounded
	// up, yet leaving at least one slot to the others (default 0.25;
	// negative means none).
	Reserve float64
	// Tolerance is how much slower than the no-load baseline the average
	// scan may run before the limit shrinks (default 1.25).
	Tolerance float64
	// HighTolerance replaces Tolerance while High scans run (default
	// 1.1, at most Tolerance): every scan running beside a premium one
	// queues with it at the node, so the limit then stays nearer the
	// node's knee.
	HighTolerance float64
	// QueueLimit is how many Low and how many Normal callers may wait
	// (each); past it they are refused with fault.Overloaded. High callers
	// always wait. Negative means none may wait; 0 means 64.
	QueueLimit int
	// Depth, if set, is told each class's queue length when it changes.
	Depth func(c Class, n int)
	// OnLimit, if set, is told the limit whenever it is recomputed.
	OnLimit func(limit int)
	// HighHold is how long the reserve keeps the most High scans seen at
	// once, and the limit premium's stricter tolerance, after the last of
	// them (default 10s). Premium clients come back within seconds (a bot
	// scanning tokens as they appear, a dashboard refreshing): their next
	// scans then find their slots free and the node below its knee, rather
	// than waiting for a free or pro scan to end. Free and pro pay for it
	// with those slots for that long after premium leaves.
	HighHold time.Duration
	// PremiumTolerance is how much slower than premium's own no-load
	// latency a premium scan may run beside Low or Normal ones before they
	// may start no more beside premium until it is calm, and free arrivals
	// that cannot run at once are shed (see guard). Default 1.3; negative turns the guard
	// off.
	PremiumTolerance float64
	// PremiumCalm is how many premium scans within that tolerance give
	// Low and Normal one slot back (default 8).
	PremiumCalm int
	// StarveAfter is the longest the guard keeps every Low and Normal
	// scan waiting: past it one may start (default 1s).
	StarveAfter time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Controller admits scans. It is safe for concurrent use.
type Controller struct {
	opts Options

	mu      sync.Mutex
	limit   *gradient
	running [classes]int
	waiting [classes][]*waiter
	// pass is each of Low and Normal's virtual time (stride scheduling):
	// the waiting class with the lowest pass gets the next unreserved
	// slot, and each turn adds 1/weight.
	pass [classes]float64
	// highPeaks holds the most High scans that ran or waited at once in
	// each of the last holdSpans spans of HighHold/holdSpans: the reserve
	// is at least their maximum, so premium clients find their slots free.
	highPeaks [holdSpans]peak
	// guard holds premium scans to their own no-load latency.
	guard *guard
	// shed counts free arrivals shed by the guard.
	shed int64
}

// peak is the most High scans at once in the span numbered span (the
// clock's time divided by the span's length).
type peak struct {
	span int64
	n    int
}

// holdSpans is how many spans HighHold is kept in: the peak lapses between
// (holdSpans-1)/holdSpans × HighHold and HighHold after it was seen.
const holdSpans = 10

type waiter struct {
	class   Class
	ready   chan struct{}
	granted bool
	// others and otherGrants are, for a High waiter, the Low and Normal
	// scans running and the guard's count of their grants when it got its
	// slot (it ran alone if neither moved).
	others      int
	otherGrants int64
}

// Outcome is how an admitted scan ended, which is what the limit learns
// from.
type Outcome int

const (
	// Succeeded: the scan ran to its end; its duration is a sample.
	Succeeded Outcome = iota
	// TimedOut: the scan ran out of time, a sign of overload.
	TimedOut
	// Ignored: the scan ended early for its own reasons (a bad address,
	// a node error); its duration says nothing of the load.
	Ignored
)

// New returns a Controller.
func New(opts Options) *Controller {
	if opts.MaxLimit <= 0 {
		opts.MaxLimit = 32
	}
	if opts.MinLimit <= 0 {
		opts.MinLimit = min(4, opts.MaxLimit)
	}
	opts.MinLimit = min(opts.MinLimit, opts.MaxLimit)
	if opts.InitialLimit <= 0 {
		opts.InitialLimit = opts.MaxLimit / 2
	}
	opts.InitialLimit = max(opts.MinLimit, min(opts.MaxLimit, opts.InitialLimit))
	switch {
	case opts.Reserve == 0:
		opts.Reserve = 0.25
	case opts.Reserve < 0:
		opts.Reserve = 0
	}
	if opts.Tolerance <= 1 {
		opts.Tolerance = 1.25
	}
	if opts.HighTolerance <= 1 {
		opts.HighTolerance = 1.1
	}
	opts.HighTolerance = min(opts.HighTolerance, opts.Tolerance)
	switch {
	case opts.QueueLimit == 0:
		opts.QueueLimit = 64
	case opts.QueueLimit < 0:
		opts.QueueLimit = 0
	}
	if opts.Depth == nil {
		opts.Depth = func(Class, int) {}
	}
	if opts.OnLimit == nil {
		opts.OnLimit = func(int) {}
	}
	if opts.HighHold <= 0 {
		opts.HighHold = 10 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	switch {
	case opts.PremiumTolerance < 0:
		opts.PremiumTolerance = 0
	case opts.PremiumTolerance <= 1:
		opts.PremiumTolerance = 1.3
	}
	if opts.PremiumCalm <= 0 {
		opts.PremiumCalm = 8
	}
	if opts.StarveAfter <= 0 {
		opts.StarveAfter = time.Second
	}
	ctl := &Controller{opts: opts, limit: newGradient(opts.MinLimit, opts.MaxLimit, opts.InitialLimit, opts.Tolerance),
		guard: newGuard(opts.PremiumTolerance, opts.PremiumCalm, opts.StarveAfter)}
	ctl.limit.highTolerance = opts.HighTolerance
	opts.OnLimit(ctl.limit.current())
	return ctl
}

// Acquire waits until a scan of class c may run and returns the function
// to call, once, when it has ended. A Low or Normal caller is refused with
// fault.Overloaded when its class's queue is full; a caller whose ctx ends
// while it waits gets ctx's error.
func (ctl *Controller) Acquire(ctx context.Context, c Class) (func(Outcome), error) {
	if c < Low || c > High {
		c = Low
	}
	ctl.mu.Lock()
	// Slots may have come free with no scan ending (premium's peak
	// lapsed): those waiting take them before this caller is judged.
	ctl.dispatch()
	if c != High && len(ctl.waiting[c]) >= ctl.opts.QueueLimit && !ctl.mayRun(c) {
		ctl.mu.Unlock()
		return nil, fault.Errorf(fault.Overloaded, "too many scans are waiting; retry shortly")
	}
	if c == Low && ctl.shedding() && len(ctl.waiting[Low]) >= 1 && !ctl.mayRun(Low) {
		ctl.shed++
		ctl.mu.Unlock()
		return nil, fault.Errorf(fault.Overloaded, "free-plan scans are held back while premium scans run over their latency target; retry shortly")
	}
	w := &waiter{class: c, ready: make(chan struct{})}
	ctl.enqueue(w)
	if c == High {
		ctl.noteHigh()
	}
	ctl.dispatch()
	ctl.mu.Unlock()

	select {
	case <-w.ready:
	case <-ctx.Done():
		ctl.mu.Lock()
		if !w.granted {
			ctl.remove(w)
			ctl.mu.Unlock()
			return nil, fmt.Errorf("admission: waiting for a scan slot: %w", ctx.Err())
		}
		ctl.mu.Unlock()
		// The slot arrived as we gave up: pass it on.
		ctl.release(w, 0, Ignored)
		return nil, fmt.Errorf("admission: waiting for a scan slot: %w", ctx.Err())
	}
	start := ctl.opts.Now()
	var once sync.Once
	return func(o Outcome) {
		once.Do(func() { ctl.release(w, ctl.opts.Now().Sub(start), o) })
	}, nil
}

// mayRun reports whether a caller of class c arriving now would run at
// once (nobody it must let pass waits and a slot it may use is free).
// ctl.mu is held.
func (ctl *Controller) mayRun(c Class) bool {
	if len(ctl.waiting[High]) > 0 || ctl.total() >= ctl.limit.current() {
		return false
	}
	if c == High {
		return true
	}
	return len(ctl.waiting[Low])+len(ctl.waiting[Normal]) == 0 && ctl.others() < ctl.othersLimit()
}

// othersLimit is how many slots Low and Normal may hold together now: the
// unreserved ones, fewer while the guard binds beside premium. ctl.mu is
// held.
func (ctl *Controller) othersLimit() int {
	u := ctl.unreserved()
	if !ctl.guard.on() || ctl.highDemand() == 0 {
		return u
	}
	return ctl.guard.limit(u, ctl.others(), ctl.opts.Now())
}

// shedding reports whether free arrivals that cannot run at once are
// refused rather than queued: the guard binds beside premium. ctl.mu is
// held.
func (ctl *Controller) shedding() bool {
	return ctl.guard.on() && ctl.highDemand() > 0 && ctl.guard.binds(ctl.unreserved())
}

func (ctl *Controller) enqueue(w *waiter) {
	q := ctl.waiting[w.class]
	if len(q) == 0 && w.class != High {
		// A class that was idle starts level with the busiest one, not
		// with turns saved up from while it was idle.
		ctl.pass[w.class] = max(ctl.pass[w.class], ctl.minPass())
	}
	ctl.waiting[w.class] = append(q, w)
	ctl.opts.Depth(w.class, len(ctl.waiting[w.class]))
}

// minPass is the lowest pass among the waiting Low and Normal classes
// (the highest of both when none waits).
func (ctl *Controller) minPass() float64 {
	p, any := 0.0, false
	for _, c := range []Class{Low, Normal} {
		if len(ctl.waiting[c]) > 0 && (!any || ctl.pass[c] < p) {
			p, any = ctl.pass[c], true
		}
	}
	if !any {
		return max(ctl.pass[Low], ctl.pass[Normal])
	}
	return p
}

// dispatch grants slots to waiters while the limit allows: High first,
// then Low and Normal by weighted turns within the unreserved share.
// ctl.mu is held.
func (ctl *Controller) dispatch() {
	for ctl.total() < ctl.limit.current() {
		if len(ctl.waiting[High]) > 0 {
			ctl.grant(High)
			continue
		}
		if ctl.others() >= ctl.othersLimit() {
			return
		}
		next, found := Low, false
		for _, c := range []Class{Low, Normal} {
			if len(ctl.waiting[c]) > 0 && (!found || ctl.pass[c] < ctl.pass[next]) {
				next, found = c, true
			}
		}
		if !found {
			return
		}
		ctl.pass[next] += 1 / weight[next]
		ctl.grant(next)
	}
}

func (ctl *Controller) grant(c Class) {
	q := ctl.waiting[c]
	w := q[0]
	q[0] = nil
	ctl.waiting[c] = q[1:]
	ctl.opts.Depth(c, len(ctl.waiting[c]))
	ctl.running[c]++
	if c == High {
		w.others, w.otherGrants = ctl.others(), ctl.guard.otherGrants
	} else {
		ctl.guard.lastOther = ctl.opts.Now()
		ctl.guard.otherGrants++
	}
	w.granted = true
	close(w.ready)
}

func (ctl *Controller) release(w *waiter, d time.Duration, o Outcome) {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	c := w.class
	inflight := ctl.total()
	if c == High && o == Succeeded && ctl.guard.on() {
		alone := w.others == 0 && ctl.others() == 0 && ctl.guard.otherGrants == w.otherGrants
		ctl.guard.sample(d.Seconds(), alone, ctl.unreserved(), ctl.limit.baseline)
	}
	// The limit is held to premium's standard while premium scans run or
	// ran within HighHold: a premium client that comes back then finds
	// the node below its knee, not just a free slot on a node that makes
	// it queue.
	if ctl.highDemand() > 0 {
		ctl.limit.sawHigh()
	}
	if c == High {
		// As many ran until now: a premium scan longer than HighHold
		// keeps its place in the peak.
		ctl.noteHigh()
	}
	ctl.running[c]--
	if o != Ignored && ctl.limit.sample(d, inflight, o == TimedOut) {
		ctl.opts.OnLimit(ctl.limit.current())
	}
	ctl.dispatch()
}

// span is the number of the clock's current span of HighHold/holdSpans.
func (ctl *Controller) span() int64 {
	return ctl.opts.Now().UnixNano() / int64(ctl.opts.HighHold/holdSpans)
}

// noteHigh records the High scans running and waiting now in the current
// span's peak. ctl.mu is held.
func (ctl *Controller) noteHigh() {
	now := ctl.span()
	p := &ctl.highPeaks[now%holdSpans]
	if p.span != now {
		*p = peak{span: now}
	}
	p.n = max(p.n, ctl.running[High]+len(ctl.waiting[High]))
}

// highDemand is how many High scans ran or waited at once within
// HighHold, or run and wait now if more. ctl.mu is held.
func (ctl *Controller) highDemand() int {
	now := ctl.span()
	n := ctl.running[High] + len(ctl.waiting[High])
	for _, p := range ctl.highPeaks {
		if p.n > 0 && now-p.span < holdSpans {
			n = max(n, p.n)
		}
	}
	return n
}

func (ctl *Controller) remove(w *waiter) {
	q := ctl.waiting[w.class]
	for i := range q {
		if q[i] == w {
			ctl.waiting[w.class] = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	ctl.opts.Depth(w.class, len(ctl.waiting[w.class]))
}

func (ctl *Controller) total() int { return ctl.running[Low] + ctl.running[Normal] + ctl.running[High] }

func (ctl *Controller) others() int { return ctl.running[Low] + ctl.running[Normal] }

// unreserved is how many slots Low and Normal may hold together: the
// limit less the reserve (its share of the limit, or the most High scans
// at once within HighHold when more, if there is a reserve at all), at
// least one.
func (ctl *Controller) unreserved() int {
	limit := ctl.limit.current()
	if ctl.opts.Reserve == 0 {
		return limit
	}
	reserved := max(int(math.Ceil(float64(limit)*ctl.opts.Reserve)), ctl.highDemand())
	return max(1, limit-reserved)
}

// Stats is a snapshot of the controller.
type Stats struct {
	Limit   int
	Running [classes]int
	Waiting [classes]int
	// OthersLimit is how many slots Low and Normal may hold together now
	// (the guard's cap while it binds); Shed counts the free arrivals the
	// guard refused.
	OthersLimit int
	Shed        int64
}

// Stats returns the current limit, running and waiting scans by class.
func (ctl *Controller) Stats() Stats {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	s := Stats{Limit: ctl.limit.current(), Running: ctl.running, OthersLimit: ctl.othersLimit(), Shed: ctl.shed}
	for c := range ctl.waiting {
		s.Waiting[c] = len(ctl.waiting[c])
	}
	return s
}
