// Package dedupetest is the behaviour every dedupe.Group must have, as a
// suite each implementation runs against itself.
package dedupetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/dedupe"
	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// NewGroups returns two groups that share in-flight work: two instances on
// one Redis, or one in-process group twice. Keys must not collide with
// other calls' (use a fresh prefix on shared servers).
type NewGroups func(t *testing.T) (a, b dedupe.Group)

// Run runs the suite.
func Run(t *testing.T, newGroups NewGroups) {
	tests := []struct {
		name string
		fn   func(t *testing.T, a, b dedupe.Group)
	}{
		{"OnceForConcurrentCallers", testOnce},
		{"DifferentKeysRunSeparately", testKeys},
		{"NotACache", testNotACache},
		{"DomainErrorsAreShared", testErrors},
		{"WaiterLeaves", testWaiterLeaves},
		{"FirstCallerLeavesWorkGoesOn", testOwnerLeaves},
		{"EveryCallerLeavesWorkStops", testAllLeave},
		{"CallerAfterEveryoneLeftRunsAfresh", testLateCaller},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newGroups(t)
			tc.fn(t, a, b)
		})
	}
}

type result struct {
	v      []byte
	shared bool
	err    error
}

// callAll runs n callers of key concurrently, alternating between a and b.
func callAll(a, b dedupe.Group, n int, key string, fn func(context.Context) ([]byte, error)) []result {
	out := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		g := a
		if i%2 == 1 {
			g = b
		}
		wg.Go(func() {
			v, shared, err := g.Do(context.Background(), key, fn)
			out[i] = result{v, shared, err}
		})
	}
	wg.Wait()
	return out
}

func slow(runs *atomic.Int64, d time.Duration, v []byte, err error) func(context.Context) ([]byte, error) {
	return func(ctx context.Context) ([]byte, error) {
		runs.Add(1)
		select {
		case <-time.After(d):
			return v, err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func testOnce(t *testing.T, a, b dedupe.Group) {
	var runs atomic.Int64
	res := callAll(a, b, 20, "scan:0xabc", slow(&runs, 500*time.Millisecond, []byte(`{"score":12.4}`), nil))
	if runs.Load() != 1 {
		t.Errorf("20 concurrent callers ran the work %d times, want once", runs.Load())
	}
	owners := 0
	for i, r := range res {
		if r.err != nil || string(r.v) != `{"score":12.4}` {
			t.Errorf("caller %d: %q, %v", i, r.v, r.err)
		}
		if !r.shared {
			owners++
		}
	}
	if owners != 1 {
		t.Errorf("%d callers say they ran the work, want 1", owners)
	}
}

func testKeys(t *testing.T, a, b dedupe.Group) {
	var runs atomic.Int64
	var wg sync.WaitGroup
	for i, g := range []dedupe.Group{a, b} {
		wg.Go(func() {
			key := fmt.Sprintf("scan:%d", i)
			v, _, err := g.Do(context.Background(), key, slow(&runs, 200*time.Millisecond, []byte(key), nil))
			if err != nil || string(v) != key {
				t.Errorf("%s: %q, %v", key, v, err)
			}
		})
	}
	wg.Wait()
	if runs.Load() != 2 {
		t.Errorf("two keys ran %d times, want 2", runs.Load())
	}
}

func testNotACache(t *testing.T, a, b dedupe.Group) {
	var runs atomic.Int64
	for _, g := range []dedupe.Group{a, b, a} {
		_, shared, err := g.Do(context.Background(), "k", slow(&runs, 0, []byte("v"), nil))
		if err != nil || shared {
			t.Fatalf("sequential call: shared=%v err=%v, want its own run", shared, err)
		}
	}
	if runs.Load() != 3 {
		t.Errorf("three sequential calls ran %d times, want 3", runs.Load())
	}
}

func testErrors(t *testing.T, a, b dedupe.Group) {
	var runs atomic.Int64
	res := callAll(a, b, 6, "k", slow(&runs, 500*time.Millisecond, nil, fault.Errorf(fault.TokenNotFound, "no token at 0xabc")))
	if runs.Load() != 1 {
		t.Errorf("ran %d times, want once", runs.Load())
	}
	for i, r := range res {
		if fault.CodeOf(r.err) != fault.TokenNotFound || fault.MessageOf(r.err) != "no token at 0xabc" {
			t.Errorf("caller %d: %v, want the token_not_found error", i, r.err)
		}
	}
}

func testWaiterLeaves(t *testing.T, a, b dedupe.Group) {
	var runs atomic.Int64
	fn := slow(&runs, 2*time.Second, []byte("v"), nil)
	owner := make(chan result)
	go func() {
		v, shared, err := a.Do(context.Background(), "k", fn)
		owner <- result{v, shared, err}
	}()
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, _, err := b.Do(ctx, "k", fn)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(begin) > time.Second {
		t.Errorf("waiter whose deadline passed: %v after %v, want DeadlineExceeded promptly", err, time.Since(begin))
	}
	if r := <-owner; r.err != nil || string(r.v) != "v" {
		t.Errorf("owner after a waiter left: %q, %v", r.v, r.err)
	}
}

func testOwnerLeaves(t *testing.T, a, b dedupe.Group) {
	var runs atomic.Int64
	fn := slow(&runs, time.Second, []byte("v"), nil)
	ctx, cancel := context.WithCancel(context.Background())
	ownerErr := make(chan error)
	go func() {
		_, _, err := a.Do(ctx, "k", fn)
		ownerErr <- err
	}()
	time.Sleep(200 * time.Millisecond)
	waiter := make(chan result)
	go func() {
		v, shared, err := b.Do(context.Background(), "k", fn)
		waiter <- result{v, shared, err}
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	if err := <-ownerErr; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled first caller: %v, want Canceled", err)
	}
	if r := <-waiter; r.err != nil || string(r.v) != "v" {
		t.Errorf("waiter after the first caller left: %q, %v; want the work's result", r.v, r.err)
	}
	if runs.Load() != 1 {
		t.Errorf("ran %d times, want once", runs.Load())
	}
}

func testAllLeave(t *testing.T, a, _ dedupe.Group) {
	stopped := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, _, err := a.Do(ctx, "k", func(ctx context.Context) ([]byte, error) {
		<-ctx.Done()
		close(stopped)
		return nil, ctx.Err()
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Do: %v, want DeadlineExceeded", err)
	}
	select {
	case <-stopped:
	case <-time.After(2 * time.Second):
		t.Error("the work went on after its only caller left")
	}
}

// testLateCaller: once every caller has left, the stopping work is no
// longer shared: a caller arriving while it winds down runs the work
// afresh instead of inheriting the cancellation. (Across instances the
// late caller may instead be counted as a waiter before the owner sees
// everyone gone; the work then goes on and its result is shared.)
func testLateCaller(t *testing.T, a, _ dedupe.Group) {
	started, release, left := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _, err := a.Do(ctx, "k", func(ctx context.Context) ([]byte, error) {
			close(started)
			select {
			case <-ctx.Done():
				<-release // still winding down when the late caller comes
				return nil, ctx.Err()
			case <-time.After(500 * time.Millisecond):
				return []byte("old"), nil // not cancelled: someone still waits
			}
		})
		left <- err
	}()
	<-started
	cancel()
	if err := <-left; !errors.Is(err, context.Canceled) {
		t.Fatalf("first caller: %v, want Canceled", err)
	}
	lctx, lcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer lcancel()
	v, shared, err := a.Do(lctx, "k", func(context.Context) ([]byte, error) { return []byte("fresh"), nil })
	switch {
	case err != nil:
		t.Errorf("late caller inherited the cancelled work: %v", err)
	case string(v) == "fresh" && !shared, string(v) == "old" && shared:
	default:
		t.Errorf("late caller got %q (shared %v), want its own fresh result or the work it joined", v, shared)
	}
}
