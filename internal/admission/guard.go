package admission

import "time"

// guard holds premium (High) scans to their own no-load latency. The
// adaptive limit judges the median of every class's scans against their
// common baseline, and never goes below its minimum; on a node that is
// the server's own CPU (the devnet, or a node on the same machine) every
// free scan that runs beside a premium one takes CPU from it, so premium
// can run twice as slow while the median still looks fine. The guard
// watches premium scans alone: one that runs more than tolerance × the
// premium baseline while Low or Normal scans ran beside it takes every
// slot they may hold while premium is about (cap 0), and calm premium
// scans give the slots back one by one. While the cap binds, Low (free) arrivals that cannot run at once are shed with
// fault.Overloaded (503 with Retry-After) rather than queued, one waiter
// excepted; and so that free is never starved, one Low or Normal scan may
// start whenever none has for starveAfter.
type guard struct {
	tolerance float64
	calmNeed  int
	starve    time.Duration

	// base is premium's no-load latency in seconds (0: not known yet): it
	// follows a faster premium scan quickly and a slower one only from
	// scans that ran with no Low or Normal scan beside them.
	base float64
	// cap is the most Low and Normal slots beside premium; negative when
	// the guard does not bind.
	cap  int
	calm int
	// lastOther is when a Low or Normal scan was last granted a slot;
	// otherGrants counts those grants (a premium scan that saw none start
	// while it ran ran alone).
	lastOther   time.Time
	otherGrants int64
}

// baseFall and baseRise are the share of the gap a faster and a slower
// (alone) premium scan move the baseline by.
const (
	baseFall = 0.25
	baseRise = 0.05
)

func newGuard(tolerance float64, calm int, starve time.Duration) *guard {
	return &guard{tolerance: tolerance, calmNeed: calm, starve: starve, cap: -1}
}

// on reports whether the guard is enabled.
func (g *guard) on() bool { return g.tolerance > 0 }

// sample learns from one premium scan of d seconds: alone says no Low or
// Normal scan ran beside it; unreserved is how many slots they may hold
// without the guard; fallback is the
// adaptive limit's baseline, used until premium has one of its own.
func (g *guard) sample(d float64, alone bool, unreserved int, fallback float64) {
	switch {
	case g.base == 0 && fallback > 0:
		g.base = fallback
	case g.base == 0:
		g.base = d
		return
	}
	switch {
	case d < g.base:
		g.base += baseFall * (d - g.base)
	case alone:
		g.base += baseRise * (d - g.base)
	}
	if d > g.tolerance*g.base {
		if alone {
			// Nothing ran beside it to hold back: the slowness is not
			// the flood's (the machine's other load, a slow token).
			return
		}
		// No free or pro scan starts beside premium until it is calm
		// again (the starvation bound aside): on a node that is this
		// machine's CPU, any one of them takes CPU from premium.
		g.cap = 0
		g.calm = 0
		return
	}
	if g.cap < 0 {
		return
	}
	g.calm++
	if g.calm >= g.calmNeed {
		g.calm = 0
		g.cap++
		if g.cap >= unreserved {
			g.cap = -1
		}
	}
}

// limit is how many slots Low and Normal may hold together beside
// premium, of unreserved: at least one when none has started for the
// starvation bound.
func (g *guard) limit(unreserved, others int, now time.Time) int {
	if g.cap < 0 || g.cap >= unreserved {
		return unreserved
	}
	if g.cap == 0 && others == 0 && now.Sub(g.lastOther) >= g.starve {
		return 1
	}
	return g.cap
}

// binds reports whether the guard holds Low and Normal below unreserved.
func (g *guard) binds(unreserved int) bool { return g.cap >= 0 && g.cap < unreserved }
