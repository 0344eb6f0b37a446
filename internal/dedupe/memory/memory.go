// Package memory is the in-process dedupe.Group, tokenrisk's embedded
// default.
package memory

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/dedupe"
)

// Group is an in-process dedupe.Group, safe for concurrent use.
type Group struct {
	mu    sync.Mutex
	calls map[string]*call
}

var _ dedupe.Group = (*Group)(nil)

type call struct {
	done    chan struct{}
	val     []byte
	err     error
	waiters int
	cancel  context.CancelFunc
}

// New returns an empty Group.
func New() *Group { return &Group{calls: make(map[string]*call)} }

// Do runs fn once for all concurrent callers with key. fn runs with the
// first caller's values and deadline but not its cancellation: it is
// cancelled when every caller has stopped waiting. Shared callers get
// their own copy of the result.
func (g *Group) Do(ctx context.Context, key string, fn func(context.Context) ([]byte, error)) ([]byte, bool, error) {
	g.mu.Lock()
	c, running := g.calls[key]
	if running {
		c.waiters++
	} else {
		c = g.start(ctx, key, fn)
	}
	g.mu.Unlock()

	select {
	case <-c.done:
		if c.err != nil && callerDone(ctx) {
			// The work stopped because this caller's ctx ended (the work
			// shares its deadline): say why in this caller's terms.
			return nil, running, fmt.Errorf("dedupe: waiting for %q: %w", key, ctx.Err())
		}
		if running {
			return cloneBytes(c.val), true, c.err
		}
		return c.val, false, c.err
	case <-ctx.Done():
		g.mu.Lock()
		c.waiters--
		if c.waiters == 0 {
			c.cancel()
			// The cancelled work is no one's any more: a caller coming
			// while it winds down starts afresh rather than inherit it.
			g.forget(key, c)
		}
		g.mu.Unlock()
		return nil, running, fmt.Errorf("dedupe: waiting for %q: %w", key, ctx.Err())
	}
}

// start launches fn for key; the caller holds g.mu.
func (g *Group) start(ctx context.Context, key string, fn func(context.Context) ([]byte, error)) *call {
	base := context.WithoutCancel(ctx)
	var runCtx context.Context
	var cancel context.CancelFunc
	if dl, ok := ctx.Deadline(); ok {
		runCtx, cancel = context.WithDeadline(base, dl)
	} else {
		runCtx, cancel = context.WithCancel(base)
	}
	c := &call{done: make(chan struct{}), waiters: 1, cancel: cancel}
	g.calls[key] = c
	go func() {
		defer cancel()
		defer func() {
			if p := recover(); p != nil {
				c.val, c.err = nil, fmt.Errorf("dedupe: %q panicked: %v", key, p)
			}
			g.mu.Lock()
			g.forget(key, c)
			g.mu.Unlock()
			close(c.done)
		}()
		c.val, c.err = fn(runCtx)
	}()
	return c
}

// callerDone reports whether ctx has ended, waiting for it when its
// deadline has passed but its timer has not fired yet (the work's copy of
// the deadline may fire first).
func callerDone(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		<-ctx.Done()
		return true
	}
	return false
}

// forget removes c as key's call unless another has replaced it; the
// caller holds g.mu.
func (g *Group) forget(key string, c *call) {
	if g.calls[key] == c {
		delete(g.calls, key)
	}
}

// InFlight returns how many keys have work running.
func (g *Group) InFlight() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.calls)
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}
