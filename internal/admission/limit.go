package admission

import (
	"math"
	"slices"
	"time"
)

// gradient is the adaptive concurrency limit: a gradient controller in
// the manner of TCP Vegas and Netflix's concurrency-limits "gradient"
// limit. The latency of completed scans is taken over a window (its
// median); it is compared with the no-load baseline. While it stays
// within tolerance × baseline and the limit is in use, the limit grows by
// about √limit per window; past it, the limit shrinks in proportion
// (baseline × tolerance / latency, at most halving per window), and by
// one scan at least. A window with a scan that ran out of time does not
// grow and shrinks by a tenth more.
//
// A window beside premium (High) scans (see sawHigh) is held to a
// stricter tolerance and grows by one at most, because at a node that answers in
// order every scan past its knee queues with the premium ones. A window
// that goes over that tolerance right after such a step marks the limit it
// stepped to as the knee: beside premium the limit then climbs back by
// one per calm window up to just below the knee (a shrink caused by
// anything else is undone quickly) and steps onto it again only after
// kneeProbeEvery calm windows (the node may have gained capacity). A probe
// that stays calm forgets the knee.
//
// The baseline follows a lower latency fast (a quarter of the gap per
// window) and a higher one slowly: 2% of the gap per window while less
// than half the limit is in use or the limit is at its minimum, 0.1%
// while more is (the latency of a busy window is the load's), so that a
// sustained flood does not become the new normal, while a node that is
// slower for good is learnt within about a hundred windows.
type gradient struct {
	min, max  float64
	tolerance float64
	// highTolerance replaces tolerance in a window where a High scan ran:
	// queueing at the node is what a premium scan pays beside the others,
	// so while one runs the limit settles nearer the knee.
	highTolerance float64
	limit         float64
	baseline      float64 // seconds; 0 until the first window

	// The current window.
	samples     []float64 // seconds
	maxInflight int
	dropped     bool
	high        bool
	// calm counts the windows beside premium scans within tolerance since
	// the limit last grew or shrank.
	calm int
	// knee is the limit (a whole number) that last went over the
	// tolerance beside premium scans in the window right after the limit
	// stepped onto it (0: none known).
	knee float64
	// stepped is whether the limit grew at the end of the last window
	// beside premium scans: if this window goes over tolerance, the new
	// limit was the knee.
	stepped bool
}

// kneeProbeEvery is how many calm windows beside premium scans the limit
// stays just below a known knee before it steps onto it again. Such a
// step queues the premium scans of about two windows (the step's, and the
// one the shrink takes to drain) behind one scan too many, so one every
// kneeProbeEvery windows touches about 2/kneeProbeEvery = 0.2% of them: a
// fifth of the 1% of premium scans their p99 leaves out. At a few scans
// per window that is a probe every few minutes under a steady flood.
const kneeProbeEvery = 1000

// baselineFall is the share of the gap a lower window latency moves the
// baseline by; baselineRise and baselineCreep that of a higher one, in a
// window where few scans ran and in a busy one (where the latency is the
// load's, not the node's).
const (
	baselineFall  = 0.25
	baselineRise  = 0.02
	baselineCreep = 0.001
)

func newGradient(minLimit, maxLimit, initial int, tolerance float64) *gradient {
	return &gradient{min: float64(minLimit), max: float64(maxLimit), tolerance: tolerance, highTolerance: tolerance, limit: float64(initial)}
}

// sawHigh marks the current window as one beside premium: a High scan
// ran in it, or within the controller's HighHold.
func (g *gradient) sawHigh() { g.high = true }

// windowSize is how many samples close a window: half the limit, at
// least 8, so a window spans about half a round of the running scans
// and its median is not one scan's.
func (g *gradient) windowSize() int { return max(8, int(g.limit)/2) }

// sample records one finished scan: how long it ran, how many scans ran
// when it finished (itself included) and whether it ran out of time. It
// reports whether the limit was recomputed.
func (g *gradient) sample(d time.Duration, inflight int, dropped bool) bool {
	g.samples = append(g.samples, d.Seconds())
	g.maxInflight = max(g.maxInflight, inflight)
	g.dropped = g.dropped || dropped
	if len(g.samples) < g.windowSize() {
		return false
	}
	// The median, not the mean: a scan stalled by something else (a slow
	// token, a pause of the machine) is not a sign of load.
	slices.Sort(g.samples)
	avg := g.samples[len(g.samples)/2]
	limit := g.limit
	busy := float64(g.maxInflight) >= limit/2
	switch {
	case g.baseline == 0:
		g.baseline = avg
	case avg < g.baseline:
		g.baseline += baselineFall * (avg - g.baseline)
	case busy && limit > g.min:
		g.baseline += baselineCreep * (avg - g.baseline)
	default:
		g.baseline += baselineRise * (avg - g.baseline)
	}
	tolerance := g.tolerance
	if g.high {
		tolerance = g.highTolerance
	}
	grad := 1.0
	if avg > 0 {
		grad = math.Max(0.5, math.Min(1, tolerance*g.baseline/avg))
	}
	over := grad < 1 || g.dropped
	if over {
		g.calm = 0
	}
	if g.high && g.stepped {
		// The window right after a step beside premium: the step's verdict.
		switch {
		case over:
			g.knee = math.Floor(g.limit)
		case g.knee > 0 && math.Floor(g.limit) >= g.knee:
			g.knee = 0 // the node has more room than it had
		}
	}
	stepped := false
	switch {
	case g.dropped:
		limit = math.Min(limit*0.9*grad, math.Floor(limit)-1)
	case grad < 1:
		// At least one scan fewer: a small limit shrunk in proportion
		// could otherwise keep as many running as went over.
		limit = math.Min(limit*grad, math.Floor(limit)-1)
	case busy && g.high:
		// Within tolerance beside premium scans: by one, as each step past
		// the knee is paid by the premium scans running; onto a known knee
		// only now and then.
		g.calm++
		if g.knee == 0 || math.Floor(limit)+1 < g.knee || g.calm >= kneeProbeEvery {
			limit++
			g.calm = 0
			stepped = true
		}
	case busy:
		// Within tolerance and in use: probe for more.
		limit += math.Max(1, math.Sqrt(limit))
	}
	old := g.limit
	g.limit = math.Max(g.min, math.Min(g.max, limit))
	g.stepped = stepped && g.limit > old // not held back by the maximum
	g.samples, g.maxInflight, g.dropped, g.high = g.samples[:0], 0, false, false
	return true
}

// current returns the limit as a whole number of scans.
func (g *gradient) current() int { return int(g.limit) }
