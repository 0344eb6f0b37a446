// Package memory is the in-process rate limiter, tokenrisk's embedded
// default: a sliding window counted in buckets (see ratelimit.Buckets),
// with bounded memory.
package memory

import (
	"context"
	"hash/maphash"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
)

const shardCount = 32

// sweepEvery is how often (at most) a shard drops its idle keys.
const sweepEvery = time.Minute

// Options configures a Limiter.
type Options struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxKeys bounds how many (key, window) states are held; 0 means
	// 100 000. Idle keys are dropped first; past the bound the least
	// recently used key is forgotten (it starts afresh).
	MaxKeys int
}

// Limiter is an in-process ratelimit.Limiter, safe for concurrent use.
type Limiter struct {
	now      func() time.Time
	perShard int
	seed     maphash.Seed
	shards   [shardCount]shard
}

var _ ratelimit.Limiter = (*Limiter)(nil)

type stateKey struct {
	key    string
	window time.Duration
}

type shard struct {
	mu        sync.Mutex
	states    map[stateKey]*state
	lastSweep int64 // unix ms
}

// state is one key's buckets: slot i holds the count of bucket idx[i].
type state struct {
	width   int64 // bucket width, ms
	lastIdx int64 // newest bucket an event went into
	lastUse int64 // unix ms of the last Allow
	idx     [ratelimit.Buckets + 1]int64
	cnt     [ratelimit.Buckets + 1]int64
}

// New returns an empty Limiter.
func New(opts Options) *Limiter {
	l := &Limiter{now: opts.Now, seed: maphash.MakeSeed()}
	if l.now == nil {
		l.now = time.Now
	}
	maxKeys := opts.MaxKeys
	if maxKeys <= 0 {
		maxKeys = 100_000
	}
	l.perShard = max(1, maxKeys/shardCount)
	for i := range l.shards {
		l.shards[i].states = make(map[stateKey]*state)
	}
	return l
}

// Allow counts one event for key if fewer than limit events happened in the
// last window. A limit of 0 or less is unlimited. The same key with two
// different windows is two independent limits.
func (l *Limiter) Allow(_ context.Context, key string, limit int64, window time.Duration) (ratelimit.Decision, error) {
	if err := ratelimit.Validate(limit, window); err != nil {
		return ratelimit.Decision{}, err
	}
	if limit <= 0 {
		return ratelimit.Unlimited(), nil
	}
	nowMs := l.now().UnixMilli()
	width := ratelimit.BucketWidth(window)
	sk := stateKey{key: key, window: window}
	sh := &l.shards[maphash.String(l.seed, key)%shardCount]

	sh.mu.Lock()
	defer sh.mu.Unlock()
	st, ok := sh.states[sk]
	if !ok {
		sh.makeRoom(nowMs, l.perShard)
		st = &state{width: width}
		for i := range st.idx {
			st.idx[i] = -1
		}
		sh.states[sk] = st
	}
	st.lastUse = nowMs
	return st.allow(nowMs, limit), nil
}

// allow applies one event at nowMs against limit.
func (st *state) allow(nowMs, limit int64) ratelimit.Decision {
	const n = ratelimit.Buckets
	cur := nowMs / st.width
	var sum int64
	for i := range st.idx {
		if st.idx[i] >= cur-n && st.idx[i] <= cur {
			sum += st.cnt[i]
		}
	}
	d := ratelimit.Decision{Limit: limit}
	if sum+1 > limit {
		wait := st.freeAfter(nowMs, cur, sum+1-limit)
		d.Remaining = max(0, limit-sum)
		d.Reset, d.RetryAfter = wait, wait
		return d
	}
	slot := cur % (n + 1)
	if st.idx[slot] != cur {
		st.idx[slot], st.cnt[slot] = cur, 0
	}
	st.cnt[slot]++
	st.lastIdx = cur
	d.Allowed = true
	d.Remaining = limit - sum - 1
	d.Reset = st.freeAfter(nowMs, cur, 1)
	return d
}

// freeAfter returns how long until at least need counted events have left
// the window. Bucket i stops counting when the current bucket becomes
// i+Buckets+1.
func (st *state) freeAfter(nowMs, cur, need int64) time.Duration {
	const n = ratelimit.Buckets
	var freed int64
	for b := cur - n; b <= cur; b++ {
		slot := b % (n + 1)
		if st.idx[slot] != b {
			continue
		}
		freed += st.cnt[slot]
		if freed >= need {
			return time.Duration((b+n+1)*st.width-nowMs) * time.Millisecond
		}
	}
	return 0
}

// idle reports whether every event of st has left its window.
func (st *state) idle(nowMs int64) bool {
	return nowMs/st.width-st.lastIdx > ratelimit.Buckets
}

// makeRoom drops idle states now and then, and forgets the least recently
// used state when the shard is full. The caller holds sh.mu.
func (sh *shard) makeRoom(nowMs int64, limit int) {
	if len(sh.states) >= limit || nowMs-sh.lastSweep >= sweepEvery.Milliseconds() {
		sh.lastSweep = nowMs
		for k, st := range sh.states {
			if st.idle(nowMs) {
				delete(sh.states, k)
			}
		}
	}
	for len(sh.states) >= limit {
		var oldest stateKey
		oldestUse := int64(1<<63 - 1)
		for k, st := range sh.states {
			if st.lastUse < oldestUse {
				oldest, oldestUse = k, st.lastUse
			}
		}
		delete(sh.states, oldest)
	}
}

// Len returns how many key states are held (for tests and metrics).
func (l *Limiter) Len() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += len(sh.states)
		sh.mu.Unlock()
	}
	return n
}
