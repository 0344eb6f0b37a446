package admission

import (
	"context"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// guarded is a controller of a fixed limit of 8 (2 reserved: 6 for Low
// and Normal) with the premium guard on, on a settable clock, whose
// premium baseline is 100 ms (premium scans run alone).
func guarded(t *testing.T) (*Controller, *clock) {
	t.Helper()
	clk := newClock(time.Unix(1_700_000_000, 0))
	ctl := New(Options{MinLimit: 8, MaxLimit: 8, InitialLimit: 8, Reserve: 0.25, QueueLimit: 10, Now: clk.Now})
	for range 4 {
		premiumScan(t, ctl, clk, 100*time.Millisecond)
	}
	return ctl, clk
}

// premiumScan runs one High scan taking d on clk.
func premiumScan(t *testing.T, ctl *Controller, clk *clock, d time.Duration) {
	t.Helper()
	release := acquireNow(t, ctl, High)
	clk.Add(d)
	release(Succeeded)
}

// While free scans run beside premium ones, a premium scan twice its
// no-load latency stops free and pro starting beside premium; a free
// arrival that cannot run then is shed with 503 overloaded (one may still
// wait), while pro waits its turn and premium runs at once.
func TestGuardShedsFreeWhenPremiumSlows(t *testing.T) {
	ctl, clk := guarded(t)
	var free []func(Outcome)
	for range 4 {
		free = append(free, acquireNow(t, ctl, Low))
	}
	if s := ctl.Stats(); s.OthersLimit != 6 {
		t.Fatalf("before premium slows: others may hold %d, want the 6 unreserved", s.OthersLimit)
	}
	premiumScan(t, ctl, clk, 200*time.Millisecond)
	if s := ctl.Stats(); s.OthersLimit != 0 {
		t.Fatalf("after a premium scan at 2× its baseline beside 4 free: others may hold %d, want 0", s.OthersLimit)
	}
	waiting := pending(ctl, Low)
	waitQueued(t, ctl, Low, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := ctl.Acquire(ctx, Low); fault.CodeOf(err) != fault.Overloaded {
		t.Fatalf("a second free arrival: %v, want overloaded (shed)", err)
	}
	if s := ctl.Stats(); s.Shed != 1 {
		t.Errorf("shed %d, want 1", s.Shed)
	}
	pro := pending(ctl, Normal)
	waitQueued(t, ctl, Normal, 1)
	premiumScan(t, ctl, clk, 100*time.Millisecond) // premium runs at once
	for _, f := range free {
		f(Succeeded)
	}
	select {
	case <-waiting:
		t.Fatal("a free scan started while premium is not calm")
	case <-pro:
		t.Fatal("a pro scan started while premium is not calm")
	case <-time.After(50 * time.Millisecond):
	}
	// Eight calm premium scans give one slot back.
	for range 8 {
		premiumScan(t, ctl, clk, 100*time.Millisecond)
	}
	select {
	case r := <-pro:
		r(Succeeded)
	case r := <-waiting:
		r(Succeeded)
	case <-time.After(2 * time.Second):
		t.Fatal("nothing started once premium was calm")
	}
}

// However slow premium runs, a free scan starts whenever none has for
// StarveAfter: free is held back, never starved.
func TestGuardNeverStarvesFree(t *testing.T) {
	ctl, clk := guarded(t)
	a := acquireNow(t, ctl, Low)
	premiumScan(t, ctl, clk, 300*time.Millisecond)
	a(Succeeded)
	if s := ctl.Stats(); s.OthersLimit != 0 {
		t.Fatalf("others may hold %d, want 0 right after a free scan", s.OthersLimit)
	}
	waiting := pending(ctl, Low)
	waitQueued(t, ctl, Low, 1)
	premiumScan(t, ctl, clk, 300*time.Millisecond)
	select {
	case <-waiting:
		t.Fatal("a free scan started within StarveAfter of the last one")
	default:
	}
	clk.Add(time.Second)
	premiumScan(t, ctl, clk, 300*time.Millisecond) // a release dispatches
	select {
	case r := <-waiting:
		r(Succeeded)
	case <-time.After(2 * time.Second):
		t.Fatal("no free scan started a StarveAfter after the last one")
	}
}

// Calm premium scans give the slots back one per PremiumCalm, until the
// guard lets go; with premium gone (past HighHold) it does not apply.
func TestGuardGivesSlotsBackWhenPremiumIsCalm(t *testing.T) {
	ctl, clk := guarded(t)
	a, b := acquireNow(t, ctl, Low), acquireNow(t, ctl, Low)
	premiumScan(t, ctl, clk, 300*time.Millisecond)
	clk.Add(time.Second) // past the starvation bound: it does not count while 2 run
	if s := ctl.Stats(); s.OthersLimit != 0 {
		t.Fatalf("others may hold %d, want 0", s.OthersLimit)
	}
	for want := 1; want <= 5; want++ {
		for range 8 {
			premiumScan(t, ctl, clk, 100*time.Millisecond)
		}
		if s := ctl.Stats(); s.OthersLimit != want {
			t.Fatalf("after %d calm windows others may hold %d, want %d", want-1, s.OthersLimit, want)
		}
	}
	for range 8 {
		premiumScan(t, ctl, clk, 100*time.Millisecond)
	}
	if s := ctl.Stats(); s.OthersLimit != 6 || ctl.shedding() {
		t.Fatalf("after 5 calm windows others may hold %d (shedding %v), want all 6 and no shedding", s.OthersLimit, ctl.shedding())
	}
	a(Succeeded)
	b(Succeeded)

	// Slow again, then premium leaves: past HighHold free has every slot.
	c := acquireNow(t, ctl, Low)
	d := acquireNow(t, ctl, Low)
	premiumScan(t, ctl, clk, 300*time.Millisecond)
	if s := ctl.Stats(); s.OthersLimit != 0 {
		t.Fatalf("others may hold %d, want 0", s.OthersLimit)
	}
	clk.Add(11 * time.Second)
	if s := ctl.Stats(); s.OthersLimit != 6 {
		t.Errorf("premium gone for longer than HighHold: others may hold %d, want 6", s.OthersLimit)
	}
	c(Succeeded)
	d(Succeeded)
}

// A noisy premium scan that ran alone (nothing beside it to hold back)
// moves the baseline only a little and binds nothing; with the guard off
// (negative PremiumTolerance) nothing is ever shed.
func TestGuardOffAndAlone(t *testing.T) {
	ctl, clk := guarded(t)
	premiumScan(t, ctl, clk, 400*time.Millisecond)
	if s := ctl.Stats(); s.OthersLimit != 6 || ctl.shedding() {
		t.Errorf("a slow premium scan alone: others may hold %d (shedding %v), want 6 and no shedding", s.OthersLimit, ctl.shedding())
	}
	if b := ctl.guard.base; b < 0.1 || b > 0.12 {
		t.Errorf("baseline %.3f s after one slow scan alone, want it near 0.1 (it rises by %.0f%% of the gap)", b, baseRise*100)
	}

	off := New(Options{MinLimit: 2, MaxLimit: 2, InitialLimit: 2, Reserve: -1, QueueLimit: 10, PremiumTolerance: -1, Now: clk.Now})
	premiumScan(t, off, clk, 100*time.Millisecond)
	f := acquireNow(t, off, Low)
	premiumScan(t, off, clk, time.Second)
	acquireNow(t, off, Low)
	pending(off, Low)
	waitQueued(t, off, Low, 1)
	pending(off, Low)
	waitQueued(t, off, Low, 2)
	if s := off.Stats(); s.Shed != 0 {
		t.Errorf("guard off: %d shed", s.Shed)
	}
	f(Succeeded)
}
