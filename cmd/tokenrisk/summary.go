package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tokenrisk/tokenrisk/client"
	"github.com/tokenrisk/tokenrisk/internal/config"
)

// scanRemote is `scan ADDRESS --server URL`: one scan through a running
// server with the key in TOKENRISK_KEY, printed as a summary or (--json)
// as the server's report bytes.
func scanRemote(ctx context.Context, cfg *config.Config, stdout io.Writer, getenv func(string) string) error {
	if strings.TrimSpace(cfg.Key) == "" {
		return fmt.Errorf("scan --server needs an API key: set TOKENRISK_KEY (tokenrisk keys create --plan free prints one)")
	}
	c, err := client.New(cfg.Server, cfg.Key)
	if err != nil {
		return err
	}
	raw, err := c.ScanJSON(ctx, cfg.Args[0])
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	if cfg.JSON {
		_, err := fmt.Fprintf(stdout, "%s\n", raw)
		return err
	}
	var rep client.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("scan: decode report: %w", err)
	}
	return printSummary(stdout, &rep, colour(stdout, getenv))
}

// colour is true when w is a terminal and NO_COLOR is unset.
func colour(w io.Writer, getenv func(string) string) bool {
	f, ok := w.(*os.File)
	if !ok || getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// levelANSI are the levels' terminal colours (SGR codes).
var levelANSI = map[client.Level]string{
	client.Minimal: "1;32", client.Low: "32", client.Medium: "1;33", client.High: "1;31", client.Critical: "1;41;97",
}

// printSummary writes a readable summary of a report: level, analyses,
// checklist, flags with their evidence, what was not checked, warnings.
func printSummary(w io.Writer, r *client.Report, ansi bool) error {
	paint := func(code, s string) string {
		if !ansi || code == "" {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var b strings.Builder
	name := strings.TrimSpace(r.TokenName + " (" + r.TokenSymbol + ")")
	fmt.Fprintf(&b, "%s on %s\n%s\n", name, r.Chain, r.Address)
	fmt.Fprintf(&b, "risk: %s %.1f/100", paint(levelANSI[r.RiskLevel], strings.ToUpper(string(r.RiskLevel))), r.OverallRiskScore)
	if r.Cached {
		fmt.Fprintf(&b, " (cached, scanned %s)", r.ScannedAt.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "contract %.0f (%s), liquidity %.0f (%s), deployer %.0f (%s), holders %.0f (%s)\n",
		r.ContractAnalysis.Score, r.ContractAnalysis.Status, r.LiquidityAnalysis.Score, r.LiquidityAnalysis.Status,
		r.DeployerAnalysis.Score, r.DeployerAnalysis.Status, r.HolderAnalysis.Score, r.HolderAnalysis.Status)
	if r.Completeness != "" && !r.Complete() {
		fmt.Fprintf(&b, "%s: not checked: %s (unknown risk, not no risk)\n",
			paint("1;33", "INCOMPLETE"), strings.Join(r.Unchecked, ", "))
	}
	if len(r.NotConfigured) > 0 {
		fmt.Fprintf(&b, "turned off on the server: %s\n", strings.Join(r.NotConfigured, ", "))
	}
	b.WriteString("checklist:\n")
	for _, c := range checklistLines(r) {
		mark := paint("32", "✓ yes")
		switch c.State {
		case client.No:
			mark = paint("31", "✗ no")
		case client.Unknown:
			mark = paint("33", "? unknown")
		}
		if len(c.Because) > 0 {
			mark += " (" + strings.Join(c.Because, ", ") + ")"
		}
		fmt.Fprintf(&b, "  %-20s %s\n", c.label, mark)
	}
	if len(r.RiskFlags) > 0 {
		b.WriteString("flags:\n")
	}
	for _, f := range r.RiskFlags {
		sev := client.Level(f.Severity)
		fmt.Fprintf(&b, "  [%s] %s: %s\n", paint(levelANSI[sev], f.Severity), f.Code, f.Title)
		if f.Detail != "" {
			fmt.Fprintf(&b, "      %s\n", f.Detail)
		}
		switch f.Evidence {
		case client.EvidenceProbe:
			fmt.Fprintf(&b, "      evidence: proven by a probe: %s\n", f.Source)
		case client.EvidenceCode:
			fmt.Fprintf(&b, "      evidence: a code path exists (not proven): %s\n", f.Source)
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", warn)
	}
	if len(r.AlsoDeployedOn) > 0 {
		fmt.Fprintf(&b, "also deployed on: %s\n", strings.Join(r.AlsoDeployedOn, ", "))
	}
	fmt.Fprintf(&b, "%s\n", r.Disclaimer)
	_, err := io.WriteString(w, b.String())
	return err
}

// checklistLine is one checklist question as the summary prints it.
type checklistLine struct {
	label string
	client.ChecklistAnswer
}

// checklistLines answers the checklist yes, no or unknown: from the
// report's states, or (a report stored before servers wrote them) yes
// where proven and unknown otherwise, since a false alone does not say
// whether it was disproven.
func checklistLines(r *client.Report) []checklistLine {
	ck, st := r.SafetyChecklist, r.SafetyChecklistStates
	if st == nil {
		st = &client.ChecklistStates{}
		for _, q := range []struct {
			ok  bool
			ans *client.ChecklistAnswer
		}{
			{ck.Verified, &st.Verified}, {ck.NotHoneypot, &st.NotHoneypot}, {ck.HealthyHolders, &st.HealthyHolders},
			{ck.OwnershipRenounced, &st.OwnershipRenounced}, {ck.LiquidityLocked, &st.LiquidityLocked}, {ck.NoMint, &st.NoMint},
		} {
			q.ans.State = client.Unknown
			if q.ok {
				q.ans.State = client.Yes
			}
		}
	}
	return []checklistLine{
		{"verified", st.Verified}, {"not honeypot", st.NotHoneypot}, {"healthy holders", st.HealthyHolders},
		{"ownership renounced", st.OwnershipRenounced}, {"liquidity locked", st.LiquidityLocked}, {"no mint", st.NoMint},
	}
}
