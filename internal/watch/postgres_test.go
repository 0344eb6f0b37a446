package watch_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
	"github.com/tokenrisk/tokenrisk/internal/watch"
)

// countingPublisher counts every publication, duplicates included.
type countingPublisher struct {
	mu    sync.Mutex
	byID  map[string]int
	inner *recorder
}

func (c *countingPublisher) Publish(ctx context.Context, keyID string, ev watch.Event) error {
	c.mu.Lock()
	c.byID[ev.ID]++
	c.mu.Unlock()
	return c.inner.Publish(ctx, keyID, ev)
}

// TestTwoInstancesWatchEachTokenOnce: two watchers on one PostgreSQL tick
// together; one holds the chain at a time, so each change is published
// once, by one instance, even with no deduplication downstream.
func TestTwoInstancesWatchEachTokenOnce(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	b := newBench(t)
	ctx := context.Background()
	pg, err := postgres.Open(ctx, dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	tok := b.watchKind(t, pg, "key_a", "mintable")
	pub := &countingPublisher{byID: map[string]int{}, inner: newRecorder()}
	wa := b.watcher(t, "inst_a", time.Second, pg, pub)
	wb := b.watcher(t, "inst_b", time.Second, pg, pub)
	both := func() (held int) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, w := range []*watch.Watcher{wa, wb} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, err := w.TickChain(ctx, devnet.ChainKey)
				if err != nil {
					t.Errorf("%s: %v", w.Instance(), err)
				}
				if st.Held {
					mu.Lock()
					held++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		return held
	}
	if held := both(); held != 1 {
		t.Fatalf("%d instances held the chain in one tick, want 1", held)
	}
	var sent []string
	for range 3 {
		res := b.act(t, tok, "mint", "5")
		sent = append(sent, res.Txs[0].Hex())
		if held := both(); held != 1 {
			t.Errorf("%d instances held the chain, want 1", held)
		}
	}
	evs := pub.inner.of(watch.SupplyChanged, tok.Address)
	if len(evs) != len(sent) {
		t.Errorf("%d supply events for %d mints, want one each", len(evs), len(sent))
	}
	for id, n := range pub.byID {
		if n != 1 {
			t.Errorf("event %s published %d times, want once", id, n)
		}
	}
	// The holder stops (its lease expires): the other takes over where
	// it stopped, and nothing is published twice.
	b.advance(2 * time.Minute)
	res := b.act(t, tok, "mint", "7")
	if st, err := wb.TickChain(ctx, devnet.ChainKey); err != nil || !st.Held {
		// inst_b may have been the holder already; then inst_a takes over.
		if st, err := wa.TickChain(ctx, devnet.ChainKey); err != nil || !st.Held {
			t.Fatalf("no instance took the chain over after the lease expired: %v", err)
		}
	}
	found := 0
	for _, e := range pub.inner.of(watch.SupplyChanged, tok.Address) {
		if e.data["tx_hash"] == res.Txs[0].Hex() {
			found++
		}
	}
	if found != 1 {
		t.Errorf("the mint after the takeover was published %d times, want once", found)
	}
}
