package redis_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit/ratelimittest"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit/redis"
	"github.com/tokenrisk/tokenrisk/internal/redistest"
)

func TestSuite(t *testing.T) {
	c := redistest.Client(t)
	ratelimittest.Run(t, func(t *testing.T, now func() time.Time) ratelimit.Limiter {
		return redis.New(c, redis.Options{Prefix: redistest.Prefix(), Now: now})
	})
}

// Two instances on one Redis share the limit: the 11th event of a minute is
// refused whichever instance sees it.
func TestLimitHoldsAcrossInstances(t *testing.T) {
	c := redistest.Client(t)
	p := redistest.Prefix()
	clock := ratelimittest.NewClock(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC))
	a := redis.New(c, redis.Options{Prefix: p, Now: clock.Now})
	b := redis.New(c, redis.Options{Prefix: p, Now: clock.Now})
	ctx := context.Background()
	for i := range 10 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if d, err := l.Allow(ctx, "key_1", 10, time.Minute); err != nil || !d.Allowed {
			t.Fatalf("event %d: %+v, %v", i+1, d, err)
		}
	}
	for name, l := range map[string]*redis.Limiter{"a": a, "b": b} {
		if d, err := l.Allow(ctx, "key_1", 10, time.Minute); err != nil || d.Allowed {
			t.Errorf("11th event on %s: %+v, %v; want refused", name, d, err)
		}
	}
}

func TestKeysExpire(t *testing.T) {
	c := redistest.Client(t)
	p := redistest.Prefix()
	l := redis.New(c, redis.Options{Prefix: p})
	if _, err := l.Allow(context.Background(), "k", 5, time.Minute); err != nil {
		t.Fatal(err)
	}
	keys, err := c.Keys(context.Background(), p+"*").Result()
	if err != nil || len(keys) != 1 {
		t.Fatalf("keys %v, %v", keys, err)
	}
	ttl := c.PTTL(context.Background(), keys[0]).Val()
	if ttl <= time.Minute || ttl > 2*time.Minute {
		t.Errorf("limiter key TTL %v, want a little over the window", ttl)
	}
}

func TestRedisDown(t *testing.T) {
	c := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer c.Close()
	l := redis.New(c, redis.Options{})
	if _, err := l.Allow(context.Background(), "k", 5, time.Minute); err == nil {
		t.Error("Allow with Redis down: no error")
	}
}

func BenchmarkAllow(b *testing.B) {
	url := os.Getenv("TOKENRISK_TEST_REDIS")
	if url == "" {
		b.Skip("set TOKENRISK_TEST_REDIS")
	}
	opts, err := goredis.ParseURL(url)
	if err != nil {
		b.Fatal(err)
	}
	c := goredis.NewClient(opts)
	defer c.Close()
	l := redis.New(c, redis.Options{Prefix: redistest.Prefix()})
	var n atomic.Int64
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		key := fmt.Sprint("key", n.Add(1))
		for pb.Next() {
			if _, err := l.Allow(context.Background(), key, 1<<40, time.Minute); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
