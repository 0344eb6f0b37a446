// Package ratelimittest is the behaviour every ratelimit.Limiter must have,
// as a suite each implementation runs against itself.
package ratelimittest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
)

// Clock is a manual clock handed to the limiter under test.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock reading start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// NewLimiter opens a fresh limiter reading time from now. Keys of
// different calls must not collide (use a fresh prefix per call).
type NewLimiter func(t *testing.T, now func() time.Time) ratelimit.Limiter

// Run runs the suite against the limiters newLimiter returns.
func Run(t *testing.T, newLimiter NewLimiter) {
	tests := []struct {
		name string
		fn   func(t *testing.T, l ratelimit.Limiter, c *Clock)
	}{
		{"LimitThenDeny", testLimitThenDeny},
		{"RetryAfterIsHonest", testRetryAfterIsHonest},
		{"SlidingWindowIsExact", testSlidingWindowIsExact},
		{"OddWindows", testOddWindows},
		{"KeysAndWindowsIndependent", testIndependent},
		{"Unlimited", testUnlimited},
		{"DailyQuota", testDailyQuota},
		{"ConcurrentAllowIsAtomic", testConcurrent},
		{"InvalidWindow", testInvalidWindow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// An odd start so nothing depends on windows aligning.
			c := NewClock(time.Date(2026, 11, 21, 10, 0, 0, 123_000_000, time.UTC))
			tc.fn(t, newLimiter(t, c.Now), c)
		})
	}
}

func allow(t *testing.T, l ratelimit.Limiter, key string, limit int64, window time.Duration) ratelimit.Decision {
	t.Helper()
	d, err := l.Allow(context.Background(), key, limit, window)
	if err != nil {
		t.Fatalf("Allow(%q, %d, %v): %v", key, limit, window, err)
	}
	return d
}

func testLimitThenDeny(t *testing.T, l ratelimit.Limiter, _ *Clock) {
	for i := range int64(10) {
		d := allow(t, l, "k", 10, time.Minute)
		if !d.Allowed {
			t.Fatalf("event %d: denied, want allowed", i+1)
		}
		if d.Limit != 10 || d.Remaining != 9-i {
			t.Errorf("event %d: limit %d remaining %d, want 10 and %d", i+1, d.Limit, d.Remaining, 9-i)
		}
		if d.Reset <= 0 || d.Reset > time.Minute+time.Minute/ratelimit.Buckets {
			t.Errorf("event %d: reset %v, want within the window", i+1, d.Reset)
		}
	}
	d := allow(t, l, "k", 10, time.Minute)
	if d.Allowed {
		t.Fatal("11th event in a minute allowed")
	}
	if d.Remaining != 0 {
		t.Errorf("denied: remaining %d, want 0", d.Remaining)
	}
	if d.RetryAfter < time.Minute-time.Second || d.RetryAfter > time.Minute+time.Minute/ratelimit.Buckets {
		t.Errorf("denied: retry after %v, want about a minute", d.RetryAfter)
	}
}

func testRetryAfterIsHonest(t *testing.T, l ratelimit.Limiter, c *Clock) {
	for range 3 {
		allow(t, l, "k", 3, time.Minute)
	}
	d := allow(t, l, "k", 3, time.Minute)
	if d.Allowed {
		t.Fatal("4th of 3 allowed")
	}
	c.Advance(d.RetryAfter - time.Millisecond)
	if d2 := allow(t, l, "k", 3, time.Minute); d2.Allowed {
		t.Fatalf("allowed 1ms before the promised retry (%v)", d.RetryAfter)
	}
	c.Advance(time.Millisecond)
	if d2 := allow(t, l, "k", 3, time.Minute); !d2.Allowed {
		t.Fatalf("denied at the promised retry time (%v)", d.RetryAfter)
	}
}

// Events spread over the window: no window of 60s ever holds more than
// the limit, and old events leave it.
func testSlidingWindowIsExact(t *testing.T, l ratelimit.Limiter, c *Clock) {
	for range 5 {
		if !allow(t, l, "k", 10, time.Minute).Allowed {
			t.Fatal("first five denied")
		}
	}
	c.Advance(30 * time.Second)
	for range 5 {
		if !allow(t, l, "k", 10, time.Minute).Allowed {
			t.Fatal("second five denied")
		}
	}
	c.Advance(29 * time.Second) // 59s after the first five: all ten still count
	if allow(t, l, "k", 10, time.Minute).Allowed {
		t.Fatal("11th event within 59s allowed")
	}
	c.Advance(3 * time.Second) // 62s: the first five have left
	for i := range 5 {
		if !allow(t, l, "k", 10, time.Minute).Allowed {
			t.Fatalf("event %d after the first five left: denied", i+1)
		}
	}
	if allow(t, l, "k", 10, time.Minute).Allowed {
		t.Fatal("6th event after only five left: allowed")
	}
}

// Windows that do not divide into whole-millisecond buckets still never
// admit more than the limit within one window.
func testOddWindows(t *testing.T, l ratelimit.Limiter, c *Clock) {
	for _, w := range []time.Duration{time.Second, 7 * time.Second, 90*time.Second + 7*time.Millisecond} {
		key := "k" + w.String()
		for range 3 {
			if !allow(t, l, key, 3, w).Allowed {
				t.Fatalf("window %v: first three denied", w)
			}
		}
		c.Advance(w - time.Millisecond)
		if allow(t, l, key, 3, w).Allowed {
			t.Errorf("window %v: a 4th event %v after the first three was allowed", w, w-time.Millisecond)
		}
		c.Advance(w / 10 * 2) // well past the window and one bucket
		if !allow(t, l, key, 3, w).Allowed {
			t.Errorf("window %v: denied after the window passed", w)
		}
	}
}

func testIndependent(t *testing.T, l ratelimit.Limiter, _ *Clock) {
	for range 2 {
		allow(t, l, "a", 2, time.Minute)
	}
	if allow(t, l, "a", 2, time.Minute).Allowed {
		t.Fatal("a: 3rd of 2 allowed")
	}
	if !allow(t, l, "b", 2, time.Minute).Allowed {
		t.Error("b denied because a is exhausted")
	}
	if !allow(t, l, "a", 2, 24*time.Hour).Allowed {
		t.Error("a's daily window denied because its minute window is exhausted")
	}
}

func testUnlimited(t *testing.T, l ratelimit.Limiter, _ *Clock) {
	for i := range 1000 {
		d := allow(t, l, "k", 0, time.Minute)
		if !d.Allowed || d.Limit != 0 {
			t.Fatalf("event %d with limit 0: %+v, want allowed and limit 0", i, d)
		}
	}
}

func testDailyQuota(t *testing.T, l ratelimit.Limiter, c *Clock) {
	for i := range 200 {
		if !allow(t, l, "k", 200, 24*time.Hour).Allowed {
			t.Fatalf("event %d of a 200/day quota denied", i+1)
		}
		c.Advance(time.Minute)
	}
	d := allow(t, l, "k", 200, 24*time.Hour)
	if d.Allowed {
		t.Fatal("201st event of the day allowed")
	}
	// The first event is 200 minutes old: it frees about 24h after it.
	want := 24*time.Hour - 200*time.Minute
	if d.RetryAfter < want || d.RetryAfter > want+24*time.Hour/ratelimit.Buckets {
		t.Errorf("retry after %v, want between %v and one bucket more", d.RetryAfter, want)
	}
}

func testConcurrent(t *testing.T, l ratelimit.Limiter, _ *Clock) {
	var allowed atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() {
			for range 10 {
				d, err := l.Allow(context.Background(), "k", 100, time.Minute)
				if err != nil {
					errs <- err
					return
				}
				if d.Allowed {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := allowed.Load(); got != 100 {
		t.Errorf("500 concurrent events against 100/min: %d allowed, want 100", got)
	}
}

func testInvalidWindow(t *testing.T, l ratelimit.Limiter, _ *Clock) {
	for _, w := range []time.Duration{0, -time.Second, time.Microsecond} {
		if _, err := l.Allow(context.Background(), "k", 5, w); err == nil {
			t.Errorf("window %v: no error", w)
		}
	}
}
