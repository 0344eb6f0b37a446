package ratelimit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
)

// flaky fails while down is set, else allows everything.
type flaky struct{ down bool }

func (f *flaky) Allow(context.Context, string, int64, time.Duration) (ratelimit.Decision, error) {
	if f.down {
		return ratelimit.Decision{}, errors.New("dial tcp 127.0.0.1:6379: connection refused")
	}
	return ratelimit.Decision{Allowed: true, Limit: 2, Remaining: 1}, nil
}

func TestFallback(t *testing.T) {
	ctx := context.Background()
	primary := &flaky{}
	var seen []error
	f := ratelimit.NewFallback(primary, memory.New(memory.Options{}), func(err error) { seen = append(seen, err) })
	if d, err := f.Allow(ctx, "k", 2, time.Minute); err != nil || !d.Allowed || f.Degraded() {
		t.Fatalf("primary up: %+v %v degraded=%v", d, err, f.Degraded())
	}
	primary.down = true
	var allowed int
	for range 5 {
		d, err := f.Allow(ctx, "k", 2, time.Minute)
		if err != nil {
			t.Fatalf("primary down: %v, want the local limiter's decision", err)
		}
		if d.Allowed {
			allowed++
		}
	}
	if allowed != 2 || !f.Degraded() || len(seen) != 5 {
		t.Errorf("primary down: %d of 5 allowed (want 2, the local limit), degraded=%v, %d errors seen",
			allowed, f.Degraded(), len(seen))
	}
	primary.down = false
	if _, err := f.Allow(ctx, "k", 2, time.Minute); err != nil || f.Degraded() {
		t.Errorf("primary back: %v degraded=%v", err, f.Degraded())
	}

	closed := ratelimit.NewFallback(&flaky{down: true}, nil, nil)
	if _, err := closed.Allow(ctx, "k", 2, time.Minute); err == nil {
		t.Error("no secondary: the primary's failure was hidden")
	}
}
