package main

import (
	"context"
	"log/slog"

	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/watch"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// webhookPublisher hands the watcher's events to the webhook outbox.
type webhookPublisher struct{ svc *webhook.Service }

func (p webhookPublisher) Publish(ctx context.Context, keyID string, ev watch.Event) error {
	return p.svc.Publish(ctx, keyID, webhook.Event{ID: ev.ID, Type: ev.Type, Timestamp: ev.Timestamp, Data: ev.Data})
}

// startWebhooks returns the webhook service on st and runs its delivery
// worker until ctx ends; wait returns once the worker has stopped. A
// store without webhooks gives a nil service.
func startWebhooks(ctx context.Context, cfg *config.Config, st store.Store, m *metrics.Metrics, log *slog.Logger) (svc *webhook.Service, wait func(), err error) {
	ws, ok := st.(store.WebhookStore)
	if !ok {
		return nil, func() {}, nil
	}
	key, err := cfg.WebhookSealKey()
	if err != nil {
		return nil, nil, err
	}
	if key == nil {
		log.Info("webhook signing secrets are stored unencrypted; set --webhook-secret-key to encrypt them")
	}
	svc, err = webhook.New(webhook.Options{
		Store:    ws,
		Guard:    webhook.Guard{AllowHTTP: cfg.WebhookAllowHTTP, AllowPrivate: cfg.WebhookAllowPrivate},
		SealKey:  key,
		Observer: m,
		Logger:   log.With("component", "webhook"),
	})
	if err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = svc.Run(ctx)
	}()
	return svc, func() { <-done }, nil
}
