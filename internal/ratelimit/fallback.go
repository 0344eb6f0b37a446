package ratelimit

import (
	"context"
	"sync/atomic"
	"time"
)

// Fallback is a Limiter that asks a shared limiter (Redis) and, while that
// fails, decides with a local one (in-process), so an instance keeps
// enforcing limits when Redis is down.
type Fallback struct {
	primary, secondary Limiter
	onError            func(error)
	failing            atomic.Bool
}

// NewFallback returns a Fallback. With a nil secondary, a primary failure
// is returned to the caller (who decides to fail open or closed). onError,
// if not nil, sees every primary failure (for logs and metrics).
func NewFallback(primary, secondary Limiter, onError func(error)) *Fallback {
	return &Fallback{primary: primary, secondary: secondary, onError: onError}
}

// Allow asks the primary limiter, then the secondary if the primary fails.
func (f *Fallback) Allow(ctx context.Context, key string, limit int64, window time.Duration) (Decision, error) {
	d, err := f.primary.Allow(ctx, key, limit, window)
	if err == nil {
		f.failing.Store(false)
		return d, nil
	}
	if ctx.Err() != nil {
		return Decision{}, err
	}
	f.failing.Store(true)
	if f.onError != nil {
		f.onError(err)
	}
	if f.secondary == nil {
		return Decision{}, err
	}
	return f.secondary.Allow(ctx, key, limit, window)
}

// Degraded reports whether the last call to the primary limiter failed
// (for /readyz).
func (f *Fallback) Degraded() bool { return f.failing.Load() }
