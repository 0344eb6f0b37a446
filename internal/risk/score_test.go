package risk_test

import (
	"math"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func flags(codes ...string) []risk.Flag {
	out := make([]risk.Flag, 0, len(codes))
	for _, c := range codes {
		out = append(out, risk.NewFlag(c, c, ""))
	}
	return out
}

func TestScore(t *testing.T) {
	cat := risk.NewCatalogue()
	tests := map[string]struct {
		flags     []risk.Flag
		wantLevel risk.Level
		minScore  float64
		maxScore  float64
	}{
		"no flags is minimal":                   {nil, risk.Minimal, 0, 0},
		"owner kept is minimal":                 {flags(risk.OwnerNotRenounced), risk.Minimal, 15, 15},
		"cannot sell is critical":               {flags(risk.HoneypotCannotSell), risk.LevelCritical, 95, 95},
		"critical lifts to 90":                  {flags(risk.PermanentDelegate), risk.LevelCritical, 90, 90},
		"sell tax high alone is high":           {flags(risk.SellTaxHigh), risk.LevelHigh, 62, 62},
		"proven mint with a live owner is high": {flags(risk.OwnerCanMint, risk.OwnerNotRenounced), risk.LevelHigh, 66, 66},
		"trusted token capped at low":           {flags(risk.TrustedToken, risk.OwnerCanBlacklist, risk.OwnerCanPause, risk.OwnerNotRenounced), risk.LevelLow, 39.9, 39.9},
		"trusted unsellable stays critical":     {flags(risk.TrustedToken, risk.HoneypotCannotSell), risk.LevelCritical, 95, 95},
		"many powers, none critical, stay high": {flags(risk.OwnerCanMint, risk.OwnerCanBlacklist, risk.OwnerCanPause, risk.LPNotLocked, risk.WhaleHolder), risk.LevelHigh, 79.9, 79.9},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := cat.Score(tt.flags)
			if got.Level != tt.wantLevel {
				t.Errorf("level = %s, want %s (score %v)", got.Level, tt.wantLevel, got.Overall)
			}
			if got.Overall < tt.minScore || got.Overall > tt.maxScore {
				t.Errorf("score = %v, want in [%v, %v]", got.Overall, tt.minScore, tt.maxScore)
			}
			if got.Overall != math.Round(got.Overall*10)/10 {
				t.Errorf("score %v has more than one decimal", got.Overall)
			}
		})
	}
}

func TestCategoryScoresUseOnlyTheirFlags(t *testing.T) {
	got := risk.NewCatalogue().Score(flags(risk.SellTaxHigh, risk.WhaleHolder))
	if got.Categories[risk.Liquidity] != 62 {
		t.Errorf("liquidity = %v, want 62", got.Categories[risk.Liquidity])
	}
	if got.Categories[risk.Holder] != 40 {
		t.Errorf("holder = %v, want 40", got.Categories[risk.Holder])
	}
	if got.Categories[risk.Contract] != 0 || got.Categories[risk.Deployer] != 0 {
		t.Errorf("contract/deployer = %v/%v, want 0/0", got.Categories[risk.Contract], got.Categories[risk.Deployer])
	}
	// 1 - 0.38*0.6 = 0.772
	if got.Overall != 77.2 {
		t.Errorf("overall = %v, want 77.2", got.Overall)
	}
}

func TestLevelBoundaries(t *testing.T) {
	tests := []struct {
		score float64
		want  risk.Level
	}{
		{0, risk.Minimal}, {19.9, risk.Minimal}, {20, risk.LevelLow}, {39.9, risk.LevelLow},
		{40, risk.LevelMedium}, {59.9, risk.LevelMedium}, {60, risk.LevelHigh}, {79.9, risk.LevelHigh},
		{80, risk.LevelCritical}, {100, risk.LevelCritical},
	}
	for _, tt := range tests {
		if got := risk.LevelOf(tt.score); got != tt.want {
			t.Errorf("LevelOf(%v) = %s, want %s", tt.score, got, tt.want)
		}
	}
}

func TestCatalogueIsComplete(t *testing.T) {
	// The SPEC fixes these codes; clients rely on them.
	fixed := []string{
		"NOT_VERIFIED", "PROXY_UPGRADEABLE", "OWNER_NOT_RENOUNCED", "OWNER_CAN_MINT", "OWNER_CAN_BLACKLIST",
		"OWNER_CAN_PAUSE", "OWNER_CAN_CHANGE_FEES", "OWNER_CAN_CHANGE_BALANCE", "OWNER_CAN_LIMIT_TX",
		"TRADING_SWITCH", "TRADING_COOLDOWN", "HIDDEN_OWNER", "SELFDESTRUCT", "EXTERNAL_CALL", "NON_STANDARD_TOKEN",
		"MINT_AUTHORITY_ENABLED", "FREEZE_AUTHORITY_ENABLED", "METADATA_MUTABLE", "TRANSFER_FEE", "TRANSFER_HOOK",
		"PERMANENT_DELEGATE", "NON_TRANSFERABLE", "DEFAULT_ACCOUNT_FROZEN", "MINT_CLOSE_AUTHORITY",
		"CONFIDENTIAL_TRANSFERS", "HONEYPOT_CANNOT_BUY", "HONEYPOT_CANNOT_SELL", "BUY_TAX_HIGH", "SELL_TAX_HIGH",
		"TAX_EXTREME", "TRANSFER_TAX", "NO_LIQUIDITY", "LOW_LIQUIDITY", "LP_NOT_LOCKED", "NEW_POOL",
		"SIMULATION_FAILED", "BONDING_CURVE", "CREATOR_HOLDS_LARGE_SHARE", "OWNER_HOLDS_LARGE_SHARE",
		"CREATOR_NEW_WALLET", "CREATOR_SERIAL_LAUNCHER", "TOP10_CONCENTRATED", "WHALE_HOLDER", "FEW_HOLDERS",
		"TRUSTED_TOKEN", "OWNER_CAN_SEIZE", "SELF_DUMP", "SCAN_INCOMPLETE", "INSIDER_SUPPLY",
		"OWNER_CAN_CHANGE_FEES_CAPPED",
		// The catalogue's own growth (SPEC: "the catalogue may grow").
		"OWNER_CAN_TAKE_CONTRACT_TOKENS",
		// The capability table's codes (third wave).
		"OWNER_CAN_WHITELIST", "WHITELIST_ONLY", "PER_ADDRESS_FEE", "CANNOT_SELL_ALL", "OWNER_CAN_BLOCK_SELLS",
		"OWNER_CAN_RECLAIM", "OWNER_CAN_RELEASE_RESERVE", "BALANCES_SIPHONED",
		// Reputation (internal/reputation).
		"FAKE_TOKEN", "CREATOR_SCAM_HISTORY", "KNOWN_SCAM_CODE", "COMMON_TEMPLATE",
		// Uniswap V4 hooks (liquidity_analysis.hooks).
		"HOOK_CAN_BLOCK_SELLS", "HOOK_FEE_CHANGEABLE", "HOOK_CAN_DRAIN", "HOOK_UPGRADEABLE", "HOOK_UNVERIFIED", "HOOK_TAKES_CUT",
	}
	cat := risk.NewCatalogue()
	for _, code := range fixed {
		d, ok := cat.Lookup(code)
		if !ok {
			t.Errorf("catalogue lacks %s", code)
			continue
		}
		if d.Weight <= 0 || d.Weight >= 1 {
			t.Errorf("%s weight %v not in (0, 1)", code, d.Weight)
		}
		if d.Meaning == "" {
			t.Errorf("%s has no meaning", code)
		}
	}
	if n := len(cat.All()); n != len(fixed) {
		t.Errorf("catalogue has %d codes, test knows %d: update the test with the new codes", n, len(fixed))
	}
}

func TestNewFlagTakesSeverityFromCatalogue(t *testing.T) {
	f := risk.NewFlag(risk.HoneypotCannotSell, "Cannot sell", "sell reverted").WithValue(0)
	if f.Severity != risk.Critical || f.Category != risk.Liquidity {
		t.Errorf("got %s/%s, want critical/liquidity", f.Severity, f.Category)
	}
	if f.Value == nil || *f.Value != 0 {
		t.Errorf("value = %v, want 0", f.Value)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewFlag with an unknown code did not panic")
		}
	}()
	risk.NewFlag("NO_SUCH_CODE", "", "")
}

// TestCodeEvidenceCountsLess: a power read from code alone weighs
// CodeEvidenceFactor of its proven weight, and a critical one does not
// make the level critical by itself.
func TestCodeEvidenceCountsLess(t *testing.T) {
	cat := risk.NewCatalogue()
	proven := risk.NewFlag(risk.OwnerCanSeize, "seize", "proven").WithEvidence(risk.EvidenceProbe, "f(address)")
	code := risk.NewFlag(risk.OwnerCanSeize, "seize", "code").WithEvidence(risk.EvidenceCode, "f(address)")
	if got := cat.Score([]risk.Flag{proven}); got.Level != risk.LevelCritical {
		t.Errorf("proven seizure: level %s, want critical", got.Level)
	}
	got := cat.Score([]risk.Flag{code})
	d, _ := cat.Lookup(risk.OwnerCanSeize)
	want := math.Round(1000*d.Weight*risk.CodeEvidenceFactor) / 10
	if got.Overall != want || got.Level == risk.LevelCritical {
		t.Errorf("code-only seizure: score %v (%s), want %v below critical", got.Overall, got.Level, want)
	}
}
