package risk_test

import (
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func probe(code string) risk.Flag {
	return risk.NewFlag(code, code, "").WithEvidence(risk.EvidenceProbe, "probe")
}

func code(code string) risk.Flag {
	return risk.NewFlag(code, code, "").WithEvidence(risk.EvidenceCode, "sig()")
}

func with(fs ...[]risk.Flag) []risk.Flag {
	var out []risk.Flag
	for _, f := range fs {
		out = append(out, f...)
	}
	return out
}

// TestScoringRules is one table row per scoring rule.
func TestScoringRules(t *testing.T) {
	cat := risk.NewCatalogue()
	score := func(fs []risk.Flag) float64 { return cat.Score(fs).Overall }
	tests := map[string]struct {
		got, want float64
	}{
		// One fact counts once: the creator who is the whale and holds the
		// LP is one risk, at its heaviest flag's weight.
		"a correlation group counts once": {
			score(flags(risk.CreatorHoldsLargeShare, risk.WhaleHolder, risk.LPNotLocked, risk.Top10Concentrated)), 40},
		"flags of different facts combine": {
			score(flags(risk.WhaleHolder, risk.OwnerNotRenounced)), 49},
		"a code raised twice counts once": {
			score(flags(risk.OwnerCanMint, risk.OwnerCanMint)), 60},
		// Code-only evidence weighs half a proven power.
		"code-only evidence weighs half": {score([]risk.Flag{code(risk.OwnerCanMint)}), 30},
		// Code-only powers that write no supply or balance add up to low
		// at most; beside a proven power they add nothing past it.
		"code-only sell blocks stop at low": {
			score([]risk.Flag{probe(risk.OwnerNotRenounced), code(risk.OwnerCanPause), code(risk.Selfdestruct), code(risk.ExternalCall)}), 39.9},
		"code-only sell blocks under low count in full": {score([]risk.Flag{code(risk.OwnerCanPause)}), 30},
		"code-only sell blocks add nothing past a proven level": {
			score([]risk.Flag{probe(risk.OwnerCanMint), code(risk.OwnerCanPause)}), 60},
		"probe evidence weighs in full": {score([]risk.Flag{probe(risk.OwnerCanMint)}), 60},
		"a proven power outweighs its code path in one group": {
			score([]risk.Flag{code(risk.OwnerCanPause), probe(risk.OwnerCanBlacklist)}), 60},
		// A critical capability seen in code only is thin evidence: no lift.
		"a critical power in code only is not critical": {score([]risk.Flag{code(risk.OwnerCanChangeBalance)}), 40},
		"a critical power proven is critical":           {score([]risk.Flag{probe(risk.OwnerCanChangeBalance)}), 90},
		// The flag's own severity: a capped fee is low, a hidden mint
		// critical.
		"a flag raised low weighs at most a low flag": {
			score([]risk.Flag{probe(risk.OwnerCanChangeFees).WithSeverity(risk.Low)}), 15},
		"a flag raised critical lifts the score": {
			score([]risk.Flag{probe(risk.OwnerCanMint).WithSeverity(risk.Critical)}), 90},
		// Without a critical flag, powers stay high however many.
		"no critical flag: at most high": {
			score(flags(risk.OwnerCanMint, risk.OwnerCanPause, risk.ProxyUpgradeable, risk.LPNotLocked, risk.Selfdestruct, risk.HiddenOwner)), 79.9},
		"SCAN_INCOMPLETE and SIMULATION_FAILED restate one unknown": {
			score(flags(risk.SimulationFailed, risk.ScanIncomplete)), 50},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("score %v, want %v", tt.got, tt.want)
			}
		})
	}
}

// TestCalibratedLevels: what each level means for a buyer (README
// "Levels"), on the token shapes issue 9 names.
func TestCalibratedLevels(t *testing.T) {
	cat := risk.NewCatalogue()
	owned := flags(risk.OwnerNotRenounced)
	launch := flags(risk.CreatorHoldsLargeShare, risk.WhaleHolder, risk.LPNotLocked, risk.Top10Concentrated, risk.FewHolders, risk.NewPool, risk.CreatorNewWallet)
	tests := map[string]struct {
		flags    []risk.Flag
		min, max risk.Level
	}{
		"no powers, supply spread, LP burned":                        {nil, risk.Minimal, risk.LevelLow},
		"renounced, unverified, new pool, spread supply":             {flags(risk.NotVerified, risk.NewPool), risk.Minimal, risk.LevelLow},
		"benign token in launch state (insiders hold supply and LP)": {with(owned, launch), risk.LevelMedium, risk.LevelMedium},
		"centralised: owner mint and pause, proven":                  {with(owned, []risk.Flag{probe(risk.OwnerCanMint), probe(risk.OwnerCanPause)}), risk.LevelHigh, risk.LevelHigh},
		"centralised in launch state":                                {with(owned, launch, []risk.Flag{probe(risk.OwnerCanMint), probe(risk.OwnerCanPause)}), risk.LevelHigh, risk.LevelHigh},
		// A code-only power never lifts a token above low by itself,
		// unless it writes the supply or other holders' balances.
		"an unproven blacklist in code with a live owner":                       {with(owned, []risk.Flag{code(risk.OwnerCanBlacklist)}), risk.LevelLow, risk.LevelLow},
		"unproven pause, fee and limit powers in code":                          {with(owned, []risk.Flag{code(risk.OwnerCanPause), code(risk.OwnerCanChangeFees), code(risk.OwnerCanLimitTx), code(risk.ExternalCall), code(risk.TradingSwitch)}), risk.LevelLow, risk.LevelLow},
		"an unproven mint in code with a live owner":                            {with(owned, []risk.Flag{code(risk.OwnerCanMint)}), risk.LevelMedium, risk.LevelMedium},
		"an unproven seizure in code with a live owner":                         {with(owned, []risk.Flag{code(risk.OwnerCanSeize)}), risk.LevelMedium, risk.LevelMedium},
		"code-only powers beside a launch state stay its level":                 {with(owned, launch, []risk.Flag{code(risk.OwnerCanPause)}), risk.LevelMedium, risk.LevelMedium},
		"no privileged party, unverified, supply spread":                        {flags(risk.NotVerified, risk.NewPool, risk.CreatorNewWallet), risk.Minimal, risk.LevelLow},
		"centralised honest token: mint, pause, blacklist, fees, limits proven": {with(owned, []risk.Flag{probe(risk.OwnerCanMint), probe(risk.OwnerCanPause), probe(risk.OwnerCanBlacklist), probe(risk.OwnerCanChangeFees), probe(risk.OwnerCanLimitTx), probe(risk.ProxyUpgradeable)}), risk.LevelHigh, risk.LevelHigh},
		"proven seizure":                {with(owned, []risk.Flag{probe(risk.OwnerCanSeize)}), risk.LevelCritical, risk.LevelCritical},
		"hidden mint proven":            {with(owned, []risk.Flag{probe(risk.OwnerCanMint).WithSeverity(risk.Critical)}), risk.LevelCritical, risk.LevelCritical},
		"honeypot":                      {flags(risk.HoneypotCannotSell), risk.LevelCritical, risk.LevelCritical},
		"extreme tax":                   {flags(risk.SellTaxHigh, risk.TaxExtreme), risk.LevelCritical, risk.LevelCritical},
		"a capped fee and nothing else": {with(owned, []risk.Flag{probe(risk.OwnerCanChangeFees).WithSeverity(risk.Low)}), risk.Minimal, risk.LevelLow},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := cat.Score(tt.flags)
			if levelRank(got.Level) < levelRank(tt.min) || levelRank(got.Level) > levelRank(tt.max) {
				t.Errorf("level %s (%.1f), want %s..%s", got.Level, got.Overall, tt.min, tt.max)
			}
		})
	}
	// A rug token whose only power is an uncapped fee switch never reads
	// below a benign token with a capped mint, in any shared context.
	for name, ctx := range map[string][]risk.Flag{"alone": nil, "owned": owned, "launch state": with(owned, launch)} {
		rug := cat.Score(with(ctx, []risk.Flag{probe(risk.OwnerCanChangeFees).WithValue(100)}))
		benign := cat.Score(with(ctx, []risk.Flag{probe(risk.OwnerCanMint)}))
		if rug.Overall < benign.Overall {
			t.Errorf("%s: uncapped fee switch %.1f below a capped mint %.1f", name, rug.Overall, benign.Overall)
		}
	}
}

func levelRank(l risk.Level) int {
	return map[risk.Level]int{risk.Minimal: 0, risk.LevelLow: 1, risk.LevelMedium: 2, risk.LevelHigh: 3, risk.LevelCritical: 4}[l]
}

// TestCatalogueGroupsAreNamed: every group is one of the documented ones
// and holds more than one code (a group of one restates nothing).
func TestCatalogueGroupsAreNamed(t *testing.T) {
	known := map[string]bool{risk.GroupTradeBlocked: true, risk.GroupSellBlock: true, risk.GroupDilution: true,
		risk.GroupBalanceControl: true, risk.GroupTax: true, risk.GroupInsiderExit: true, risk.GroupCodeChange: true,
		risk.GroupLiquidity: true, risk.GroupUnknown: true}
	members := map[string]int{}
	for _, d := range risk.NewCatalogue().All() {
		if d.Group == "" {
			continue
		}
		if !known[d.Group] {
			t.Errorf("%s: undocumented group %q", d.Code, d.Group)
		}
		members[d.Group]++
	}
	for g := range known {
		if members[g] < 2 {
			t.Errorf("group %s has %d member(s)", g, members[g])
		}
	}
}
