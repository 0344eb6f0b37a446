// Package cachetest is the behaviour every cache.Cache must have, as a
// suite each implementation runs against itself.
package cachetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/cache"
)

// Run runs the suite against the caches newCache returns. Each call must
// return a cache whose keys do not collide with other calls' (use a fresh
// prefix on shared servers). Expiry is tested in real time, with TTLs of a
// few hundred milliseconds.
func Run(t *testing.T, newCache func(t *testing.T) cache.Cache) {
	tests := []struct {
		name string
		fn   func(t *testing.T, c cache.Cache)
	}{
		{"MissThenHit", testMissThenHit},
		{"Overwrite", testOverwrite},
		{"Expiry", testExpiry},
		{"ZeroTTLStoresNothing", testZeroTTL},
		{"ValuesAreCopies", testCopies},
		{"BinaryAndEmptyValues", testBinary},
		{"Concurrent", testConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newCache(t))
		})
	}
}

func get(t *testing.T, c cache.Cache, key string) ([]byte, bool) {
	t.Helper()
	v, ok, err := c.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	return v, ok
}

func set(t *testing.T, c cache.Cache, key string, v []byte, ttl time.Duration) {
	t.Helper()
	if err := c.Set(context.Background(), key, v, ttl); err != nil {
		t.Fatalf("Set(%q): %v", key, err)
	}
}

func testMissThenHit(t *testing.T, c cache.Cache) {
	if _, ok := get(t, c, "scan:0xabc"); ok {
		t.Fatal("hit on an empty cache")
	}
	set(t, c, "scan:0xabc", []byte(`{"risk":1}`), time.Minute)
	v, ok := get(t, c, "scan:0xabc")
	if !ok || string(v) != `{"risk":1}` {
		t.Fatalf("got %q %v, want the stored value", v, ok)
	}
	if _, ok := get(t, c, "scan:0xabd"); ok {
		t.Error("hit on another key")
	}
}

func testOverwrite(t *testing.T, c cache.Cache) {
	set(t, c, "k", []byte("one"), time.Minute)
	set(t, c, "k", []byte("two"), time.Minute)
	if v, _ := get(t, c, "k"); string(v) != "two" {
		t.Errorf("got %q, want the newer value", v)
	}
}

func testExpiry(t *testing.T, c cache.Cache) {
	set(t, c, "short", []byte("v"), 500*time.Millisecond)
	set(t, c, "long", []byte("v"), time.Minute)
	if _, ok := get(t, c, "short"); !ok {
		t.Fatal("miss right after Set")
	}
	time.Sleep(1100 * time.Millisecond)
	if _, ok := get(t, c, "short"); ok {
		t.Error("hit after the TTL passed")
	}
	if _, ok := get(t, c, "long"); !ok {
		t.Error("a longer-lived key expired with the short one")
	}
}

func testZeroTTL(t *testing.T, c cache.Cache) {
	set(t, c, "k", []byte("v"), time.Minute)
	set(t, c, "k", []byte("w"), 0)
	if v, ok := get(t, c, "k"); ok {
		t.Errorf("Set with ttl 0 left %q in the cache", v)
	}
}

func testCopies(t *testing.T, c cache.Cache) {
	buf := []byte("original")
	set(t, c, "k", buf, time.Minute)
	copy(buf, "CHANGED!")
	v, _ := get(t, c, "k")
	if string(v) != "original" {
		t.Fatalf("changing the caller's buffer changed the cached value to %q", v)
	}
	copy(v, "CHANGED!")
	if v2, _ := get(t, c, "k"); string(v2) != "original" {
		t.Errorf("changing a returned value changed the cache to %q", v2)
	}
}

func testBinary(t *testing.T, c cache.Cache) {
	bin := []byte{0, 1, 2, 0xff, 0, '\n'}
	set(t, c, "bin", bin, time.Minute)
	if v, ok := get(t, c, "bin"); !ok || !bytes.Equal(v, bin) {
		t.Errorf("got %x %v, want %x", v, ok, bin)
	}
	set(t, c, "empty", []byte{}, time.Minute)
	if v, ok := get(t, c, "empty"); !ok || len(v) != 0 {
		t.Errorf("empty value: got %q %v, want a hit with no bytes", v, ok)
	}
}

func testConcurrent(t *testing.T, c cache.Cache) {
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for g := range 20 {
		wg.Go(func() {
			ctx := context.Background()
			for i := range 50 {
				key := fmt.Sprintf("k%d", (g*50+i)%100)
				want := []byte(key)
				if err := c.Set(ctx, key, want, time.Minute); err != nil {
					errs <- err
					return
				}
				v, ok, err := c.Get(ctx, key)
				if err != nil {
					errs <- err
					return
				}
				if ok && !bytes.Equal(v, want) {
					errs <- fmt.Errorf("key %s holds %q", key, v)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
