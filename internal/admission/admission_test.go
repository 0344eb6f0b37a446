package admission

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// fixed returns a controller whose limit does not move.
func fixed(t *testing.T, limit, queue int, reserve float64) *Controller {
	t.Helper()
	return New(Options{MinLimit: limit, MaxLimit: limit, InitialLimit: limit, Reserve: reserve, QueueLimit: queue})
}

// clock is a settable clock safe for the controller's goroutines.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock(t time.Time) *clock { return &clock{t: t} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// runWindow runs n Normal scans at once on ctl, each taking d on clk,
// and releases them as having succeeded.
func runWindow(t *testing.T, ctl *Controller, clk *clock, n int, d time.Duration) {
	t.Helper()
	var rel []func(Outcome)
	for range n {
		rel = append(rel, acquireNow(t, ctl, Normal))
	}
	clk.Add(d)
	for _, r := range rel {
		r(Succeeded)
	}
}

// acquireNow takes a slot that must be free.
func acquireNow(t *testing.T, ctl *Controller, c Class) func(Outcome) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	release, err := ctl.Acquire(ctx, c)
	if err != nil {
		t.Fatalf("acquire %v: %v", c, err)
	}
	return release
}

// pending starts an Acquire in the background; its result arrives on the
// returned channel.
func pending(ctl *Controller, c Class) <-chan func(Outcome) {
	ch := make(chan func(Outcome), 1)
	go func() {
		release, err := ctl.Acquire(context.Background(), c)
		if err != nil {
			close(ch)
			return
		}
		ch <- release
	}()
	return ch
}

func waitQueued(t *testing.T, ctl *Controller, c Class, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for ctl.Stats().Waiting[c] != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d waiting in class %v, want %d", ctl.Stats().Waiting[c], c, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// The reserved share stays free for premium: with others holding every
// slot they may, a premium scan runs at once.
func TestReserveKeepsSlotsForHigh(t *testing.T) {
	ctl := fixed(t, 8, 10, 0.25) // 2 reserved
	for range 6 {
		acquireNow(t, ctl, Normal)
	}
	low := pending(ctl, Low)
	waitQueued(t, ctl, Low, 1)
	for range 2 {
		acquireNow(t, ctl, High)
	}
	s := ctl.Stats()
	if s.Running != [classes]int{0, 6, 2} || s.Waiting[Low] != 1 {
		t.Fatalf("stats %+v, want 6 normal and 2 high running, 1 low waiting", s)
	}
	select {
	case <-low:
		t.Fatal("a low scan took a reserved slot")
	default:
	}
}

// Without a reserve, others may fill the limit and premium waits for the
// next slot, ahead of everyone else.
func TestHighGoesFirst(t *testing.T) {
	ctl := fixed(t, 2, 10, -1)
	a := acquireNow(t, ctl, Low)
	acquireNow(t, ctl, Low)
	low := pending(ctl, Low)
	waitQueued(t, ctl, Low, 1)
	high := pending(ctl, High)
	waitQueued(t, ctl, High, 1)
	a(Succeeded)
	select {
	case r := <-high:
		r(Succeeded)
	case <-time.After(2 * time.Second):
		t.Fatal("the freed slot did not go to the waiting high scan")
	}
	if r, ok := <-low; !ok || r == nil {
		t.Fatal("the low scan was not admitted after the high one")
	}
}

// With both flooding, normal gets about three slots for each of low's:
// low is slowed, never starved.
func TestWeightedTurnsDoNotStarveLow(t *testing.T) {
	ctl := fixed(t, 1, 100, -1)
	hold := acquireNow(t, ctl, Normal)
	type grant struct {
		c Class
		r func(Outcome)
	}
	granted := make(chan grant, 100)
	for range 40 {
		for _, c := range []Class{Normal, Low} {
			go func() {
				r, err := ctl.Acquire(context.Background(), c)
				if err == nil {
					granted <- grant{c, r}
				}
			}()
		}
	}
	waitQueued(t, ctl, Low, 40)
	waitQueued(t, ctl, Normal, 40)
	hold(Succeeded)
	var got [classes]int
	for range 40 {
		g := <-granted
		got[g.c]++
		g.r(Ignored)
	}
	if got[Low] < 8 || got[Low] > 12 || got[Normal] < 28 {
		t.Errorf("of 40 turns low got %d, normal %d; want about 10 and 30", got[Low], got[Normal])
	}
}

// Past the queue limit low and normal scans are refused overloaded;
// premium always waits.
func TestQueueLimit(t *testing.T) {
	ctl := fixed(t, 1, 1, -1)
	acquireNow(t, ctl, Normal)
	pending(ctl, Low)
	waitQueued(t, ctl, Low, 1)
	_, err := ctl.Acquire(context.Background(), Low)
	if fault.CodeOf(err) != fault.Overloaded {
		t.Fatalf("second waiting low scan: %v, want overloaded", err)
	}
	pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	for range 3 {
		pending(ctl, High)
	}
	waitQueued(t, ctl, High, 3)
}

// A caller that gives up leaves the queue; one that gives up as its slot
// arrives passes the slot on.
func TestCancelledWaiter(t *testing.T) {
	ctl := fixed(t, 1, 10, -1)
	hold := acquireNow(t, ctl, Low)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := ctl.Acquire(ctx, Low)
		errc <- err
	}()
	waitQueued(t, ctl, Low, 1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
	waitQueued(t, ctl, Low, 0)
	next := pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	hold(Succeeded)
	if r := <-next; r == nil {
		t.Fatal("the slot was lost")
	}
}

// The limit learns: it grows while scans run as fast as at no load and
// the limit is in use, shrinks when they slow down, and does not grow
// while mostly unused.
func TestGradientLimit(t *testing.T) {
	g := newGradient(2, 64, 8, 1.25)
	base := 100 * time.Millisecond
	feed := func(n int, d time.Duration, inflight int) {
		for range n {
			g.sample(d, inflight, false)
		}
	}
	feed(40, base, 8)
	if g.current() <= 8 {
		t.Fatalf("limit %d after fast, busy windows; want it grown from 8", g.current())
	}
	grown := g.current()
	// Latency in proportion to the scans running (a saturated node).
	sum := 0
	for i := range 400 {
		g.sample(time.Duration(float64(base)*float64(g.current())/8), g.current(), false)
		if i >= 200 {
			sum += g.current()
		}
	}
	// Within tolerance up to 10; each probe past it is taken back.
	if mean := float64(sum) / 200; mean > 14 || mean < 7 {
		t.Errorf("limit %.1f on average under saturation (latency ∝ limit/8); want it back near 10 (was %d)", mean, grown)
	}
	// Idle: fast scans, few running: no growth (after the window in
	// progress closes).
	feed(g.windowSize(), base, 1)
	before := g.current()
	feed(200, base, 1)
	if g.current() > before {
		t.Errorf("limit grew from %d to %d while at most 1 scan ran", before, g.current())
	}
	// Timeouts shrink it.
	for range 20 {
		g.sample(base, g.current(), true)
	}
	if g.current() >= before {
		t.Errorf("limit %d after scans timed out; want below %d", g.current(), before)
	}
	if g.current() < 2 {
		t.Errorf("limit %d below its minimum", g.current())
	}
}

// A node that is slower for good is learnt (the limit falls to its
// minimum, where the baseline learns), and the limit grows again at the
// node's new speed.
func TestGradientLearnsASlowerNode(t *testing.T) {
	g := newGradient(4, 64, 16, 1.25)
	for range 40 {
		g.sample(100*time.Millisecond, 2, false)
	}
	for range 200 * 8 {
		g.sample(300*time.Millisecond, g.current(), false)
	}
	if g.baseline < 0.2 {
		t.Fatalf("baseline %.0f ms after 200 busy windows at 300 ms; want near 300", g.baseline*1000)
	}
	if g.current() <= 8 {
		t.Errorf("limit %d at the node's new, steady speed; want it grown back from its minimum of 4", g.current())
	}
}

// The reserve is at least the most premium scans at once within
// HighHold: with three premium scans running and a limit of 8 (a quarter
// reserved: 2), others get 5 slots, not 6, so that each premium client
// finds its slot free, and still 5 until HighHold has passed since; then
// the reserve is its share again.
func TestReserveFollowsHighDemand(t *testing.T) {
	now := newClock(time.Unix(1000, 0))
	ctl := New(Options{MinLimit: 8, MaxLimit: 8, QueueLimit: 10, HighHold: 10 * time.Second, Now: now.Now})
	var highs []func(Outcome)
	for range 3 {
		highs = append(highs, acquireNow(t, ctl, High))
	}
	var others []func(Outcome)
	for range 5 {
		others = append(others, acquireNow(t, ctl, Normal))
	}
	sixth := pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	for _, h := range highs {
		h(Ignored)
	}
	// Slots are granted under the controller's lock as they free up.
	if s := ctl.Stats(); s.Running[Normal] != 5 || s.Waiting[Normal] != 1 {
		t.Fatalf("stats %+v: a sixth normal scan ran while premium had just run 3 at once", s)
	}
	now.Add(8 * time.Second)
	others[0](Ignored) // the sixth takes its slot
	<-sixth
	pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	if s := ctl.Stats(); s.Running[Normal] != 5 {
		t.Fatalf("stats %+v: a sixth normal scan ran 8s after premium ran 3 at once (HighHold 10s)", s)
	}
	now.Add(3 * time.Second)
	pending(ctl, Normal) // the seventh takes the sixth slot, this one waits
	deadline := time.Now().Add(2 * time.Second)
	for s := ctl.Stats(); s.Running[Normal] != 6 || s.Waiting[Normal] != 1; s = ctl.Stats() {
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v 11s after premium's last; want 6 normal running (the limit less its quarter), 1 waiting", s)
		}
		time.Sleep(time.Millisecond)
	}
}

// A premium scan that ran longer than HighHold keeps its place in the
// reserve when it ends, as its client may come back at once.
func TestReserveHoldsLongPremiumScans(t *testing.T) {
	now := newClock(time.Unix(1000, 0))
	ctl := New(Options{MinLimit: 8, MaxLimit: 8, QueueLimit: 10, HighHold: 10 * time.Second, Now: now.Now})
	var highs []func(Outcome)
	for range 3 {
		highs = append(highs, acquireNow(t, ctl, High))
	}
	now.Add(20 * time.Second)
	for range 5 {
		acquireNow(t, ctl, Normal)
	}
	pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	highs[0](Ignored)
	// Slots are granted under the controller's lock as they free up.
	if s := ctl.Stats(); s.Running[Normal] != 5 {
		t.Errorf("stats %+v: a sixth normal scan took the slot of a premium scan that ran 3 at once for 20s and just ended", s)
	}
}

// A span's peak is its own, not that of the span HighHold before it that
// had its place.
func TestReservePeakPerSpan(t *testing.T) {
	now := newClock(time.Unix(1000, 0))
	ctl := New(Options{MinLimit: 8, MaxLimit: 8, QueueLimit: 10, HighHold: 10 * time.Second, Now: now.Now})
	var highs []func(Outcome)
	for range 3 {
		highs = append(highs, acquireNow(t, ctl, High))
	}
	for _, h := range highs {
		h(Ignored)
	}
	now.Add(10 * time.Second)
	acquireNow(t, ctl, High)(Ignored)
	for range 6 {
		acquireNow(t, ctl, Normal)
	}
	if s := ctl.Stats(); s.Running[Normal] != 6 {
		t.Errorf("stats %+v with premium's peak at 1 in the last 10s; want 6 normal running (the limit less its quarter)", s)
	}
}

// While a premium scan runs, longer than HighHold, the limit keeps
// premium's stricter tolerance.
func TestControllerStricterBesideALongPremiumScan(t *testing.T) {
	now := newClock(time.Unix(1000, 0))
	ctl := New(Options{MinLimit: 4, MaxLimit: 64, InitialLimit: 16, Now: now.Now})
	run := func(d time.Duration) { runWindow(t, ctl, now, ctl.limit.windowSize(), d) }
	run(100 * time.Millisecond) // the baseline
	high := acquireNow(t, ctl, High)
	now.Add(time.Minute)
	before := ctl.Stats().Limit
	run(120 * time.Millisecond)
	if after := ctl.Stats().Limit; after >= before {
		t.Errorf("a premium scan running for a minute: limit %d after scans at 1.2 × baseline, want below %d", after, before)
	}
	high(Ignored)
}

// Beside premium scans the limit settles nearer the knee: a window whose
// median is 1.2 × the baseline shrinks the limit when a High scan ran in
// it and does not when none did (within the 1.25 tolerance).
func TestGradientStricterBesideHigh(t *testing.T) {
	for _, high := range []bool{false, true} {
		g := newGradient(4, 64, 16, 1.25)
		g.highTolerance = 1.1
		for range 8 {
			g.sample(100*time.Millisecond, 16, false) // the baseline
		}
		before := g.current()
		if high {
			g.sawHigh()
		}
		for range g.windowSize() {
			g.sample(120*time.Millisecond, 16, false)
		}
		switch {
		case high && g.current() >= before:
			t.Errorf("beside premium: limit %d after a window at 1.2 × baseline, want below %d", g.current(), before)
		case !high && g.current() < before:
			t.Errorf("no premium: limit %d after a window at 1.2 × baseline, want at least %d", g.current(), before)
		}
	}
}

// window feeds g one window of scans that took d each, with as many
// running as the limit allows, beside premium scans or not.
func window(g *gradient, d time.Duration, high bool) {
	if high {
		g.sawHigh()
	}
	for n := g.windowSize(); n > 0; n-- {
		g.sample(d, g.current(), false)
	}
}

// atNode is how long a 100 ms scan takes on a node that serves `workers`
// requests at once, in order, with `limit` scans running.
func atNode(limit, workers int) time.Duration {
	return time.Duration(float64(100*time.Millisecond) * max(1, float64(limit)/float64(workers)))
}

// Beside premium scans the limit grows by one per calm window, not by
// √limit.
func TestGradientStepsByOneBesideHigh(t *testing.T) {
	g := newGradient(4, 64, 16, 1.25)
	window(g, 100*time.Millisecond, false) // the baseline (and a step of √16)
	for want := g.current() + 1; want <= 24; want++ {
		window(g, 100*time.Millisecond, true)
		if g.current() != want {
			t.Fatalf("limit %d after a calm window beside premium, want %d", g.current(), want)
		}
	}
}

// Under a steady flood beside premium scans on a node of 4 workers, the
// limit finds the knee once and then stays below it: a step past it
// queues every premium scan running, so it is taken again only after
// kneeProbeEvery calm windows.
func TestGradientStaysBelowTheKneeBesideHigh(t *testing.T) {
	g := newGradient(2, 64, 16, 1.25)
	g.highTolerance = 1.1
	window(g, 100*time.Millisecond, false) // the baseline, alone
	past, at := 0, 0
	const windows = 500
	for range windows {
		if g.current() > 4 {
			past++
		}
		if g.current() == 4 {
			at++
		}
		window(g, atNode(g.current(), 4), true)
	}
	// From 16 down to 4 (the flood's start) takes two windows past the
	// knee, finding the knee one more.
	if past > 4 {
		t.Errorf("%d of %d windows beside premium ran past the node's 4 workers; want at most 4 (the flood's start and finding the knee)", past, windows)
	}
	// Free and pro keep what the node has room for.
	if at < windows-10 {
		t.Errorf("%d of %d windows at the node's 4 workers; want nearly all", at, windows)
	}
}

// A window slowed by something else than the limit (a pause of the node)
// shrinks the limit below a known knee; it climbs back by one per calm
// window, stops below the knee, steps onto it after kneeProbeEvery calm
// windows, and once the node has gained room (the probe is calm) grows
// past it again.
func TestGradientClimbsBackBelowTheKnee(t *testing.T) {
	g := newGradient(2, 64, 4, 1.25)
	g.highTolerance = 1.1
	base := 100 * time.Millisecond
	window(g, base, false)
	for range 20 { // finds the knee of a node with 8 workers
		window(g, atNode(g.current(), 8), true)
	}
	if g.current() != 8 || g.knee != 9 {
		t.Fatalf("limit %d, knee %v on a node of 8 workers; want 8 and 9", g.current(), g.knee)
	}
	window(g, 2*base, true) // the pause: the limit halves
	if g.current() != 4 {
		t.Fatalf("limit %d after a window at twice the baseline, want 4", g.current())
	}
	for want := 5; want <= 8; want++ {
		window(g, atNode(g.current(), 8), true)
		if g.current() != want {
			t.Fatalf("limit %d climbing back below the knee, want %d", g.current(), want)
		}
	}
	// Below the knee until kneeProbeEvery calm windows there.
	for range kneeProbeEvery - 1 {
		window(g, atNode(g.current(), 8), true)
		if g.current() != 8 {
			t.Fatalf("limit %d below a knee of 9 with %d calm windows, want 8", g.current(), g.calm)
		}
	}
	// The node now has 12 workers: the probe onto 9, at the
	// kneeProbeEvery-th calm window, is calm, and the limit grows on to
	// the new knee (13 scans on 12 workers are within 1.1 × the baseline,
	// 14 are not).
	window(g, atNode(g.current(), 12), true)
	if g.current() != 9 {
		t.Fatalf("limit %d after %d calm windows below a knee of 9, want the probe onto it", g.current(), kneeProbeEvery)
	}
	for range 9 {
		window(g, atNode(g.current(), 12), true)
	}
	if g.current() != 13 || g.knee != 14 {
		t.Errorf("limit %d, knee %v once the node has 12 workers; want 13 and 14", g.current(), g.knee)
	}
}

// Only a step that went over tolerance marks a knee: a slow window at
// the maximum (where the limit could not step) or one after a step with
// no premium scan running beside it (judged by the looser tolerance)
// neither sets nor forgets one.
func TestGradientKneeOnlyFromAStepBesideHigh(t *testing.T) {
	base := 100 * time.Millisecond
	g := newGradient(2, 8, 8, 1.25)
	g.highTolerance = 1.1
	window(g, base, false)
	window(g, base, true) // calm at the maximum: no step
	window(g, 2*base, true)
	if g.knee != 0 {
		t.Errorf("knee %v after a slow window at the maximum, want none", g.knee)
	}
	for range 4 {
		window(g, base, true)
	}
	if g.current() != 8 {
		t.Errorf("limit %d four calm windows after a pause, want back at the maximum 8", g.current())
	}

	g = newGradient(2, 64, 4, 1.25)
	g.highTolerance = 1.1
	window(g, base, false)
	for range 6 { // knee 9 on 8 workers
		window(g, atNode(g.current(), 8), true)
	}
	// To the probe onto the knee (the calm windows at 8 before this loop
	// count too).
	calm := 0
	for ; g.current() < 9 && calm <= kneeProbeEvery; calm++ {
		window(g, atNode(g.current(), 8), true)
	}
	if g.current() != 9 || calm < kneeProbeEvery-5 {
		t.Fatalf("limit %d after %d calm windows below a knee of 9, want the probe at 9 after about %d", g.current(), calm, kneeProbeEvery)
	}
	window(g, atNode(9, 8), false) // 1.125 × baseline, premium gone
	if g.knee != 9 {
		t.Errorf("knee %v after a window past it without premium, want still 9", g.knee)
	}
}

// A window over tolerance, or with a scan that ran out of time, runs one
// scan fewer at least: a step onto the knee from a limit between whole
// numbers, shrunk in proportion only, would keep as many running.
func TestGradientShrinksByOneScanAtLeast(t *testing.T) {
	base := 100 * time.Millisecond
	g := newGradient(2, 64, 4, 1.25)
	g.highTolerance = 1.1
	window(g, base, false)
	g.limit = 8.5
	window(g, atNode(8, 8), true) // calm: a step to 9.5
	if g.current() != 9 {
		t.Fatalf("limit %d after a calm window at 8 beside premium, want 9", g.current())
	}
	window(g, atNode(9, 8), true) // 1.125 × baseline
	if g.current() != 8 {
		t.Errorf("limit %d after the step to 9 went over tolerance, want 8", g.current())
	}

	g = newGradient(1, 64, 4, 1.25)
	window(g, base, false)
	g.limit = 3.5
	for range g.windowSize() {
		g.sample(base, 3, true)
	}
	if g.current() != 2 {
		t.Errorf("limit %d after a window at 3.5 with scans out of time, want 2", g.current())
	}
}

// HighTolerance is never looser than Tolerance.
func TestHighToleranceWithinTolerance(t *testing.T) {
	if got := New(Options{Tolerance: 1.05}).limit.highTolerance; got != 1.05 {
		t.Errorf("high tolerance %v with a tolerance of 1.05, want 1.05", got)
	}
	if got := New(Options{}).limit.highTolerance; got != 1.1 {
		t.Errorf("default high tolerance %v, want 1.1", got)
	}
	if got := New(Options{}).opts.HighHold; got != 10*time.Second {
		t.Errorf("default high hold %v, want 10s", got)
	}
}

// A window in which a premium scan ran is judged by the stricter
// tolerance: scans at 1.2 × the baseline shrink the limit beside premium
// and leave it alone without.
func TestControllerStricterWhilePremiumRuns(t *testing.T) {
	for _, premium := range []bool{false, true} {
		now := newClock(time.Unix(0, 0))
		ctl := New(Options{MinLimit: 4, MaxLimit: 64, InitialLimit: 16, Now: now.Now})
		run := func(d time.Duration) { runWindow(t, ctl, now, ctl.limit.windowSize(), d) }
		run(100 * time.Millisecond) // the baseline
		before := ctl.Stats().Limit
		var high func(Outcome)
		if premium {
			high = acquireNow(t, ctl, High)
		}
		run(120 * time.Millisecond)
		if high != nil {
			high(Ignored)
		}
		after := ctl.Stats().Limit
		switch {
		case premium && after >= before:
			t.Errorf("premium running: limit %d after scans at 1.2 × baseline, want below %d", after, before)
		case !premium && after < before:
			t.Errorf("no premium: limit %d after scans at 1.2 × baseline, want at least %d", after, before)
		}
	}
}

// The stricter tolerance holds for HighHold after the last premium scan,
// so that a premium client coming back finds the node below its knee, and
// lapses then.
func TestControllerStricterAfterPremium(t *testing.T) {
	now := newClock(time.Unix(0, 0))
	ctl := New(Options{MinLimit: 4, MaxLimit: 64, InitialLimit: 16, Now: now.Now})
	run := func(d time.Duration) { runWindow(t, ctl, now, ctl.limit.windowSize(), d) }
	run(100 * time.Millisecond) // the baseline
	acquireNow(t, ctl, High)(Succeeded)
	run(100 * time.Millisecond) // closes the premium scan's window
	run(100 * time.Millisecond)
	before := ctl.Stats().Limit
	run(120 * time.Millisecond)
	if after := ctl.Stats().Limit; after >= before {
		t.Errorf("two windows after a premium scan: limit %d after scans at 1.2 × baseline, want below %d", after, before)
	}
	now.Add(10 * time.Second) // HighHold
	run(100 * time.Millisecond)
	before = ctl.Stats().Limit
	run(120 * time.Millisecond)
	if after := ctl.Stats().Limit; after < before {
		t.Errorf("premium's demand decayed: limit %d after scans at 1.2 × baseline, want at least %d", after, before)
	}
}

// With no options the limit starts at 16, grows to 32 at most while scans
// stay fast and the limit is in use, and shrinks to 4 at least while they
// run out of time: a controller built without bounds neither admits
// nothing nor shrinks to a limit that never lets a scan in again.
func TestDefaultLimits(t *testing.T) {
	now := newClock(time.Unix(1000, 0))
	ctl := New(Options{Now: now.Now})
	if got := ctl.Stats().Limit; got != 16 {
		t.Fatalf("initial limit %d with no options, want 16", got)
	}
	for range 20 { // fast, busy windows: more than half the limit in use
		runWindow(t, ctl, now, ctl.limit.windowSize()+2, 100*time.Millisecond)
	}
	if got := ctl.Stats().Limit; got != 32 {
		t.Errorf("limit %d after 20 fast, busy windows, want the default maximum 32", got)
	}
	for range 50 * 8 { // 50 windows of scans that ran out of time
		r := acquireNow(t, ctl, Normal)
		now.Add(100 * time.Millisecond)
		r(TimedOut)
	}
	if got := ctl.Stats().Limit; got != 4 {
		t.Errorf("limit %d after 50 windows of scans out of time, want the default minimum 4", got)
	}
}

// A class out of range is taken as Low, not a crash.
func TestOutOfRangeClassIsLow(t *testing.T) {
	ctl := fixed(t, 4, 10, -1)
	for _, c := range []Class{-1, classes, 7} {
		release := acquireNow(t, ctl, c)
		if s := ctl.Stats(); s.Running != [classes]int{Low: 1} {
			t.Errorf("stats %+v with a scan of class %d running, want it counted as low", s, c)
		}
		release(Succeeded)
	}
}

// Premium scans count toward the limit: with premium holding every slot,
// another scan waits.
func TestHighCountsTowardTheLimit(t *testing.T) {
	ctl := fixed(t, 4, 10, 0.25)
	var highs []func(Outcome)
	for range 4 {
		highs = append(highs, acquireNow(t, ctl, High))
	}
	normal := pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	if s := ctl.Stats(); s.Running != [classes]int{High: 4} {
		t.Fatalf("stats %+v with a limit of 4 held by premium, want 4 premium running and the normal scan waiting", s)
	}
	highs[0](Succeeded)
	if r := <-normal; r == nil {
		t.Fatal("the normal scan was not admitted when a premium slot freed")
	}
}

// With no queue (QueueLimit negative, --queue-limit 0) a low or normal
// scan runs if a slot it may use is free and is refused overloaded if not:
// not when the limit is full (of premium scans too), nor when only the
// reserved share is free.
func TestNoQueue(t *testing.T) {
	overloaded := func(t *testing.T, ctl *Controller, c Class, why string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, err := ctl.Acquire(ctx, c); fault.CodeOf(err) != fault.Overloaded {
			t.Errorf("%s: %v, want overloaded at once", why, err)
		}
	}
	ctl := New(Options{MinLimit: 2, MaxLimit: 2, Reserve: -1, QueueLimit: -1})
	a := acquireNow(t, ctl, Low)
	acquireNow(t, ctl, Normal)
	overloaded(t, ctl, Low, "limit full of others")
	a(Succeeded)
	b := acquireNow(t, ctl, Low) // the freed slot
	b(Succeeded)

	ctl = New(Options{MinLimit: 2, MaxLimit: 2, Reserve: -1, QueueLimit: -1})
	acquireNow(t, ctl, High)
	acquireNow(t, ctl, High)
	overloaded(t, ctl, Low, "limit full of premium scans")

	ctl = New(Options{MinLimit: 4, MaxLimit: 4, Reserve: 0.25, QueueLimit: -1})
	for range 3 {
		acquireNow(t, ctl, Normal)
	}
	overloaded(t, ctl, Normal, "only the reserved slot free")
	if s := ctl.Stats(); s.Waiting != [classes]int{} {
		t.Errorf("stats %+v with no queue, want none waiting", s)
	}
}

// Premium callers that waited and gave up count in the reserve as much as
// those that ran: their clients come back.
func TestReserveKeepsHighWaitersThatGaveUp(t *testing.T) {
	now := newClock(time.Unix(1000, 0))
	ctl := New(Options{MinLimit: 4, MaxLimit: 4, QueueLimit: 10, HighHold: 10 * time.Second, Now: now.Now})
	high := acquireNow(t, ctl, High)
	var normals []func(Outcome)
	for range 3 { // the limit less its quarter
		normals = append(normals, acquireNow(t, ctl, Normal))
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := ctl.Acquire(ctx, High)
			errc <- err
		}()
	}
	waitQueued(t, ctl, High, 3)
	cancel()
	for range 3 {
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("premium wait given up: %v", err)
		}
	}
	high(Ignored)
	for _, r := range normals {
		r(Ignored)
	}
	now.Add(5 * time.Second)
	acquireNow(t, ctl, Normal)
	pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	if s := ctl.Stats(); s.Running[Normal] != 1 {
		t.Errorf("stats %+v 5s after 4 premium scans ran or waited at once on a limit of 4, want 1 normal running", s)
	}
}

// A class that was idle does not bank turns: after normal ran alone for
// 30 turns, low arriving gets its share (one in four), not the next 30
// slots in a row.
func TestIdleClassBanksNoTurns(t *testing.T) {
	ctl := fixed(t, 1, 100, -1)
	for range 30 {
		acquireNow(t, ctl, Normal)(Ignored)
	}
	hold := acquireNow(t, ctl, Normal)
	type grant struct {
		c Class
		r func(Outcome)
	}
	granted := make(chan grant, 40)
	for _, c := range []Class{Low, Normal} { // low first, so that it arrives with none waiting
		for range 20 {
			go func() {
				if r, err := ctl.Acquire(context.Background(), c); err == nil {
					granted <- grant{c, r}
				}
			}()
		}
		waitQueued(t, ctl, c, 20)
	}
	hold(Ignored)
	var got [classes]int
	for range 8 {
		g := <-granted
		got[g.c]++
		g.r(Ignored)
	}
	if got[Low] > 3 {
		t.Errorf("of the 8 turns after low arrived, low got %d, normal %d; want about 2 and 6", got[Low], got[Normal])
	}
	for range 32 {
		(<-granted).r(Ignored)
	}
}

// The baseline follows a higher latency slowly, so that a long slowdown
// within tolerance does not become the new normal: after it, scans slower
// still shrink the limit. Busy windows (a flood at the maximum) and
// windows where few scans ran alike.
func TestGradientBaselineRisesSlowly(t *testing.T) {
	for _, c := range []struct {
		name     string
		windows  int
		inflight func(g *gradient) int
	}{
		{"busy", 200, func(g *gradient) int { return g.current() }},
		{"idle", 10, func(*gradient) int { return 1 }},
	} {
		g := newGradient(4, 64, 64, 1.25)
		feed := func(d time.Duration) {
			for range g.windowSize() {
				g.sample(d, c.inflight(g), false)
			}
		}
		feed(100 * time.Millisecond) // the baseline
		for range c.windows {
			feed(120 * time.Millisecond)
		}
		before := g.current()
		feed(140 * time.Millisecond)
		if g.current() >= before {
			t.Errorf("%s: limit %d after %d windows at 1.2 × baseline and one at 1.4 ×, want below %d", c.name, g.current(), c.windows, before)
		}
	}
}

// A window with a scan out of time shrinks the limit by a tenth more than
// its latency alone would: from 32 at three times the baseline (halved) to
// 14, not 16.
func TestGradientTimeoutShrinksATenthMore(t *testing.T) {
	base := 100 * time.Millisecond
	g := newGradient(2, 64, 32, 1.25)
	window(g, base, false)
	g.limit = 32
	for i := range g.windowSize() {
		g.sample(3*base, 32, i == 0)
	}
	if g.current() != 14 {
		t.Errorf("limit %d after a window at 3 × baseline with a scan out of time, from 32; want 14", g.current())
	}
}

// Scans that took no measurable time (a coarse clock) and ran out of time
// shrink the limit like any others, within its bounds.
func TestGradientInstantScansOutOfTime(t *testing.T) {
	g := newGradient(2, 64, 16, 1.25)
	for range g.windowSize() {
		g.sample(0, 16, true)
	}
	if g.current() != 14 {
		t.Errorf("limit %d after a window of instant scans out of time, from 16; want 14", g.current())
	}
}

// When premium's peak lapses, the slots it held are free for those
// waiting: the next caller finds them taken by the queue, and the queue
// with room, rather than being refused while a slot is free.
func TestReserveLapseFreesSlotsForWaiters(t *testing.T) {
	now := newClock(time.Unix(1000, 0))
	ctl := New(Options{MinLimit: 8, MaxLimit: 8, QueueLimit: 1, HighHold: 10 * time.Second, Now: now.Now})
	var highs []func(Outcome)
	for range 3 {
		highs = append(highs, acquireNow(t, ctl, High))
	}
	for _, h := range highs {
		h(Ignored)
	}
	for range 5 { // the limit less premium's peak of 3
		acquireNow(t, ctl, Normal)
	}
	waiting := pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	now.Add(11 * time.Second) // premium's peak lapses: a sixth slot for others
	next := pending(ctl, Normal)
	select {
	case r := <-waiting:
		if r == nil {
			t.Fatal("the waiting normal scan was refused")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the waiting normal scan was not admitted to the slot premium's lapsed peak freed")
	}
	waitQueued(t, ctl, Normal, 1)
	select {
	case r, ok := <-next:
		if !ok {
			t.Fatal("a normal scan was refused overloaded while the one waiting could take a free slot")
		}
		t.Fatalf("a seventh normal scan ran (%v) with 2 of 8 slots reserved", r != nil)
	default:
	}
}

// Beside premium scans too, the limit does not grow while mostly unused:
// a calm window with few scans running says nothing of the node's room.
func TestGradientIdleBesideHighDoesNotGrow(t *testing.T) {
	g := newGradient(4, 64, 16, 1.25)
	window(g, 100*time.Millisecond, false) // the baseline (and a step of √16)
	before := g.current()
	for range 10 {
		g.sawHigh()
		for range g.windowSize() {
			g.sample(100*time.Millisecond, 1, false)
		}
	}
	if g.current() != before {
		t.Errorf("limit %d after 10 calm windows beside premium with 1 scan running, want still %d", g.current(), before)
	}
}
