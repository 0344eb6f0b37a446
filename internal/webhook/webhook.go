// Package webhook delivers signed event notifications to customers'
// endpoints the Standard Webhooks way: endpoints with whsec_ secrets, a
// durable outbox in the store, a delivery worker with leases (one sender
// across instances), retries with backoff over about a day, and a guard
// that keeps requests off our own network.
package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Event types. "*" subscribes an endpoint to all of them.
const (
	EventTest             = "webhook.test"
	EventRiskChanged      = "token.risk_changed"
	EventLiquidityRemoved = "token.liquidity_removed"
	EventSupplyChanged    = "token.supply_changed"
	EventOwnerChanged     = "token.owner_changed"
	EventContractUpgraded = "token.contract_upgraded"
	EventTradingChanged   = "token.trading_changed"
	// EventReputationChanged: a token sharing a watched token's creator
	// or code was newly found harmful (internal/watch.ReputationAlerts).
	EventReputationChanged = "token.reputation_changed"
)

// EventTypes are the types an endpoint may subscribe to.
var EventTypes = []string{EventTest, EventRiskChanged, EventLiquidityRemoved, EventSupplyChanged,
	EventOwnerChanged, EventContractUpgraded, EventTradingChanged, EventReputationChanged}

// Event is one notification. ID is the stable webhook-id receivers dedupe
// on: publishing the same ID again does nothing.
type Event struct {
	ID        string
	Type      string
	Timestamp time.Time
	Data      json.RawMessage
}

// NewEventID returns a new event id: "msg_" and a ULID.
func NewEventID() string { return "msg_" + ulid.Make().String() }

// payload is the body every delivery of an event carries.
type payload struct {
	Type      string          `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// Options configure a Service. Store is required.
type Options struct {
	Store store.WebhookStore
	Guard Guard
	// SealKey (32 bytes) encrypts signing secrets in the store; nil stores
	// them in the clear.
	SealKey []byte
	Logger  *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Timeout bounds one attempt (default 15 s).
	Timeout time.Duration
	// MaxResponse is how much of an answer is read (default 64 KiB).
	MaxResponse int64
	// Schedule is the delay before each retry (default DefaultSchedule).
	Schedule []time.Duration
	// Jitter spreads each delay by up to this fraction either way
	// (default 0.2; negative means none).
	Jitter float64
	// DisableAfter disables an endpoint failing without success for
	// this long (default 5 days).
	DisableAfter time.Duration
	// Batch and Concurrency: deliveries claimed per round, and attempts
	// in flight (defaults 64 and 16).
	Batch, Concurrency int
	// Poll is how often the worker looks for due deliveries when idle
	// (default 1 s); Publish wakes it at once.
	Poll time.Duration
	// Retention is how long finished deliveries, their attempts and their
	// events are kept (default 30 days); the worker prunes hourly.
	Retention time.Duration
	// Owner names this instance in leases (default random).
	Owner string
	// Observer, if not nil, sees every attempt (*metrics.Metrics).
	Observer Observer
	// Transport replaces the guarded transport (tests of the guard must
	// not set it).
	Transport http.RoundTripper
}

// Observer is told of every delivery attempt: the receiver's status (0
// when none came) and its latency.
type Observer interface {
	WebhookAttempt(status int, latency time.Duration)
}

// DefaultSchedule retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
// 10 h: eight attempts over about 28 hours.
var DefaultSchedule = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute,
	2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}

// Service manages endpoints and delivers events.
type Service struct {
	store  store.WebhookStore
	guard  Guard
	sealer *sealer
	log    *slog.Logger
	now    func() time.Time
	client *http.Client
	opts   Options
	wake   chan struct{}
}

// New returns a Service.
func New(o Options) (*Service, error) {
	if o.Store == nil {
		return nil, errors.New("webhook: a store is required")
	}
	sl, err := newSealer(o.SealKey)
	if err != nil {
		return nil, err
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = 15 * time.Second
	}
	if o.MaxResponse <= 0 {
		o.MaxResponse = 64 << 10
	}
	if o.Schedule == nil {
		o.Schedule = DefaultSchedule
	}
	if o.Jitter == 0 {
		o.Jitter = 0.2
	}
	if o.DisableAfter <= 0 {
		o.DisableAfter = 5 * 24 * time.Hour
	}
	if o.Batch <= 0 {
		o.Batch = 64
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 16
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Retention <= 0 {
		o.Retention = 30 * 24 * time.Hour
	}
	if o.Owner == "" {
		o.Owner = "wrk_" + ulid.Make().String()
	}
	tr := o.Transport
	if tr == nil {
		tr = &http.Transport{
			Proxy:                 nil, // never through an environment proxy: the guard checks the real peer
			DialContext:           o.Guard.DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          100,
			MaxIdleConnsPerHost:   8,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: o.Timeout,
		}
	}
	return &Service{
		store:  o.Store,
		guard:  o.Guard,
		sealer: sl,
		log:    o.Logger,
		now:    o.Now,
		opts:   o,
		wake:   make(chan struct{}, 1),
		client: &http.Client{
			Transport: tr,
			// No redirect is followed: a receiver could point us anywhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}, nil
}

// Publish durably enqueues ev for every enabled endpoint of keyID
// subscribed to ev.Type; an ev.ID published before is not enqueued
// again. It returns once the deliveries are stored.
func (s *Service) Publish(ctx context.Context, keyID string, ev Event) error {
	_, err := s.publish(ctx, keyID, ev, "")
	return err
}

func (s *Service) publish(ctx context.Context, keyID string, ev Event, only string) (int, error) {
	if ev.ID == "" || ev.Type == "" {
		return 0, errors.New("webhook: publish: an event needs an id and a type")
	}
	if ev.Timestamp.IsZero() {
		ev.Timestamp = s.now()
	}
	ev.Timestamp = ev.Timestamp.UTC().Truncate(time.Microsecond)
	data := ev.Data
	if len(data) == 0 {
		data = json.RawMessage(`{}`)
	}
	body, err := json.Marshal(payload{Type: ev.Type, Timestamp: ev.Timestamp, Data: data})
	if err != nil {
		return 0, fmt.Errorf("webhook: publish %s: %w", ev.ID, err)
	}
	n, err := s.store.EnqueueEvent(ctx, keyID, store.WebhookEvent{ID: ev.ID, Type: ev.Type, CreatedAt: ev.Timestamp, Payload: body}, only)
	if err != nil {
		return 0, fmt.Errorf("webhook: publish %s: %w", ev.ID, err)
	}
	if n > 0 {
		s.Wake()
	}
	return n, nil
}

// Wake makes the worker look for due deliveries now.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Endpoint is an endpoint as the API shows it (never its secret).
type Endpoint struct {
	ID             string     `json:"id"`
	URL            string     `json:"url"`
	Events         []string   `json:"events"`
	Description    string     `json:"description"`
	CreatedAt      time.Time  `json:"created_at"`
	Enabled        bool       `json:"enabled"`
	FailingSince   *time.Time `json:"failing_since"`
	DisabledAt     *time.Time `json:"disabled_at"`
	DisabledReason *string    `json:"disabled_reason"`
}

func endpointOf(w store.Webhook) Endpoint {
	e := Endpoint{ID: w.ID, URL: w.URL, Events: w.Events, Description: w.Description, CreatedAt: w.CreatedAt,
		Enabled: w.DisabledAt == nil, FailingSince: w.FailingSince, DisabledAt: w.DisabledAt}
	if w.DisabledAt != nil {
		r := w.DisabledReason
		e.DisabledReason = &r
	}
	return e
}

// MaxEndpoints bounds the endpoints of one key.
const MaxEndpoints = 20

// CreateRequest is a new endpoint's settings.
type CreateRequest struct {
	URL         string
	Events      []string
	Description string
}

// Create registers an endpoint for keyID and returns it with its secret
// (shown this once). A URL the guard refuses is fault.InvalidWebhookURL.
func (s *Service) Create(ctx context.Context, keyID string, req CreateRequest) (Endpoint, string, error) {
	u, err := s.guard.CheckURL(ctx, strings.TrimSpace(req.URL))
	if err != nil {
		return Endpoint{}, "", fault.Wrap(err, fault.InvalidWebhookURL, "webhook URL refused: "+err.Error())
	}
	events, err := checkEvents(req.Events)
	if err != nil {
		return Endpoint{}, "", err
	}
	if len(req.Description) > 500 {
		return Endpoint{}, "", fault.Errorf(fault.InvalidRequest, "description must be at most 500 characters")
	}
	existing, err := s.store.Webhooks(ctx, keyID)
	if err != nil {
		return Endpoint{}, "", fmt.Errorf("webhook: create: %w", err)
	}
	if len(existing) >= MaxEndpoints {
		return Endpoint{}, "", fault.Errorf(fault.PlanForbidden, "a key may have at most %d webhook endpoints; delete one first", MaxEndpoints)
	}
	key, secret := NewSecret()
	w := store.Webhook{
		ID:          "whk_" + ulid.Make().String(),
		KeyID:       keyID,
		URL:         u.String(),
		Events:      events,
		Description: req.Description,
		CreatedAt:   s.now().UTC().Truncate(time.Microsecond),
	}
	w.Secret = s.sealer.seal(key, w.ID)
	if err := s.store.CreateWebhook(ctx, w); err != nil {
		return Endpoint{}, "", fmt.Errorf("webhook: create: %w", err)
	}
	return endpointOf(w), secret, nil
}

func checkEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return []string{"*"}, nil
	}
	out := make([]string, 0, len(events))
	for _, e := range events {
		if e != "*" && !slices.Contains(EventTypes, e) {
			return nil, fault.Errorf(fault.InvalidRequest, "unknown event type %q: use \"*\" or any of %s", e, strings.Join(EventTypes, ", "))
		}
		out = append(out, e)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if slices.Contains(out, "*") {
		out = []string{"*"}
	}
	return out, nil
}

func notFound(err error, what string) error {
	if errors.Is(err, store.ErrNotFound) {
		return fault.Wrap(err, fault.NotFound, what+" not found")
	}
	return err
}

// Get returns keyID's endpoint id.
func (s *Service) Get(ctx context.Context, keyID, id string) (Endpoint, error) {
	w, err := s.store.Webhook(ctx, keyID, id)
	if err != nil {
		return Endpoint{}, notFound(err, "webhook")
	}
	return endpointOf(w), nil
}

// List returns keyID's endpoints, oldest first.
func (s *Service) List(ctx context.Context, keyID string) ([]Endpoint, error) {
	ws, err := s.store.Webhooks(ctx, keyID)
	if err != nil {
		return nil, err
	}
	out := make([]Endpoint, len(ws))
	for i, w := range ws {
		out[i] = endpointOf(w)
	}
	return out, nil
}

// Delete removes an endpoint and its deliveries.
func (s *Service) Delete(ctx context.Context, keyID, id string) error {
	return notFound(s.store.DeleteWebhook(ctx, keyID, id), "webhook")
}

// RotateSecret gives the endpoint a new secret, returned this once;
// attempts from now on are signed with it.
func (s *Service) RotateSecret(ctx context.Context, keyID, id string) (string, error) {
	key, secret := NewSecret()
	if err := s.store.SetWebhookSecret(ctx, keyID, id, s.sealer.seal(key, id)); err != nil {
		return "", notFound(err, "webhook")
	}
	return secret, nil
}

// Test enqueues a webhook.test event to the endpoint alone and returns
// its event id.
func (s *Service) Test(ctx context.Context, keyID, id string) (string, error) {
	w, err := s.store.Webhook(ctx, keyID, id)
	if err != nil {
		return "", notFound(err, "webhook")
	}
	if w.DisabledAt != nil {
		return "", fault.Errorf(fault.InvalidRequest, "the webhook is disabled (%s); create a new one", w.DisabledReason)
	}
	ev := Event{ID: NewEventID(), Type: EventTest, Timestamp: s.now()}
	ev.Data, _ = json.Marshal(map[string]string{"webhook_id": id, "message": "a test event from tokenrisk"})
	if _, err := s.publish(ctx, keyID, ev, id); err != nil {
		return "", err
	}
	return ev.ID, nil
}

// Attempt is one logged delivery attempt as the API shows it.
type Attempt struct {
	At         time.Time `json:"at"`
	StatusCode *int      `json:"status_code"`
	LatencyMS  float64   `json:"latency_ms"`
	Error      *string   `json:"error"`
}

// Delivery is one event to one endpoint as the API shows it.
type Delivery struct {
	ID            string          `json:"id"`
	EventID       string          `json:"event_id"`
	EventType     string          `json:"event_type"`
	State         string          `json:"state"`
	CreatedAt     time.Time       `json:"created_at"`
	NextAttemptAt *time.Time      `json:"next_attempt_at"`
	Payload       json.RawMessage `json:"payload"`
	Attempts      []Attempt       `json:"attempts"`
}

// Deliveries lists up to limit of the endpoint's newest deliveries with
// every attempt.
func (s *Service) Deliveries(ctx context.Context, keyID, id string, limit int) ([]Delivery, error) {
	ds, err := s.store.Deliveries(ctx, keyID, id, limit)
	if err != nil {
		return nil, notFound(err, "webhook")
	}
	out := make([]Delivery, len(ds))
	for i, d := range ds {
		out[i] = Delivery{ID: d.ID, EventID: d.Event.ID, EventType: d.Event.Type, State: d.State,
			CreatedAt: d.CreatedAt, Payload: d.Event.Payload, Attempts: make([]Attempt, len(d.History))}
		if d.State == store.DeliveryPending {
			next := d.NextAttemptAt
			out[i].NextAttemptAt = &next
		}
		for j, a := range d.History {
			at := Attempt{At: a.At, LatencyMS: float64(a.Latency.Microseconds()) / 1000}
			if a.StatusCode != 0 {
				code := a.StatusCode
				at.StatusCode = &code
			}
			if a.Error != "" {
				e := a.Error
				at.Error = &e
			}
			out[i].Attempts[j] = at
		}
	}
	return out, nil
}

// Retry makes a delivery due now (one more attempt when its retries were
// exhausted).
func (s *Service) Retry(ctx context.Context, keyID, id, deliveryID string) error {
	w, err := s.store.Webhook(ctx, keyID, id)
	if err != nil {
		return notFound(err, "webhook")
	}
	if w.DisabledAt != nil {
		return fault.Errorf(fault.InvalidRequest, "the webhook is disabled (%s); create a new one", w.DisabledReason)
	}
	if err := s.store.RetryDelivery(ctx, keyID, id, deliveryID, s.now()); err != nil {
		return notFound(err, "delivery")
	}
	s.Wake()
	return nil
}

// jitter spreads d by up to ±opts.Jitter.
func (s *Service) jitter(d time.Duration) time.Duration {
	if s.opts.Jitter <= 0 {
		return d
	}
	f := 1 + s.opts.Jitter*(2*rand.Float64()-1)
	return time.Duration(float64(d) * f)
}
