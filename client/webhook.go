package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WebhookTolerance is how far a delivery's webhook-timestamp may be from
// the receiver's clock before VerifyWebhook refuses it (replay window).
const WebhookTolerance = 5 * time.Minute

// WebhookEvent is one alert as the server delivers it: the Standard
// Webhooks id (stable across retries: dedupe on it), the event type
// (token.risk_changed, token.liquidity_removed, …, webhook.test), when it
// happened, and its data as sent.
type WebhookEvent struct {
	ID        string          `json:"-"`
	Type      string          `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// ErrWebhookSignature is returned (wrapped) when a delivery is not signed
// with the endpoint's secret, is outside the replay window, or lacks the
// Standard Webhooks headers.
var ErrWebhookSignature = errors.New("tokenrisk: webhook signature invalid")

// VerifyWebhook checks a delivery the way Standard Webhooks says: the
// webhook-signature header holds one or more space-separated "v1,<base64
// HMAC-SHA256 of id.timestamp.body>" (several during a secret rotation),
// keyed by the base64 key after the "whsec_" prefix of secret, and the
// webhook-timestamp is within WebhookTolerance of now. It returns the
// decoded event; body must be the raw request body, unparsed.
func VerifyWebhook(secret string, header http.Header, body []byte, now time.Time) (WebhookEvent, error) {
	b64, ok := strings.CutPrefix(secret, "whsec_")
	if !ok {
		return WebhookEvent{}, errors.New("tokenrisk: webhook secret lacks the whsec_ prefix")
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(key) == 0 {
		return WebhookEvent{}, errors.New("tokenrisk: webhook secret is not base64 after whsec_")
	}
	id, ts, sigs := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return WebhookEvent{}, fmt.Errorf("%w: missing webhook-id, webhook-timestamp or webhook-signature", ErrWebhookSignature)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return WebhookEvent{}, fmt.Errorf("%w: webhook-timestamp %q is not Unix seconds", ErrWebhookSignature, ts)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > WebhookTolerance || d < -WebhookTolerance {
		return WebhookEvent{}, fmt.Errorf("%w: timestamp %s is outside the %s window", ErrWebhookSignature, time.Unix(sec, 0).UTC().Format(time.RFC3339), WebhookTolerance)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	matched := false
	for _, s := range strings.Fields(sigs) {
		version, sig, ok := strings.Cut(s, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			matched = true
			break
		}
	}
	if !matched {
		return WebhookEvent{}, fmt.Errorf("%w: no v1 signature matches", ErrWebhookSignature)
	}
	var ev WebhookEvent
	if err := json.Unmarshal(body, &ev); err != nil {
		return WebhookEvent{}, fmt.Errorf("tokenrisk: webhook body: %w", err)
	}
	ev.ID = id
	return ev, nil
}
