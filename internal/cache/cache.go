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

// Viewer is a Cache that can lend a value instead of copying it (a
// cached scan report is 5 KB, copied on every hit otherwise).
type Viewer interface {
	// View is Get without the copy: the value is shared with the cache
	// and must not be modified. A later Set does not change it.
	View(ctx context.Context, key string) ([]byte, bool, error)
}
