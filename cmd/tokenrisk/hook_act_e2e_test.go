package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// hookReport is the part of a report the hook actions change.
type hookReport struct {
	RiskLevel         string `json:"risk_level"`
	LiquidityAnalysis struct {
		Simulation *struct {
			CanSell *bool `json:"can_sell"`
			Error   *struct {
				Failed bool   `json:"failed"`
				Reason string `json:"reason"`
			} `json:"error"`
			Hook *struct {
				BuyFee  *float64 `json:"buy_fee"`
				SellFee *float64 `json:"sell_fee"`
			} `json:"hook"`
		} `json:"simulation"`
		Hooks []struct {
			Address       string   `json:"address"`
			BuyCutPct     *float64 `json:"buy_cut_pct"`
			SellCutPct    *float64 `json:"sell_cut_pct"`
			SellsBlocked  *bool    `json:"sells_blocked"`
			FeeCeilingPct *float64 `json:"fee_ceiling_pct"`
		} `json:"hooks"`
	} `json:"liquidity_analysis"`
	RiskFlags []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
	} `json:"risk_flags"`
}

func (r hookReport) has(code string) bool {
	for _, f := range r.RiskFlags {
		if f.Code == code {
			return true
		}
	}
	return false
}

// TestDevnetActHookEndToEnd: `tokenrisk devnet act hook-fee N` and
// `hook-block` send the V4 hook owner's real transactions, and a scan
// through POST /api/v1/scan/ shows each: after hook-fee 50 the hook takes
// half of the simulated trade (it took 1%), after hook-block the sell
// through the pool fails and the token is critical with the hook's
// revert. The capped hook refuses a fee above its cap and has no sell
// switch: the command says so and changes nothing.
func TestDevnetActHookEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	if !contracts.UniswapV4Built() {
		if os.Getenv("TOKENRISK_REQUIRE_V4") == "1" {
			t.Fatal(contracts.ErrNotBuilt)
		}
		t.Skip(contracts.ErrNotBuilt)
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "hookact.db"),
		"TOKENRISK_LOG_LEVEL":    "warn",
		"TOKENRISK_SOURCIFY_URL": "none",
		"TOKENRISK_CACHE_TTL":    "0",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	key := s.key(t, "premium")
	open, _ := m.Token("v4_hook_fee_changeable")
	capped, _ := m.Token("v4_hook_fee_capped")
	scan := func(label string) hookReport {
		t.Helper()
		r := s.scan(t, key, open.Address)
		if r.status != 200 {
			t.Fatalf("%s: scan %d %s", label, r.status, r.body)
		}
		var rep hookReport
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.LiquidityAnalysis.Hooks) != 1 || !strings.EqualFold(rep.LiquidityAnalysis.Hooks[0].Address, open.Hook) || rep.LiquidityAnalysis.Simulation == nil {
			t.Fatalf("%s: hooks %+v simulation %+v, want the open hook judged", label, rep.LiquidityAnalysis.Hooks, rep.LiquidityAnalysis.Simulation)
		}
		h, sim := rep.LiquidityAnalysis.Hooks[0], rep.LiquidityAnalysis.Simulation
		t.Logf("%s: %s %v; hook cut buy %v sell %v blocked %v; simulation can_sell %v hook %+v", label, rep.RiskLevel, rep.RiskFlags,
			ptrVal(h.BuyCutPct), ptrVal(h.SellCutPct), ptrVal(h.SellsBlocked), ptrVal(sim.CanSell), sim.Hook)
		return rep
	}
	act := func(token string, args ...string) (string, error) {
		var out bytes.Buffer
		all := append([]string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", token}, args...)
		err := run(context.Background(), all, func(string) string { return "" }, strings.NewReader(""), &out, io.Discard)
		return out.String(), err
	}
	within := func(v *float64, want float64) bool { return v != nil && *v >= want-0.2 && *v <= want+0.2 }

	before := scan("before")
	if h := before.LiquidityAnalysis.Hooks[0]; !within(h.BuyCutPct, 1) || !within(h.SellCutPct, 1) || !within(h.FeeCeilingPct, 100) {
		t.Errorf("before: hook cut buy %v sell %v ceiling %v, want 1%%, 1%% and 100%%", ptrVal(h.BuyCutPct), ptrVal(h.SellCutPct), ptrVal(h.FeeCeilingPct))
	}
	if out, err := act(open.Address, "hook-fee", "50"); err != nil || !strings.HasPrefix(out, "hook-fee 0x") {
		t.Fatalf("devnet act hook-fee 50: %q %v", out, err)
	}
	fee := scan("after hook-fee 50")
	h, sim := fee.LiquidityAnalysis.Hooks[0], fee.LiquidityAnalysis.Simulation
	if !within(h.BuyCutPct, 50) || !within(h.SellCutPct, 50) || sim.Hook == nil || !within(sim.Hook.BuyFee, 50) {
		t.Errorf("after hook-fee 50: hook cut buy %v sell %v, simulation hook %+v; want 50%%", ptrVal(h.BuyCutPct), ptrVal(h.SellCutPct), sim.Hook)
	}
	if !fee.has("HOOK_TAKES_CUT") || fee.RiskLevel != "critical" {
		t.Errorf("after hook-fee 50: %s %v, want critical with HOOK_TAKES_CUT", fee.RiskLevel, fee.RiskFlags)
	}
	if out, err := act(open.Address, "hook-block"); err != nil || !strings.HasPrefix(out, "hook-block 0x") {
		t.Fatalf("devnet act hook-block: %q %v", out, err)
	}
	blocked := scan("after hook-block")
	h, sim = blocked.LiquidityAnalysis.Hooks[0], blocked.LiquidityAnalysis.Simulation
	if sim.CanSell == nil || *sim.CanSell || sim.Error == nil || !sim.Error.Failed || !strings.Contains(sim.Error.Reason, "sells are closed") ||
		h.SellsBlocked == nil || !*h.SellsBlocked {
		t.Errorf("after hook-block: can_sell %v error %v sells_blocked %v, want the sell refused by the hook", ptrVal(sim.CanSell), ptrVal(sim.Error), ptrVal(h.SellsBlocked))
	}
	if blocked.RiskLevel != "critical" || !blocked.has("HONEYPOT_CANNOT_SELL") || !blocked.has("HOOK_CAN_BLOCK_SELLS") {
		t.Errorf("after hook-block: %s %v, want critical with HONEYPOT_CANNOT_SELL and HOOK_CAN_BLOCK_SELLS", blocked.RiskLevel, blocked.RiskFlags)
	}

	// The capped hook: no fee above its 5% cap, no sell switch.
	for _, args := range [][]string{{"hook-fee", "50"}, {"hook-block"}} {
		if _, err := act(capped.Address, args...); err == nil || !strings.Contains(err.Error(), "would fail") {
			t.Errorf("devnet act %v on the capped hook: %v, want the owner's call refused", args, err)
		}
	}
	clean, _ := m.Token("clean")
	if _, err := act(clean.Address, "hook-block"); err == nil || !strings.Contains(err.Error(), "no Uniswap V4 pool with a hook") {
		t.Errorf("devnet act hook-block on a token without a hook: %v", err)
	}
}

func ptrVal[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
