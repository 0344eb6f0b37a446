package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// serve runs the HTTP service until ctx is done, then shuts down
// gracefully. Once listening it prints "listening on http://ADDR" on
// stdout (the address matters with --addr …:0).
func serve(ctx context.Context, cfg *config.Config, getenv func(string) string, stdout, stderr io.Writer) error {
	log := cfg.Logger(stderr)
	reg, configured, err := loadRegistry(cfg, getenv)
	if err != nil {
		return err
	}
	plans, err := loadPlans(cfg, configured)
	if err != nil {
		return err
	}
	if cfg.Devnet {
		chain, stop, err := devnetChain(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer stop()
		reg.Add(chain)
		plans = plans.WithChain(devnet.ChainKey)
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()

	m := metrics.New()
	backends, err := openShared(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer backends.close()
	engine, err := scan.NewEngine(scan.EngineOptions{
		Adapters:      adapters(cfg, reg, m),
		Registry:      reg,
		Cache:         backends.cache,
		CacheTTL:      cfg.CacheTTL,
		Dedupe:        backends.dedupe,
		ScanTimeout:   cfg.ScanTimeout,
		MaxConcurrent: cfg.MaxScans,
		QueueLimit:    queueLimit(cfg.QueueLimit),
		Version:       engineVersion,
		Observer:      m,
	})
	if err != nil {
		return err
	}
	// The write timeout leaves a scan its whole deadline, a queue wait and
	// the history write.
	writeTimeout := 2*cfg.ScanTimeout + 15*time.Second
	api, err := httpapi.NewServer(httpapi.Deps{
		Scanner: engine, Store: st, Auth: auth.NewKeys(st, plans, auth.Options{CacheTTL: keyCacheTTL(cfg.KeyCacheTTL)}), Limiter: backends.limiter,
		Metrics: m, Logger: log,
	})
	if err != nil {
		return err
	}
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

// storeName says which store is in use without its credentials.
func storeName(cfg *config.Config) string {
	if cfg.Postgres != "" {
		return "postgres"
	}
	return "sqlite:" + cfg.DB
}
