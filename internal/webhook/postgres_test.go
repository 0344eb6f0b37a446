package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

func openPostgres(t testing.TB, dsn string) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), dsn, postgres.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestTwoInstancesDeliverOnce: two servers' workers on one PostgreSQL,
// running together, deliver each of many events exactly once.
func TestTwoInstancesDeliverOnce(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	var (
		mu   sync.Mutex
		seen = map[string]int{}
		all  = make(chan struct{})
	)
	const events = 300
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Header.Get("webhook-id")]++
		if len(seen) == events {
			select {
			case <-all:
			default:
				close(all)
			}
		}
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	})
	clk := &clock{t: time.Now()}
	a := newService(t, openPostgres(t, dsn), clk, func(o *webhook.Options) { o.Owner = "instance-a"; o.Batch = 16 })
	b := newService(t, openPostgres(t, dsn), clk, func(o *webhook.Options) { o.Owner = "instance-b"; o.Batch = 16 })
	create(t, a, "key_a", rc.URL)
	for i := range events {
		publisher := a
		if i%2 == 1 {
			publisher = b
		}
		publish(t, publisher, "key_a", fmt.Sprintf("evt_%04d", i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, s := range []*webhook.Service{a, b} {
		wg.Go(func() { _ = s.Run(ctx) })
	}
	select {
	case <-all:
	case <-time.After(2 * time.Minute):
		t.Error("not every event was delivered within two minutes")
	}
	cancel()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s delivered %d times", id, n)
		}
	}
	if len(seen) != events {
		t.Errorf("%d distinct events delivered, want %d", len(seen), events)
	}
}
