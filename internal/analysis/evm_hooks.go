package analysis

import (
	"fmt"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// EVMHook is one Uniswap V4 hook of the token's pools, as reported in
// liquidity_analysis.hooks: what its address permits, what its code and
// owner can do (proven by simulation), and what it takes now. A nil
// pointer is unknown; Unknown says why (each reason is also a warning).
type EVMHook struct {
	Address string `json:"address"`
	// PoolID is the pool the hook runs in.
	PoolID string `json:"pool_id"`
	// Name and Takes come from the chains file's v4_hooks (a known
	// launchpad hook): a label only, its settings are read as any hook's.
	Name  *string `json:"name"`
	Takes *string `json:"known_takes,omitempty"`
	// Permissions are the callbacks its address permits (v4-core
	// Hooks.sol); TakesCut is set when it may return a delta on swaps
	// (beforeSwapReturnDelta or afterSwapReturnDelta), named in CutBy.
	Permissions []string `json:"permissions"`
	TakesCut    bool     `json:"takes_cut"`
	CutBy       []string `json:"cut_permissions,omitempty"`
	// BuyCutPct and SellCutPct are what the hook took of the simulated
	// buy's and sell's output, against a hook-free pool of the same state.
	BuyCutPct  *float64 `json:"buy_cut_pct"`
	SellCutPct *float64 `json:"sell_cut_pct"`
	// SellsBlocked: a simulated sell through the pool fails now while the
	// buy worked.
	SellsBlocked *bool `json:"sells_blocked"`
	// Owner is the hook's owner ("" renounced or none); nil unknown.
	Owner       *string `json:"owner"`
	Upgradeable *bool   `json:"upgradeable"`
	// UpgradeBy says how (a proxy's kind and implementation).
	UpgradeBy string `json:"upgrade_by,omitempty"`
	Verified  *bool  `json:"verified"`
	// Setters are the functions probed, Callers who called them.
	Setters []string `json:"setters"`
	Callers []string `json:"callers"`
	// FeeChangeable: a caller could raise the hook's cut; FeeCeilingPct is
	// the highest cut measured after a setter call (the ceiling), from
	// FeeBy.
	FeeChangeable *bool    `json:"fee_changeable"`
	FeeCeilingPct *float64 `json:"fee_ceiling_pct"`
	FeeBy         string   `json:"fee_by,omitempty"`
	// CanBlockSells: one call made the simulated sell fail after the buy
	// worked (or sells fail now), from BlockBy.
	CanBlockSells *bool  `json:"can_block_sells"`
	BlockBy       string `json:"block_by,omitempty"`
	// CanDrain: a call lowered what the PoolManager holds of the pool's
	// currencies (the pool's funds left with it), from DrainBy.
	CanDrain *bool  `json:"can_drain"`
	DrainBy  string `json:"drain_by,omitempty"`
	// Unknown are the reasons a fact above is null.
	Unknown []string `json:"unknown,omitempty"`
}

// hookFeeLowPct and hookFeeMediumPct bound a raisable hook cut's
// severity: a ceiling at or below FeeCappedPct is low (a capped fee), one
// below FeeCeilingHighPct medium, above it high (a sell can be taxed
// away); the same thresholds as a token's fee switch.
const (
	hookFeeLowPct    = risk.FeeCappedPct
	hookFeeMediumPct = risk.FeeCeilingHighPct
)

// AnalyseEVMHooks raises the hook flags: HOOK_CAN_BLOCK_SELLS (critical,
// proven by a call then a refused sell, or a sell refused now),
// HOOK_FEE_CHANGEABLE (its severity by the measured ceiling),
// HOOK_CAN_DRAIN, HOOK_UPGRADEABLE, HOOK_UNVERIFIED, and HOOK_TAKES_CUT naming a hook that
// returns swap deltas (its severity by the cut measured now). What is
// unknown is a warning, never a pass.
func AnalyseEVMHooks(hooks []EVMHook) ([]risk.Flag, []string) {
	var flags []risk.Flag
	var warnings []string
	for _, h := range hooks {
		name := "Hook " + h.Address
		if h.Name != nil {
			name = fmt.Sprintf("Hook %s (%s)", h.Address, *h.Name)
		}
		for _, u := range h.Unknown {
			warnings = append(warnings, fmt.Sprintf("hook %s: %s", h.Address, u))
		}
		switch {
		case h.SellsBlocked != nil && *h.SellsBlocked:
			flags = append(flags, risk.NewFlag(risk.HookCanBlockSells, name+" refuses sells",
				fmt.Sprintf("%s runs on every swap of pool %s: a simulated sell through it failed now while the buy worked.", name, h.PoolID)).
				WithEvidence(risk.EvidenceProbe, "sell through the pool"))
		case h.CanBlockSells != nil && *h.CanBlockSells:
			flags = append(flags, risk.NewFlag(risk.HookCanBlockSells, name+": one call closes sells",
				fmt.Sprintf("After %s, a simulated sell through pool %s failed while the buy worked: the hook's owner can trap every holder.", h.BlockBy, h.PoolID)).
				WithEvidence(risk.EvidenceProbe, h.BlockBy))
		}
		if h.FeeChangeable != nil && *h.FeeChangeable && h.FeeCeilingPct != nil {
			c := *h.FeeCeilingPct
			f := risk.NewFlag(risk.HookFeeChangeable, fmt.Sprintf("%s: its cut can be raised to %s%%", name, evmPct(c)),
				fmt.Sprintf("After %s the hook took %s%% of a simulated trade through pool %s (now %s): the highest cut measured.", h.FeeBy, evmPct(c), h.PoolID, cutNow(h))).
				WithValue(evmRound2(c)).WithEvidence(risk.EvidenceProbe, h.FeeBy)
			switch {
			case c <= hookFeeLowPct:
				f = f.WithSeverity(risk.Low)
			case c < hookFeeMediumPct:
				f = f.WithSeverity(risk.Medium)
			}
			flags = append(flags, f)
		}
		if h.CanDrain != nil && *h.CanDrain {
			flags = append(flags, risk.NewFlag(risk.HookCanDrain, name+" can take the pool's funds",
				fmt.Sprintf("After %s the PoolManager held less of pool %s's currencies: the pool's liquidity left with the call.", h.DrainBy, h.PoolID)).
				WithEvidence(risk.EvidenceProbe, h.DrainBy))
		}
		if h.Upgradeable != nil && *h.Upgradeable {
			flags = append(flags, risk.NewFlag(risk.HookUpgradeable, name+" can be replaced",
				fmt.Sprintf("The hook's code can change after you buy: %s.", h.UpgradeBy)))
		}
		if h.Verified != nil && !*h.Verified {
			flags = append(flags, risk.NewFlag(risk.HookUnverified, name+" is not verified",
				"No configured explorer has the hook's source: the code every trade runs through cannot be read."))
		}
		if h.TakesCut {
			flags = append(flags, takesCutFlag(h, name))
		}
	}
	return flags, warnings
}

// takesCutFlag names a hook that can return swap deltas; its severity is
// the cut measured now, as a tax's (info when small or unknown).
func takesCutFlag(h EVMHook, name string) risk.Flag {
	worst := -1.0
	for _, c := range []*float64{h.BuyCutPct, h.SellCutPct} {
		if c != nil && *c > worst {
			worst = *c
		}
	}
	detail := fmt.Sprintf("%s may return a delta on swaps (%s): it takes part of a trade beside the pool's LP fee; now %s.",
		name, strings.Join(h.CutBy, ", "), cutNow(h))
	f := risk.NewFlag(risk.HookTakesCut, name+" takes a cut of trades", detail)
	if worst < 0 {
		return f.WithSeverity(risk.Info)
	}
	f = f.WithValue(evmRound2(worst))
	switch {
	case worst >= risk.TaxExtremePct:
		f = f.WithSeverity(risk.Critical)
	case worst <= risk.TaxHighPct:
		f = f.WithSeverity(risk.Info)
	}
	return f
}

// cutNow describes the cut measured without any call.
func cutNow(h EVMHook) string {
	if h.BuyCutPct == nil && h.SellCutPct == nil {
		return "the cut now is unknown"
	}
	part := func(side string, v *float64) string {
		if v == nil {
			return side + " unknown"
		}
		return fmt.Sprintf("%s %s%%", side, evmPct(*v))
	}
	return part("buy", h.BuyCutPct) + ", " + part("sell", h.SellCutPct)
}
