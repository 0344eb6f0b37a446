package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// EVMLiquidityEvidence is liquidity_analysis for an EVM token. Simulation
// is the honeypot simulation's evidence, set by the adapter.
type EVMLiquidityEvidence struct {
	Pools []EVMPool `json:"pools"`
	// TotalLiquidityUSD sums the pools valued in USD; nil when no pool
	// could be valued.
	TotalLiquidityUSD *float64 `json:"total_liquidity_usd"`
	// MainPool is the deepest pool, the one the simulation trades against.
	MainPool *string `json:"main_pool"`
	// LPSecuredPct is the main pool's LP share burned or locked; nil when
	// unknown (no pool, or a V3 pool whose positions are NFTs).
	LPSecuredPct *float64 `json:"lp_secured_pct"`
	Simulation   any      `json:"simulation"`
	// Hooks are the Uniswap V4 hooks of the token's pools (evm_hooks.go),
	// set by the adapter; absent without a hooked V4 pool.
	Hooks []EVMHook `json:"hooks,omitempty"`
}

// AnalyseEVMLiquidity raises NO_LIQUIDITY, LOW_LIQUIDITY, LP_NOT_LOCKED and
// NEW_POOL from the pools found; the honeypot flags come from the
// simulation analysis. It returns warnings for what is unknown.
func AnalyseEVMLiquidity(f *EVMFacts) (scan.Section, []string) {
	lf := f.Liquidity
	ev := EVMLiquidityEvidence{Pools: append([]EVMPool{}, lf.Pools...)}
	if !lf.Searched {
		return scan.Section{Status: scan.Unavailable, Evidence: ev},
			[]string{"liquidity: the pool search failed; pools and liquidity are unknown"}
	}
	var flags []risk.Flag
	var warnings []string
	status := scan.Complete

	var total float64
	valued, unvalued := 0, 0
	for _, p := range lf.Pools {
		if p.LiquidityUSD == nil {
			unvalued++
			continue
		}
		valued++
		total += *p.LiquidityUSD
	}
	if valued > 0 {
		t := evmRound2(total)
		ev.TotalLiquidityUSD = &t
	}
	if unvalued > 0 {
		status = scan.Partial
		warnings = append(warnings, fmt.Sprintf("liquidity: %d pool(s) could not be valued in USD (no on-chain price for the quote token)", unvalued))
	}

	switch {
	case len(lf.Pools) == 0 && lf.V4Unknown:
		warnings = append(warnings, "liquidity: no pool found, but the Uniswap V4 pool search did not complete; whether the token has liquidity is unknown")
		return scan.Section{Status: scan.Partial, Evidence: ev}, warnings
	case len(lf.Pools) == 0:
		flags = append(flags, risk.NewFlag(risk.NoLiquidity, "No liquidity pool found",
			"No pool of the token against the chain's quote tokens exists on the configured DEXes.").WithValue(0))
		return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
	case valued > 0 && total == 0 && unvalued == 0:
		flags = append(flags, risk.NewFlag(risk.NoLiquidity, "Pools hold no liquidity",
			fmt.Sprintf("%d pool(s) exist but hold no reserves.", len(lf.Pools))).WithValue(0))
		return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
	case valued > 0 && total < risk.LowLiquidityUSD:
		flags = append(flags, risk.NewFlag(risk.LowLiquidity,
			fmt.Sprintf("Liquidity is only $%.0f", total),
			fmt.Sprintf("The token's pools hold $%.2f in total (threshold $%.0f).", total, risk.LowLiquidityUSD)).WithValue(evmRound2(total)))
	}

	main := lf.Pools[0]
	ev.MainPool = &main.Address
	secured := evmLPSecured(main)
	ev.LPSecuredPct = secured
	switch {
	case secured == nil && main.Kind == "v4":
		status = scan.Partial
		warnings = append(warnings, fmt.Sprintf("liquidity: LP lock status of the main pool %s is unknown: a Uniswap V4 pool's liquidity is positions in its PoolManager %s (most held as the position manager's NFTs), whose holders were not read; it is not counted as locked", main.Address, main.PoolManager))
	case secured == nil:
		status = scan.Partial
		warnings = append(warnings, fmt.Sprintf("liquidity: LP lock status of the main pool %s is unknown (%s pool)", main.Address, main.Kind))
	case *secured < risk.LPLockedEnoughPct:
		detail := fmt.Sprintf("Only %.1f%% of the main pool's LP tokens are burned or in a known locker.", *secured)
		if main.LPOwnerPct != nil && *main.LPOwnerPct > 0 {
			detail += fmt.Sprintf(" The owner holds %.1f%%.", *main.LPOwnerPct)
		}
		if main.LPCreatorPct != nil && *main.LPCreatorPct > 0 {
			detail += fmt.Sprintf(" The creator holds %.1f%%.", *main.LPCreatorPct)
		}
		flags = append(flags, risk.NewFlag(risk.LPNotLocked,
			fmt.Sprintf("%.0f%% of LP is unlocked", 100-*secured), detail).WithValue(evmRound2(100-*secured)))
	}
	if main.CreatedAt != nil && !f.Now.IsZero() {
		age := f.Now.Sub(*main.CreatedAt).Hours()
		if age >= 0 && age < risk.NewPoolHours {
			flags = append(flags, risk.NewFlag(risk.NewPool,
				fmt.Sprintf("Main pool is %.0f hours old", age),
				fmt.Sprintf("The main pool %s got its first liquidity at %s.", main.Address, main.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))).WithValue(evmRound2(age)))
		}
	}
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// evmLPSecured is a pool's LP share burned plus locked, or nil when unknown.
func evmLPSecured(p EVMPool) *float64 {
	if p.LPBurnedPct == nil || p.LPLockedPct == nil {
		return nil
	}
	v := *p.LPBurnedPct + *p.LPLockedPct
	if v > 100 {
		v = 100
	}
	v = evmRound2(v)
	return &v
}

// EVMLiquidityLocked is the checklist's liquidity_locked: true only when the
// main pool's LP is proven burned or locked at or above the threshold.
func EVMLiquidityLocked(f *EVMFacts) bool {
	if !f.Liquidity.Searched || len(f.Liquidity.Pools) == 0 {
		return false
	}
	main := f.Liquidity.Pools[0]
	if main.LiquidityUSD != nil && *main.LiquidityUSD <= 0 {
		return false // nothing to lock
	}
	s := evmLPSecured(main)
	return s != nil && *s >= risk.LPLockedEnoughPct
}

// evmSameAddress compares hex addresses case-insensitively.
func evmSameAddress(a, b string) bool { return a != "" && strings.EqualFold(a, b) }

func evmRound2(v float64) float64 { return math.Round(v*100) / 100 }
