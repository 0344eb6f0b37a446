package redis_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/dedupe"
	"github.com/tokenrisk/tokenrisk/internal/dedupe/dedupetest"
	"github.com/tokenrisk/tokenrisk/internal/dedupe/redis"
	"github.com/tokenrisk/tokenrisk/internal/redistest"
)

// instances returns two groups on one Redis with their own clients, as
// two processes would have.
func instances(t *testing.T, opts redis.Options) (*redis.Group, *redis.Group) {
	t.Helper()
	opts.Prefix = redistest.Prefix()
	return redis.New(redistest.Client(t), opts), redis.New(redistest.Client(t), opts)
}

func TestSuite(t *testing.T) {
	redistest.Client(t) // skips the whole suite when no Redis is configured
	dedupetest.Run(t, func(t *testing.T) (dedupe.Group, dedupe.Group) {
		return instances(t, redis.Options{})
	})
}

// An owner that died leaves a lock behind: a waiter takes over once the
// lock expires.
func TestDeadOwnerIsTakenOver(t *testing.T) {
	c := redistest.Client(t)
	p := redistest.Prefix()
	if err := c.Set(context.Background(), p+"dd:lock:k", "dead-owner", 600*time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	g := redis.New(c, redis.Options{Prefix: p, Poll: 50 * time.Millisecond})
	begin := time.Now()
	v, shared, err := g.Do(context.Background(), "k", func(context.Context) ([]byte, error) { return []byte("mine"), nil })
	if err != nil || shared || string(v) != "mine" {
		t.Fatalf("after the owner died: %q shared=%v %v; want its own run", v, shared, err)
	}
	if d := time.Since(begin); d < 400*time.Millisecond || d > 3*time.Second {
		t.Errorf("took over after %v, want about when the lock expired (600ms)", d)
	}
}

// An unexpected error is not shared: the waiter runs the work itself.
func TestUnexpectedErrorsAreNotShared(t *testing.T) {
	a, b := instances(t, redis.Options{Poll: 50 * time.Millisecond})
	var runs atomic.Int64
	fn := func(context.Context) ([]byte, error) {
		if runs.Add(1) == 1 {
			time.Sleep(200 * time.Millisecond)
			return nil, errors.New("connection reset by peer")
		}
		return []byte("second try"), nil
	}
	var wg sync.WaitGroup
	var ownerErr error
	wg.Go(func() { _, _, ownerErr = a.Do(context.Background(), "k", fn) })
	time.Sleep(50 * time.Millisecond)
	v, shared, err := b.Do(context.Background(), "k", fn)
	wg.Wait()
	if ownerErr == nil {
		t.Error("owner: no error")
	}
	if err != nil || shared || string(v) != "second try" || runs.Load() != 2 {
		t.Errorf("waiter: %q shared=%v %v after %d runs; want its own second run", v, shared, err, runs.Load())
	}
}

// With Redis down the work still runs, without cross-instance dedupe.
func TestRedisDown(t *testing.T) {
	c := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer c.Close()
	var reported atomic.Int64
	g := redis.New(c, redis.Options{OnError: func(error) { reported.Add(1) }})
	v, _, err := g.Do(context.Background(), "k", func(context.Context) ([]byte, error) { return []byte("v"), nil })
	if err != nil || string(v) != "v" {
		t.Errorf("Redis down: %q, %v; want the work's own result", v, err)
	}
	if reported.Load() == 0 {
		t.Error("the Redis failure was not reported")
	}
}

func TestNothingLeftBehind(t *testing.T) {
	c := redistest.Client(t)
	p := redistest.Prefix()
	g := redis.New(c, redis.Options{Prefix: p})
	if _, _, err := g.Do(context.Background(), "k", func(context.Context) ([]byte, error) { return []byte("v"), nil }); err != nil {
		t.Fatal(err)
	}
	keys, err := c.Keys(context.Background(), p+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if ttl := c.PTTL(context.Background(), k).Val(); ttl < 0 {
			t.Errorf("key %s has no expiry", k)
		}
		if k == p+"dd:lock:k" {
			t.Error("the lock outlived the work")
		}
	}
}
