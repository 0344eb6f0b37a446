package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/tokenrisk/tokenrisk/client"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// scanOnce scans one address with every enabled chain and prints the
// report, without a server, store or key (with --server: through that
// server).
func scanOnce(ctx context.Context, cfg *config.Config, getenv func(string) string, stdout, stderr io.Writer) error {
	if cfg.Server != "" {
		return scanRemote(ctx, cfg, stdout, getenv)
	}
	log := cfg.Logger(stderr)
	reg, _, err := loadRegistry(cfg, getenv)
	if err != nil {
		return err
	}
	if cfg.Devnet {
		chain, _, stop, err := devnetChain(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer stop()
		reg.Add(chain)
	}
	engine, err := scan.NewEngine(scan.EngineOptions{
		Adapters: adapters(cfg, reg, nil), Registry: reg, ScanTimeout: cfg.ScanTimeout, Version: engineVersion,
	})
	if err != nil {
		return err
	}
	rep, err := engine.Scan(ctx, scan.ScanRequest{Address: cfg.Args[0], Chains: reg.Keys(), Priority: scan.PriorityHigh})
	if err != nil {
		return fmt.Errorf("scan: %s (%s)", fault.MessageOf(err), fault.CodeOf(err))
	}
	if cfg.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	// One summary for both: the report as a client reads it.
	b, err := json.Marshal(rep)
	if err != nil {
		return fmt.Errorf("scan: encode report: %w", err)
	}
	var view client.Report
	if err := json.Unmarshal(b, &view); err != nil {
		return fmt.Errorf("scan: decode report: %w", err)
	}
	return printSummary(stdout, &view, colour(stdout, getenv))
}
