package memory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/cache"
	"github.com/tokenrisk/tokenrisk/internal/cache/cachetest"
	"github.com/tokenrisk/tokenrisk/internal/cache/memory"
)

func TestSuite(t *testing.T) {
	cachetest.Run(t, func(t *testing.T) cache.Cache { return memory.New(memory.Options{}) })
}

func TestBounds(t *testing.T) {
	tests := []struct {
		name      string
		opts      memory.Options
		valueSize int
		wantMax   int
	}{
		{"entries", memory.Options{MaxEntries: 10}, 10, 10},
		{"bytes", memory.Options{MaxBytes: 1000}, 96, 10}, // 4-byte keys + 96 bytes
		{"value larger than the cache", memory.Options{MaxBytes: 50}, 100, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := memory.New(tc.opts)
			ctx := context.Background()
			for i := range 100 {
				if err := c.Set(ctx, fmt.Sprintf("k%03d", i), make([]byte, tc.valueSize), time.Minute); err != nil {
					t.Fatal(err)
				}
			}
			if got := c.Len(); got != tc.wantMax {
				t.Errorf("held %d entries, want %d", got, tc.wantMax)
			}
		})
	}
}

func TestLeastRecentlyUsedGoesFirst(t *testing.T) {
	c := memory.New(memory.Options{MaxEntries: 3})
	ctx := context.Background()
	for _, k := range []string{"a", "b", "c"} {
		if err := c.Set(ctx, k, []byte(k), time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, _ := c.Get(ctx, "a"); !ok { // a is now the most recently used
		t.Fatal("a missing")
	}
	if err := c.Set(ctx, "d", []byte("d"), time.Minute); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if _, ok, _ := c.Get(ctx, k); ok != want {
			t.Errorf("%s present = %v, want %v", k, ok, want)
		}
	}
}

func TestExpiryFollowsClock(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	c := memory.New(memory.Options{Now: func() time.Time { return now }})
	ctx := context.Background()
	if err := c.Set(ctx, "k", []byte("v"), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	now = now.Add(29 * time.Second)
	if _, ok, _ := c.Get(ctx, "k"); !ok {
		t.Fatal("expired before its TTL")
	}
	now = now.Add(time.Second)
	if _, ok, _ := c.Get(ctx, "k"); ok {
		t.Fatal("still there at its TTL")
	}
	if c.Len() != 0 {
		t.Errorf("expired entry still held after Get")
	}
}

func BenchmarkGetHit(b *testing.B) {
	c := memory.New(memory.Options{})
	ctx := context.Background()
	v := make([]byte, 4096)
	for i := range 1000 {
		_ = c.Set(ctx, fmt.Sprint(i), v, time.Hour)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			if _, ok, _ := c.Get(ctx, fmt.Sprint(i%1000)); !ok {
				b.Fatal("miss")
			}
		}
	})
}

// View lends the stored value without a copy; what a caller holds stays
// as it was when the key is set again, and appending to it cannot write
// into the cache.
func TestViewLendsTheStoredValue(t *testing.T) {
	ctx := context.Background()
	c := memory.New(memory.Options{})
	if err := c.Set(ctx, "k", []byte("first"), time.Minute); err != nil {
		t.Fatal(err)
	}
	v1, ok, err := c.View(ctx, "k")
	if err != nil || !ok || string(v1) != "first" {
		t.Fatalf("View: %q %v %v", v1, ok, err)
	}
	if v2, _, _ := c.View(ctx, "k"); &v2[0] != &v1[0] {
		t.Error("two views of one value are copies")
	}
	_ = append(v1, "-more"...)
	if err := c.Set(ctx, "k", []byte("again"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if string(v1) != "first" {
		t.Errorf("a lent value changed to %q when the key was set again", v1)
	}
	if v, _, _ := c.View(ctx, "k"); string(v) != "again" {
		t.Errorf("View after Set: %q", v)
	}
	if _, ok, _ := c.View(ctx, "missing"); ok {
		t.Error("View of a missing key found it")
	}
}
