package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/poolindex"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// engineVersion is written in every report; set at build time with
// -ldflags "-X main.engineVersion=…".
var engineVersion = "0.1.0-dev"

// openStore opens the configured store: PostgreSQL when a DSN is given,
// else the SQLite file. Both migrate at open.
func openStore(ctx context.Context, cfg *config.Config) (store.Store, error) {
	if cfg.Postgres != "" {
		return openPostgres(ctx, cfg.Postgres)
	}
	st, err := sqlite.Open(ctx, cfg.DB, sqlite.Options{})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	return st, nil
}

// loadRegistry reads the chains file and applies TOKENRISK_RPC_<CHAIN>.
// It also returns every chain key the file configures (enabled or not),
// which plans are validated against.
func loadRegistry(cfg *config.Config, getenv func(string) string) (*chains.Registry, []string, error) {
	reg, err := chains.Load(cfg.ChainsFile)
	if err != nil {
		return nil, nil, err
	}
	configured := reg.Keys()
	reg.ApplyEnv(getenv, cfg.Devnet)
	if err := reg.CheckEndpoints(); err != nil {
		return nil, nil, err
	}
	return reg, configured, nil
}

// loadPlans returns the plans file's plans, or the SPEC defaults.
func loadPlans(cfg *config.Config, configured []string) (auth.Plans, error) {
	if cfg.PlansFile == "" {
		return auth.DefaultPlans(), nil
	}
	data, err := os.ReadFile(cfg.PlansFile)
	if err != nil {
		return nil, fmt.Errorf("plans: %w", err)
	}
	if configured != nil {
		configured = append(configured, devnet.ChainKey)
	}
	return auth.ParsePlans(data, configured)
}

// devnetChain gives the devnet chain for serve/scan --devnet: a devnet
// started in process, or the running node named by TOKENRISK_RPC_DEVNET
// (whose manifest, written by `tokenrisk devnet --manifest`, must be
// passed as --devnet-manifest). stop releases what was started.
// devnetChain is the dev chain (started here, or the running one of
// TOKENRISK_RPC_DEVNET) and its manifest.
func devnetChain(ctx context.Context, cfg *config.Config, log *slog.Logger) (chains.Chain, devnet.Manifest, func(), error) {
	if cfg.DevnetRPC != "" {
		if cfg.DevnetManifest == "" {
			return chains.Chain{}, devnet.Manifest{}, nil, errors.New("devnet: with TOKENRISK_RPC_DEVNET set, pass the running devnet's manifest as --devnet-manifest (written by `tokenrisk devnet --manifest FILE`)")
		}
		data, err := os.ReadFile(cfg.DevnetManifest)
		if err != nil {
			return chains.Chain{}, devnet.Manifest{}, nil, fmt.Errorf("devnet: read manifest: %w", err)
		}
		var m devnet.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			return chains.Chain{}, devnet.Manifest{}, nil, fmt.Errorf("devnet: decode manifest %s: %w", cfg.DevnetManifest, err)
		}
		// Like every TOKENRISK_RPC_<CHAIN>: comma-separated URLs, in order.
		ch := m.Chain("")
		ch.RPC = splitURLs(cfg.DevnetRPC)
		return ch, m, func() {}, nil
	}
	log.Info("starting the in-process devnet")
	d, err := devnet.Start(ctx, devnet.Options{Logger: log})
	if err != nil {
		return chains.Chain{}, devnet.Manifest{}, nil, fmt.Errorf("devnet: %w", err)
	}
	if cfg.DevnetManifest != "" {
		if err := d.Manifest().WriteFile(cfg.DevnetManifest); err != nil {
			d.Close()
			return chains.Chain{}, devnet.Manifest{}, nil, err
		}
	}
	return d.Chain(), d.Manifest(), func() { d.Close() }, nil
}

// upstreamClient is the HTTP client of every adapter: pooled keep-alive
// connections to the RPC nodes, bounded dial and header waits.
func upstreamClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 256
	tr.MaxIdleConnsPerHost = 64
	tr.ResponseHeaderTimeout = 15 * time.Second
	tr.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	return &http.Client{Transport: tr}
}

// adapters builds the chain adapters over reg.
func adapters(cfg *config.Config, reg *chains.Registry, m *metrics.Metrics) []scan.Adapter {
	client := upstreamClient()
	var upstream func(chain, method string)
	if m != nil {
		upstream = m.Upstream
	}
	sopts := solana.Options{HTTPClient: client, Deadline: cfg.ScanTimeout, Upstream: upstream}
	if cfg.SolanaPoolIndex != "" {
		// Checked when the configuration was loaded.
		if idx, err := poolindex.New(cfg.SolanaPoolIndex, client); err == nil {
			sopts.PoolIndex = idx
		}
	}
	out := []scan.Adapter{solana.NewAdapter(reg, sopts)}
	return append(out, evmAdapters(cfg, reg, client, upstream)...)
}

// splitURLs splits a comma-separated URL list, dropping empty entries.
func splitURLs(v string) []string {
	var urls []string
	for _, u := range strings.Split(v, ",") {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	return urls
}
