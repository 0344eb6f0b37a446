package ratelimit_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
)

// flaky fails while down is set, else allows everything; it counts calls.
type flaky struct {
	down  atomic.Bool
	calls atomic.Int64
}

func (f *flaky) Allow(context.Context, string, int64, time.Duration) (ratelimit.Decision, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return ratelimit.Decision{}, errors.New("dial tcp 127.0.0.1:6379: connection refused")
	}
	return ratelimit.Decision{Allowed: true, Limit: 2, Remaining: 1}, nil
}

func TestFallback(t *testing.T) {
	ctx := context.Background()
	primary := &flaky{}
	var changes []error
	f := ratelimit.NewFallback(primary, memory.New(memory.Options{}), func(err error) { changes = append(changes, err) })
	open := f.FailOpen()
	if d, err := f.Allow(ctx, "k", 2, time.Minute); err != nil || !d.Allowed || d.Unchecked || f.Degraded() {
		t.Fatalf("primary up: %+v %v degraded=%v", d, err, f.Degraded())
	}
	primary.down.Store(true)
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
	if allowed != 2 || !f.Degraded() {
		t.Errorf("fail closed: %d of 5 allowed (want 2, the local limit), degraded=%v", allowed, f.Degraded())
	}
	for range 5 {
		if d, err := open.Allow(ctx, "p", 2, time.Minute); err != nil || !d.Allowed || !d.Unchecked {
			t.Fatalf("fail open while down: %+v %v, want allowed unchecked", d, err)
		}
	}
	if n := primary.calls.Load(); n != 2 {
		t.Errorf("the failing primary was asked %d times within a second, want 2 (the first failure and nothing until the retry)", n)
	}
	if len(changes) != 1 || changes[0] == nil {
		t.Errorf("state changes reported: %v, want one failure", changes)
	}
	if err := f.Check(ctx); err == nil || !f.Degraded() {
		t.Errorf("Check with the primary down: %v degraded=%v", err, f.Degraded())
	}
	primary.down.Store(false)
	if err := f.Check(ctx); err != nil || f.Degraded() {
		t.Errorf("Check with the primary back: %v degraded=%v, want recovered at once", err, f.Degraded())
	}
	primary.down.Store(true)
	f.Allow(ctx, "k", 2, time.Minute)
	primary.down.Store(false)
	time.Sleep(ratelimit.RetryEvery + 50*time.Millisecond)
	if d, err := f.Allow(ctx, "k", 2, time.Minute); err != nil || f.Degraded() || d.Unchecked {
		t.Errorf("primary back: %v degraded=%v", err, f.Degraded())
	}
	if len(changes) != 4 || changes[1] != nil || changes[2] == nil || changes[3] != nil {
		t.Errorf("state changes reported: %v, want failure, recovery, failure, recovery", changes)
	}

	down := &flaky{}
	down.down.Store(true)
	noSecondary := ratelimit.NewFallback(down, nil, nil)
	for range 3 {
		if _, err := noSecondary.Allow(ctx, "k", 2, time.Minute); err == nil {
			t.Error("no secondary: the primary's failure was hidden")
		}
	}
}
