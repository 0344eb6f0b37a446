package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// v4Report is the part of a report the V4 verdicts read.
type v4Report struct {
	zooReport
	LiquidityAnalysis struct {
		Pools []struct {
			Kind         string   `json:"kind"`
			Address      string   `json:"address"`
			PoolManager  string   `json:"pool_manager"`
			PoolID       string   `json:"pool_id"`
			QuoteToken   string   `json:"quote_token"`
			LiquidityUSD *float64 `json:"liquidity_usd"`
			LPBurnedPct  *float64 `json:"lp_burned_pct"`
			LPLockedPct  *float64 `json:"lp_locked_pct"`
			V4Key        *struct {
				Currency0   string `json:"currency0"`
				Currency1   string `json:"currency1"`
				Fee         int    `json:"fee"`
				TickSpacing int    `json:"tick_spacing"`
				Hooks       string `json:"hooks"`
			} `json:"v4_key"`
		} `json:"pools"`
		Simulation *struct {
			CanBuy  *bool    `json:"can_buy"`
			CanSell *bool    `json:"can_sell"`
			BuyTax  *float64 `json:"buy_tax"`
			SellTax *float64 `json:"sell_tax"`
			Path    string   `json:"path"`
			Pool    string   `json:"pool"`
			Hook    *struct {
				Address string   `json:"address"`
				BuyFee  *float64 `json:"buy_fee"`
				SellFee *float64 `json:"sell_fee"`
			} `json:"hook"`
			Error *struct {
				Failed bool   `json:"failed"`
				Reason string `json:"reason"`
			} `json:"error"`
		} `json:"simulation"`
	} `json:"liquidity_analysis"`
}

// TestV4ZooVerdicts scans each Uniswap V4 zoo kind through POST
// /api/v1/scan/ on the real server: a V4-only token is found, valued and
// simulated through its pool with the hook running; a hook that reverts
// sells is a critical honeypot; a capped 3% hook is at most low on its
// own, its cut reported apart from the token's (zero) tax; a token on V2
// and V4 lists both pools. It skips without the V4 build
// (contracts/v4/build.sh) unless TOKENRISK_REQUIRE_V4=1.
func TestV4ZooVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	if !contracts.UniswapV4Built() {
		if os.Getenv("TOKENRISK_REQUIRE_V4") == "1" {
			t.Fatalf("TOKENRISK_REQUIRE_V4=1 but %v", contracts.ErrNotBuilt)
		}
		t.Skipf("no V4 zoo: %v", contracts.ErrNotBuilt)
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	s := startServer(t, map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "v4.db"),
		"TOKENRISK_LOG_LEVEL":    "warn",
		"TOKENRISK_SOURCIFY_URL": "none",
	}, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	key := s.key(t, "premium")
	const zero = "0x0000000000000000000000000000000000000000"

	tests := []struct {
		kind     string
		maxLevel string
		honeypot bool
		hookPct  float64
		pools    int
	}{
		{"v4_clean", "low", false, 0, 1},
		{"v4_hook_fee_capped", "low", false, 3, 1},
		{"v4_hook_sell_blocked", "critical", true, 0, 1},
		{"v4_hook_fee_changeable", "", false, 1, 1},
		{"v2_and_v4", "low", false, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			tok, ok := m.Token(tt.kind)
			if !ok {
				t.Fatalf("manifest has no %s", tt.kind)
			}
			reply := s.scan(t, key, tok.Address)
			if reply.status != 200 {
				t.Fatalf("status %d: %s", reply.status, reply.body)
			}
			validateReport(t, reply.body)
			var r v4Report
			if err := json.Unmarshal(reply.body, &r); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(reply.body, &r.zooReport); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s %.1f %v", tt.kind, r.RiskLevel, r.OverallRiskScore, r.RiskFlags)
			if r.Completeness != "complete" || len(r.Unchecked) != 0 {
				t.Errorf("completeness %s unchecked %v, want complete", r.Completeness, r.Unchecked)
			}
			if tt.maxLevel != "" && levelRank[r.RiskLevel] > levelRank[tt.maxLevel] {
				t.Errorf("level %s, want at most %s", r.RiskLevel, tt.maxLevel)
			}
			la := r.LiquidityAnalysis
			if len(la.Pools) != tt.pools {
				t.Fatalf("%d pools %+v, want %d", len(la.Pools), la.Pools, tt.pools)
			}
			var found bool
			for _, p := range la.Pools {
				if p.Kind != "v4" {
					continue
				}
				found = true
				hook := tok.Hook
				if hook == "" {
					hook = zero
				}
				if p.PoolID != tok.V4PoolID || p.PoolManager != m.PoolManager || p.V4Key == nil ||
					p.V4Key.Currency0 != zero || !strings.EqualFold(p.V4Key.Currency1, tok.Address) || !strings.EqualFold(p.V4Key.Hooks, hook) {
					t.Errorf("V4 pool %+v key %+v, want id %s in %s, ETH/token, hooks %s", p, p.V4Key, tok.V4PoolID, m.PoolManager, hook)
				}
				if p.LiquidityUSD == nil || *p.LiquidityUSD < 40_000 || p.LPBurnedPct != nil || p.LPLockedPct != nil {
					t.Errorf("V4 pool liquidity_usd %v, LP burned %v locked %v: want valued, LP unknown", p.LiquidityUSD, p.LPBurnedPct, p.LPLockedPct)
				}
			}
			if !found {
				t.Fatalf("no V4 pool in %+v", la.Pools)
			}
			if r.SafetyChecklist["liquidity_locked"] != (tt.kind == "v2_and_v4") {
				t.Errorf("liquidity_locked %v: V4 LP is unknown, the V2 pool's is burned", r.SafetyChecklist["liquidity_locked"])
			}
			sim := la.Simulation
			if sim == nil || sim.CanBuy == nil || !*sim.CanBuy {
				t.Fatalf("simulation %+v, want a buy", sim)
			}
			if tt.kind == "v2_and_v4" {
				if sim.Path == "v4" {
					t.Errorf("path v4: the deeper V2 pool decides")
				}
				return
			}
			if sim.Path != "v4" || sim.Pool != tok.V4PoolID {
				t.Errorf("simulation path %q pool %s, want v4 through %s", sim.Path, sim.Pool, tok.V4PoolID)
			}
			if tt.honeypot {
				if !r.has("HONEYPOT_CANNOT_SELL") || r.RiskLevel != "critical" || r.SafetyChecklist["not_honeypot"] {
					t.Errorf("level %s flags %v not_honeypot %v, want a critical HONEYPOT_CANNOT_SELL", r.RiskLevel, r.RiskFlags, r.SafetyChecklist["not_honeypot"])
				}
				if sim.Error == nil || !sim.Error.Failed || !strings.Contains(sim.Error.Reason, tok.Hook) {
					t.Errorf("simulation error %+v, want the sell's revert naming the hook %s", sim.Error, tok.Hook)
				}
				return
			}
			if sim.CanSell == nil || !*sim.CanSell || r.has("HONEYPOT_CANNOT_SELL") || !r.SafetyChecklist["not_honeypot"] {
				t.Errorf("can_sell %v flags %v, want a sell and no honeypot", sim.CanSell, r.RiskFlags)
			}
			if !between(sim.BuyTax, 0, 0.5) || !between(sim.SellTax, 0, 0.5) {
				t.Errorf("token taxes buy %v sell %v, want 0 (the hook's cut is apart)", sim.BuyTax, sim.SellTax)
			}
			if tok.Hook == "" {
				if sim.Hook != nil {
					t.Errorf("hook %+v on a pool without one", sim.Hook)
				}
				return
			}
			if sim.Hook == nil || !strings.EqualFold(sim.Hook.Address, tok.Hook) || !between(sim.Hook.BuyFee, tt.hookPct, 0.1) || !between(sim.Hook.SellFee, tt.hookPct, 0.1) {
				t.Errorf("hook %+v, want %s taking %v%% of buys and sells", sim.Hook, tok.Hook, tt.hookPct)
			}
		})
	}
}
