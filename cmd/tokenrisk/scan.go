package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// scanOnce scans one address with every enabled chain and prints the
// report, without a server, store or key.
func scanOnce(ctx context.Context, cfg *config.Config, getenv func(string) string, stdout, stderr io.Writer) error {
	log := cfg.Logger(stderr)
	reg, _, err := loadRegistry(cfg, getenv)
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
	return printReport(stdout, rep)
}

// printReport writes a short human summary of a report.
func printReport(w io.Writer, r *scan.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) on %s\n", r.TokenName, r.TokenSymbol, r.Chain)
	fmt.Fprintf(&b, "%s\n", r.Address)
	fmt.Fprintf(&b, "risk: %.1f/100 %s\n", r.OverallRiskScore, strings.ToUpper(string(r.RiskLevel)))
	fmt.Fprintf(&b, "contract %.0f (%s), liquidity %.0f (%s), deployer %.0f (%s), holders %.0f (%s)\n",
		r.ContractAnalysis.Score, r.ContractAnalysis.Status, r.LiquidityAnalysis.Score, r.LiquidityAnalysis.Status,
		r.DeployerAnalysis.Score, r.DeployerAnalysis.Status, r.HolderAnalysis.Score, r.HolderAnalysis.Status)
	for _, f := range r.RiskFlags {
		fmt.Fprintf(&b, "  [%s] %s: %s\n", f.Severity, f.Code, f.Title)
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", warn)
	}
	if len(r.AlsoDeployedOn) > 0 {
		fmt.Fprintf(&b, "also deployed on: %s\n", strings.Join(r.AlsoDeployedOn, ", "))
	}
	fmt.Fprintf(&b, "%s\n", r.Disclaimer)
	_, err := io.WriteString(w, b.String())
	return err
}
