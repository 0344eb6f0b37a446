package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/cache"
	cachememory "github.com/tokenrisk/tokenrisk/internal/cache/memory"
	cacheredis "github.com/tokenrisk/tokenrisk/internal/cache/redis"
	"github.com/tokenrisk/tokenrisk/internal/config"
	dedupememory "github.com/tokenrisk/tokenrisk/internal/dedupe/memory"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	ratememory "github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
	rateredis "github.com/tokenrisk/tokenrisk/internal/ratelimit/redis"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// shared are the backends instances share through Redis when --redis is
// set, else in-process ones.
type shared struct {
	cache   cache.Cache
	limiter ratelimit.Limiter
	dedupe  scan.Group
	close   func()
}

// openShared builds the cache, rate limiter and in-flight dedupe. With
// Redis, the limiter falls back to in-process limits while Redis fails
// (logged), rather than refusing every scan.
func openShared(ctx context.Context, cfg *config.Config, log *slog.Logger) (*shared, error) {
	local := ratememory.New(ratememory.Options{})
	if cfg.Redis == "" {
		return &shared{
			cache:   cachememory.New(cachememory.Options{}),
			limiter: local,
			dedupe:  dedupememory.New(),
			close:   func() {},
		}, nil
	}
	opts, err := goredis.ParseURL(cfg.Redis)
	if err != nil {
		// The URL may hold a password: do not echo it.
		return nil, fmt.Errorf("redis: invalid URL")
	}
	client := goredis.NewClient(opts)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := client.Ping(pctx).Err(); err != nil {
		client.Close()
		return nil, fmt.Errorf("redis: ping %s: %w", opts.Addr, err)
	}
	onError := func(err error) { log.Warn("redis rate limiter failing; using in-process limits", "err", err) }
	return &shared{
		cache:   cacheredis.New(client, cacheredis.Options{}),
		limiter: ratelimit.NewFallback(rateredis.New(client, rateredis.Options{}), local, onError),
		dedupe:  sharedDedupe(client, log),
		close:   func() { client.Close() },
	}, nil
}
