// Package redis is the dedupe.Group shared by every instance: the first
// caller of a key anywhere takes a lock in Redis and runs the work; callers
// on other instances wait for its result (pub/sub, with polling as a
// backstop) and run the work themselves if the owner dies or Redis fails.
package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/dedupe"
	"github.com/tokenrisk/tokenrisk/internal/dedupe/memory"
	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// Client is what the Group needs of a go-redis client.
type Client interface {
	goredis.Cmdable
	Subscribe(ctx context.Context, channels ...string) *goredis.PubSub
}

// Options configures a Group.
type Options struct {
	// Prefix starts every Redis key the group writes; "" means "tokenrisk:".
	Prefix string
	// LockTTL is how long an owner's lock outlives the owner (it is
	// refreshed while the work runs); 0 means 15s. Waiters take over at
	// most this long after an owner died.
	LockTTL time.Duration
	// ResultTTL is how long a result waits for its waiters; 0 means 30s.
	ResultTTL time.Duration
	// Poll is how often a waiter checks besides pub/sub; 0 means 200ms.
	Poll time.Duration
	// OnError, if not nil, sees Redis failures (the work then runs
	// without cross-instance dedupe).
	OnError func(error)
}

// Group is a dedupe.Group across instances, safe for concurrent use.
type Group struct {
	client Client
	opts   Options
	// local folds an instance's own callers into one before Redis.
	local *memory.Group
}

var _ dedupe.Group = (*Group)(nil)

// New returns a Group on client.
func New(client Client, opts Options) *Group {
	if opts.Prefix == "" {
		opts.Prefix = "tokenrisk:"
	}
	if opts.LockTTL <= 0 {
		opts.LockTTL = 15 * time.Second
	}
	if opts.ResultTTL <= 0 {
		opts.ResultTTL = 30 * time.Second
	}
	if opts.Poll <= 0 {
		opts.Poll = 200 * time.Millisecond
	}
	return &Group{client: client, opts: opts, local: memory.New()}
}

// Do runs fn once for all concurrent callers of key on every instance.
// Results and domain errors (fault errors other than internal) are shared;
// after any other error waiters run fn themselves.
func (g *Group) Do(ctx context.Context, key string, fn func(context.Context) ([]byte, error)) ([]byte, bool, error) {
	// The local layer carries the remote "shared" bit as a leading byte.
	v, sharedHere, err := g.local.Do(ctx, key, func(ctx context.Context) ([]byte, error) {
		v, sharedThere, err := g.remote(ctx, key, fn)
		if err != nil {
			return nil, err
		}
		flag := byte(0)
		if sharedThere {
			flag = 1
		}
		return append([]byte{flag}, v...), nil
	})
	if err != nil {
		return nil, sharedHere, err
	}
	return v[1:], sharedHere || v[0] == 1, nil
}

func (g *Group) lockKey(key string) string { return g.opts.Prefix + "dd:lock:" + key }
func (g *Group) channel(key string) string { return g.opts.Prefix + "dd:done:" + key }
func (g *Group) waitersKey(key, token string) string {
	return g.opts.Prefix + "dd:waiters:" + key + ":" + token
}
func (g *Group) resultKey(key, token string) string {
	return g.opts.Prefix + "dd:result:" + key + ":" + token
}

func (g *Group) failed(err error) {
	if g.opts.OnError != nil {
		g.opts.OnError(fmt.Errorf("dedupe/redis: %w", err))
	}
}

// remote runs fn as the owner of key's lock or waits for its owner.
func (g *Group) remote(ctx context.Context, key string, fn func(context.Context) ([]byte, error)) ([]byte, bool, error) {
	token, err := newToken()
	if err != nil {
		return nil, false, err
	}
	for {
		ok, err := g.client.SetNX(ctx, g.lockKey(key), token, g.opts.LockTTL).Result()
		if err != nil {
			if ctx.Err() != nil {
				return nil, false, fmt.Errorf("dedupe: %w", ctx.Err())
			}
			g.failed(err)
			v, err := fn(ctx)
			return v, false, err
		}
		if ok {
			v, err := g.own(ctx, key, token, fn)
			return v, false, err
		}
		owner, err := g.client.Get(ctx, g.lockKey(key)).Result()
		if errors.Is(err, goredis.Nil) {
			continue // the owner just finished: try to take the lock
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, false, fmt.Errorf("dedupe: %w", ctx.Err())
			}
			g.failed(err)
			v, err := fn(ctx)
			return v, false, err
		}
		out, err := g.wait(ctx, key, owner)
		if out != nil {
			return out.v, true, out.err
		}
		if ctx.Err() != nil {
			return nil, false, fmt.Errorf("dedupe: waiting for %q: %w", key, ctx.Err())
		}
		if err != nil {
			g.failed(err)
			v, err := fn(ctx)
			return v, false, err
		}
		// The owner left no result (it failed or died): take over.
	}
}

// refreshScript extends the lock only if this owner still holds it.
var refreshScript = goredis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`)

// releaseScript deletes the lock only if this owner still holds it.
var releaseScript = goredis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)

// own runs fn holding key's lock, then publishes the result.
func (g *Group) own(ctx context.Context, key, token string, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	stop := make(chan struct{})
	refreshed := make(chan struct{})
	go func() {
		defer close(refreshed)
		t := time.NewTicker(g.opts.LockTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				err := refreshScript.Run(context.WithoutCancel(ctx), g.client, []string{g.lockKey(key)},
					token, g.opts.LockTTL.Milliseconds()).Err()
				if err != nil {
					g.failed(err)
				}
			}
		}
	}()
	// The work outlives this instance's callers while other instances
	// wait for it: it is cancelled once nobody waits anywhere.
	base := context.WithoutCancel(ctx)
	runCtx, cancelRun := context.WithCancel(base)
	if dl, ok := ctx.Deadline(); ok {
		runCtx, cancelRun = context.WithDeadline(base, dl)
	}
	defer cancelRun()
	go func() {
		select {
		case <-stop:
			return
		case <-ctx.Done():
		}
		t := time.NewTicker(g.opts.Poll)
		defer t.Stop()
		for {
			n, err := g.client.Get(base, g.waitersKey(key, token)).Int64()
			if err != nil || n <= 0 {
				cancelRun()
				// The stopping work is no one's any more: free the lock
				// so that a caller coming meanwhile runs it afresh
				// instead of waiting for a cancelled run.
				if rerr := releaseScript.Run(base, g.client, []string{g.lockKey(key)}, token).Err(); rerr != nil {
					g.failed(rerr)
				}
				return
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	v, err := fn(runCtx)
	close(stop)
	<-refreshed

	// Publishing must happen even if the caller has gone.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if payload, ok := encode(v, err); ok {
		if perr := g.client.Set(pctx, g.resultKey(key, token), payload, g.opts.ResultTTL).Err(); perr != nil {
			g.failed(perr)
		}
	}
	if rerr := releaseScript.Run(pctx, g.client, []string{g.lockKey(key)}, token).Err(); rerr != nil {
		g.failed(rerr)
	}
	if perr := g.client.Publish(pctx, g.channel(key), token).Err(); perr != nil {
		g.failed(perr)
	}
	return v, err
}

// outcome is a finished run's result: a value or a domain error.
type outcome struct {
	v   []byte
	err error
}

// wait waits for owner's outcome of key. It returns nil and no error when
// the owner went away without one or ctx ended, and an error when Redis
// failed.
func (g *Group) wait(ctx context.Context, key, owner string) (*outcome, error) {
	wkey := g.waitersKey(key, owner)
	if err := g.client.Incr(ctx, wkey).Err(); err != nil {
		return nil, err
	}
	defer func() {
		dctx := context.WithoutCancel(ctx)
		g.client.Decr(dctx, wkey)
		g.client.PExpire(dctx, wkey, 2*g.opts.LockTTL) // never leave a counter without expiry
	}()
	ps := g.client.Subscribe(ctx, g.channel(key))
	defer ps.Close()
	var msgs <-chan *goredis.Message
	if _, err := ps.Receive(ctx); err == nil {
		msgs = ps.Channel()
	} // else: polling alone still works
	poll := time.NewTicker(g.opts.Poll)
	defer poll.Stop()
	for {
		g.client.PExpire(ctx, wkey, 2*g.opts.LockTTL) // still waiting
		if out, err := g.result(ctx, key, owner); out != nil || err != nil {
			return out, err
		}
		holder, err := g.client.Get(ctx, g.lockKey(key)).Result()
		if err != nil && !errors.Is(err, goredis.Nil) {
			return nil, err
		}
		if holder != owner {
			// Released or expired: a result may have landed just before.
			return g.result(ctx, key, owner)
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-msgs:
		case <-poll.C:
		}
	}
}

// result reads owner's published outcome, if any.
func (g *Group) result(ctx context.Context, key, owner string) (*outcome, error) {
	b, err := g.client.Get(ctx, g.resultKey(key, owner)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out, ok := decode(b)
	if !ok {
		return nil, fmt.Errorf("malformed result under %s", g.resultKey(key, owner))
	}
	return out, nil
}

type sharedError struct {
	Code    fault.Code `json:"code"`
	Message string     `json:"message"`
}

// encode turns a result into its shared form: "v" + value, or "e" + a
// domain error. Other errors are not shared.
func encode(v []byte, err error) ([]byte, bool) {
	if err == nil {
		return append([]byte{'v'}, v...), true
	}
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Code == fault.Internal {
		return nil, false
	}
	b, jerr := json.Marshal(sharedError{Code: fe.Code, Message: fe.Message})
	if jerr != nil {
		return nil, false
	}
	return append([]byte{'e'}, b...), true
}

func decode(b []byte) (*outcome, bool) {
	if len(b) == 0 {
		return nil, false
	}
	switch b[0] {
	case 'v':
		return &outcome{v: b[1:]}, true
	case 'e':
		var se sharedError
		if err := json.Unmarshal(b[1:], &se); err != nil || se.Code == "" {
			return nil, false
		}
		return &outcome{err: &fault.Error{Code: se.Code, Message: se.Message}}, true
	}
	return nil, false
}

func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("dedupe/redis: token: %w", err)
	}
	return hex.EncodeToString(b), nil
}
