package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/journal"
	"github.com/tokenrisk/tokenrisk/internal/logsink"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/writeback"
	"github.com/tokenrisk/tokenrisk/internal/watch"
	"github.com/tokenrisk/tokenrisk/internal/web"
)

// serve runs the HTTP service until ctx is done, then shuts down
// gracefully. Once listening it prints "listening on http://ADDR" on
// stdout (the address matters with --addr …:0).
func serve(ctx context.Context, cfg *config.Config, getenv func(string) string, stdout, stderr io.Writer) error {
	// The access log writes a line per request: grouped, a busy server
	// pays one write(2) per batch of lines, not per line. Closed last (the
	// first defer), after everything else has logged its shutdown.
	logs := logsink.New(stderr, 0)
	defer logs.Close() // a failing stderr has nowhere to be reported
	log := cfg.Logger(logs)
	reg, configured, err := loadRegistry(cfg, getenv)
	if err != nil {
		return err
	}
	plans, err := loadPlans(cfg, configured)
	if err != nil {
		return err
	}
	var examples []web.Example
	if cfg.Devnet {
		chain, manifest, stop, err := devnetChain(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer stop()
		reg.Add(chain)
		examples = devnetExamples(manifest)
		plans = plans.WithChain(devnet.ChainKey)
	}
	direct, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	wb := queueHistory(direct, cfg, log)
	st, err := journalHistory(ctx, cfg, direct, wb, log)
	if err != nil {
		wb.Close()
		return err
	}
	defer closeStore(st, wb, log)

	m := metrics.New()
	backends, err := openShared(ctx, cfg, plans, log)
	if err != nil {
		return err
	}
	defer backends.close()
	// The delivery worker stops after the server (deferred later, run
	// earlier) and before the store closes.
	hctx, stopHooks := context.WithCancel(ctx)
	hooks, waitHooks, err := startWebhooks(hctx, cfg, direct, m, log)
	if err != nil {
		stopHooks()
		return err
	}
	defer waitHooks()
	defer stopHooks()
	var publisher watch.Publisher = logPublisher{log}
	if hooks != nil {
		publisher = webhookPublisher{hooks}
	}
	// Every uncached scan reads the creator's record from the backend
	// and leaves its own (shared by the instances of one PostgreSQL);
	// a verdict newly condemning the tokens linked to it alerts their
	// watchers.
	record, _ := direct.(store.Reputation)
	engine, err := scan.NewEngine(scan.EngineOptions{
		Record:           record,
		Alerts:           reputationAlerts(direct, publisher, m, log),
		Adapters:         adapters(cfg, reg, m),
		Registry:         reg,
		Cache:            backends.cache,
		CacheTTL:         cfg.CacheTTL,
		Dedupe:           backends.dedupe,
		ScanTimeout:      cfg.ScanTimeout,
		MaxConcurrent:    cfg.MaxScans,
		MinConcurrent:    cfg.MinScans,
		PremiumReserve:   premiumReserve(cfg.PremiumReserve),
		LatencyTolerance: cfg.ScanTolerance,
		QueueLimit:       queueLimit(cfg.QueueLimit),
		PremiumTolerance: premiumTolerance(cfg),
		Version:          engineVersion,
		Observer:         m,
	})
	if err != nil {
		return err
	}
	// The write timeout leaves a scan its whole deadline, a queue wait and
	// the history write.
	writeTimeout := 2*cfg.ScanTimeout + 15*time.Second
	pages, err := webPages(cfg, plans, reg, engine, st, backends.limiter, examples, log)
	if err != nil {
		return err
	}
	wl, _ := direct.(store.Watchlist)
	api, err := httpapi.NewServer(httpapi.Deps{
		Scanner: engine, Store: st, Auth: auth.NewKeys(st, plans, auth.Options{CacheTTL: keyCacheTTL(cfg.KeyCacheTTL)}),
		Limiter: backends.limiter, PlanLimiters: backends.planLimiters,
		Checks:  append(append(storeChecks(wb, storeKind(cfg)), journalChecks(st)...), backends.checks...),
		Metrics: m, Logger: log, Pages: pages, Watchlist: wl, Webhooks: hooks,
	})
	if err != nil {
		return err
	}
	wctx, stopWatch := context.WithCancel(ctx)
	waitWatch, err := startWatcher(wctx, cfg, direct, st, reg, engine, publisher, m, log)
	if err != nil {
		stopWatch()
		return err
	}
	defer waitWatch()
	defer stopWatch()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	log.Info("listening", "addr", ln.Addr().String(), "chains", reg.Keys(), "store", storeName(cfg), "engine_version", engineVersion)
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	return httpapi.Serve(ctx, ln, api, httpapi.ServeOptions{
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       90 * time.Second,
		ShutdownTimeout:   cfg.ShutdownTimeout,
		Logger:            log,
	})
}

// keyCacheTTL maps the flag (0 = no cache) to auth's option (0 = default,
// negative = no cache).
func keyCacheTTL(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// queueLimit maps the flag (0 = nobody waits) to the engine's option
// (0 = default, negative = nobody waits).
func queueLimit(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// premiumReserve maps the flag (0 = no reserve) to the engine's option
// (0 = default, negative = none).
func premiumReserve(share float64) float64 {
	if share == 0 {
		return -1
	}
	return share
}

// premiumTolerance maps --premium-guard and --premium-tolerance to the
// engine's option (negative = the guard off).
func premiumTolerance(cfg *config.Config) float64 {
	if !cfg.PremiumGuard {
		return -1
	}
	return cfg.PremiumTolerance
}

// storeName says which store is in use without its credentials.
func storeName(cfg *config.Config) string {
	if cfg.Postgres != "" {
		return "postgres"
	}
	return "sqlite:" + cfg.DB
}

// storeKind is the store's implementation, for /readyz.
func storeKind(cfg *config.Config) string {
	if cfg.Postgres != "" {
		return "postgres"
	}
	return "sqlite"
}

// queueHistory puts the write-back queue in front of the store, for
// PostgreSQL and SQLite alike: history rows are written before the answer
// as before, and only a row the database refuses is queued and retried,
// so scans answer through a database outage. Shutdown writes what is
// queued for up to --shutdown-timeout.
func queueHistory(st store.Store, cfg *config.Config, log *slog.Logger) *writeback.Store {
	return writeback.New(st, writeback.Options{
		Capacity:     historyQueueCapacity,
		CloseTimeout: cfg.ShutdownTimeout,
		OnError:      throttled(log, "history write failed; queued for retry"),
		OnRecover:    func() { log.Info("history writes succeed again; the queue drains") },
	})
}

// historyQueueCapacity bounds the history writes held while the database
// is down: about 20 minutes of a busy instance's scans (a few MB each
// thousand rows, reports included).
const historyQueueCapacity = 20_000

// journalHistory puts the history journal (internal/journal) in front of
// the SQLite store unless --history-journal is none: a scan's row and
// charge are appended to a local file before it is answered, and moved
// into the database in large transactions, replaying first what a
// previous process left there. Reads go through wb; PostgreSQL (shared by
// several instances) and in-memory databases write history directly.
func journalHistory(ctx context.Context, cfg *config.Config, direct store.Store, wb *writeback.Store, log *slog.Logger) (store.Store, error) {
	db, ok := direct.(store.EntryRecorder)
	dir := cfg.HistoryJournal
	if dir == "" {
		dir = cfg.DB + ".journal"
	}
	if !ok || cfg.Postgres != "" || cfg.DB == ":memory:" || dir == "none" {
		return wb, nil
	}
	j, err := journal.Open(ctx, wb, db, journal.Options{
		Dir:          dir,
		CloseTimeout: cfg.ShutdownTimeout,
		OnError:      throttled(log, "history journal: the database did not take the history; it waits in the journal"),
		OnRecover:    func() { log.Info("history journal drains again") },
	})
	if err != nil {
		return nil, fmt.Errorf("history journal: %w", err)
	}
	if n := j.Replayed(); n > 0 {
		log.Info("history journal replayed into the database", "rows", n, "dir", dir)
	}
	return j, nil
}

// closeStore drains the journal and writes the queued history, then
// closes the store, and says in the log whether anything was lost.
func closeStore(st store.Store, wb *writeback.Store, log *slog.Logger) {
	pending := wb.Pending()
	if err := st.Close(); err != nil {
		log.Error("closing the store", "err", httpapi.Redact(err.Error()))
		return
	}
	if pending > 0 {
		log.Info("queued history written at shutdown", "rows", pending)
	}
}

// historyBacklog is a /readyz entry for history waiting for the
// database (the write-back queue, the journal): ok, degraded while the
// database refuses it, down once full (scans are then refused).
type historyBacklog interface {
	Pending() int
	Capacity() int
	Degraded() bool
}

// backlogBackend reports q as a backend of kind; full and failing say
// what each state means.
func backlogBackend(q historyBacklog, kind, full, failing string) httpapi.Backend {
	pending, capacity := q.Pending(), q.Capacity()
	b := httpapi.Backend{Kind: kind, Status: httpapi.BackendOK, Pending: &pending, Capacity: &capacity}
	switch {
	case pending >= capacity:
		b.Status, b.Detail = httpapi.BackendDown, full
	case q.Degraded():
		b.Status, b.Detail = httpapi.BackendDegraded, failing
	}
	return b
}

// journalChecks report the history journal in /readyz (when st is one):
// degraded while the database refuses what it drains (scans still answer
// and their rows wait in the journal), down once it is full.
func journalChecks(st store.Store) []httpapi.Check {
	j, ok := st.(*journal.Store)
	if !ok {
		return nil
	}
	return []httpapi.Check{{Name: "history_journal", Probe: func(context.Context) httpapi.Backend {
		return backlogBackend(j, "journal", "full: scans are refused until the database takes the journal's rows",
			"the database refuses the history; rows wait in the journal and are retried")
	}}}
}

// storeChecks report the store and its history queue in /readyz. A store
// that does not answer is degraded while the queue has room (scans still
// answer and their history waits), down once it is full.
func storeChecks(st *writeback.Store, kind string) []httpapi.Check {
	queue := func() httpapi.Backend {
		return backlogBackend(st, "queue", "full: scans are refused until the database takes the queued history",
			"retrying history writes the database refused")
	}
	return []httpapi.Check{
		{Name: "store", Probe: func(ctx context.Context) httpapi.Backend {
			err := st.Ping(ctx)
			if err == nil {
				return httpapi.Backend{Kind: kind, Status: httpapi.BackendOK}
			}
			b := httpapi.Backend{Kind: kind, Status: httpapi.BackendDegraded,
				Detail: "not reachable: scans answer for keys seen in the last 10 minutes; history is queued"}
			if queue().Status == httpapi.BackendDown {
				b.Status = httpapi.BackendDown
			}
			return b
		}},
		{Name: "history_queue", Probe: func(context.Context) httpapi.Backend { return queue() }},
	}
}
