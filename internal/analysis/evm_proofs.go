package analysis

import (
	"fmt"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// The behaviours a user compares field by field (issue 18, item 2): facts
// the EVM adapter establishes by simulation and probes, inside the
// existing round trips. Every one is optional: a nil pointer or a nil
// slice is "not tried or not established", never "absent"; the capability
// table (contract_analysis.capabilities) reads a field it needs as null
// until it is filled. /work/notes/capability-seam.md summarises them for
// the helpers that fill them.

// EVMRouterSell is a sell as users sell: approve the DEX router, then the
// router's swap pulls the tokens with transferFrom (the path a token can
// trap while the direct transfer-and-swap passes).
type EVMRouterSell struct {
	// Router is the router contract the sell went through.
	Router string `json:"router,omitempty"`
	// CanSell is nil when the sell could not be tried (it did not get as
	// far as the swap for a reason of ours, e.g. the buy failed).
	CanSell *bool `json:"can_sell"`
	// SellTax is the tax measured on this path (percent), nil when unknown.
	SellTax *float64 `json:"sell_tax"`
	// Error is the revert reason when the sell failed.
	Error *string `json:"error"`
}

// EVMSellAll is the whole holding sold against 99.9% of it.
type EVMSellAll struct {
	// Whole is true when selling the whole holding worked, false when
	// refused; Part the same for 99.9% of it. Nil when not tried.
	Whole *bool `json:"whole"`
	Part  *bool `json:"part"`
	// Error is the whole sell's revert reason when it was refused.
	Error *string `json:"error"`
}

// Refused says the whole holding could not be sold while 99.9% could:
// cannot_sell_all, proven.
func (s *EVMSellAll) Refused() bool {
	return s != nil && s.Whole != nil && !*s.Whole && s.Part != nil && *s.Part
}

// EVMBuyCooldown is a second buy by the same wallet right after its first.
type EVMBuyCooldown struct {
	// SameBlock is true when a second buy in the same block worked, false
	// when refused; NextBlock the same in the next block. Nil when not
	// tried.
	SameBlock *bool `json:"same_block"`
	NextBlock *bool `json:"next_block"`
	// WaitSeconds is the wait after which a second buy worked, where it
	// was measured; nil when not measured.
	WaitSeconds *uint64 `json:"wait_seconds"`
	// Error is the refused buy's revert reason.
	Error *string `json:"error"`
}

// Refused says a second buy was refused right after the first: a buy
// cooldown.
func (b *EVMBuyCooldown) Refused() bool {
	return b != nil && (b.SameBlock != nil && !*b.SameBlock || b.NextBlock != nil && !*b.NextBlock)
}

// Passed says second buys in the same and the next block both worked.
func (b *EVMBuyCooldown) Passed() bool {
	return b != nil && b.SameBlock != nil && *b.SameBlock && b.NextBlock != nil && *b.NextBlock
}

// EVMHolderSells is a simulated sell by each of the real holders (top
// holders that are not pools, lockers or burn addresses, and the last
// buyers), in one batch.
type EVMHolderSells struct {
	// Tried counts the holders whose sell was simulated, Failed those
	// whose sell was refused.
	Tried  int `json:"tried"`
	Failed int `json:"failed"`
	// AverageTax and HighestTax are over the sells that worked (percent);
	// nil when none worked or none was measured.
	AverageTax *float64 `json:"average_tax"`
	HighestTax *float64 `json:"highest_tax"`
	// FailedHolders names the holders whose sell was refused.
	FailedHolders []string `json:"failed_holders,omitempty"`
	// Siphoned names holders whose balance fell without their sending.
	Siphoned []string `json:"siphoned,omitempty"`
	// Error is the first refused sell's revert reason.
	Error *string `json:"error"`
}

// EVMSellBlock is a two-step proof: a privileged call (or an armed
// switch, or a block, time or size threshold), then a holder's sell
// refused that worked before.
type EVMSellBlock struct {
	// Function is the privileged call (signature or selector) that armed
	// the block; "" for a threshold that needs no call.
	Function string `json:"function,omitempty"`
	// Caller is who made the call, Role its role ("owner", "stored",
	// "creator").
	Caller string `json:"caller,omitempty"`
	Role   string `json:"role,omitempty"`
	// Condition describes a threshold (a block, a time, a size) when the
	// block needs no call.
	Condition string `json:"condition,omitempty"`
	// Error is the refused sell's revert reason.
	Error string `json:"error,omitempty"`
}

// EVMPrivilegedAddress is one address the code stores and checks
// msg.sender against (not only owner()).
type EVMPrivilegedAddress struct {
	Address string `json:"address"`
	// Slot is the storage slot (0x…) the address was read from, "" when
	// it came from a getter.
	Slot string `json:"slot,omitempty"`
	// Role is "owner", "stored" or "creator".
	Role string `json:"role"`
	// Powers are the capability names (EVMCap*) proven from it.
	Powers []string `json:"powers"`
	// AfterRenounce is true when its powers were proven again after the
	// token's own renounce path ran (or the token is renounced already),
	// false when they were gone, nil when not tried;
	// AfterRenounceDetail says how it was established, or why not.
	AfterRenounce       *bool  `json:"after_renounce"`
	AfterRenounceDetail string `json:"after_renounce_detail,omitempty"`
}

// EVMReclaimProbe is the token's own renounce path run, then a reclaim
// tried from every privileged address.
type EVMReclaimProbe struct {
	// Renounce is the function that renounced (signature or selector).
	Renounce string `json:"renounce"`
	// Reclaimed is true when an address got ownership back, false when
	// every reclaim failed.
	Reclaimed bool `json:"reclaimed"`
	// Function and Caller are the reclaim that worked.
	Function string `json:"function,omitempty"`
	Caller   string `json:"caller,omitempty"`
}

// EVMWhitelistProbe is the whitelist proof: a fresh wallet's trade, then
// the privileged call that lists it, then the same trade.
type EVMWhitelistProbe struct {
	// Function and Caller are the listing call (signature or selector).
	Function string `json:"function,omitempty"`
	Caller   string `json:"caller,omitempty"`
	// Listed is true when listing the wallet changed what it could do:
	// OnlyListed when an unlisted wallet was refused a trade a listed one
	// made; Exempt names what a listed wallet escaped ("fee", "limit",
	// "cooldown").
	Listed     bool     `json:"listed"`
	OnlyListed bool     `json:"only_listed"`
	Exempt     []string `json:"exempt,omitempty"`
}

// EVMPerAddressFeeProbe is the per-address fee proof: the privileged call
// sets one wallet's fee, then that wallet's sell or transfer loses it.
type EVMPerAddressFeeProbe struct {
	Function string `json:"function,omitempty"`
	Caller   string `json:"caller,omitempty"`
	// Proven is true when the wallet's loss changed after the call.
	Proven bool `json:"proven"`
	// TaxBefore and TaxAfter are the wallet's measured loss (percent).
	TaxBefore *float64 `json:"tax_before"`
	TaxAfter  *float64 `json:"tax_after"`
}

// EVMExternalCall is a contract the token's transfers call at a fixed
// address: one loaded from a storage slot, or one written in the code
// (an immutable, which nobody can change).
type EVMExternalCall struct {
	// Callee is the contract called; nil (null) when its slot could not
	// be read or holds no address (a warning says so). The zero address
	// means none is set now (the call is skipped or fails).
	Callee *string `json:"callee"`
	// Slot is the storage slot the address is loaded from (hex); nil for
	// an address written in the code (Fixed).
	Slot  *string `json:"slot"`
	Fixed bool    `json:"fixed"`
	// Kind is call, staticcall (a read) or delegatecall (the callee's
	// code runs as the token's).
	Kind string `json:"kind"`
	// ChangeableBy are the privileged callers the probes saw point the
	// transfers at another contract, with the function; empty when every
	// probed caller was tried and none could (or Fixed), nil (null) when
	// the probes did not establish it.
	ChangeableBy []EVMCalleeChanger `json:"changeable_by"`
	// CalleeHasCode says whether the callee has code now (nil: not read).
	CalleeHasCode *bool `json:"callee_has_code"`
}

func orUnknown(s *string) string {
	if s == nil {
		return "unknown"
	}
	return *s
}

// EVMCalleeChanger is one privileged caller that changed a transfer's
// callee in a probe.
type EVMCalleeChanger struct {
	Address  string `json:"address"`
	Role     string `json:"role"`
	Function string `json:"function"`
}

// String says what a user reads of the call: its callee, where it is
// stored and who can change it.
func (c EVMExternalCall) String() string {
	callee := "an unknown contract"
	if c.Callee != nil {
		callee = *c.Callee
	}
	switch {
	case c.Fixed:
		return callee + " (fixed in the code: nobody can change it)"
	case c.ChangeableBy == nil:
		return callee + " (slot " + orUnknown(c.Slot) + "; who can change it was not established)"
	case len(c.ChangeableBy) == 0:
		return callee + " (slot " + orUnknown(c.Slot) + "; no privileged caller could change it)"
	}
	var who []string
	for _, ch := range c.ChangeableBy {
		who = append(who, ch.Role+" "+ch.Address+" with "+ch.Function)
	}
	return callee + " (slot " + orUnknown(c.Slot) + "; changeable by " + strings.Join(who, ", ") + ")"
}

// evmProofFlags raises the contract flags the proofs above establish:
// the whitelist, a per-address fee, ownership taken back after the
// token's own renounce (HIDDEN_OWNER once renounced, OWNER_CAN_RECLAIM
// while the owner is live), a second buy refused (a cooldown) and a
// privileged call that stops sells (critical). raised are the codes
// already flagged: one fact, one flag. It returns the flags and, for
// the capability table, the reclaim's code ("" when none).
func evmProofFlags(f *EVMContractFacts, renounced bool, raised map[string]bool) ([]risk.Flag, string) {
	var flags []risk.Flag
	reclaim := ""
	if p := f.Probe; p != nil {
		if w := p.Whitelist; w != nil {
			switch {
			case w.OnlyListed:
				if raised[risk.WhitelistOnly] {
					break // a probe call already proved it: one fact, one flag
				}
				flags = append(flags, risk.NewFlag(risk.WhitelistOnly, "Only listed wallets can trade",
					"A wallet not on the list was refused a trade that worked once "+w.Caller+" listed it ("+w.Function+").").
					WithEvidence(risk.EvidenceProbe, w.Function))
			case w.Listed:
				what := "restrictions"
				if len(w.Exempt) > 0 {
					what = strings.Join(w.Exempt, ", ")
				}
				flags = append(flags, risk.NewFlag(risk.OwnerCanWhitelist, "Owner controls a whitelist",
					"Listing a wallet ("+w.Function+" from "+w.Caller+") exempted it from: "+what+".").
					WithEvidence(risk.EvidenceProbe, w.Function))
			}
		}
		if fee := p.PerAddressFee; fee != nil && fee.Proven {
			flags = append(flags, risk.NewFlag(risk.PerAddressFee, "Owner can set one wallet's fee",
				fmt.Sprintf("%s from %s changed one wallet's loss on a sale from %s to %s, the others' unchanged.",
					fee.Function, fee.Caller, evmPctOrUnknown(fee.TaxBefore), evmPctOrUnknown(fee.TaxAfter))).
				WithEvidence(risk.EvidenceProbe, fee.Function))
		}
		if r := p.Reclaim; r != nil && r.Reclaimed {
			detail := "After " + r.Renounce + " renounced ownership, " + r.Caller + " took it back with " + r.Function + "."
			switch {
			case renounced && !raised[risk.HiddenOwner]:
				reclaim = risk.HiddenOwner
				flags = append(flags, risk.NewFlag(risk.HiddenOwner, "Ownership can be reclaimed", detail).
					WithEvidence(risk.EvidenceProbe, r.Function))
			case renounced:
				reclaim = risk.HiddenOwner
			default:
				reclaim = risk.OwnerCanReclaim
				flags = append(flags, risk.NewFlag(risk.OwnerCanReclaim, "A renounce would not be final", detail).
					WithEvidence(risk.EvidenceProbe, r.Function))
			}
		}
	}
	if sim := f.Simulation; sim != nil {
		if b := sim.BuyCooldown; b.Refused() && !raised[risk.TradingCooldown] {
			detail := "A second buy by the same wallet right after its first was refused"
			if b.Error != nil {
				detail += " (" + *b.Error + ")"
			}
			if b.WaitSeconds != nil {
				detail += fmt.Sprintf("; a buy %d seconds later worked", *b.WaitSeconds)
			}
			flags = append(flags, risk.NewFlag(risk.TradingCooldown, "Buy cooldown", detail+"."))
		}
		for _, b := range sim.SellBlocks {
			if b.Function == "" {
				continue // a threshold: the simulation's own flag
			}
			detail := b.Function + " called by " + b.Caller
			if b.Role != "" {
				detail += " (" + b.Role + ")"
			}
			detail += " made a holder's sell fail that worked before"
			if b.Error != "" {
				detail += " (" + b.Error + ")"
			}
			flags = append(flags, risk.NewFlag(risk.OwnerCanBlockSells, "One privileged call stops sells", detail+".").
				WithEvidence(risk.EvidenceProbe, b.Function))
			break
		}
	}
	return flags, reclaim
}

// evmSimProofFlags raises the simulation flags the proofs above
// establish: the whole holding refused while 99.9% sells, a sell through
// the router refused while the direct one worked, a sell refused past a
// threshold (a block, a time, a size), and real holders refused where a
// fresh wallet sold. The honeypot proofs raise one HONEYPOT_CANNOT_SELL
// between them (the first that holds: one fact, one flag).
func evmSimProofFlags(sim *EVMSimulation) []risk.Flag {
	flags := evmSimProofFlagsAll(sim)
	out := flags[:0]
	honeypot := false
	for _, f := range flags {
		if f.Code == risk.HoneypotCannotSell {
			if honeypot {
				continue
			}
			honeypot = true
		}
		out = append(out, f)
	}
	return out
}

// HolderSellsHoneypot says the real holders' sells prove a honeypot that
// a fresh wallet's sell does not show: at least two holders tried and at
// least half of them refused (one refused holder may be one blacklisted
// wallet: a warning, not a honeypot).
func HolderSellsHoneypot(h *EVMHolderSells) bool {
	return h != nil && h.Tried >= 2 && 2*h.Failed >= h.Tried
}

func evmSimProofFlagsAll(sim *EVMSimulation) []risk.Flag {
	var flags []risk.Flag
	if sim.SellAll.Refused() {
		detail := "Selling the whole holding was refused while 99.9% of it sold"
		if sim.SellAll.Error != nil {
			detail += " (" + *sim.SellAll.Error + ")"
		}
		flags = append(flags, risk.NewFlag(risk.CannotSellAll, "The whole holding cannot be sold", detail+"."))
	}
	directSold := sim.CanSell != nil && *sim.CanSell
	if r := sim.RouterSell; directSold && r != nil && r.CanSell != nil && !*r.CanSell {
		detail := "The direct sell worked, but the sell users make through the DEX router (approve, then the router's transferFrom) was refused"
		if r.Error != nil {
			detail += " (" + *r.Error + ")"
		}
		flags = append(flags, risk.NewFlag(risk.HoneypotCannotSell, "Token cannot be sold through the router", detail+"."))
	}
	for _, b := range sim.SellBlocks {
		if b.Function != "" || !directSold {
			continue
		}
		detail := "A sell that works now was refused " + b.Condition
		if b.Error != "" {
			detail += " (" + b.Error + ")"
		}
		flags = append(flags, risk.NewFlag(risk.HoneypotCannotSell, "Sells fail past a threshold", detail+"."))
		break
	}
	if h := sim.HolderSells; directSold && HolderSellsHoneypot(h) {
		flags = append(flags, risk.NewFlag(risk.HoneypotCannotSell, "Real holders cannot sell",
			fmt.Sprintf("A fresh wallet sold, but %d of %d real holders' simulated sells were refused%s: %s.",
				h.Failed, h.Tried, evmReasonSuffix(h.Error), strings.Join(h.FailedHolders, ", "))))
	}
	if h := sim.HolderSells; h != nil && len(h.Siphoned) > 0 {
		flags = append(flags, risk.NewFlag(risk.BalancesSiphoned, "Holders' balances are taken",
			fmt.Sprintf("%d of %d real holders tried never sent a token, yet hold less than the token's complete Transfer history gives them: %s.",
				len(h.Siphoned), h.Tried, strings.Join(h.Siphoned, ", "))))
	}
	return flags
}

// evmHolderSellWarnings says what the real holders' sells showed short of
// a honeypot: a few holders refused, balances that fell without their
// holder sending.
func evmHolderSellWarnings(sim *EVMSimulation) []string {
	h := sim.HolderSells
	if h == nil {
		return nil
	}
	var out []string
	if h.Failed > 0 && !(sim.CanSell != nil && *sim.CanSell && HolderSellsHoneypot(h)) {
		out = append(out, fmt.Sprintf("simulation: %d of %d real holders' sells were refused (%s)", h.Failed, h.Tried, strings.Join(h.FailedHolders, ", ")))
	}
	if len(h.Siphoned) > 0 {
		out = append(out, "simulation: holders that never sent hold less than their Transfer logs give (balances taken without a Transfer of theirs): "+strings.Join(h.Siphoned, ", "))
	}
	return out
}

// evmReasonSuffix is " (reason)", or nothing without one.
func evmReasonSuffix(reason *string) string {
	if reason == nil || *reason == "" {
		return ""
	}
	return " (" + *reason + ")"
}

func evmPctOrUnknown(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return evmPct(*v) + "%"
}

// EVMRelease is a credit the declared total supply already counts.
type EVMRelease struct {
	// Credited is the largest amount one call credited (raw units), and
	// Refused the amount (above the supply) the same call refused.
	Credited string `json:"credited"`
	Refused  string `json:"refused,omitempty"`
}

// evmReleaseFlag is OWNER_CAN_RELEASE_RESERVE for a mint proof that is a
// release: who can release, through what, how much.
func evmReleaseFlag(c EVMCapability) risk.Flag {
	detail := c.Caller + " (" + c.Role + ") credited " + c.Release.Credited + " tokens (" + c.Evidence + ") with the total supply unchanged"
	if c.Release.Refused != "" {
		detail += ", and a credit of " + c.Release.Refused + " (more than the supply) was refused"
	}
	return risk.NewFlag(risk.OwnerCanReleaseReserve, "Owner can release reserved supply",
		detail+": the tokens come from an allocation the declared supply already counts, not a mint.").
		WithEvidence(risk.EvidenceProbe, c.Evidence)
}
