package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/cache"
	cachememory "github.com/tokenrisk/tokenrisk/internal/cache/memory"
	cacheredis "github.com/tokenrisk/tokenrisk/internal/cache/redis"
	"github.com/tokenrisk/tokenrisk/internal/config"
	dedupememory "github.com/tokenrisk/tokenrisk/internal/dedupe/memory"
	dederedis "github.com/tokenrisk/tokenrisk/internal/dedupe/redis"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
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
	// planLimiters replace limiter for the plans that fail open.
	planLimiters map[string]ratelimit.Limiter
	dedupe       scan.Group
	// checks report cache, limiter and dedupe in /readyz.
	checks []httpapi.Check
	close  func()
}

// Redis client bounds: a Redis that hangs must not hold a request for
// long, since every Redis use has an in-process fallback.
const (
	redisDialTimeout = 2 * time.Second
	redisIOTimeout   = time.Second
)

// openShared builds the cache, rate limiter and in-flight dedupe. With
// Redis, when Redis fails (at start or later): the cache misses (scans run), dedupe works
// within the instance, and per-minute limits fail closed to in-process
// limits, except for the plans in --limits-fail-open, which are allowed
// unchecked. Each change is logged and /readyz shows it.
func openShared(ctx context.Context, cfg *config.Config, plans auth.Plans, log *slog.Logger) (*shared, error) {
	open := failOpenPlans(cfg.LimitsFailOpen, plans, log)
	local := ratememory.New(ratememory.Options{})
	if cfg.Redis == "" {
		ok := func(string) httpapi.Check {
			return httpapi.Check{Probe: func(context.Context) httpapi.Backend {
				return httpapi.Backend{Kind: "memory", Status: httpapi.BackendOK}
			}}
		}
		return &shared{
			cache:   cachememory.New(cachememory.Options{}),
			limiter: local,
			dedupe:  dedupememory.New(),
			checks:  named(ok, "cache", "limiter", "dedupe"),
			close:   func() {},
		}, nil
	}
	opts, err := goredis.ParseURL(cfg.Redis)
	if err != nil {
		// The URL may hold a password: do not echo it.
		return nil, errors.New("redis: invalid URL")
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = redisDialTimeout
	}
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = redisIOTimeout
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = redisIOTimeout
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = 1
	}
	client := goredis.NewClient(opts)
	client.AddHook(&redisBreaker{})
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := client.Ping(pctx).Err(); err != nil {
		// Every use of Redis has an in-process fallback, so an instance
		// (re)started during a Redis outage serves degraded, as one whose
		// Redis fails later does, rather than not at all.
		log.Warn("redis not reachable at start: serving on in-process fallbacks until it answers",
			"addr", opts.Addr, "err", httpapi.Redact(err.Error()))
	}
	limiter := ratelimit.NewFallback(rateredis.New(client, rateredis.Options{}), local, func(err error) {
		if err != nil {
			log.Warn("redis rate limiter failing: limits fall back to in-process counts on this instance",
				"fail_open_plans", open, "err", httpapi.Redact(err.Error()))
			return
		}
		log.Info("redis rate limiter back: limits are shared again")
	})
	planLimiters := map[string]ratelimit.Limiter{}
	for _, p := range open {
		planLimiters[p] = limiter.FailOpen()
	}
	return &shared{
		cache:        cacheredis.New(client, cacheredis.Options{}),
		limiter:      limiter,
		planLimiters: planLimiters,
		dedupe:       sharedDedupe(client, log),
		checks:       redisChecks(client, limiter, open),
		close:        func() { client.Close() },
	}, nil
}

// failOpenPlans parses --limits-fail-open. A name that is no configured
// plan is logged and ignored (that plan then fails closed, the safe side),
// so a plans file without the default "premium" still starts.
func failOpenPlans(list string, plans auth.Plans, log *slog.Logger) []string {
	var out []string
	for p := range strings.SplitSeq(list, ",") {
		p = strings.TrimSpace(p)
		if p == "" || slices.Contains(out, p) {
			continue
		}
		if _, ok := plans.Lookup(p); !ok {
			log.Warn("--limits-fail-open names a plan that is not configured; ignored", "plan", p, "plans", plans.Names())
			continue
		}
		out = append(out, p)
	}
	return out
}

// named gives each name the check check returns.
func named(check func(name string) httpapi.Check, names ...string) []httpapi.Check {
	out := make([]httpapi.Check, 0, len(names))
	for _, n := range names {
		c := check(n)
		c.Name = n
		out = append(out, c)
	}
	return out
}

// redisChecks report the cache, limiter and dedupe: degraded (their
// fallbacks run) while Redis does not answer a ping.
func redisChecks(client *goredis.Client, limiter *ratelimit.Fallback, open []string) []httpapi.Check {
	ping := func(ctx context.Context) error { return client.Ping(ctx).Err() }
	limits := "per-minute limits are counted per instance (fail closed)"
	if len(open) > 0 {
		limits += "; not checked for " + strings.Join(open, ", ") + " (fail open)"
	}
	fallback := map[string]string{
		"cache":   "Redis not reachable: results are not cached",
		"limiter": "Redis not reachable: " + limits,
		"dedupe":  "Redis not reachable: identical scans are run once per instance, not across instances",
	}
	return named(func(name string) httpapi.Check {
		return httpapi.Check{Probe: func(ctx context.Context) httpapi.Backend {
			var err error
			if name == "limiter" {
				err = limiter.Check(ctx) // also ends the fallback once Redis answers
			} else {
				err = ping(ctx)
			}
			if err == nil {
				return httpapi.Backend{Kind: "redis", Status: httpapi.BackendOK}
			}
			return httpapi.Backend{Kind: "redis", Status: httpapi.BackendDegraded, Detail: fallback[name]}
		}}
	}, "cache", "limiter", "dedupe")
}

// redisPause is how long Redis is not asked again after it could not be
// reached.
const redisPause = time.Second

// errRedisPaused is what a command gets while Redis is paused.
var errRedisPaused = errors.New("redis: not asked (unreachable within the last second)")

// redisBreaker is a go-redis hook that fails commands at once for
// redisPause after one could not reach Redis (refused, timed out,
// connection lost), so a stuck Redis costs one timeout per pause rather
// than one per request: every use of Redis has an in-process fallback.
// Redis's own error replies do not count.
type redisBreaker struct {
	mu    sync.Mutex
	until time.Time
}

var _ goredis.Hook = (*redisBreaker)(nil)

func (b *redisBreaker) paused() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return time.Now().Before(b.until)
}

func (b *redisBreaker) observe(ctx context.Context, err error) {
	var reply goredis.Error
	if err == nil || errors.As(err, &reply) || errors.Is(err, errRedisPaused) || ctx.Err() != nil {
		return
	}
	b.mu.Lock()
	b.until = time.Now().Add(redisPause)
	b.mu.Unlock()
}

// DialHook pauses dials.
func (b *redisBreaker) DialHook(next goredis.DialHook) goredis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if b.paused() {
			return nil, errRedisPaused
		}
		c, err := next(ctx, network, addr)
		b.observe(ctx, err)
		return c, err
	}
}

// ProcessHook pauses commands.
func (b *redisBreaker) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		if b.paused() {
			cmd.SetErr(errRedisPaused)
			return errRedisPaused
		}
		err := next(ctx, cmd)
		b.observe(ctx, err)
		return err
	}
}

// ProcessPipelineHook pauses pipelines.
func (b *redisBreaker) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		if b.paused() {
			for _, c := range cmds {
				c.SetErr(errRedisPaused)
			}
			return errRedisPaused
		}
		err := next(ctx, cmds)
		b.observe(ctx, err)
		return err
	}
}

// sharedDedupe runs identical in-flight scans once across instances; when
// Redis fails it dedupes within this instance only (logged, at most once
// per logEvery).
func sharedDedupe(client *goredis.Client, log *slog.Logger) scan.Group {
	return dederedis.New(client, dederedis.Options{
		OnError: throttled(log, "redis dedupe failing; deduping in process only"),
	})
}
