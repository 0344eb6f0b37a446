package evm

import (
	"slices"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// TestAdapterDegradedNodeIsNeverSafe scans zoo tokens through a node that
// is slow (the probes miss the deadline, the holder scan its budget) or
// that refuses one method: the report is degraded, names what could not
// run, carries SCAN_INCOMPLETE, never reads minimal, and keeps every flag
// the checks that did run support.
func TestAdapterDegradedNodeIsNeverSafe(t *testing.T) {
	dn := startAdapterNet(t)
	type node struct {
		delay       time.Duration
		breakMethod string
		deadline    time.Duration
	}
	// Detection, the simulation and the probes are three sequential round
	// trips: at 500ms each the probes end past a 1.3s deadline.
	slow := node{delay: 500 * time.Millisecond, deadline: 1300 * time.Millisecond}
	noLogs := node{breakMethod: "eth_getLogs"}
	tests := []struct {
		name      string
		kind      string
		node      node
		unchecked []string
		flags     []string
		minLevel  risk.Level
	}{
		// storage_target_call is static evidence: it keeps EXTERNAL_CALL
		// when the probes that would prove it did not run.
		{"slow node, stored-target call", "external_call", slow, []string{risk.CheckPrivilegeProbes, risk.CheckHolders}, []string{risk.ExternalCall}, risk.LevelMedium},
		{"slow node, concentrated supply", "concentrated", slow, []string{risk.CheckHolders}, nil, risk.LevelMedium},
		{"slow node, hidden mint", "hidden_mint", slow, []string{risk.CheckPrivilegeProbes, risk.CheckHolders}, nil, risk.LevelMedium},
		{"no eth_getLogs, concentrated supply", "concentrated", noLogs, []string{risk.CheckHolders}, nil, risk.LevelMedium},
		{"no eth_getLogs, clean token", "clean", noLogs, []string{risk.CheckHolders}, nil, risk.LevelMedium},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok, ok := dn.Manifest().Token(tt.kind)
			if !ok {
				t.Fatalf("no %s token", tt.kind)
			}
			p := newRPCProxy(t, dn.RPCURL(), tt.node.delay, 0)
			p.breakMethod = tt.node.breakMethod
			ch := dn.Chain()
			ch.RPC = []string{p.URL()}
			r, err := assess(t, NewAdapter(devnetRegistry(t, ch), Options{Deadline: tt.node.deadline}), tok.Address)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s %.1f unchecked %v flags %v", tt.kind, r.RiskLevel, r.OverallRiskScore, r.Unchecked, flagCodes(r))
			if r.Completeness != scan.Degraded || !r.HasFlag(risk.ScanIncomplete) {
				t.Errorf("completeness %s, SCAN_INCOMPLETE %v: want degraded and flagged", r.Completeness, r.HasFlag(risk.ScanIncomplete))
			}
			for _, c := range tt.unchecked {
				if !slices.Contains(r.Unchecked, c) {
					t.Errorf("unchecked %v, want %s in it", r.Unchecked, c)
				}
			}
			for _, c := range tt.flags {
				if !r.HasFlag(c) {
					t.Errorf("flag %s lost: %v", c, flagCodes(r))
				}
			}
			if levelRank[r.RiskLevel] < levelRank[tt.minLevel] {
				t.Errorf("level %s (%.1f), want at least %s", r.RiskLevel, r.OverallRiskScore, tt.minLevel)
			}
			if slices.Contains(r.Unchecked, risk.CheckSourceVerification) || !slices.Contains(r.NotConfigured, risk.CheckSourceVerification) {
				t.Errorf("unchecked %v not_configured %v: an explorer that is not configured is not a failure", r.Unchecked, r.NotConfigured)
			}
		})
	}
}
