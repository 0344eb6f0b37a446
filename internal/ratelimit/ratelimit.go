// Package ratelimit decides whether a key may scan now under its plan's
// per-minute rate (the daily quota is the store's usage counter). The
// in-process limiter is the embedded default; a Redis limiter holds limits
// across instances.
package ratelimit

import (
	"context"
	"time"
)

// Decision is the outcome of one Allow call, with what the RateLimit-*
// headers need.
type Decision struct {
	Allowed   bool
	Limit     int64
	Remaining int64
	// Reset is how long until the window frees capacity again.
	Reset time.Duration
	// RetryAfter is set when not allowed.
	RetryAfter time.Duration
	// Unchecked means no limiter could count the call and it was allowed
	// on a fail-open policy; Limit, Remaining and Reset are then unknown.
	Unchecked bool
}

// Limiter admits at most limit events per window for one key, atomically.
type Limiter interface {
	Allow(ctx context.Context, key string, limit int64, window time.Duration) (Decision, error)
}
