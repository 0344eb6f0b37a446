package webhook_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// BenchmarkOutboxThroughput publishes b.N events for one endpoint, one
// after another as the watcher does, then delivers them, signed, to a
// local receiver. It reports events/s end to end (enqueue, claim, sign,
// POST, record), and each phase alone: published/s (one transaction an
// event) and delivered/s (batches of claims, attempts in parallel).
func BenchmarkOutboxThroughput(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		st := openSQLite(b, filepath.Join(b.TempDir(), "db"))
		defer st.Close()
		benchOutbox(b, st)
	})
	b.Run("postgres", func(b *testing.B) {
		benchOutbox(b, openPostgres(b, storetest.PostgresDSN(b)))
	})
}

func benchOutbox(b *testing.B, st store.WebhookStore) {
	var got atomic.Int64
	rc := newReceiverTB(b, func(w http.ResponseWriter) { got.Add(1); w.WriteHeader(http.StatusNoContent) })
	s := newService(b, st, &clock{t: time.Now()}, nil)
	if _, _, err := s.Create(context.Background(), "key_a", webhook.CreateRequest{URL: rc}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		publish(b, s, "key_a", fmt.Sprintf("evt_%d_%d", b.N, i))
	}
	published := time.Now()
	for got.Load() < int64(b.N) {
		if runOnce(b, s) == 0 {
			b.Fatalf("nothing left to deliver but the receiver got %d of %d", got.Load(), b.N)
		}
	}
	end := time.Now()
	b.ReportMetric(float64(b.N)/end.Sub(start).Seconds(), "events/s")
	b.ReportMetric(float64(b.N)/published.Sub(start).Seconds(), "published/s")
	b.ReportMetric(float64(b.N)/end.Sub(published).Seconds(), "delivered/s")
}
