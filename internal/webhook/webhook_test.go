package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now().UTC().Truncate(time.Second)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// received is one request a receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver is a real HTTP endpoint whose answers a test scripts.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	answer func(n int, w http.ResponseWriter, r *http.Request) // n counts from 0
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	rc := &receiver{answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		n := len(rc.got)
		rc.got = append(rc.got, received{header: r.Header.Clone(), body: body})
		rc.mu.Unlock()
		if rc.answer == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		rc.answer(n, w, r)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// newReceiverTB is a bare receiver for benchmarks; it returns its URL.
func newReceiverTB(tb testing.TB, answer func(w http.ResponseWriter)) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		answer(w)
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func openSQLite(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// local is the guard of tests whose receivers listen on loopback.
var local = webhook.Guard{AllowHTTP: true, AllowPrivate: true}

func newService(t testing.TB, st store.WebhookStore, clk *clock, mod func(*webhook.Options)) *webhook.Service {
	t.Helper()
	o := webhook.Options{Store: st, Guard: local, Now: clk.Now, Jitter: -1}
	if mod != nil {
		mod(&o)
	}
	s, err := webhook.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func runOnce(t testing.TB, s *webhook.Service) int {
	t.Helper()
	n, err := s.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func verify(t *testing.T, secret string, r received) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatalf("reference library refuses secret %q: %v", secret, err)
	}
	if err := wh.VerifyIgnoringTimestamp(r.body, r.header); err != nil {
		t.Errorf("reference library: signature does not verify: %v (headers %v)", err, r.header)
	}
}

// TestPublishDeliversSignedEvent: an event published for a key reaches
// its subscribed endpoint once, with Standard Webhooks headers that the
// reference library verifies, and the body {"type","timestamp","data"}.
func TestPublishDeliversSignedEvent(t *testing.T) {
	ctx := context.Background()
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	s := newService(t, st, &clock{t: time.Now()}, nil)
	rc := newReceiver(t, nil)
	other := newReceiver(t, nil)

	ep, secret, err := s.Create(ctx, "key_a", webhook.CreateRequest{URL: rc.URL + "/hook", Events: []string{webhook.EventOwnerChanged}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Create(ctx, "key_a", webhook.CreateRequest{URL: other.URL, Events: []string{webhook.EventSupplyChanged}}); err != nil {
		t.Fatal(err)
	}
	ev := webhook.Event{ID: "evt_1", Type: webhook.EventOwnerChanged, Timestamp: time.Date(2026, 11, 24, 1, 2, 3, 0, time.UTC),
		Data: json.RawMessage(`{"address":"0xabc","chain":"devnet"}`)}
	for range 2 { // the second publish of the same id is a no-op
		if err := s.Publish(ctx, "key_a", ev); err != nil {
			t.Fatal(err)
		}
	}
	if n := runOnce(t, s); n != 1 {
		t.Fatalf("attempted %d deliveries, want 1", n)
	}
	got := rc.requests()
	if len(got) != 1 {
		t.Fatalf("receiver got %d requests, want 1", len(got))
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("an endpoint subscribed to another type got %d requests", n)
	}
	r := got[0]
	verify(t, secret, r)
	if id := r.header.Get("webhook-id"); id != "evt_1" {
		t.Errorf("webhook-id = %q, want the event id", id)
	}
	var body struct {
		Type      string          `json:"type"`
		Timestamp time.Time       `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Type != ev.Type || !body.Timestamp.Equal(ev.Timestamp) || string(body.Data) != string(ev.Data) {
		t.Errorf("body = %s", r.body)
	}
	ds, err := s.Deliveries(ctx, "key_a", ep.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].State != store.DeliverySucceeded || len(ds[0].Attempts) != 1 ||
		ds[0].Attempts[0].StatusCode == nil || *ds[0].Attempts[0].StatusCode != 204 || ds[0].Attempts[0].Error != nil {
		t.Errorf("deliveries = %+v", ds)
	}
	if n := runOnce(t, s); n != 0 {
		t.Errorf("a delivered event was attempted again (%d)", n)
	}
}
