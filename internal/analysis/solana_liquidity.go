package analysis

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// solanaQuoteUSD is the USD price of one whole quote token, nil if unknown.
func solanaQuoteUSD(f *SolanaFacts, p SolanaPool) *float64 {
	switch {
	case p.QuoteUSDStable:
		one := 1.0
		return &one
	case p.QuoteWrapped:
		return f.Liquidity.SOLPriceUSD
	}
	return nil
}

func solanaUnits(raw uint64, decimals uint8) float64 {
	return float64(raw) / math.Pow10(int(decimals))
}

// AnalyseSolanaLiquidity values pools and the bonding curve.
func AnalyseSolanaLiquidity(f *SolanaFacts, now time.Time) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Liquidity...)
	lf := f.Liquidity
	ev := SolanaLiquidityEvidence{
		DEXesSearched:   append([]string{}, lf.Searched...),
		DEXesUnsearched: append([]string{}, lf.Unsearched...),
		Pools:           make([]SolanaPool, 0, len(lf.Pools)),
		SOLPriceUSD:     lf.SOLPriceUSD,
		SOLPriceSource:  lf.SOLPriceSource,
		PoolsFrom:       "program_accounts",
	}
	switch {
	case f.Trusted != "":
		ev.PoolsFrom = "none"
	case lf.FromIndex:
		ev.PoolsFrom = "pool_index"
	}
	var flags []risk.Flag
	status := scan.Complete
	var total float64
	valued := false
	unvalued := 0
	main := -1
	for _, p := range lf.Pools {
		if p.TokenReserve != nil && p.QuoteReserve != nil && p.QuoteDecimals != nil {
			tok := solanaUnits(*p.TokenReserve, f.Mint.Decimals)
			quo := solanaUnits(*p.QuoteReserve, *p.QuoteDecimals)
			if p.PriceInQuote == nil && tok > 0 {
				price := quo / tok
				p.PriceInQuote = &price
			}
			if usd := solanaQuoteUSD(f, p); usd != nil && p.PriceInQuote != nil {
				v := quo**usd + tok**p.PriceInQuote**usd
				p.LiquidityUSD = &v
			}
		}
		if p.LiquidityUSD != nil {
			total += *p.LiquidityUSD
			valued = true
		} else {
			unvalued++
		}
		p.Lockers, p.LPLockedUSD = solanaLocks(f, p, now)
		ev.Pools = append(ev.Pools, p)
	}
	sort.SliceStable(ev.Pools, func(i, j int) bool {
		a, b := ev.Pools[i].LiquidityUSD, ev.Pools[j].LiquidityUSD
		return a != nil && (b == nil || *a > *b)
	})
	if len(ev.Pools) > 0 {
		main = 0
		addr := ev.Pools[0].Address
		ev.MainPool = &addr
		ev.LPBurnedPct = ev.Pools[0].LPBurnedPct
		ev.LPLockedPct = ev.Pools[0].LPLockedPct
	}
	if unvalued > 0 {
		warnings = append(warnings, fmt.Sprintf("liquidity: %d pool(s) have no USD value (reserves unknown or quote token without an on-chain USD price)", unvalued))
	}

	activeCurve := false
	if bc := lf.BondingCurve; bc != nil {
		be := &SolanaBondingCurveEvidence{SolanaBondingCurve: *bc}
		if bc.VirtualTokenReserves > 0 {
			price := solanaUnits(bc.VirtualSOLReserves, 9) / solanaUnits(bc.VirtualTokenReserves, f.Mint.Decimals)
			be.PriceInSOL = &price
		}
		if lf.SOLPriceUSD != nil {
			v := solanaUnits(bc.RealSOLReserves, 9) * *lf.SOLPriceUSD
			be.LiquidityUSD = &v
			if !bc.Complete {
				total += v
				valued = true
			}
		} else if !bc.Complete {
			warnings = append(warnings, "liquidity: SOL price unknown; the bonding curve's liquidity has no USD value")
		}
		ev.BondingCurve = be
		if !bc.Complete {
			activeCurve = true
			flags = append(flags, risk.NewFlag(risk.BondingCurve, "Trading on the pump.fun bonding curve", fmt.Sprintf("The curve holds %.4f SOL of real reserves; the token has not migrated to an AMM yet.", solanaUnits(bc.RealSOLReserves, 9))))
		}
	} else if !lf.BondingCurveKnown && f.Trusted == "" {
		warnings = append(warnings, "liquidity: pump.fun bonding curve state unknown")
	}
	if valued {
		ev.TotalLiquidityUSD = &total
	}

	if f.Trusted != "" {
		return scan.Section{Status: scan.Partial, Flags: flags, Evidence: ev}, warnings
	}
	switch {
	case len(lf.Searched) == 0 && lf.BondingCurve == nil:
		status = scan.Unavailable
	case len(lf.Pools) == 0 && !activeCurve && lf.SearchComplete:
		detail := fmt.Sprintf("No pool of the mint on %v and no active bonding curve.", lf.Searched)
		if lf.BondingCurve != nil {
			detail += " The pump.fun curve is complete: the token migrated, possibly to a DEX that is not configured."
		}
		flags = append(flags, risk.NewFlag(risk.NoLiquidity, "No liquidity pool found", detail))
	case valued && unvalued == 0 && total < risk.LowLiquidityUSD:
		flags = append(flags, risk.NewFlag(risk.LowLiquidity, fmt.Sprintf("Low liquidity: $%.0f", total), fmt.Sprintf("All pools together hold about $%.0f, valued from on-chain prices.", total)).WithValue(solanaRound2(total)))
	}
	lpUnknown := false
	if main >= 0 {
		mp := ev.Pools[main]
		lpUnknown = solanaLPLockUnknown(mp)
		switch {
		case mp.LPMint == "" && mp.LPLockedPct == nil:
			warnings = append(warnings, "liquidity: the main pool ("+mp.DEX+") has positions (NFTs or position accounts), not an LP mint; who holds them and whether they are locked is not established (pools unchecked)")
		case mp.LPBurnedPct == nil && mp.LPLockedPct == nil:
			warnings = append(warnings, "liquidity: the main pool's LP mint could not be read; its lock state is not established (pools unchecked)")
		case !lpUnknown && solanaLPSafePct(mp) < risk.LPLockedEnoughPct:
			// Wallets hold more than the 10% the threshold allows:
			// established, whatever the unresolved part turns out to be.
			safe := solanaLPSafePct(mp)
			flags = append(flags, risk.NewFlag(risk.LPNotLocked, fmt.Sprintf("%.1f%% of the main pool's LP is held by wallets", *mp.LPUnlockedPct),
				fmt.Sprintf("Wallets hold %.1f%% of the LP of %s and can withdraw that liquidity; %.1f%% is burned or locked.", *mp.LPUnlockedPct, mp.Address, safe)).WithValue(solanaRound2(safe)))
		case lpUnknown:
			warnings = append(warnings, solanaLPUnknownWarning(mp))
		}
		if mp.OpenTime != nil {
			age := now.Sub(time.Unix(*mp.OpenTime, 0)).Hours()
			if age >= 0 && age < risk.NewPoolHours {
				flags = append(flags, risk.NewFlag(risk.NewPool, fmt.Sprintf("Main pool opened %.0f hours ago", age), "The main pool "+mp.Address+" is less than 72 hours old.").WithValue(solanaRound2(age)))
			}
		}
	}
	if status == scan.Complete && (!lf.SearchComplete || len(f.Warnings.Liquidity) > 0 || unvalued > 0 || lpUnknown) {
		status = scan.Partial
	}
	for i := range ev.Pools {
		solanaRoundLP(&ev.Pools[i])
	}
	if main >= 0 {
		ev.LPBurnedPct, ev.LPLockedPct = ev.Pools[0].LPBurnedPct, ev.Pools[0].LPLockedPct
		ev.LPLockedUSD = ev.Pools[0].LPLockedUSD
	}
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// solanaLPLockUnknown reports whether who can withdraw a pool's liquidity
// is not established: neither 90% burned or locked nor more than 10%
// held by wallets (positions not resolved, the LP mint not read, or too
// much held by accounts not known).
func solanaLPLockUnknown(p SolanaPool) bool {
	switch {
	case p.LPBurnedPct == nil && p.LPLockedPct == nil:
		return true
	case solanaLPSafePct(p) >= risk.LPLockedEnoughPct:
		return false
	case p.LPUnlockedPct != nil && *p.LPUnlockedPct > 100-risk.LPLockedEnoughPct:
		return false
	}
	return true
}

// solanaRoundLP rounds a pool's LP shares to twelve significant digits for
// the report: float sums print 99.99999999999999, while a share as small
// as 0.00001% is still a fact (two decimals would erase it). The verdicts
// are taken before.
func solanaRoundLP(p *SolanaPool) {
	for _, v := range []**float64{&p.LPBurnedPct, &p.LPLockedPct, &p.LPUnlockedPct, &p.LPUnknownPct} {
		if *v != nil {
			r, err := strconv.ParseFloat(strconv.FormatFloat(**v, 'g', 12, 64), 64)
			if err != nil {
				r = **v
			}
			*v = &r
		}
	}
}

func solanaRound2(v float64) float64 { return math.Round(v*100) / 100 }

// solanaLPSafePct is the share of a pool's LP that cannot withdraw
// liquidity: burned plus held by known lockers.
func solanaLPSafePct(p SolanaPool) float64 {
	var safe float64
	if p.LPBurnedPct != nil {
		safe += *p.LPBurnedPct
	}
	if p.LPLockedPct != nil {
		safe += *p.LPLockedPct
	}
	return safe
}

// solanaLPUnknownWarning says why a pool's LP lock state is not
// established.
func solanaLPUnknownWarning(p SolanaPool) string {
	if p.LPUnknownPct == nil {
		return fmt.Sprintf("liquidity: main pool %s: %.1f%% of its LP is burned; who holds the rest was not established (LP holders not listed), so lock state unknown", p.Address, solanaLPSafePct(p))
	}
	return fmt.Sprintf("liquidity: main pool %s: %.1f%% of its LP is burned or locked, %.1f%% held by wallets, %.1f%% held by accounts not known as lockers or not listed by the node; lock state unknown", p.Address, solanaLPSafePct(p), solanaPctOr0(p.LPUnlockedPct), *p.LPUnknownPct)
}

func solanaPctOr0(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// SolanaLock is one lock of a pool's liquidity.
type SolanaLock struct {
	// Kind is "locker" (LP or a position NFT held by a configured locker
	// or a lock stream's escrow) or "position" (a position's own lock).
	Kind string `json:"kind"`
	// Locker is the lock's holder (the locker's or escrow's address, or
	// the position's NFT holder), Name a configured locker's name.
	Locker   string `json:"locker"`
	Name     string `json:"name,omitempty"`
	Position string `json:"position,omitempty"`
	// Amount is the LP locked (raw units), null for a position.
	Amount   *uint64 `json:"amount,string"`
	SharePct float64 `json:"share_pct"`
	// UnlockTime (unix seconds) or UnlockSlot is when the lock ends;
	// both null for a permanent lock or a locker that does not state it.
	UnlockTime *int64   `json:"unlock_time"`
	UnlockSlot *uint64  `json:"unlock_slot,omitempty"`
	USD        *float64 `json:"usd"`
}

// solanaLocks lists the locks among a pool's largest LP holders and
// values the pool's locked share in USD.
func solanaLocks(f *SolanaFacts, p SolanaPool, now time.Time) ([]SolanaLock, *float64) {
	usd := func(share float64) *float64 {
		if p.LiquidityUSD == nil {
			return nil
		}
		v := solanaRound2(*p.LiquidityUSD * share / 100)
		return &v
	}
	var out []SolanaLock
	for _, h := range p.LPHolders {
		l := SolanaLock{Kind: "locker", Locker: h.Owner, Name: f.Lockers[h.Owner], Position: h.Position, SharePct: h.SharePct, UnlockTime: h.LockedUntil, UnlockSlot: h.LockedUntilSlot}
		switch {
		case h.Label == SolanaLPLocker:
		case h.PositionLockedPct != nil && *h.PositionLockedPct > 0:
			l.Kind, l.SharePct = "position", *h.PositionLockedPct
		case h.Position != "" && h.LockedUntil != nil && *h.LockedUntil > now.Unix():
			l.Kind = "position"
		default:
			continue
		}
		if h.Position == "" {
			a := h.Amount
			l.Amount = &a
		}
		l.USD = usd(l.SharePct)
		out = append(out, l)
	}
	if p.LPLockedPct == nil {
		return out, nil
	}
	return out, usd(*p.LPLockedPct)
}

// solanaLiquidityUnknown reports whether LOW_LIQUIDITY could not be
// decided: a pool has no USD value (reserves unknown, or a quote token
// without an on-chain USD price) and the pools valued, with any active
// curve, stay under the low-liquidity line.
func solanaLiquidityUnknown(ev SolanaLiquidityEvidence) bool {
	unvalued := 0
	for _, p := range ev.Pools {
		if p.LiquidityUSD == nil {
			unvalued++
		}
	}
	return unvalued > 0 && (ev.TotalLiquidityUSD == nil || *ev.TotalLiquidityUSD < risk.LowLiquidityUSD)
}
