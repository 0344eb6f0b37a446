package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// zooReport is the part of a report the zoo verdicts read.
type zooReport struct {
	TokenName        string  `json:"token_name"`
	TokenSymbol      string  `json:"token_symbol"`
	OverallRiskScore float64 `json:"overall_risk_score"`
	RiskLevel        string  `json:"risk_level"`
	ContractAnalysis struct {
		Proxy *struct {
			Kind           string `json:"kind"`
			Implementation string `json:"implementation"`
			Admin          string `json:"admin"`
		} `json:"proxy"`
	} `json:"contract_analysis"`
	LiquidityAnalysis struct {
		Simulation *struct {
			CanBuy      *bool    `json:"can_buy"`
			CanSell     *bool    `json:"can_sell"`
			BuyTax      *float64 `json:"buy_tax"`
			SellTax     *float64 `json:"sell_tax"`
			TransferTax *float64 `json:"transfer_tax"`
		} `json:"simulation"`
	} `json:"liquidity_analysis"`
	SafetyChecklist map[string]bool `json:"safety_checklist"`
	RiskFlags       []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
	} `json:"risk_flags"`
}

func (r zooReport) has(code string) bool {
	for _, f := range r.RiskFlags {
		if f.Code == code {
			return true
		}
	}
	return false
}

func (r zooReport) hasSeverity(sev ...string) []string {
	var out []string
	for _, f := range r.RiskFlags {
		for _, s := range sev {
			if f.Severity == s {
				out = append(out, f.Code)
			}
		}
	}
	return out
}

var levelRank = map[string]int{"minimal": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}

func atLeast(level, min string) bool { return levelRank[level] >= levelRank[min] }

func between(v *float64, want, tol float64) bool { return v != nil && *v >= want-tol && *v <= want+tol }

// TestZooVerdicts scans every devnet zoo token through POST /api/v1/scan/
// on the real server and checks the verdicts issue 4 names.
func TestZooVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "zoo.db"),
		"TOKENRISK_LOG_LEVEL":    "warn",
		"TOKENRISK_SOURCIFY_URL": "none",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	key := s.key(t, "premium")

	scanKind := func(t *testing.T, kind string) (zooReport, devnet.ManifestToken) {
		t.Helper()
		tok, ok := m.Token(kind)
		if !ok {
			t.Fatalf("manifest has no %s token", kind)
		}
		r := s.scan(t, key, tok.Address)
		if r.status != 200 {
			t.Fatalf("%s: status %d: %s", kind, r.status, r.body)
		}
		var rep zooReport
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %s %.1f %v", kind, rep.RiskLevel, rep.OverallRiskScore, rep.RiskFlags)
		return rep, tok
	}
	requireFlag := func(t *testing.T, r zooReport, codes ...string) {
		t.Helper()
		for _, c := range codes {
			if !r.has(c) {
				t.Errorf("flag %s missing; flags %v", c, r.RiskFlags)
			}
		}
	}
	requireLevel := func(t *testing.T, r zooReport, min string) {
		t.Helper()
		if !atLeast(r.RiskLevel, min) {
			t.Errorf("level %s (%.1f), want %s or above", r.RiskLevel, r.OverallRiskScore, min)
		}
	}

	t.Run("clean", func(t *testing.T) {
		r, _ := scanKind(t, "clean")
		if r.RiskLevel != "minimal" && r.RiskLevel != "low" {
			t.Errorf("level %s, want minimal or low", r.RiskLevel)
		}
		if bad := r.hasSeverity("high", "critical"); len(bad) > 0 {
			t.Errorf("high/critical flags %v", bad)
		}
		sim := r.LiquidityAnalysis.Simulation
		if sim == nil || sim.CanBuy == nil || !*sim.CanBuy || sim.CanSell == nil || !*sim.CanSell {
			t.Fatalf("simulation %+v, want buy and sell", sim)
		}
		if !between(sim.BuyTax, 0, 0.999) || !between(sim.SellTax, 0, 0.999) {
			t.Errorf("taxes buy %v sell %v, want < 1", sim.BuyTax, sim.SellTax)
		}
		for _, c := range []string{"not_honeypot", "ownership_renounced", "liquidity_locked", "no_mint"} {
			if !r.SafetyChecklist[c] {
				t.Errorf("checklist %s = false", c)
			}
		}
	})
	t.Run("clean_owned", func(t *testing.T) {
		r, _ := scanKind(t, "clean_owned")
		requireFlag(t, r, "OWNER_NOT_RENOUNCED")
		if bad := r.hasSeverity("high", "critical"); len(bad) > 0 {
			t.Errorf("high/critical flags %v", bad)
		}
	})
	for _, kind := range []string{"honeypot_sell_blocked", "honeypot_blacklist_on_buy"} {
		t.Run(kind, func(t *testing.T) {
			r, _ := scanKind(t, kind)
			requireFlag(t, r, "HONEYPOT_CANNOT_SELL")
			if r.RiskLevel != "critical" || r.SafetyChecklist["not_honeypot"] {
				t.Errorf("level %s not_honeypot %v, want critical and false", r.RiskLevel, r.SafetyChecklist["not_honeypot"])
			}
		})
	}
	t.Run("tax_sell_high", func(t *testing.T) {
		r, _ := scanKind(t, "tax_sell_high")
		requireFlag(t, r, "SELL_TAX_HIGH")
		requireLevel(t, r, "high")
		sim := r.LiquidityAnalysis.Simulation
		if sim == nil || !between(sim.SellTax, 30, 2) || !between(sim.BuyTax, 5, 1) {
			t.Errorf("simulation %+v, want sell 30±2 buy 5±1", sim)
		}
	})
	t.Run("tax_extreme", func(t *testing.T) {
		r, _ := scanKind(t, "tax_extreme")
		requireFlag(t, r, "TAX_EXTREME")
		if r.RiskLevel != "critical" {
			t.Errorf("level %s, want critical", r.RiskLevel)
		}
	})
	t.Run("fee_on_transfer", func(t *testing.T) {
		r, _ := scanKind(t, "fee_on_transfer")
		requireFlag(t, r, "TRANSFER_TAX")
		if sim := r.LiquidityAnalysis.Simulation; sim == nil || !between(sim.TransferTax, 5, 1) {
			t.Errorf("simulation %+v, want transfer tax 5±1", sim)
		}
	})
	capabilities := map[string][]string{
		"fee_modifiable":     {"OWNER_CAN_CHANGE_FEES"},
		"mintable":           {"OWNER_CAN_MINT"},
		"blacklist":          {"OWNER_CAN_BLACKLIST"},
		"pausable":           {"OWNER_CAN_PAUSE"},
		"max_tx":             {"OWNER_CAN_LIMIT_TX"},
		"selfdestruct":       {"SELFDESTRUCT"},
		"hidden_owner":       {"HIDDEN_OWNER"},
		"balance_modifiable": {"OWNER_CAN_CHANGE_BALANCE"},
		"external_call":      {"EXTERNAL_CALL"},
		"proxy_upgradeable":  {"PROXY_UPGRADEABLE"},
	}
	for kind, codes := range capabilities {
		t.Run(kind, func(t *testing.T) {
			r, tok := scanKind(t, kind)
			requireFlag(t, r, codes...)
			requireLevel(t, r, "medium")
			switch kind {
			case "balance_modifiable":
				requireLevel(t, r, "high")
			case "proxy_upgradeable":
				p := r.ContractAnalysis.Proxy
				if p == nil || p.Implementation == "" {
					t.Fatalf("proxy = %+v, want the implementation", p)
				}
				if tok.Implementation != "" && !strings.EqualFold(p.Implementation, tok.Implementation) {
					t.Errorf("implementation %s, manifest says %s", p.Implementation, tok.Implementation)
				}
			}
		})
	}
	t.Run("hidden_mint", func(t *testing.T) {
		r, _ := scanKind(t, "hidden_mint")
		if !r.has("OWNER_CAN_MINT") && !r.has("OWNER_CAN_CHANGE_BALANCE") {
			t.Errorf("flags %v, want OWNER_CAN_MINT or OWNER_CAN_CHANGE_BALANCE", r.RiskFlags)
		}
		requireLevel(t, r, "medium")
	})
	t.Run("cooldown", func(t *testing.T) {
		r, _ := scanKind(t, "cooldown")
		requireFlag(t, r, "TRADING_COOLDOWN")
		if r.has("HONEYPOT_CANNOT_SELL") {
			t.Error("cooldown token reported as a honeypot")
		}
	})
	t.Run("trading_disabled", func(t *testing.T) {
		r, _ := scanKind(t, "trading_disabled")
		if !r.has("HONEYPOT_CANNOT_BUY") && !r.has("TRADING_SWITCH") {
			t.Errorf("flags %v, want HONEYPOT_CANNOT_BUY or TRADING_SWITCH", r.RiskFlags)
		}
		requireLevel(t, r, "high")
	})
	t.Run("lp_unlocked", func(t *testing.T) {
		r, _ := scanKind(t, "lp_unlocked")
		requireFlag(t, r, "LP_NOT_LOCKED")
	})
	t.Run("lp_locked", func(t *testing.T) {
		r, _ := scanKind(t, "lp_locked")
		if r.has("LP_NOT_LOCKED") || !r.SafetyChecklist["liquidity_locked"] {
			t.Errorf("flags %v liquidity_locked %v", r.RiskFlags, r.SafetyChecklist["liquidity_locked"])
		}
	})
	t.Run("concentrated", func(t *testing.T) {
		r, _ := scanKind(t, "concentrated")
		if !r.has("WHALE_HOLDER") && !r.has("TOP10_CONCENTRATED") {
			t.Errorf("flags %v, want WHALE_HOLDER or TOP10_CONCENTRATED", r.RiskFlags)
		}
		if r.SafetyChecklist["healthy_holders"] {
			t.Error("healthy_holders true for a concentrated token")
		}
	})
	t.Run("no_liquidity", func(t *testing.T) {
		r, _ := scanKind(t, "no_liquidity")
		requireFlag(t, r, "NO_LIQUIDITY")
		for _, f := range r.RiskFlags {
			if strings.HasPrefix(f.Code, "HONEYPOT_") {
				t.Errorf("no_liquidity raised %s", f.Code)
			}
		}
	})
	t.Run("weird_metadata", func(t *testing.T) {
		r, _ := scanKind(t, "weird_metadata")
		requireFlag(t, r, "NON_STANDARD_TOKEN")
		for _, s := range []string{r.TokenName, r.TokenSymbol} {
			if !utf8Valid(s) || len([]rune(s)) > 64 {
				t.Errorf("name/symbol %q not sanitised", s)
			}
		}
	})
	t.Run("not_a_token", func(t *testing.T) {
		tok, _ := m.Token("not_a_token")
		if r := s.scan(t, key, tok.Address); r.status != 422 || r.code() != "not_a_token" {
			t.Errorf("status %d %s, want 422 not_a_token", r.status, r.body)
		}
	})
	t.Run("no code anywhere", func(t *testing.T) {
		if r := s.scan(t, key, "0x1111111111111111111111111111111111111111"); r.status != 404 || r.code() != "token_not_found" {
			t.Errorf("status %d %s, want 404 token_not_found", r.status, r.body)
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
