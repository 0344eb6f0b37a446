// Package cache holds scan results for a short time. The in-process cache
// is the embedded default; a Redis cache shares results across instances.
package cache

import (
	"context"
	"time"
)

// Cache stores opaque values with a time to live.
type Cache interface {
	// Get returns the value and true, or false on a miss.
	Get(ctx context.Context, key string) ([]byte, bool, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}
