package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Fallback is a Limiter that asks a shared limiter (Redis) and, while that
// fails, decides with a local one (in-process), so an instance keeps
// enforcing limits when Redis is down: it fails closed to the local
// limits. FailOpen gives a view that instead allows calls unchecked.
//
// While the primary fails it is retried at most once per RetryEvery; the
// calls in between go to the fallback at once, so a Redis that hangs does
// not slow every request.
type Fallback struct {
	primary, secondary Limiter
	onChange           func(error)
	retryEvery         time.Duration
	now                func() time.Time

	mu      sync.Mutex
	failing bool
	retryAt time.Time
}

// RetryEvery is how often a failing primary is tried again.
const RetryEvery = time.Second

// NewFallback returns a Fallback. With a nil secondary, a primary failure
// is returned to the caller. onChange, if not nil, is called with the
// error when the primary starts failing and with nil when it answers
// again (for logs).
func NewFallback(primary, secondary Limiter, onChange func(error)) *Fallback {
	return &Fallback{primary: primary, secondary: secondary, onChange: onChange, retryEvery: RetryEvery, now: time.Now}
}

// Allow asks the primary limiter, then the secondary if the primary fails.
func (f *Fallback) Allow(ctx context.Context, key string, limit int64, window time.Duration) (Decision, error) {
	return f.allow(ctx, key, limit, window, f.secondary)
}

// FailOpen returns a Limiter sharing f's primary and its failure state
// that, while the primary fails, allows every call unchecked.
func (f *Fallback) FailOpen() Limiter { return failOpen{f} }

type failOpen struct{ f *Fallback }

func (o failOpen) Allow(ctx context.Context, key string, limit int64, window time.Duration) (Decision, error) {
	return o.f.allow(ctx, key, limit, window, Unchecked{})
}

func (f *Fallback) allow(ctx context.Context, key string, limit int64, window time.Duration, secondary Limiter) (Decision, error) {
	f.mu.Lock()
	skip := f.failing && f.now().Before(f.retryAt)
	if f.failing && !skip {
		f.retryAt = f.now().Add(f.retryEvery) // one caller retries, the others fall back
	}
	f.mu.Unlock()
	if !skip {
		d, err := f.primary.Allow(ctx, key, limit, window)
		if err == nil {
			f.set(false, nil)
			return d, nil
		}
		if ctx.Err() != nil {
			return Decision{}, err
		}
		f.set(true, err)
		if secondary == nil {
			return Decision{}, err
		}
	} else if secondary == nil {
		return Decision{}, errPrimaryFailing
	}
	return secondary.Allow(ctx, key, limit, window)
}

// set records the primary's state and reports a change.
func (f *Fallback) set(failing bool, err error) {
	f.mu.Lock()
	changed := f.failing != failing
	f.failing = failing
	if failing && changed {
		f.retryAt = f.now().Add(f.retryEvery)
	}
	f.mu.Unlock()
	if changed && f.onChange != nil {
		f.onChange(err)
	}
}

// Check asks the primary limiter directly (with a key of its own and a
// limit no check reaches) and records whether it answered, so /readyz
// sees a recovery without waiting for a request.
func (f *Fallback) Check(ctx context.Context) error {
	_, err := f.primary.Allow(ctx, "ratelimit:check", 1<<40, time.Second)
	switch {
	case err == nil:
		f.set(false, nil)
	case ctx.Err() == nil:
		f.set(true, err)
	}
	return err
}

// Degraded reports whether the primary limiter is failing (for /readyz).
func (f *Fallback) Degraded() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failing
}

type fallbackError string

func (e fallbackError) Error() string { return string(e) }

const errPrimaryFailing = fallbackError("ratelimit: shared limiter failing")

// Unchecked is a Limiter that allows every call without counting it (the
// fail-open fallback); its decisions say so.
type Unchecked struct{}

// Allow allows the call, unchecked.
func (Unchecked) Allow(_ context.Context, _ string, limit int64, _ time.Duration) (Decision, error) {
	return Decision{Allowed: true, Limit: limit, Unchecked: true}, nil
}
