package evm

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// hookOf is the report's judgment of the kind's hook (liquidity_analysis.hooks).
func hookOf(t *testing.T, r *scan.Report, kind string) analysis.EVMHook {
	t.Helper()
	ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
	tok := v4Token(t, kind)
	if len(ev.Hooks) != 1 || !strings.EqualFold(ev.Hooks[0].Address, tok.Hook) || ev.Hooks[0].PoolID != tok.V4PoolID {
		t.Fatalf("hooks %+v, want the hook %s of pool %s", ev.Hooks, tok.Hook, tok.V4PoolID)
	}
	return ev.Hooks[0]
}

// noHooks checks a report of a token whose pools have no hook judges none.
func noHooks(t *testing.T, r *scan.Report) {
	t.Helper()
	if ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence); len(ev.Hooks) != 0 {
		t.Errorf("hooks %+v on pools without one", ev.Hooks)
	}
}

// checkHook checks what a user reads of a zoo TaxHook: the callbacks its
// address permits, its cut named, its owner (the token's creator), and
// the ceiling of its fee and whether its owner can close sells, proven by
// the probe; the fee flag's severity follows the ceiling.
func checkHook(t *testing.T, r *scan.Report, kind string, ceiling float64, canBlock bool) {
	t.Helper()
	h := hookOf(t, r, kind)
	tok := v4Token(t, kind)
	if strings.Join(h.Permissions, ",") != "beforeSwap,afterSwap,afterSwapReturnDelta" || !h.TakesCut {
		t.Errorf("hook permissions %v takes_cut %v", h.Permissions, h.TakesCut)
	}
	if h.Owner == nil || !strings.EqualFold(*h.Owner, tok.Creator) {
		t.Errorf("hook owner %v, want the creator %s", fmtPtr(h.Owner), tok.Creator)
	}
	if h.CanBlockSells == nil || *h.CanBlockSells != canBlock || h.CanDrain == nil || *h.CanDrain {
		t.Errorf("hook can_block_sells %v (%s) can_drain %v, want %v and false", fmtPtr(h.CanBlockSells), h.BlockBy, fmtPtr(h.CanDrain), canBlock)
	}
	if ceiling == 0 {
		return
	}
	near(t, "hook fee_ceiling_pct", h.FeeCeilingPct, ceiling, 0.1)
	f := flagOf(r.RiskFlags, risk.HookFeeChangeable)
	if f == nil {
		t.Fatalf("no %s among %+v", risk.HookFeeChangeable, r.RiskFlags)
	}
	want := risk.High
	if ceiling <= risk.FeeCappedPct {
		want = risk.Low
	}
	if f.Severity != want || f.Value == nil || *f.Value < ceiling-0.1 || f.Evidence != risk.EvidenceProbe {
		t.Errorf("%s %s value %v evidence %q, want %s at %v%% by probe", f.Code, f.Severity, fmtPtr(f.Value), f.Evidence, want, ceiling)
	}
}
