package store

import (
	"context"
	"errors"
	"time"
)

// Webhook is a key's webhook endpoint. Secret is the signing secret as the
// webhook package sealed it (the store never sees it in the clear unless
// no sealing key is configured).
type Webhook struct {
	ID          string
	KeyID       string
	URL         string
	Events      []string // event types, or "*" for all
	Description string
	Secret      []byte
	CreatedAt   time.Time
	// FailingSince is the first failed attempt since the last success.
	FailingSince *time.Time
	// DisabledAt and DisabledReason say why the endpoint no longer
	// receives deliveries (410 Gone, failing for days).
	DisabledAt     *time.Time
	DisabledReason string
}

// WebhookEvent is one event to deliver: its id is the stable webhook-id
// receivers dedupe on, Payload the exact body sent.
type WebhookEvent struct {
	ID        string
	Type      string
	CreatedAt time.Time
	Payload   []byte
}

// Delivery states.
const (
	DeliveryPending   = "pending"   // waiting for its next attempt
	DeliverySucceeded = "succeeded" // a 2xx answer
	DeliveryFailed    = "failed"    // retries exhausted or endpoint disabled
)

// WebhookDelivery is one event to one endpoint and its attempts so far.
type WebhookDelivery struct {
	ID            string
	WebhookID     string
	KeyID         string
	Event         WebhookEvent
	State         string
	Attempts      int
	NextAttemptAt time.Time
	CreatedAt     time.Time
	// History is every attempt, oldest first (filled by listings).
	History []WebhookAttempt
}

// WebhookAttempt is one HTTP attempt of a delivery, as logged.
type WebhookAttempt struct {
	DeliveryID string
	At         time.Time
	// StatusCode is the receiver's status, 0 when no answer came.
	StatusCode int
	Latency    time.Duration
	Error      string
}

// ClaimedDelivery is a leased delivery with what an attempt needs.
type ClaimedDelivery struct {
	WebhookDelivery
	URL    string
	Secret []byte
	// FailingSince is the endpoint's, for the disable-after-days rule.
	FailingSince *time.Time
}

// AttemptOutcome is how an attempt leaves its delivery and endpoint.
type AttemptOutcome struct {
	// State is the delivery's new state; NextAttemptAt matters when it
	// stays pending.
	State         string
	NextAttemptAt time.Time
	// Success clears the endpoint's failing streak; otherwise a failure
	// starts it (if not started).
	Success bool
	// DisableReason, if set, disables the endpoint.
	DisableReason string
}

// WebhookStore is the webhook endpoints, the durable outbox of deliveries
// and their attempt log. Backends that implement it: sqlite, postgres.
type WebhookStore interface {
	CreateWebhook(ctx context.Context, w Webhook) error
	// Webhook returns keyID's endpoint id, or ErrNotFound.
	Webhook(ctx context.Context, keyID, id string) (Webhook, error)
	// Webhooks lists keyID's endpoints, oldest first.
	Webhooks(ctx context.Context, keyID string) ([]Webhook, error)
	// DeleteWebhook removes the endpoint and its deliveries.
	DeleteWebhook(ctx context.Context, keyID, id string) error
	SetWebhookSecret(ctx context.Context, keyID, id string, secret []byte) error

	// EnqueueEvent stores ev once (an id already stored is kept as it
	// was) and one pending delivery, due at ev.CreatedAt, for each enabled
	// endpoint of keyID subscribed to ev.Type (or to "*"), or only to the
	// endpoint onlyWebhook when it is not "". It returns the deliveries
	// created now (0 when ev was already enqueued).
	EnqueueEvent(ctx context.Context, keyID string, ev WebhookEvent, onlyWebhook string) (int, error)
	// ClaimDeliveries leases up to limit pending deliveries due at now of
	// enabled endpoints to owner until now+lease; a delivery leased by
	// another owner is skipped until its lease ends.
	ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]ClaimedDelivery, error)
	// RecordAttempt logs a and applies out, if owner still holds the
	// delivery's lease (else ErrDeliveryLeaseLost, and nothing changes).
	RecordAttempt(ctx context.Context, owner string, a WebhookAttempt, out AttemptOutcome) error
	// Deliveries lists up to limit of the endpoint's deliveries, newest
	// first, each with its attempts.
	Deliveries(ctx context.Context, keyID, webhookID string, limit int) ([]WebhookDelivery, error)
	// RetryDelivery makes a delivery pending again, due at now.
	RetryDelivery(ctx context.Context, keyID, webhookID, deliveryID string, now time.Time) error
	// PruneDeliveries deletes the deliveries created before before that
	// are no longer pending, with their attempts, then the events created
	// before it that no delivery refers to; it returns the deliveries
	// deleted.
	PruneDeliveries(ctx context.Context, before time.Time) (int64, error)
}

// ErrDeliveryLeaseLost is returned when a delivery's lease passed to another
// owner before its attempt was recorded.
var ErrDeliveryLeaseLost = errors.New("store: delivery lease lost")

// Wants reports whether the endpoint subscribes to events of type typ.
func (w Webhook) Wants(typ string) bool {
	for _, e := range w.Events {
		if e == "*" || e == typ {
			return true
		}
	}
	return false
}
