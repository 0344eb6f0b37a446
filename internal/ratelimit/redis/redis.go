// Package redis is the rate limiter shared by every instance: the same
// bucketed sliding window as the in-process limiter, applied atomically by
// a Lua script in Redis.
package redis

import (
	"context"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
)

// allowScript counts one event if the window has room. KEYS[1] is a hash
// of bucket index → count. ARGV: now (ms), bucket width (ms), limit,
// buckets. It returns {allowed, count in window, ms until capacity frees}.
// Buckets newer than now (another instance's clock runs ahead) still
// count, so clock skew can only make the limit stricter.
var allowScript = goredis.NewScript(`
local now, width, limit, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local cur = math.floor(now / width)
local fields = redis.call('HGETALL', KEYS[1])
local live, sum = {}, 0
for i = 1, #fields, 2 do
  local idx, c = tonumber(fields[i]), tonumber(fields[i + 1])
  if idx < cur - n then
    redis.call('HDEL', KEYS[1], fields[i])
  else
    sum = sum + c
    live[#live + 1] = {idx, c}
  end
end
local function free_after(extra_idx, need)
  if extra_idx then live[#live + 1] = {extra_idx, 1} end
  table.sort(live, function(a, b) return a[1] < b[1] end)
  local freed = 0
  for _, b in ipairs(live) do
    freed = freed + b[2]
    if freed >= need then return (b[1] + n + 1) * width - now end
  end
  return 0
end
if sum + 1 > limit then
  return {0, sum, free_after(nil, sum + 1 - limit)}
end
redis.call('HINCRBY', KEYS[1], cur, 1)
redis.call('PEXPIRE', KEYS[1], (n + 2) * width)
return {1, sum + 1, free_after(cur, 1)}
`)

// Options configures a Limiter.
type Options struct {
	// Prefix starts every Redis key the limiter writes; "" means
	// "tokenrisk:".
	Prefix string
	// Now is the clock; nil means time.Now. Instances' clocks should agree
	// to within a bucket (a second for per-minute limits).
	Now func() time.Time
}

// Limiter is a ratelimit.Limiter on Redis, exact across instances.
type Limiter struct {
	client goredis.Scripter
	prefix string
	now    func() time.Time
}

var _ ratelimit.Limiter = (*Limiter)(nil)

// New returns a Limiter on client.
func New(client goredis.Scripter, opts Options) *Limiter {
	l := &Limiter{client: client, prefix: opts.Prefix, now: opts.Now}
	if l.prefix == "" {
		l.prefix = "tokenrisk:"
	}
	if l.now == nil {
		l.now = time.Now
	}
	return l
}

// Allow counts one event for key if fewer than limit events happened in the
// last window. A limit of 0 or less is unlimited and never touches Redis.
func (l *Limiter) Allow(ctx context.Context, key string, limit int64, window time.Duration) (ratelimit.Decision, error) {
	if err := ratelimit.Validate(limit, window); err != nil {
		return ratelimit.Decision{}, err
	}
	if limit <= 0 {
		return ratelimit.Unlimited(), nil
	}
	rkey := l.prefix + "rl:" + strconv.FormatInt(window.Milliseconds(), 10) + ":" + key
	res, err := allowScript.Run(ctx, l.client, []string{rkey},
		l.now().UnixMilli(), ratelimit.BucketWidth(window), limit, ratelimit.Buckets).Int64Slice()
	if err != nil {
		return ratelimit.Decision{}, fmt.Errorf("ratelimit/redis: allow: %w", err)
	}
	if len(res) != 3 {
		return ratelimit.Decision{}, fmt.Errorf("ratelimit/redis: allow: script returned %d values", len(res))
	}
	d := ratelimit.Decision{
		Allowed:   res[0] == 1,
		Limit:     limit,
		Remaining: max(0, limit-res[1]),
		Reset:     time.Duration(res[2]) * time.Millisecond,
	}
	if !d.Allowed {
		d.RetryAfter = d.Reset
	}
	return d, nil
}
