package webhook_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

func publish(t testing.TB, s *webhook.Service, key, id string) {
	t.Helper()
	if err := s.Publish(context.Background(), key, webhook.Event{ID: id, Type: webhook.EventRiskChanged,
		Data: []byte(`{"address":"0x01"}`)}); err != nil {
		t.Fatal(err)
	}
}

func deliveries(t *testing.T, s *webhook.Service, key, id string) []webhook.Delivery {
	t.Helper()
	ds, err := s.Deliveries(context.Background(), key, id, 100)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func endpoint(t *testing.T, s *webhook.Service, key, id string) webhook.Endpoint {
	t.Helper()
	ep, err := s.Get(context.Background(), key, id)
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

func create(t *testing.T, s *webhook.Service, key, url string) (webhook.Endpoint, string) {
	t.Helper()
	ep, secret, err := s.Create(context.Background(), key, webhook.CreateRequest{URL: url, Events: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	return ep, secret
}

// TestReceiverFailsThenRecovers: a 500, then a receiver that hangs past
// the attempt's timeout, then a 200: three attempts on the backoff
// schedule, each logged with its status and error, all signed for the
// same webhook-id, and the endpoint no longer failing.
func TestReceiverFailsThenRecovers(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	clk := newClock()
	release := make(chan struct{})
	defer close(release)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 0:
			w.WriteHeader(http.StatusInternalServerError)
		case 1:
			select { // hang until the sender gives up
			case <-r.Context().Done():
			case <-release:
			}
		default:
			w.WriteHeader(http.StatusOK)
		}
	})
	s := newService(t, st, clk, func(o *webhook.Options) { o.Timeout = 2 * time.Second })
	ep, secret := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_1")

	start := clk.Now()
	runOnce(t, s)
	ds := deliveries(t, s, "key_a", ep.ID)
	if ds[0].State != store.DeliveryPending || ds[0].NextAttemptAt == nil || !ds[0].NextAttemptAt.Equal(start.Add(webhook.DefaultSchedule[0])) {
		t.Fatalf("after a 500: %+v, want pending, next attempt after %s", ds[0], webhook.DefaultSchedule[0])
	}
	if ep := endpoint(t, s, "key_a", ep.ID); ep.FailingSince == nil || !ep.Enabled {
		t.Errorf("endpoint after a failure: %+v, want enabled and failing", ep)
	}
	if n := runOnce(t, s); n != 0 {
		t.Fatalf("retried %d before the backoff elapsed", n)
	}
	clk.Set(*ds[0].NextAttemptAt)
	runOnce(t, s) // the receiver hangs: the attempt times out
	ds = deliveries(t, s, "key_a", ep.ID)
	if ds[0].State != store.DeliveryPending || !ds[0].NextAttemptAt.Equal(clk.Now().Add(webhook.DefaultSchedule[1])) {
		t.Fatalf("after a timeout: %+v", ds[0])
	}
	clk.Set(*ds[0].NextAttemptAt)
	runOnce(t, s)

	ds = deliveries(t, s, "key_a", ep.ID)
	d := ds[0]
	if d.State != store.DeliverySucceeded || len(d.Attempts) != 3 {
		t.Fatalf("after recovery: %+v", d)
	}
	a := d.Attempts
	if a[0].StatusCode == nil || *a[0].StatusCode != 500 || a[0].Error == nil || *a[0].Error != "HTTP 500" {
		t.Errorf("attempt 1 = %+v, want 500 logged", a[0])
	}
	if a[1].StatusCode != nil || a[1].Error == nil || !strings.Contains(*a[1].Error, "timed out") {
		t.Errorf("attempt 2 = %+v, want a timeout without status", a[1])
	}
	if a[2].StatusCode == nil || *a[2].StatusCode != 200 || a[2].Error != nil {
		t.Errorf("attempt 3 = %+v, want 200", a[2])
	}
	for i := 1; i < 3; i++ {
		if !a[i].At.After(a[i-1].At) {
			t.Errorf("attempt times not increasing: %v", a)
		}
	}
	got := rc.requests()
	if len(got) != 3 {
		t.Fatalf("receiver got %d requests, want 3", len(got))
	}
	for _, r := range got {
		if r.header.Get("webhook-id") != "evt_1" {
			t.Errorf("a retry carried webhook-id %q, want the same evt_1", r.header.Get("webhook-id"))
		}
		verify(t, secret, r)
	}
	if ep := endpoint(t, s, "key_a", ep.ID); ep.FailingSince != nil || !ep.Enabled {
		t.Errorf("endpoint after recovery: %+v, want not failing", ep)
	}
}

// TestGoneDisablesEndpoint: a 410 disables the endpoint at once: its
// listing says why, later events are not enqueued for it, and a retry
// or test is refused.
func TestGoneDisablesEndpoint(t *testing.T) {
	ctx := context.Background()
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	clk := newClock()
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) })
	s := newService(t, st, clk, nil)
	ep, _ := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_1")
	runOnce(t, s)
	got := endpoint(t, s, "key_a", ep.ID)
	if got.Enabled || got.DisabledAt == nil || got.DisabledReason == nil || !strings.Contains(*got.DisabledReason, "410") {
		t.Fatalf("endpoint after 410: %+v", got)
	}
	if n := len(rc.requests()); n != 1 {
		t.Errorf("receiver got %d requests, want 1", n)
	}
	for _, d := range deliveries(t, s, "key_a", ep.ID) {
		if d.State != store.DeliveryFailed {
			t.Errorf("delivery %s is %s after the endpoint was disabled", d.EventID, d.State)
		}
	}
	publish(t, s, "key_a", "evt_3")
	clk.Add(time.Hour)
	if n := runOnce(t, s); n != 0 {
		t.Errorf("a disabled endpoint got %d more attempts", n)
	}
	if _, err := s.Test(ctx, "key_a", ep.ID); err == nil {
		t.Error("a test event to a disabled endpoint was accepted")
	}
	if err := s.Retry(ctx, "key_a", ep.ID, deliveries(t, s, "key_a", ep.ID)[0].ID); err == nil {
		t.Error("a retry to a disabled endpoint was accepted")
	}
}

// TestRetriesEndAndLongFailureDisables: a delivery whose retries are
// exhausted fails; an endpoint that has failed for longer than
// DisableAfter is disabled, saying since when; a manual retry gives a
// failed delivery one more attempt.
func TestRetriesEndAndLongFailureDisables(t *testing.T) {
	ctx := context.Background()
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	clk := newClock()
	healthy := false
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		if healthy {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	s := newService(t, st, clk, func(o *webhook.Options) {
		o.Schedule = []time.Duration{time.Minute, time.Hour}
		o.DisableAfter = 3 * 24 * time.Hour
	})
	ep, _ := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_1")
	for range 3 {
		runOnce(t, s)
		clk.Add(time.Hour)
	}
	ds := deliveries(t, s, "key_a", ep.ID)
	if ds[0].State != store.DeliveryFailed || len(ds[0].Attempts) != 3 || ds[0].NextAttemptAt != nil {
		t.Fatalf("after the schedule ran out: %+v", ds[0])
	}
	if got := endpoint(t, s, "key_a", ep.ID); !got.Enabled {
		t.Fatalf("disabled after one day of failure: %+v", got)
	}

	// A manual retry while the receiver is healthy delivers it.
	healthy = true
	if err := s.Retry(ctx, "key_a", ep.ID, ds[0].ID); err != nil {
		t.Fatal(err)
	}
	runOnce(t, s)
	if d := deliveries(t, s, "key_a", ep.ID)[0]; d.State != store.DeliverySucceeded || len(d.Attempts) != 4 {
		t.Fatalf("after a manual retry: %+v", d)
	}

	// Failing again, for four days: disabled at the first attempt past three.
	healthy = false
	publish(t, s, "key_a", "evt_2")
	runOnce(t, s)
	clk.Add(4 * 24 * time.Hour)
	publish(t, s, "key_a", "evt_3")
	runOnce(t, s)
	got := endpoint(t, s, "key_a", ep.ID)
	if got.Enabled || got.DisabledReason == nil || !strings.Contains(*got.DisabledReason, "failing since") ||
		!strings.Contains(*got.DisabledReason, "3 days") {
		t.Fatalf("after four days of failure: %+v", got)
	}
}

// TestRestartLosesNothing: an event enqueued and failed once survives a
// restart of the store and the worker; a worker that dies holding a
// lease (mid-attempt) delays the delivery only until the lease ends.
func TestRestartLosesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	clk := newClock()
	fail := true
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		if fail {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusOK)
	})

	st := openSQLite(t, path)
	s := newService(t, st, clk, nil)
	ep, secret := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_failed")
	runOnce(t, s)
	publish(t, s, "key_a", "evt_crashed")
	// A worker claims evt_crashed and dies before recording anything.
	if cs, err := st.ClaimDeliveries(context.Background(), "dead-instance", clk.Now(), time.Minute, 10); err != nil || len(cs) != 1 {
		t.Fatalf("crashed worker's claim: %v, %v", cs, err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	fail = false
	st = openSQLite(t, path)
	defer st.Close()
	s = newService(t, st, clk, nil)
	clk.Add(10 * time.Second) // evt_failed's retry is due; evt_crashed is still leased
	runOnce(t, s)
	clk.Add(time.Minute)
	runOnce(t, s)
	ids := map[string]int{}
	for _, r := range rc.requests() {
		ids[r.header.Get("webhook-id")]++
		verify(t, secret, r)
	}
	if ids["evt_failed"] != 2 || ids["evt_crashed"] != 1 {
		t.Errorf("requests by webhook-id: %v, want evt_failed twice (failed, then after the restart) and evt_crashed once", ids)
	}
	for _, d := range deliveries(t, s, "key_a", ep.ID) {
		if d.State != store.DeliverySucceeded {
			t.Errorf("%s is %s after the restart", d.EventID, d.State)
		}
	}
}

// TestRedirectIsNotFollowed: a receiver answering 302 to a private
// address fails the attempt; the redirect target sees nothing.
func TestRedirectIsNotFollowed(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	target := newReceiver(t, nil)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/latest/meta-data", http.StatusFound)
	})
	s := newService(t, st, newClock(), nil)
	ep, _ := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_1")
	runOnce(t, s)
	if n := len(target.requests()); n != 0 {
		t.Fatalf("the redirect target got %d requests", n)
	}
	d := deliveries(t, s, "key_a", ep.ID)[0]
	if d.State != store.DeliveryPending || len(d.Attempts) != 1 || d.Attempts[0].StatusCode == nil || *d.Attempts[0].StatusCode != 302 ||
		d.Attempts[0].Error == nil || !strings.Contains(*d.Attempts[0].Error, "redirects are not followed") {
		t.Errorf("after a redirect: %+v", d)
	}
}

// TestRotateSecret: after rotation attempts are signed with the new
// secret only.
func TestRotateSecret(t *testing.T) {
	ctx := context.Background()
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	rc := newReceiver(t, nil)
	s := newService(t, st, newClock(), func(o *webhook.Options) { o.SealKey = make([]byte, 32) })
	ep, old := create(t, s, "key_a", rc.URL)
	fresh, err := s.RotateSecret(ctx, "key_a", ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fresh == old || !strings.HasPrefix(fresh, "whsec_") {
		t.Fatalf("rotated secret %q (old %q)", fresh, old)
	}
	if _, err := s.Test(ctx, "key_a", ep.ID); err != nil {
		t.Fatal(err)
	}
	runOnce(t, s)
	got := rc.requests()
	if len(got) != 1 {
		t.Fatalf("got %d requests", len(got))
	}
	verify(t, fresh, got[0])
	if strings.Contains(string(got[0].body), "webhook.test") == false {
		t.Errorf("test event body %s", got[0].body)
	}
	w, _ := st.Webhook(ctx, "key_a", ep.ID)
	key, _ := webhook.ParseSecret(fresh)
	if strings.Contains(string(w.Secret), string(key)) {
		t.Error("the stored secret holds the key in the clear although a sealing key is configured")
	}
}

// TestShutdownMidAttemptIsNoFailure: an attempt cut short by shutdown is
// not logged as the receiver's failure; once its lease ends another
// worker delivers it.
func TestShutdownMidAttemptIsNoFailure(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	clk := newClock()
	ctx, shutdown := context.WithCancel(context.Background())
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			shutdown()
			<-r.Context().Done() // the sender hangs up
		}
	})
	s := newService(t, st, clk, nil)
	ep, _ := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_1")
	if _, err := s.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if d := deliveries(t, s, "key_a", ep.ID)[0]; d.State != store.DeliveryPending || len(d.Attempts) != 0 {
		t.Fatalf("after a shutdown mid-attempt: %+v, want pending with no attempt logged", d)
	}
	if ep := endpoint(t, s, "key_a", ep.ID); ep.FailingSince != nil {
		t.Errorf("the endpoint counts a shutdown as a failure: %+v", ep)
	}
	clk.Add(3 * time.Minute) // the lease ends
	runOnce(t, newService(t, st, clk, nil))
	if d := deliveries(t, s, "key_a", ep.ID)[0]; d.State != store.DeliverySucceeded {
		t.Errorf("after the lease: %+v", d)
	}
}

// TestPruneKeepsRecentAndPending: the worker's retention drops old
// finished deliveries only.
func TestPruneKeepsRecentAndPending(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	clk := newClock()
	fail := true
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		if fail {
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	s := newService(t, st, clk, func(o *webhook.Options) { o.Retention = 24 * time.Hour })
	ep, _ := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_retried")
	runOnce(t, s) // a 500: retried later
	publish(t, s, "key_a", "evt_done")
	fail = false
	clk.Add(time.Minute)
	runOnce(t, s) // both delivered
	publish(t, s, "key_a", "evt_stuck")
	fail = true
	runOnce(t, s) // evt_stuck fails: pending
	clk.Add(48 * time.Hour)
	publish(t, s, "key_a", "evt_new")
	fail = false
	n, err := s.Prune(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, d := range deliveries(t, s, "key_a", ep.ID) {
		left = append(left, d.EventID+"/"+d.State)
	}
	if n != 2 || strings.Join(left, " ") != "evt_new/pending evt_stuck/pending" {
		t.Errorf("pruned %d, left %v; want the two delivered ones pruned, evt_stuck (pending) and evt_new kept", n, left)
	}
}

// TestAnswerIsReadBounded: a receiver answering 200 with an endless body
// is not read to its end: the attempt succeeds and the connection is
// dropped after a bounded read.
func TestAnswerIsReadBounded(t *testing.T) {
	st := openSQLite(t, filepath.Join(t.TempDir(), "db"))
	defer st.Close()
	const total = 256 << 20
	written := make(chan int, 1)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk := make([]byte, 64<<10)
		n := 0
		for n < total {
			k, err := w.Write(chunk)
			n += k
			if err != nil {
				break
			}
		}
		written <- n
	})
	s := newService(t, st, newClock(), func(o *webhook.Options) { o.Timeout = time.Minute })
	ep, _ := create(t, s, "key_a", rc.URL)
	publish(t, s, "key_a", "evt_1")
	runOnce(t, s)
	if d := deliveries(t, s, "key_a", ep.ID)[0]; d.State != store.DeliverySucceeded {
		t.Errorf("delivery %+v, want succeeded", d)
	}
	if n := <-written; n >= total {
		t.Errorf("the receiver wrote all %d bytes: the answer was read to its end", n)
	}
}
