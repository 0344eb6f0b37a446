package watch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/tokenrisk/tokenrisk/internal/watch"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// outbox hands the watcher's events to the webhook service.
type outbox struct{ svc *webhook.Service }

func (o outbox) Publish(ctx context.Context, keyID string, ev watch.Event) error {
	return o.svc.Publish(ctx, keyID, webhook.Event{ID: ev.ID, Type: ev.Type, Timestamp: ev.Timestamp, Data: ev.Data})
}

// BenchmarkAlertLatencyToDelivery measures, on the devnet with a 1 s
// tick, the time from the owner's transaction being sent (devnet act
// mint) to a real HTTP receiver getting its token.supply_changed event,
// signed (checked by the Standard Webhooks reference library) through the
// durable outbox; it prints the median and p99.
//
//	go test -run '^$' -bench AlertLatencyToDelivery -benchtime 20x ./internal/watch
func BenchmarkAlertLatencyToDelivery(b *testing.B) {
	bn := newBench(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	svc, err := webhook.New(webhook.Options{Store: bn.st, Guard: webhook.Guard{AllowHTTP: true, AllowPrivate: true}, Poll: 100 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	type got struct {
		at   time.Time
		tx   string
		body []byte
		hdr  http.Header
	}
	var mu sync.Mutex
	var received []got
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct {
			Type string `json:"type"`
			Data struct {
				TxHash string `json:"tx_hash"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &ev)
		mu.Lock()
		received = append(received, got{at: time.Now(), tx: ev.Data.TxHash, body: body, hdr: r.Header.Clone()})
		mu.Unlock()
		select {
		case arrived <- struct{}{}:
		default:
		}
	}))
	defer srv.Close()
	_, secret, err := svc.Create(ctx, "key_a", webhook.CreateRequest{URL: srv.URL, Events: []string{watch.SupplyChanged}})
	if err != nil {
		b.Fatal(err)
	}
	verifier, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		b.Fatal(err)
	}
	svcDone := make(chan struct{})
	go func() { defer close(svcDone); _ = svc.Run(ctx) }()
	tok := bn.watchKind(b, bn.st, "key_a", "mintable")
	w := bn.watcher(b, "inst_a", time.Second, bn.st, outbox{svc})
	wDone := make(chan struct{})
	go func() { defer close(wDone); _ = w.Run(ctx) }()
	defer func() { cancel(); <-wDone; <-svcDone }()

	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		res := bn.act(b, tok, "mint", "1")
		tx := res.Txs[0].Hex()
		deadline := time.After(time.Minute)
	wait:
		for {
			mu.Lock()
			i := slices.IndexFunc(received, func(g got) bool { return strings.EqualFold(g.tx, tx) })
			var g got
			if i >= 0 {
				g = received[i]
			}
			mu.Unlock()
			if i >= 0 {
				if err := verifier.Verify(g.body, g.hdr); err != nil {
					b.Fatalf("the reference library refuses the delivery: %v", err)
				}
				lat = append(lat, g.at.Sub(res.SentAt))
				break wait
			}
			select {
			case <-arrived:
			case <-time.After(100 * time.Millisecond):
			case <-deadline:
				b.Fatalf("no delivery for %s within a minute", tx)
			}
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	median, p99 := lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
	b.ReportMetric(float64(median.Milliseconds()), "median-ms")
	b.ReportMetric(float64(p99.Milliseconds()), "p99-ms")
	fmt.Printf("alert latency, owner's transaction sent to signed delivery received (1 s tick, %d alerts): median %v, p99 %v\n",
		len(lat), median.Round(time.Millisecond), p99.Round(time.Millisecond))
}
