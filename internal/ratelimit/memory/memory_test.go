package memory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit/ratelimittest"
)

func TestSuite(t *testing.T) {
	ratelimittest.Run(t, func(t *testing.T, now func() time.Time) ratelimit.Limiter {
		return memory.New(memory.Options{Now: now})
	})
}

func TestIdleKeysAreDropped(t *testing.T) {
	c := ratelimittest.NewClock(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
	l := memory.New(memory.Options{Now: c.Now})
	ctx := context.Background()
	for i := range 1000 {
		if _, err := l.Allow(ctx, fmt.Sprint("key", i), 10, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.Len(); got != 1000 {
		t.Fatalf("held %d keys, want 1000", got)
	}
	c.Advance(2 * time.Minute)
	// Enough new keys to touch every shard, each of which then sweeps.
	for i := range 1000 {
		if _, err := l.Allow(ctx, fmt.Sprint("new", i), 10, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.Len(); got != 1000 {
		t.Errorf("after the old keys went idle: held %d keys, want the 1000 new ones", got)
	}
}

func TestMemoryIsBounded(t *testing.T) {
	c := ratelimittest.NewClock(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
	l := memory.New(memory.Options{Now: c.Now, MaxKeys: 320})
	ctx := context.Background()
	for i := range 10_000 {
		if _, err := l.Allow(ctx, fmt.Sprint("key", i), 10, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if got := l.Len(); got > 320 {
		t.Errorf("held %d keys, want at most 320", got)
	}
}

func BenchmarkAllow(b *testing.B) {
	l := memory.New(memory.Options{})
	ctx := context.Background()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			if _, err := l.Allow(ctx, fmt.Sprint("key", i%1000), 1<<40, time.Minute); err != nil {
				b.Fatal(err)
			}
		}
	})
}
