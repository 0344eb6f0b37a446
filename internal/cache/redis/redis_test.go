package redis_test

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/cache"
	"github.com/tokenrisk/tokenrisk/internal/cache/cachetest"
	"github.com/tokenrisk/tokenrisk/internal/cache/redis"
	"github.com/tokenrisk/tokenrisk/internal/redistest"
)

func TestSuite(t *testing.T) {
	c := redistest.Client(t)
	cachetest.Run(t, func(t *testing.T) cache.Cache { return redis.New(c, redis.Options{Prefix: redistest.Prefix()}) })
}

// A value cached through one instance is a hit on another.
func TestSharedAcrossInstances(t *testing.T) {
	c := redistest.Client(t)
	p := redistest.Prefix()
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
