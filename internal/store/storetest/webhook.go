package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// webhookTests are the store.WebhookStore cases; a store without webhooks
// skips them.
var webhookTests = []struct {
	name string
	fn   func(t *testing.T, s store.WebhookStore)
}{
	{"Webhooks", testWebhooks},
	{"EnqueueOncePerEventAndSubscriber", testEnqueue},
	{"ClaimLeasesAndRecords", testClaimLeases},
	{"AttemptsFailureDisableRetry", testAttempts},
	{"ConcurrentClaimsDeliverOnce", testConcurrentClaims},
	{"PruneFinishedDeliveries", testPrune},
}

func webhookStore(t *testing.T, s store.Store) store.WebhookStore {
	t.Helper()
	ws, ok := s.(store.WebhookStore)
	if !ok {
		t.Skipf("%T has no webhooks", s)
	}
	return ws
}

func newWebhook(id, key string, events ...string) store.Webhook {
	return store.Webhook{ID: id, KeyID: key, URL: "https://hooks.example.com/" + id, Events: events,
		Description: "desc " + id, Secret: []byte("sealed-" + id), CreatedAt: t0}
}

func createWebhooks(t *testing.T, s store.WebhookStore, ws ...store.Webhook) {
	t.Helper()
	for _, w := range ws {
		if err := s.CreateWebhook(context.Background(), w); err != nil {
			t.Fatalf("CreateWebhook(%s): %v", w.ID, err)
		}
	}
}

func event(id, typ string, at time.Time) store.WebhookEvent {
	return store.WebhookEvent{ID: id, Type: typ, CreatedAt: at, Payload: []byte(`{"type":"` + typ + `","id":"` + id + `"}`)}
}

func enqueue(t *testing.T, s store.WebhookStore, key string, ev store.WebhookEvent, only string) int {
	t.Helper()
	n, err := s.EnqueueEvent(context.Background(), key, ev, only)
	if err != nil {
		t.Fatalf("EnqueueEvent(%s): %v", ev.ID, err)
	}
	return n
}

func testWebhooks(t *testing.T, s store.WebhookStore) {
	ctx := context.Background()
	b := newWebhook("whk_b", "key_a", "*")
	b.CreatedAt = t0.Add(time.Second)
	a := newWebhook("whk_a", "key_a", "token.owner_changed", "token.risk_changed")
	other := newWebhook("whk_c", "key_b", "*")
	createWebhooks(t, s, b, a, other)

	got, err := s.Webhook(ctx, "key_a", "whk_a")
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != a.URL || !slices.Equal(got.Events, a.Events) || got.Description != a.Description ||
		!bytes.Equal(got.Secret, a.Secret) || !got.CreatedAt.Equal(t0) || got.CreatedAt.Location() != time.UTC ||
		got.DisabledAt != nil || got.FailingSince != nil {
		t.Errorf("Webhook = %+v, want %+v", got, a)
	}
	if _, err := s.Webhook(ctx, "key_b", "whk_a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another key's webhook: %v, want ErrNotFound", err)
	}
	list, err := s.Webhooks(ctx, "key_a")
	if err != nil {
		t.Fatal(err)
	}
	if ids := webhookIDs(list); !slices.Equal(ids, []string{"whk_a", "whk_b"}) {
		t.Errorf("Webhooks(key_a) = %v, want oldest first and only key_a's", ids)
	}
	if err := s.SetWebhookSecret(ctx, "key_a", "whk_a", []byte("rotated")); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Webhook(ctx, "key_a", "whk_a"); string(got.Secret) != "rotated" {
		t.Errorf("secret after SetWebhookSecret = %q", got.Secret)
	}
	if err := s.SetWebhookSecret(ctx, "key_b", "whk_a", []byte("x")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SetWebhookSecret by another key: %v, want ErrNotFound", err)
	}
	if err := s.DeleteWebhook(ctx, "key_b", "whk_a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteWebhook by another key: %v, want ErrNotFound", err)
	}
	enqueue(t, s, "key_a", event("msg_1", "token.owner_changed", t0), "")
	if err := s.DeleteWebhook(ctx, "key_a", "whk_a"); err != nil {
		t.Fatalf("DeleteWebhook with a delivery: %v", err)
	}
	if _, err := s.Webhook(ctx, "key_a", "whk_a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted webhook: %v, want ErrNotFound", err)
	}
	if _, err := s.Deliveries(ctx, "key_a", "whk_a", 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deliveries of a deleted webhook: %v, want ErrNotFound", err)
	}
	if err := s.DeleteWebhook(ctx, "key_a", "whk_a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second delete: %v, want ErrNotFound", err)
	}
}

func webhookIDs(ws []store.Webhook) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.ID
	}
	return out
}

func deliveriesOf(t *testing.T, s store.WebhookStore, key, webhook string) []store.WebhookDelivery {
	t.Helper()
	ds, err := s.Deliveries(context.Background(), key, webhook, 100)
	if err != nil {
		t.Fatalf("Deliveries(%s): %v", webhook, err)
	}
	return ds
}

func testEnqueue(t *testing.T, s store.WebhookStore) {
	all := newWebhook("whk_all", "key_a", "*")
	owner := newWebhook("whk_owner", "key_a", "token.owner_changed")
	otherKey := newWebhook("whk_other", "key_b", "*")
	createWebhooks(t, s, all, owner, otherKey)

	if n := enqueue(t, s, "key_a", event("msg_1", "token.owner_changed", t0), ""); n != 2 {
		t.Errorf("owner_changed to key_a: %d deliveries, want 2 (the '*' and the owner_changed endpoints)", n)
	}
	if n := enqueue(t, s, "key_a", event("msg_1", "token.owner_changed", t0), ""); n != 0 {
		t.Errorf("the same event id again: %d deliveries, want 0", n)
	}
	if n := enqueue(t, s, "key_a", event("msg_2", "token.supply_changed", t0), ""); n != 1 {
		t.Errorf("supply_changed: %d deliveries, want 1 (only '*')", n)
	}
	// Event ids are the publisher's: the same id for another key is its own event.
	if n := enqueue(t, s, "key_b", event("msg_1", "token.owner_changed", t0), ""); n != 1 {
		t.Errorf("msg_1 for key_b: %d deliveries, want 1", n)
	}
	if n := enqueue(t, s, "key_a", event("msg_3", "webhook.test", t0), "whk_owner"); n != 1 {
		t.Errorf("a test to one endpoint: %d deliveries, want 1", n)
	}
	ds := deliveriesOf(t, s, "key_a", "whk_owner")
	if len(ds) != 2 || ds[0].Event.ID != "msg_3" || ds[1].Event.ID != "msg_1" {
		t.Fatalf("whk_owner deliveries: %+v, want msg_3 then msg_1", ds)
	}
	d := ds[1]
	if d.State != store.DeliveryPending || d.Attempts != 0 || !d.NextAttemptAt.Equal(t0) || d.KeyID != "key_a" ||
		d.Event.Type != "token.owner_changed" || string(d.Event.Payload) != string(event("msg_1", "token.owner_changed", t0).Payload) {
		t.Errorf("new delivery = %+v", d)
	}
	if got := len(deliveriesOf(t, s, "key_a", "whk_all")); got != 2 {
		t.Errorf("whk_all has %d deliveries, want 2", got)
	}
	if _, err := s.Deliveries(context.Background(), "key_b", "whk_all", 10); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another key's deliveries: %v, want ErrNotFound", err)
	}
}

func claim(t *testing.T, s store.WebhookStore, owner string, now time.Time, limit int) []store.ClaimedDelivery {
	t.Helper()
	cs, err := s.ClaimDeliveries(context.Background(), owner, now, time.Minute, limit)
	if err != nil {
		t.Fatalf("ClaimDeliveries(%s): %v", owner, err)
	}
	return cs
}

func testClaimLeases(t *testing.T, s store.WebhookStore) {
	ctx := context.Background()
	w := newWebhook("whk_a", "key_a", "*")
	createWebhooks(t, s, w)
	enqueue(t, s, "key_a", event("msg_1", "token.owner_changed", t0), "")
	enqueue(t, s, "key_a", event("msg_2", "token.owner_changed", t0.Add(time.Second)), "")
	enqueue(t, s, "key_a", event("msg_later", "token.owner_changed", t0.Add(time.Hour)), "")

	if cs := claim(t, s, "a", t0.Add(-time.Second), 10); len(cs) != 0 {
		t.Errorf("claimed %d deliveries before any was due", len(cs))
	}
	now := t0.Add(2 * time.Second)
	cs := claim(t, s, "a", now, 10)
	if len(cs) != 2 || cs[0].Event.ID != "msg_1" || cs[1].Event.ID != "msg_2" {
		t.Fatalf("claim: %+v, want msg_1 and msg_2 (due, oldest first)", cs)
	}
	if cs[0].URL != w.URL || !bytes.Equal(cs[0].Secret, w.Secret) || cs[0].FailingSince != nil {
		t.Errorf("claimed delivery carries URL %q secret %q failing %v", cs[0].URL, cs[0].Secret, cs[0].FailingSince)
	}
	if again := claim(t, s, "b", now, 10); len(again) != 0 {
		t.Errorf("owner b claimed %d leased deliveries", len(again))
	}
	// Owner a dies; its lease ends and b takes over: a can no longer record.
	taken := claim(t, s, "b", now.Add(time.Minute+time.Second), 10)
	if len(taken) != 2 {
		t.Fatalf("after the lease: b claimed %d, want 2", len(taken))
	}
	a := store.WebhookAttempt{DeliveryID: cs[0].ID, At: now, StatusCode: 200, Latency: 3 * time.Millisecond}
	if err := s.RecordAttempt(ctx, "a", a, store.AttemptOutcome{State: store.DeliverySucceeded, Success: true, NextAttemptAt: now}); !errors.Is(err, store.ErrDeliveryLeaseLost) {
		t.Errorf("RecordAttempt by the old owner: %v, want ErrDeliveryLeaseLost", err)
	}
	if err := s.RecordAttempt(ctx, "b", a, store.AttemptOutcome{State: store.DeliverySucceeded, Success: true, NextAttemptAt: now}); err != nil {
		t.Fatalf("RecordAttempt by the lease holder: %v", err)
	}
	// A recorded delivery is not claimed again; one whose lease ended is.
	rest := claim(t, s, "c", now.Add(2*time.Hour), 10)
	if got := deliveryEventIDs(rest); !slices.Equal(got, []string{"msg_2", "msg_later"}) {
		t.Errorf("later claim: %v, want msg_2 (b's lease ended) and msg_later, not msg_1 (done)", got)
	}
}

func deliveryEventIDs(cs []store.ClaimedDelivery) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Event.ID
	}
	return out
}

func testAttempts(t *testing.T, s store.WebhookStore) {
	ctx := context.Background()
	createWebhooks(t, s, newWebhook("whk_a", "key_a", "*"), newWebhook("whk_b", "key_a", "*"))
	enqueue(t, s, "key_a", event("msg_1", "token.risk_changed", t0), "")
	enqueue(t, s, "key_a", event("msg_2", "token.risk_changed", t0), "")

	cs := claim(t, s, "w", t0, 10)
	if len(cs) != 4 {
		t.Fatalf("claimed %d, want 4", len(cs))
	}
	byKey := map[string]store.ClaimedDelivery{}
	for _, c := range cs {
		byKey[c.WebhookID+"/"+c.Event.ID] = c
	}
	// whk_a: msg_1 fails with 500 and is retried later.
	fail := byKey["whk_a/msg_1"]
	next := t0.Add(5 * time.Second)
	if err := s.RecordAttempt(ctx, "w", store.WebhookAttempt{DeliveryID: fail.ID, At: t0, StatusCode: 500, Latency: 1500 * time.Microsecond, Error: "HTTP 500"},
		store.AttemptOutcome{State: store.DeliveryPending, NextAttemptAt: next}); err != nil {
		t.Fatal(err)
	}
	w, _ := s.Webhook(ctx, "key_a", "whk_a")
	if w.FailingSince == nil || !w.FailingSince.Equal(t0) {
		t.Errorf("failing_since after a failure = %v, want %v", w.FailingSince, t0)
	}
	if got := claim(t, s, "w", t0.Add(time.Second), 10); len(got) != 0 {
		t.Errorf("claimed %d before the retry was due", len(got))
	}
	retry := claim(t, s, "w", next, 10)
	if len(retry) != 1 || retry[0].ID != fail.ID || retry[0].Attempts != 1 || retry[0].FailingSince == nil {
		t.Fatalf("retry claim: %+v", retry)
	}
	if err := s.RecordAttempt(ctx, "w", store.WebhookAttempt{DeliveryID: fail.ID, At: next, StatusCode: 204, Latency: time.Millisecond},
		store.AttemptOutcome{State: store.DeliverySucceeded, NextAttemptAt: next, Success: true}); err != nil {
		t.Fatal(err)
	}
	if w, _ := s.Webhook(ctx, "key_a", "whk_a"); w.FailingSince != nil {
		t.Errorf("failing_since after a success = %v, want nil", w.FailingSince)
	}
	ds := deliveriesOf(t, s, "key_a", "whk_a")
	var d store.WebhookDelivery
	for _, x := range ds {
		if x.ID == fail.ID {
			d = x
		}
	}
	if d.State != store.DeliverySucceeded || d.Attempts != 2 || len(d.History) != 2 {
		t.Fatalf("delivery after fail+success: %+v", d)
	}
	if h := d.History[0]; !h.At.Equal(t0) || h.StatusCode != 500 || h.Latency != 1500*time.Microsecond || h.Error != "HTTP 500" {
		t.Errorf("first attempt logged as %+v", h)
	}
	if h := d.History[1]; h.StatusCode != 204 || h.Error != "" {
		t.Errorf("second attempt logged as %+v", h)
	}

	// whk_b answers 410: disabled, its other pending delivery fails, nothing more is claimed or enqueued.
	gone := byKey["whk_b/msg_1"]
	if err := s.RecordAttempt(ctx, "w", store.WebhookAttempt{DeliveryID: gone.ID, At: t0, StatusCode: 410, Error: "HTTP 410"},
		store.AttemptOutcome{State: store.DeliveryFailed, NextAttemptAt: t0, DisableReason: "the receiver answered 410 Gone"}); err != nil {
		t.Fatal(err)
	}
	wb, _ := s.Webhook(ctx, "key_a", "whk_b")
	if wb.DisabledAt == nil || !wb.DisabledAt.Equal(t0) || wb.DisabledReason != "the receiver answered 410 Gone" {
		t.Errorf("after 410: disabled_at %v reason %q", wb.DisabledAt, wb.DisabledReason)
	}
	for _, x := range deliveriesOf(t, s, "key_a", "whk_b") {
		if x.State != store.DeliveryFailed {
			t.Errorf("delivery %s of a disabled endpoint is %s, want failed", x.Event.ID, x.State)
		}
	}
	// msg_2's whk_b delivery was leased when the endpoint was disabled: its holder's record is refused.
	if err := s.RecordAttempt(ctx, "w", store.WebhookAttempt{DeliveryID: byKey["whk_b/msg_2"].ID, At: t0, StatusCode: 200},
		store.AttemptOutcome{State: store.DeliverySucceeded, Success: true, NextAttemptAt: t0}); !errors.Is(err, store.ErrDeliveryLeaseLost) {
		t.Errorf("record on a delivery failed by a disable: %v, want ErrDeliveryLeaseLost", err)
	}
	if n := enqueue(t, s, "key_a", event("msg_3", "token.risk_changed", t0), ""); n != 1 {
		t.Errorf("enqueue after a disable: %d deliveries, want 1 (whk_a only)", n)
	}

	// A manual retry makes a failed delivery due again.
	if err := s.RetryDelivery(ctx, "key_a", "whk_b", gone.ID, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.RetryDelivery(ctx, "key_b", "whk_b", gone.ID, t0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("retry by another key: %v, want ErrNotFound", err)
	}
	if err := s.RetryDelivery(ctx, "key_a", "whk_a", gone.ID, t0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("retry under the wrong webhook: %v, want ErrNotFound", err)
	}
	for _, x := range deliveriesOf(t, s, "key_a", "whk_b") {
		if x.ID == gone.ID && (x.State != store.DeliveryPending || !x.NextAttemptAt.Equal(t0.Add(time.Hour))) {
			t.Errorf("after retry: %s due %v", x.State, x.NextAttemptAt)
		}
	}
}

// testConcurrentClaims: workers claiming at once never share a delivery,
// and together claim every one.
func testConcurrentClaims(t *testing.T, s store.WebhookStore) {
	createWebhooks(t, s, newWebhook("whk_a", "key_a", "*"), newWebhook("whk_b", "key_a", "*"))
	const events = 100
	for i := range events {
		enqueue(t, s, "key_a", event(fmt.Sprintf("msg_%03d", i), "token.risk_changed", t0), "")
	}
	const workers = 6
	var (
		mu      sync.Mutex
		claimed = map[string]string{}
		dups    []string
		wg      sync.WaitGroup
		errs    = make(chan error, workers)
	)
	for w := range workers {
		owner := fmt.Sprintf("w%d", w)
		wg.Go(func() {
			for {
				cs, err := s.ClaimDeliveries(context.Background(), owner, t0, time.Minute, 7)
				if err != nil {
					errs <- err
					return
				}
				if len(cs) == 0 {
					return
				}
				mu.Lock()
				for _, c := range cs {
					if prev, ok := claimed[c.ID]; ok {
						dups = append(dups, c.ID+" by "+prev+" and "+owner)
					}
					claimed[c.ID] = owner
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(dups) > 0 {
		t.Errorf("deliveries claimed twice: %v", dups)
	}
	if len(claimed) != 2*events {
		t.Errorf("claimed %d deliveries, want %d", len(claimed), 2*events)
	}
}

// testPrune: finished deliveries older than the cut go with their
// attempts and orphaned events; pending ones, newer ones and events still
// referred to stay; a pruned event id may be enqueued again.
func testPrune(t *testing.T, s store.WebhookStore) {
	ctx := context.Background()
	createWebhooks(t, s, newWebhook("whk_a", "key_a", "*"), newWebhook("whk_b", "key_a", "token.owner_changed"))
	old, recent := t0, t0.Add(48*time.Hour)
	enqueue(t, s, "key_a", event("msg_done", "token.risk_changed", old), "")      // whk_a only
	enqueue(t, s, "key_a", event("msg_half", "token.owner_changed", old), "")     // whk_a and whk_b
	enqueue(t, s, "key_a", event("msg_pending", "token.risk_changed", old), "")   // stays pending
	enqueue(t, s, "key_a", event("msg_recent", "token.risk_changed", recent), "") // finished, but recent
	finish := func(eventID, webhookID string) {
		t.Helper()
		for _, c := range claim(t, s, "w", recent, 100) {
			state := store.DeliveryPending
			if c.Event.ID == eventID && c.WebhookID == webhookID {
				state = store.DeliverySucceeded
			}
			if err := s.RecordAttempt(ctx, "w", store.WebhookAttempt{DeliveryID: c.ID, At: recent, StatusCode: 200},
				store.AttemptOutcome{State: state, NextAttemptAt: recent, Success: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
	finish("msg_done", "whk_a")
	finish("msg_half", "whk_a")
	finish("msg_recent", "whk_a")
	n, err := s.PruneDeliveries(ctx, old.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("pruned %d deliveries, want 2 (msg_done and msg_half to whk_a)", n)
	}
	var left []string
	for _, w := range []string{"whk_a", "whk_b"} {
		for _, d := range deliveriesOf(t, s, "key_a", w) {
			left = append(left, w+"/"+d.Event.ID)
		}
	}
	slices.Sort(left)
	want := []string{"whk_a/msg_pending", "whk_a/msg_recent", "whk_b/msg_half"}
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
	// msg_done's event is gone, so its id is new again; msg_half's stays.
	if n := enqueue(t, s, "key_a", event("msg_done", "token.risk_changed", recent), ""); n != 1 {
		t.Errorf("re-enqueue of a pruned event: %d deliveries, want 1", n)
	}
	if n := enqueue(t, s, "key_a", event("msg_half", "token.owner_changed", recent), ""); n != 0 {
		t.Errorf("re-enqueue of an event still referred to: %d deliveries, want 0", n)
	}
}
