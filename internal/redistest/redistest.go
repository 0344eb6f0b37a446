// Package redistest connects tests to the Redis server named by
// TOKENRISK_TEST_REDIS, or skips them with a message saying how to run
// them, and hands out key prefixes so that runs never collide.
package redistest

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// EnvURL is the variable naming the test Redis server.
const EnvURL = "TOKENRISK_TEST_REDIS"

var seq atomic.Int64

// URL returns the test server's URL or skips tb.
func URL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		tb.Skip("Redis tests skipped: set " + EnvURL + " to a URL, e.g. redis://127.0.0.1:6379/0")
	}
	return u
}

// Client connects to the test server (closed at cleanup) or skips tb.
func Client(tb testing.TB) *goredis.Client {
	tb.Helper()
	opts, err := goredis.ParseURL(URL(tb))
	if err != nil {
		tb.Fatalf("%s: %v", EnvURL, err)
	}
	c := goredis.NewClient(opts)
	tb.Cleanup(func() { c.Close() })
	if err := c.Ping(context.Background()).Err(); err != nil {
		tb.Fatalf("Redis at %s: %v", EnvURL, err)
	}
	return c
}

// Prefix returns a key prefix no other test or run uses.
func Prefix() string {
	return fmt.Sprintf("trtest:%d:%d:%d:", os.Getpid(), time.Now().UnixNano(), seq.Add(1))
}
