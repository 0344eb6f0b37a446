package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func hookF(v float64) *float64 { return &v }
func hookB(v bool) *bool       { return &v }

// The hook flag rules: what is proven raises a flag at the severity the
// measurement gives; what is unknown raises none and says so.
func TestAnalyseEVMHooks(t *testing.T) {
	name := "Launchpad"
	base := func() EVMHook {
		return EVMHook{Address: "0xHook", PoolID: "0xPool", Permissions: []string{"beforeSwap", "afterSwap", "afterSwapReturnDelta"},
			TakesCut: true, CutBy: []string{"afterSwapReturnDelta"}, BuyCutPct: hookF(3), SellCutPct: hookF(3),
			SellsBlocked: hookB(false), Upgradeable: hookB(false), Verified: hookB(true),
			FeeChangeable: hookB(false), FeeCeilingPct: hookF(3), CanBlockSells: hookB(false), CanDrain: hookB(false)}
	}
	cat := risk.NewCatalogue()
	for _, tc := range []struct {
		name     string
		edit     func(h *EVMHook)
		want     []string // code:severity
		level    risk.Level
		warnings int
	}{
		{"fixed cut, nothing to change", func(h *EVMHook) {}, []string{"HOOK_TAKES_CUT:info"}, risk.Minimal, 0},
		{"capped fee: raisable to 5%", func(h *EVMHook) { h.FeeChangeable, h.FeeCeilingPct = hookB(true), hookF(5) },
			[]string{"HOOK_FEE_CHANGEABLE:low", "HOOK_TAKES_CUT:info"}, risk.Minimal, 0},
		{"raisable to 30%", func(h *EVMHook) { h.FeeChangeable, h.FeeCeilingPct = hookB(true), hookF(30) },
			[]string{"HOOK_FEE_CHANGEABLE:medium", "HOOK_TAKES_CUT:info"}, risk.LevelLow, 0},
		{"raisable to 100%", func(h *EVMHook) { h.FeeChangeable, h.FeeCeilingPct = hookB(true), hookF(100) },
			[]string{"HOOK_FEE_CHANGEABLE:high", "HOOK_TAKES_CUT:info"}, risk.LevelHigh, 0},
		{"owner closes sells", func(h *EVMHook) { h.CanBlockSells, h.BlockBy = hookB(true), "setSellsBlocked(bool)(true) by 0xOwner" },
			[]string{"HOOK_CAN_BLOCK_SELLS:critical", "HOOK_TAKES_CUT:info"}, risk.LevelCritical, 0},
		{"sells closed now", func(h *EVMHook) { h.SellsBlocked, h.CanBlockSells, h.SellCutPct = hookB(true), hookB(true), nil },
			[]string{"HOOK_CAN_BLOCK_SELLS:critical", "HOOK_TAKES_CUT:info"}, risk.LevelCritical, 0},
		{"takes 99% now", func(h *EVMHook) { h.SellCutPct = hookF(99) }, []string{"HOOK_TAKES_CUT:critical"}, risk.LevelCritical, 0},
		{"takes 20% now", func(h *EVMHook) { h.BuyCutPct = hookF(20) }, []string{"HOOK_TAKES_CUT:high"}, risk.LevelMedium, 0},
		{"drains the pool", func(h *EVMHook) { h.CanDrain, h.DrainBy = hookB(true), "sweep(address) by 0xOwner" },
			[]string{"HOOK_CAN_DRAIN:critical", "HOOK_TAKES_CUT:info"}, risk.LevelCritical, 0},
		{"upgradeable, unverified, no cut bits", func(h *EVMHook) {
			h.TakesCut, h.CutBy, h.Upgradeable, h.UpgradeBy, h.Verified = false, nil, hookB(true), "eip1967 proxy", hookB(false)
		}, []string{"HOOK_UNVERIFIED:medium", "HOOK_UPGRADEABLE:high"}, risk.LevelMedium, 0},
		// A probe that could not run: no flag claims safety or harm, every
		// unknown is a warning (and the known launchpad name changes nothing).
		{"probe did not run, known launchpad", func(h *EVMHook) {
			h.Name = &name
			h.SellsBlocked, h.CanBlockSells, h.CanDrain, h.FeeChangeable, h.FeeCeilingPct, h.Upgradeable, h.Verified = nil, nil, nil, nil, nil, nil, nil
			h.BuyCutPct, h.SellCutPct = nil, nil
			h.Unknown = []string{"the probe did not run: node refused", "source verification unknown (no explorer)"}
		}, []string{"HOOK_TAKES_CUT:info"}, risk.Minimal, 2},
	} {
		h := base()
		tc.edit(&h)
		flags, warnings := AnalyseEVMHooks([]EVMHook{h})
		var got []string
		for _, f := range flags {
			got = append(got, f.Code+":"+string(f.Severity))
			if h.Name != nil && !strings.Contains(f.Title, name) {
				t.Errorf("%s: %s title %q does not name the known hook", tc.name, f.Code, f.Title)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: flags %v, want %v", tc.name, got, tc.want)
		}
		if res := cat.Score(flags); res.Level != tc.level {
			t.Errorf("%s: level %s (%.1f), want %s", tc.name, res.Level, res.Overall, tc.level)
		}
		if len(warnings) != tc.warnings {
			t.Errorf("%s: warnings %q, want %d", tc.name, warnings, tc.warnings)
		}
	}
}
