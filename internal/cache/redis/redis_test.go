package redis_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/cache"
	"github.com/tokenrisk/tokenrisk/internal/cache/cachetest"
	"github.com/tokenrisk/tokenrisk/internal/cache/redis"
)

var seq atomic.Int64

func client(t *testing.T) *goredis.Client {
	t.Helper()
	url := os.Getenv("TOKENRISK_TEST_REDIS")
	if url == "" {
		t.Skip("Redis tests skipped: set TOKENRISK_TEST_REDIS to a URL, e.g. redis://127.0.0.1:6379/0")
	}
	opts, err := goredis.ParseURL(url)
	if err != nil {
		t.Fatalf("TOKENRISK_TEST_REDIS: %v", err)
	}
	c := goredis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("Redis at TOKENRISK_TEST_REDIS: %v", err)
	}
	return c
}

func prefix() string {
	return fmt.Sprintf("trtest:%d:%d:%d:", os.Getpid(), time.Now().UnixNano(), seq.Add(1))
}

func TestSuite(t *testing.T) {
	c := client(t)
	cachetest.Run(t, func(t *testing.T) cache.Cache { return redis.New(c, redis.Options{Prefix: prefix()}) })
}

// A value cached through one instance is a hit on another.
func TestSharedAcrossInstances(t *testing.T) {
	c := client(t)
	p := prefix()
	a, b := redis.New(c, redis.Options{Prefix: p}), redis.New(c, redis.Options{Prefix: p})
	ctx := context.Background()
	if err := a.Set(ctx, "scan:0xabc", []byte("report"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := b.Get(ctx, "scan:0xabc"); err != nil || !ok || string(v) != "report" {
		t.Errorf("other instance: %q %v %v", v, ok, err)
	}
}

func TestRedisDown(t *testing.T) {
	c := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer c.Close()
	cc := redis.New(c, redis.Options{})
	if _, _, err := cc.Get(context.Background(), "k"); err == nil {
		t.Error("Get with Redis down: no error (a miss would hide the outage)")
	}
	if err := cc.Set(context.Background(), "k", []byte("v"), time.Minute); err == nil {
		t.Error("Set with Redis down: no error")
	}
}
