package client_test

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/tokenrisk/tokenrisk/client"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// TestVerifyWebhook: what the server's signer produces verifies, as it
// does with the Standard Webhooks reference library; a changed body, a
// wrong secret, an old timestamp or a missing header is refused; during a
// rotation either signature passes.
func TestVerifyWebhook(t *testing.T) {
	key, secret := webhook.NewSecret()
	body := []byte(`{"type":"token.risk_changed","timestamp":"2026-11-24T02:00:00Z","data":{"watch_id":"wat_1","address":"0xabc","chain":"ethereum","scan_id":"scn_2"}}`)
	now := time.Unix(1795485600, 0)
	headers := func(sig string, at time.Time) http.Header {
		h := http.Header{}
		h.Set("webhook-id", "msg_01")
		h.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
		h.Set("webhook-signature", sig)
		return h
	}
	sig := webhook.Sign(key, "msg_01", now, body)

	ref, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	refSig, err := ref.Sign("msg_01", now, body)
	if err != nil {
		t.Fatal(err)
	}
	if refSig != sig {
		t.Fatalf("the server's signature %q differs from the reference library's %q", sig, refSig)
	}

	ev, err := client.VerifyWebhook(secret, headers(sig, now), body, now.Add(time.Minute))
	if err != nil {
		t.Fatalf("a signed delivery: %v", err)
	}
	if ev.ID != "msg_01" || ev.Type != "token.risk_changed" || !strings.Contains(string(ev.Data), `"scan_id":"scn_2"`) {
		t.Errorf("event = %+v", ev)
	}

	_, other := webhook.NewSecret()
	otherKey, _ := webhook.ParseSecret(other)
	rotated := webhook.Sign(otherKey, "msg_01", now, body) + " " + sig
	if _, err := client.VerifyWebhook(secret, headers(rotated, now), body, now); err != nil {
		t.Errorf("two signatures (rotation), one matching: %v", err)
	}

	bad := []struct {
		name   string
		secret string
		h      http.Header
		body   []byte
		now    time.Time
	}{
		{"changed body", secret, headers(sig, now), []byte(strings.Replace(string(body), "scn_2", "scn_3", 1)), now},
		{"wrong secret", other, headers(sig, now), body, now},
		{"replayed an hour later", secret, headers(sig, now), body, now.Add(time.Hour)},
		{"from the future", secret, headers(sig, now), body, now.Add(-time.Hour)},
		{"no signature header", secret, headers("", now), body, now},
		{"other version only", secret, headers("v2,"+strings.TrimPrefix(sig, "v1,"), now), body, now},
	}
	for _, b := range bad {
		if _, err := client.VerifyWebhook(b.secret, b.h, b.body, b.now); !errors.Is(err, client.ErrWebhookSignature) {
			t.Errorf("%s: err %v, want ErrWebhookSignature", b.name, err)
		}
	}
	if _, err := client.VerifyWebhook("not-a-secret", headers(sig, now), body, now); err == nil {
		t.Error("a secret without whsec_: no error")
	}
}

// FuzzVerifyWebhook: any headers and body are refused or accepted without
// a panic, and a body signed with the secret always verifies.
func FuzzVerifyWebhook(f *testing.F) {
	key, secret := webhook.NewSecret()
	now := time.Unix(1795485600, 0)
	f.Add("msg_01", strconv.FormatInt(now.Unix(), 10), "v1,AAAA", []byte(`{"type":"webhook.test","data":{}}`))
	f.Add("", "x", "v1,", []byte(`{`))
	f.Add("msg_02", "1795485600", "v1,a v1,b v2,c", []byte(`null`))
	f.Fuzz(func(t *testing.T, id, ts, sig string, body []byte) {
		h := http.Header{}
		h.Set("webhook-id", id)
		h.Set("webhook-timestamp", ts)
		h.Set("webhook-signature", sig)
		_, _ = client.VerifyWebhook(secret, h, body, now)
		if id == "" || strings.ContainsAny(id, "\r\n") {
			return
		}
		h.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
		h.Set("webhook-signature", webhook.Sign(key, id, now, body))
		ev, err := client.VerifyWebhook(secret, h, body, now)
		if err != nil && errors.Is(err, client.ErrWebhookSignature) {
			t.Fatalf("a signed body refused: %v", err)
		}
		if err == nil && ev.ID != id {
			t.Fatalf("id %q, want %q", ev.ID, id)
		}
	})
}
