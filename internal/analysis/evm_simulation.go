package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// EVMSimulation is the honeypot simulation's result, reported as
// liquidity_analysis.simulation. Every field the simulation could not
// establish is nil (JSON null), never false or zero.
type EVMSimulation struct {
	CanBuy      *bool    `json:"can_buy"`
	CanSell     *bool    `json:"can_sell"`
	BuyTax      *float64 `json:"buy_tax"`
	SellTax     *float64 `json:"sell_tax"`
	TransferTax *float64 `json:"transfer_tax"`
	BuyGas      *uint64  `json:"buy_gas"`
	SellGas     *uint64  `json:"sell_gas"`
	// Error is the revert reason (or failure) of the first step that
	// failed; nil when every step ran.
	Error *string `json:"error"`
	// Pool is the pool traded against, QuoteIn the quote amount spent
	// (raw units, decimal string).
	Pool    string `json:"pool,omitempty"`
	QuoteIn string `json:"quote_in,omitempty"`
	// Cooldown is true when the immediate sell failed but the same sell
	// succeeded later in time (a trading cooldown, not a honeypot); nil
	// when the delayed sell was not or could not be tried.
	Cooldown *bool `json:"cooldown"`
	// DelayedSellError is the delayed sell's failure, if it failed too.
	DelayedSellError *string `json:"delayed_sell_error,omitempty"`
	// Path names what decided can_buy and can_sell: "wallet" (real
	// transactions from a wallet without code), "contract" (the
	// simulator contract alone, where the wallet path could not run) or
	// "v4" (the V4 simulator through a Uniswap V4 pool, its hook running).
	Path string `json:"path,omitempty"`
	// Hook is what a Uniswap V4 pool's hook took on the simulated trades,
	// apart from the token's own taxes (buy_tax, sell_tax); absent for a
	// pool without a hook.
	Hook *EVMHookCut `json:"hook,omitempty"`
	// Notes say where the two paths disagreed or why one did not run.
	Notes []string `json:"notes,omitempty"`
	// SelfDump is how far, in percent, the token's price in the pool fell
	// inside a holder's own transaction (the transfer test or the sell,
	// the larger) through swaps the token itself made there (swap-back,
	// liquify, dividends); sell_tax excludes it. Nil when not measured
	// (a V3 pool prices a sell before the token's transfer runs).
	SelfDump *float64 `json:"self_dump"`
	// BuyLimit is set when the full-size buy was refused but a smaller one
	// worked (a maximum transaction or wallet size); SellLimit the same for
	// the sell. Nil when the full size traded, or no size did.
	BuyLimit  *EVMTradeLimit `json:"buy_limit"`
	SellLimit *EVMTradeLimit `json:"sell_limit"`
	// RouterSell is the sell through the DEX router (approve, then the
	// router's transferFrom); SellAll the whole holding against 99.9% of
	// it; BuyCooldown a second buy right after the first; HolderSells
	// the real holders' sells. Each nil when not tried (see
	// evm_proofs.go).
	RouterSell  *EVMRouterSell  `json:"router_sell"`
	SellAll     *EVMSellAll     `json:"sell_all"`
	BuyCooldown *EVMBuyCooldown `json:"buy_cooldown"`
	HolderSells *EVMHolderSells `json:"holder_sells"`
	// SellBlocks are the two-step proofs that a privileged call (or a
	// threshold) makes holders' sells fail; nil when not tried, empty
	// when tried and none found.
	SellBlocks []EVMSellBlock `json:"sell_blocks"`
}

// EVMHookCut is what a V4 hook took, in percent of what a hook-free pool
// of the same price, liquidity and LP fee would have given for the same
// trade; nil when not measured (the trade failed, or the hook-free twin
// could not be built).
type EVMHookCut struct {
	Address string   `json:"address"`
	BuyFee  *float64 `json:"buy_fee"`
	SellFee *float64 `json:"sell_fee"`
}

// EVMSimulationError is liquidity_analysis.simulation.error: whether a
// step failed ({"failed": true, "reason": …}) or every step ran
// ({"failed": false}); the field is null only when neither is
// established (a step did not run and none failed).
type EVMSimulationError struct {
	Failed bool    `json:"failed"`
	Reason *string `json:"reason,omitempty"`
}

// MarshalJSON writes error in its three states (EVMSimulationError).
func (s EVMSimulation) MarshalJSON() ([]byte, error) {
	type plain EVMSimulation
	var e *EVMSimulationError
	switch {
	case s.Error != nil:
		e = &EVMSimulationError{Failed: true, Reason: s.Error}
	case s.CanBuy != nil && s.CanSell != nil:
		e = &EVMSimulationError{}
	}
	return json.Marshal(struct {
		plain
		Error *EVMSimulationError `json:"error"`
	}{plain(s), e})
}

// EVMTradeLimit is a trade size the token refused and a smaller one it
// accepted, in raw token units (decimal strings).
type EVMTradeLimit struct {
	// Refused is the smallest size refused; "" when unknown (a V3 buy is
	// sized in the quote token).
	Refused  string `json:"refused,omitempty"`
	Accepted string `json:"accepted"`
	// AcceptedPctSupply is Accepted in percent of the total supply; nil
	// when the supply is unknown.
	AcceptedPctSupply *float64 `json:"accepted_pct_supply"`
}

// SetSupply fills the trade limits' share of the total supply.
func (s *EVMSimulation) SetSupply(supply *big.Int) {
	if s == nil || supply == nil || supply.Sign() <= 0 {
		return
	}
	for _, l := range []*EVMTradeLimit{s.BuyLimit, s.SellLimit} {
		if l == nil {
			continue
		}
		acc, ok := new(big.Int).SetString(l.Accepted, 10)
		if !ok {
			continue
		}
		f, _ := new(big.Rat).SetFrac(acc, supply).Float64()
		v := math.Round(f*100*1e6) / 1e6
		l.AcceptedPctSupply = &v
	}
}

// SelfDumpFlagPct is the self-dump above which SELF_DUMP is raised (below,
// a token's own swap is noise in the seller's price).
const SelfDumpFlagPct = 1.0

// AnalyseEVMSimulation raises the honeypot and tax flags from a
// simulation. sim is nil when no simulation ran; hasPool says whether the
// token has a pool to simulate against (no pool: no honeypot verdict at
// all, NO_LIQUIDITY says why). A simulation that could not run is
// SIMULATION_FAILED, never a pass.
func AnalyseEVMSimulation(sim *EVMSimulation, hasPool bool) ([]risk.Flag, []string) {
	if !hasPool {
		return nil, []string{"simulation: no pool to trade against; honeypot status unknown"}
	}
	if sim == nil || sim.CanBuy == nil {
		reason := "the simulation did not run"
		if sim != nil && sim.Error != nil {
			reason = *sim.Error
		}
		warnings := []string{"simulation: " + reason}
		if sim != nil {
			for _, n := range sim.Notes {
				warnings = append(warnings, "simulation: "+n)
			}
		}
		return []risk.Flag{risk.NewFlag(risk.SimulationFailed, "Buy/sell simulation failed",
			"The honeypot simulation could not be run ("+reason+"); whether the token can be sold is unknown.")}, warnings
	}
	var flags []risk.Flag
	var warnings []string
	for _, n := range sim.Notes {
		warnings = append(warnings, "simulation: "+n)
	}
	reason := ""
	if sim.Error != nil {
		reason = " (" + *sim.Error + ")"
	}
	if !*sim.CanBuy {
		flags = append(flags, risk.NewFlag(risk.HoneypotCannotBuy, "Token cannot be bought",
			"A simulated buy from the pool reverted"+reason+"."))
		warnings = append(warnings, "simulation: the buy failed, so selling could not be tested")
		return flags, warnings
	}
	if f, ok := tradeLimitFlag(sim); ok {
		flags = append(flags, f)
	}
	if sim.SelfDump != nil && *sim.SelfDump >= SelfDumpFlagPct {
		flags = append(flags, risk.NewFlag(risk.SelfDump, fmt.Sprintf("The token's own swap drops the price %s%% inside a holder's sale", evmPct(*sim.SelfDump)),
			fmt.Sprintf("Inside the simulated holder's transaction the token sold its own tokens to the pool first (swap-back of collected fees, liquify), moving the price %s%% against the seller before the seller's swap; the sell tax excludes it.", evmPct(*sim.SelfDump))).WithValue(*sim.SelfDump))
	}
	if sim.CanSell == nil {
		flags = append(flags, risk.NewFlag(risk.SimulationFailed, "Sell simulation did not complete",
			"The simulated buy worked but the sell could not be tested"+reason+"."))
		warnings = append(warnings, "simulation: sell not established")
	} else if !*sim.CanSell {
		later := ", also when retried later in time"
		if sim.Cooldown == nil {
			later = ""
			warnings = append(warnings, "simulation: the later sell (cooldown check) could not run on this node; a trading cooldown would look the same")
		}
		flags = append(flags, risk.NewFlag(risk.HoneypotCannotSell, "Token cannot be sold",
			"A simulated sell back to the pool failed"+reason+later+"."))
	}
	flags = append(flags, evmSimProofFlags(sim)...)
	warnings = append(warnings, evmHolderSellWarnings(sim)...)
	// A V4 hook's cut is paid by the trader like a tax: the flags weigh
	// what the trade lost to both and say which took what.
	buyTax, buyHook := withHookCut(sim.BuyTax, sim.Hook, true)
	sellTax, sellHook := withHookCut(sim.SellTax, sim.Hook, false)
	taxFlag := func(code string, name string, tax *float64, hook string) {
		if tax != nil && *tax > risk.TaxHighPct {
			flags = append(flags, risk.NewFlag(code, fmt.Sprintf("%s tax is %s%%", name, evmPct(*tax)),
				fmt.Sprintf("The simulated %s lost %s%% of its value to the token's tax%s.", evmLower(name), evmPct(*tax), hook)).WithValue(*tax))
		}
	}
	taxFlag(risk.BuyTaxHigh, "Buy", buyTax, buyHook)
	taxFlag(risk.SellTaxHigh, "Sell", sellTax, sellHook)
	worst := 0.0
	for _, t := range []*float64{buyTax, sellTax, sim.TransferTax} {
		if t != nil && *t > worst {
			worst = *t
		}
	}
	if worst >= risk.TaxExtremePct {
		flags = append(flags, risk.NewFlag(risk.TaxExtreme, fmt.Sprintf("Tax of %s%%", evmPct(worst)),
			"A measured buy, sell or transfer tax takes half or more of the amount.").WithValue(worst))
	}
	if sim.TransferTax != nil && *sim.TransferTax > risk.TransferTaxPct {
		flags = append(flags, risk.NewFlag(risk.TransferTax, fmt.Sprintf("Transfer tax is %s%%", evmPct(*sim.TransferTax)),
			"A simulated wallet-to-wallet transfer arrived short by the token's tax.").WithValue(*sim.TransferTax))
	}
	if sim.BuyTax == nil {
		warnings = append(warnings, "simulation: buy tax unknown")
	}
	if sim.CanSell != nil && *sim.CanSell && sim.SellTax == nil {
		warnings = append(warnings, "simulation: sell tax unknown")
	}
	if sim.TransferTax == nil {
		warnings = append(warnings, "simulation: transfer tax unknown (the wallet transfer failed or was not tried)")
	}
	return flags, warnings
}

// withHookCut combines the token's own tax on one side with the V4 hook's
// cut on it (1 - (1-tax)(1-cut)), and words the split for the flag's
// detail; without a measured cut it is the tax alone.
func withHookCut(tax *float64, hook *EVMHookCut, buy bool) (*float64, string) {
	if hook == nil {
		return tax, ""
	}
	cut := hook.SellFee
	if buy {
		cut = hook.BuyFee
	}
	if cut == nil || *cut <= 0 {
		return tax, ""
	}
	own := 0.0
	if tax != nil {
		own = *tax
	}
	total := evmRound2(100 - (100-own)*(100-*cut)/100)
	return &total, fmt.Sprintf(" and the pool's hook %s (the hook took %s%%, the token %s%%)", hook.Address, evmPct(*cut), evmPct(own))
}

// tradeLimitFlag is OWNER_CAN_LIMIT_TX, proven by the simulation, when a
// full-size trade was refused and a smaller one worked; its value is the
// size that traded in percent of supply (the buy's, else the sell's).
func tradeLimitFlag(sim *EVMSimulation) (risk.Flag, bool) {
	var parts []string
	var value *float64
	for _, side := range []struct {
		name string
		l    *EVMTradeLimit
	}{{"buy", sim.BuyLimit}, {"sell", sim.SellLimit}} {
		if side.l == nil {
			continue
		}
		part := "a " + side.name
		if side.l.Refused != "" {
			part += " of " + side.l.Refused
		}
		part += " was refused while one of " + side.l.Accepted + " worked"
		if p := side.l.AcceptedPctSupply; p != nil {
			part += fmt.Sprintf(" (%s%% of supply)", evmPctFine(*p))
			if value == nil {
				value = p
			}
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		return risk.Flag{}, false
	}
	f := risk.NewFlag(risk.OwnerCanLimitTx, "Trade size is capped",
		"In the simulation "+strings.Join(parts, "; ")+" (raw token units): the token caps the size of a trade, so a larger holding can only be sold in parts.").
		WithEvidence(risk.EvidenceProbe, "simulation: trade size")
	if value != nil {
		f = f.WithValue(*value)
	}
	return f, true
}

// evmPctFine renders a small percentage with up to four decimals.
func evmPctFine(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
}

// EVMNotHoneypot is the checklist's not_honeypot: true only when the
// simulation proved a buy and a sell, with no tax taking half or more.
func EVMNotHoneypot(sim *EVMSimulation) bool {
	if sim == nil || sim.CanBuy == nil || sim.CanSell == nil || !*sim.CanBuy || !*sim.CanSell {
		return false
	}
	for _, f := range evmSimProofFlags(sim) {
		if f.Code == risk.HoneypotCannotSell {
			return false
		}
	}
	buyTax, _ := withHookCut(sim.BuyTax, sim.Hook, true)
	sellTax, _ := withHookCut(sim.SellTax, sim.Hook, false)
	for _, t := range []*float64{buyTax, sellTax} {
		if t == nil || *t >= risk.TaxExtremePct {
			return false
		}
	}
	return true
}

// evmPct renders a percentage with at most one decimal.
func evmPct(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s
}

func evmLower(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'A' && b[0] <= 'Z' {
		b[0] += 'a' - 'A'
	}
	return string(b)
}
