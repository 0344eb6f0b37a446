package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Run delivers due events until ctx ends, looking every Poll interval
// or when woken by Publish or Retry. Store errors are logged and retried;
// it returns ctx's error.
func (s *Service) Run(ctx context.Context) error {
	t := time.NewTimer(0)
	defer t.Stop()
	var pruned time.Time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case <-s.wake:
		}
		if now := s.now(); now.Sub(pruned) >= time.Hour {
			pruned = now
			if _, err := s.Prune(ctx); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "webhook worker: prune failed", "err", err)
			}
		}
		n, err := s.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "webhook worker: claim failed", "err", err)
		}
		next := s.opts.Poll
		if n == s.opts.Batch && err == nil {
			next = 0 // a full batch: there may be more due
		}
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(next)
	}
}

// Prune deletes deliveries finished more than Retention ago, their
// attempts and their events, and returns how many deliveries went. An
// event id pruned may be published again.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	n, err := s.store.PruneDeliveries(ctx, s.now().Add(-s.opts.Retention))
	if err != nil {
		return 0, fmt.Errorf("webhook: prune: %w", err)
	}
	return n, nil
}

// RunOnce claims one batch of due deliveries, attempts each and records
// the outcomes; it returns how many it attempted.
func (s *Service) RunOnce(ctx context.Context) (int, error) {
	// A lease outlives an attempt by a wide margin, so that no other
	// instance takes a delivery still in flight here.
	lease := 2*s.opts.Timeout + time.Minute
	claimed, err := s.store.ClaimDeliveries(ctx, s.opts.Owner, s.now(), lease, s.opts.Batch)
	if err != nil {
		return 0, fmt.Errorf("webhook: claim: %w", err)
	}
	sem := make(chan struct{}, s.opts.Concurrency)
	var wg sync.WaitGroup
	for _, c := range claimed {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			s.deliver(ctx, c)
		}()
	}
	wg.Wait()
	return len(claimed), nil
}

// deliver makes one attempt of c and records it.
func (s *Service) deliver(ctx context.Context, c store.ClaimedDelivery) {
	a, out := s.attempt(ctx, c)
	if ctx.Err() != nil && out.State != store.DeliverySucceeded {
		// Shutting down cut the attempt short: that is no failure of the
		// receiver. The lease runs out and an instance tries it again.
		return
	}
	// Recording must outlive a shutdown that cancelled the attempt, or
	// the delivery would wait for its lease to end.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := s.store.RecordAttempt(rctx, s.opts.Owner, a, out)
	switch {
	case errors.Is(err, store.ErrDeliveryLeaseLost):
		s.log.WarnContext(ctx, "webhook: lease lost before the attempt was recorded", "delivery_id", c.ID)
	case err != nil:
		s.log.ErrorContext(ctx, "webhook: record attempt", "delivery_id", c.ID, "err", err)
	}
	if out.DisableReason != "" {
		s.log.WarnContext(ctx, "webhook: endpoint disabled", "webhook_id", c.WebhookID, "reason", out.DisableReason)
	}
}

// attempt sends c once and decides what follows.
func (s *Service) attempt(ctx context.Context, c store.ClaimedDelivery) (store.WebhookAttempt, store.AttemptOutcome) {
	start := s.now()
	a := store.WebhookAttempt{DeliveryID: c.ID, At: start.UTC().Truncate(time.Microsecond)}
	code, errMsg := s.send(ctx, c, start)
	a.StatusCode = code
	a.Error = errMsg
	a.Latency = max(s.now().Sub(start), 0)
	if s.opts.Observer != nil {
		s.opts.Observer.WebhookAttempt(code, a.Latency)
	}

	switch {
	case errMsg == "":
		return a, store.AttemptOutcome{State: store.DeliverySucceeded, NextAttemptAt: start, Success: true}
	case code == http.StatusGone:
		return a, store.AttemptOutcome{State: store.DeliveryFailed, NextAttemptAt: start,
			DisableReason: "the receiver answered 410 Gone"}
	}
	out := store.AttemptOutcome{State: store.DeliveryFailed, NextAttemptAt: start}
	if n := c.Attempts; n < len(s.opts.Schedule) { // c.Attempts excludes this one
		out.State = store.DeliveryPending
		out.NextAttemptAt = start.Add(s.jitter(s.opts.Schedule[n]))
	}
	if c.FailingSince != nil && start.Sub(*c.FailingSince) >= s.opts.DisableAfter {
		out.DisableReason = fmt.Sprintf("failing since %s with no successful delivery (more than %s)",
			c.FailingSince.UTC().Format(time.RFC3339), days(s.opts.DisableAfter))
		out.State = store.DeliveryFailed
	}
	return a, out
}

func days(d time.Duration) string {
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return strconv.Itoa(int(d/(24*time.Hour))) + " days"
	}
	return d.String()
}

// send posts the delivery and returns the receiver's status and, unless
// the answer was a 2xx, what went wrong.
func (s *Service) send(ctx context.Context, c store.ClaimedDelivery, at time.Time) (int, string) {
	key, err := s.sealer.open(c.Secret, c.WebhookID)
	if err != nil {
		return 0, "cannot sign: " + err.Error()
	}
	if strings.HasPrefix(strings.ToLower(c.URL), "http:") && !s.guard.AllowHTTP {
		// Registered while the server allowed http; it no longer does.
		return 0, "http is not allowed: use https"
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(c.Event.Payload))
	if err != nil {
		return 0, "bad endpoint URL"
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "tokenrisk-webhooks/1")
	h.Set("webhook-id", c.Event.ID)
	h.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
	h.Set("webhook-signature", Sign(key, c.Event.ID, at, c.Event.Payload))
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, describe(err, s.opts.Timeout)
	}
	defer resp.Body.Close()
	// Read a bounded part of the answer so the connection can be reused;
	// the rest is dropped with it.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, s.opts.MaxResponse))
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return code, ""
	case code >= 300 && code < 400:
		return code, fmt.Sprintf("HTTP %d: redirects are not followed (Location %q)", code, resp.Header.Get("Location"))
	default:
		return code, fmt.Sprintf("HTTP %d", code)
	}
}

// describe turns a transport error into a log line without our own URL
// noise: the guard's reason, a timeout, or the network error.
func describe(err error, timeout time.Duration) string {
	var g *GuardError
	if errors.As(err, &g) {
		return g.Reason
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out after " + timeout.String()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return "timed out after " + timeout.String()
		}
		err = ue.Err
	}
	return err.Error()
}
