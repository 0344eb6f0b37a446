package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/dedupe"
	"github.com/tokenrisk/tokenrisk/internal/dedupe/dedupetest"
	"github.com/tokenrisk/tokenrisk/internal/dedupe/memory"
)

func TestSuite(t *testing.T) {
	dedupetest.Run(t, func(t *testing.T) (dedupe.Group, dedupe.Group) {
		g := memory.New()
		return g, g
	})
}

func TestPanicBecomesError(t *testing.T) {
	g := memory.New()
	_, _, err := g.Do(context.Background(), "k", func(context.Context) ([]byte, error) { panic("boom") })
	if err == nil {
		t.Fatal("a panicking fn returned no error")
	}
	if g.InFlight() != 0 {
		t.Error("the panicked call is still in flight")
	}
}

func TestSharedCallersGetCopies(t *testing.T) {
	g := memory.New()
	release := make(chan struct{})
	done := make(chan []byte, 2)
	for range 2 {
		go func() {
			v, _, _ := g.Do(context.Background(), "k", func(context.Context) ([]byte, error) {
				<-release
				return []byte("abc"), nil
			})
			done <- v
		}()
	}
	time.Sleep(100 * time.Millisecond) // both callers are waiting on the one call
	close(release)
	v1, v2 := <-done, <-done
	v1[0] = 'X'
	if string(v2) != "abc" {
		t.Errorf("one caller's change reached another: %q", v2)
	}
}
