package ratelimit

import (
	"fmt"
	"time"
)

// Buckets is how many sub-windows a window is split into. Both limiters
// count events in Buckets+1 buckets of window/Buckets each: the current one
// and the Buckets before it. An event therefore stops counting between
// window and window+window/Buckets after it happened, so no sliding window
// of length window ever admits more than limit events (the limit is exact,
// erring on the side of refusing for at most one bucket's length).
const Buckets = 60

// BucketWidth returns the width of one bucket of window, in milliseconds,
// rounded up so that Buckets buckets always cover the whole window.
func BucketWidth(window time.Duration) int64 {
	return max(1, (window.Milliseconds()+Buckets-1)/Buckets)
}

// Validate reports whether limit and window can be asked of a limiter. A
// limit of 0 or less means unlimited and is always valid.
func Validate(limit int64, window time.Duration) error {
	if limit > 0 && window < time.Millisecond {
		return fmt.Errorf("ratelimit: window %v is shorter than 1ms", window)
	}
	return nil
}

// Unlimited is the decision for a limit of 0 or less: allowed, with Limit
// and Remaining 0 so that callers send no RateLimit headers.
func Unlimited() Decision { return Decision{Allowed: true} }
