package main

import (
	"context"
	"log/slog"
	"sync"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/reputation"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/watch"
)

// logPublisher writes events to the log: the publisher while no webhook
// outbox is configured.
type logPublisher struct{ log *slog.Logger }

func (p logPublisher) Publish(_ context.Context, keyID string, ev watch.Event) error {
	p.log.Info("watch event", "key_id", keyID, "event_id", ev.ID, "type", ev.Type, "data", string(ev.Data))
	return nil
}

// logSources gives each EVM chain one JSON-RPC client for its log
// queries, kept across ticks (it learns the node's batch limit).
func logSources(m *metrics.Metrics) func(chains.Chain) watch.LogSource {
	var mu sync.Mutex
	clients := map[string]*node.Client{}
	client := upstreamClient()
	var upstream func(chain, method string)
	if m != nil {
		upstream = m.Upstream
	}
	return func(c chains.Chain) watch.LogSource {
		mu.Lock()
		defer mu.Unlock()
		cl := clients[c.Key]
		if cl == nil {
			cl = node.NewClient(c.Key, c.RPC, node.ClientOptions{HTTPClient: client, Upstream: upstream, MaxBatchBytes: c.RPCMaxBatchBytes})
			clients[c.Key] = cl
		}
		return watch.RPCLogs{Client: cl}
	}
}

// startWatcher runs the watcher beside the server until ctx is done; the
// returned function waits for it to stop. st holds the watchlists;
// history is the store scans are recorded through (the journal's reads
// wait for what it has not drained).
func startWatcher(ctx context.Context, cfg *config.Config, st, history store.Store, reg *chains.Registry, engine *scan.Engine,
	pub watch.Publisher, m *metrics.Metrics, log *slog.Logger) (func(), error) {
	wl, ok := st.(store.Watchlist)
	if !ok {
		return func() {}, nil
	}
	var obs watch.Observer
	if m != nil {
		obs = m
	}
	w, err := watch.New(watch.Options{
		Observer: obs,
		Store:    wl, History: history, Scanner: engine, Publisher: pub, Registry: reg, Logs: logSources(m),
		Interval: cfg.WatchInterval, RescanInterval: cfg.WatchRescan, Logger: log.With("component", "watch"),
	})
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = w.Run(ctx)
	}()
	return func() { <-done }, nil
}

// reputationAlerts publishes token.reputation_changed through pub when
// st finds the entries a finding concerns (nil when it cannot).
func reputationAlerts(st store.Store, pub watch.Publisher, m *metrics.Metrics, log *slog.Logger) reputation.Alerts {
	linked, ok := st.(store.ReputationWatches)
	if !ok {
		return nil
	}
	a := &watch.ReputationAlerts{Store: linked, Publisher: pub, Logger: log.With("component", "watch")}
	if m != nil {
		a.Observer = m
	}
	return a
}
