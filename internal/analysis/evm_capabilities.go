package analysis

import (
	"fmt"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// The capability table's names (contract_analysis.capabilities): the
// fields a GoPlus token_security user compares, one entry each. Stable
// once shipped.
const (
	CapIsMintable                 = "is_mintable"
	CapCanTakeBackOwnership       = "can_take_back_ownership"
	CapOwnerChangeBalance         = "owner_change_balance"
	CapHiddenOwner                = "hidden_owner"
	CapSelfdestruct               = "selfdestruct"
	CapExternalCall               = "external_call"
	CapIsBlacklisted              = "is_blacklisted"
	CapIsWhitelisted              = "is_whitelisted"
	CapSlippageModifiable         = "slippage_modifiable"
	CapPersonalSlippageModifiable = "personal_slippage_modifiable"
	CapTransferPausable           = "transfer_pausable"
	CapTradingCooldown            = "trading_cooldown"
	CapIsAntiWhale                = "is_anti_whale"
	CapAntiWhaleModifiable        = "anti_whale_modifiable"
	CapCannotBuy                  = "cannot_buy"
	CapCannotSellAll              = "cannot_sell_all"
	CapIsHoneypot                 = "is_honeypot"
	CapIsProxy                    = "is_proxy"
	CapIsOpenSource               = "is_open_source"
)

// EVMCapabilityNames lists the table's entries in the order a GoPlus
// user reads them.
var EVMCapabilityNames = []string{
	CapIsMintable, CapCanTakeBackOwnership, CapOwnerChangeBalance, CapHiddenOwner, CapSelfdestruct,
	CapExternalCall, CapIsBlacklisted, CapIsWhitelisted, CapSlippageModifiable, CapPersonalSlippageModifiable,
	CapTransferPausable, CapTradingCooldown, CapIsAntiWhale, CapAntiWhaleModifiable, CapCannotBuy,
	CapCannotSellAll, CapIsHoneypot, CapIsProxy, CapIsOpenSource,
}

// How a capability entry is known (EVMCapabilityEntry.Evidence).
const (
	// CapEvidenceProbe: a privileged call's effect was observed (or the
	// probes called every function from every privileged caller and
	// none showed it).
	CapEvidenceProbe = "probe"
	// CapEvidenceSimulation: a simulated trade showed it.
	CapEvidenceSimulation = "simulation"
	// CapEvidenceCode: read from the bytecode (a path exists, or the
	// opcode or pattern is absent).
	CapEvidenceCode = "code"
	// CapEvidenceExplorer: a source-verification service answered.
	CapEvidenceExplorer = "explorer"
)

// EVMCapabilityEntry is one entry of the capability table.
type EVMCapabilityEntry struct {
	// Value is true or false where established, nil (null) when unknown:
	// never false for "not checked".
	Value *bool `json:"value"`
	// Evidence says how Value is known; nil when Value is.
	Evidence *string `json:"evidence"`
	// Source names the probe, simulation step, function or service.
	Source string `json:"source"`
	// Detail says what was seen, or why the value is unknown.
	Detail string `json:"detail"`
	// Flag is the risk flag raised for the risky value ("" when none is:
	// a safe value, an unknown, or a proxy that cannot be upgraded).
	Flag string `json:"flag,omitempty"`
	// Calls are, for external_call, the contracts transfers call at an
	// address the code fixes: each callee, its slot, and who can change
	// it (absent for the other entries, and when the code was not read).
	Calls []EVMExternalCall `json:"calls,omitempty"`
}

// EVMCapabilities is contract_analysis.capabilities: one entry per name
// of EVMCapabilityNames.
type EVMCapabilities map[string]EVMCapabilityEntry

// evmCapabilityInputs is what the table reads: the contract facts, the
// flags the contract analysis raised, and what it decided about the
// owner.
type evmCapabilityInputs struct {
	f *EVMContractFacts
	// flags are the contract analysis' flags; simFlags the simulation's
	// (AnalyseEVMSimulation of f.Simulation).
	flags, simFlags []risk.Flag
	renounced       bool
	// hidden is an address other than the owner that proved an owner
	// power; reclaimFlag the flag raised for an ownership reclaim ("" for
	// none).
	hidden      string
	reclaimFlag string
	// reclaimProven: a probe proved the reclaim the flag says.
	reclaimProven bool
	caps          map[string]*EVMCapability
}

// evmCapabilityTable assembles the table. A true value always carries
// the flag that expresses it; false only where the check that would show
// the power ran completely (the probes from every caller with every
// function, a trade that worked, a code pattern absent); otherwise null
// with the reason.
func evmCapabilityTable(in evmCapabilityInputs) EVMCapabilities {
	f := in.f
	t := EVMCapabilities{}
	find := func(flags []risk.Flag, codes ...string) (risk.Flag, bool) {
		for _, c := range codes {
			for _, fl := range flags {
				if fl.Code == c {
					return fl, true
				}
			}
		}
		return risk.Flag{}, false
	}
	// power is an owner power the probes look for: true from its flag,
	// false when the probes ran completely (blocking: they also needed a
	// funded victim), else null.
	power := func(name string, blocking bool, capNames []string, codes ...string) {
		if fl, ok := find(in.flags, codes...); ok {
			t[name] = capYes(fl, CapEvidenceProbe)
			return
		}
		why := evmProbesIncomplete(f, blocking)
		if why != "" {
			t[name] = capUnknown(why)
			return
		}
		detail := "The privilege probes called every non-standard function from " + evmProbeCallerList(f.Probe) + "; none showed this power."
		for _, n := range capNames {
			c := in.caps[n]
			switch {
			case c == nil:
				continue
			case c.Refuted && c.Proven == nil:
				t[name] = capUnknown("the setter ran without the effect the power would have, but part of it was not measured (" + c.Evidence + ")")
				return
			case c.Refuted:
				detail += " " + c.Evidence + "."
			default:
				detail += " The code has " + c.Evidence + ", but no caller that can still act could use it."
			}
			break
		}
		t[name] = capNo(CapEvidenceProbe, "privilege probes", detail)
	}

	power(CapIsMintable, false, []string{EVMCapMint}, risk.OwnerCanMint)
	if rel, ok := find(in.flags, risk.OwnerCanReleaseReserve); ok {
		if e := t[CapIsMintable]; e.Value != nil && !*e.Value {
			e.Source, e.Detail = rel.Source, "No mint: "+rel.Detail+" The probes found no other credit."
			t[CapIsMintable] = e
		}
	}
	power(CapOwnerChangeBalance, true, []string{EVMCapSeize, EVMCapBalanceChange}, risk.OwnerCanSeize, risk.OwnerCanChangeBalance)
	power(CapIsBlacklisted, true, []string{EVMCapBlacklist}, risk.OwnerCanBlacklist)
	power(CapSlippageModifiable, true, []string{EVMCapFeeChange}, risk.OwnerCanChangeFees, risk.FeeCapped)
	power(CapTransferPausable, true, []string{EVMCapPause, EVMCapTradingSwitch}, risk.OwnerCanPause, risk.TradingSwitch, risk.OwnerCanBlockSells)
	power(CapAntiWhaleModifiable, false, []string{EVMCapLimitTx}, risk.OwnerCanLimitTx)

	// A whitelist (the listing probe's flags, or a whitelist power) and
	// a per-address fee (its own probe: one wallet's fee set apart).
	power(CapIsWhitelisted, true, []string{EVMCapWhitelist}, risk.WhitelistOnly, risk.OwnerCanWhitelist)
	switch fl, ok := find(in.flags, risk.PerAddressFee); {
	case ok:
		t[CapPersonalSlippageModifiable] = capYes(fl, CapEvidenceProbe)
	case f.Probe != nil && f.Probe.PerAddressFee != nil && evmProbesIncomplete(f, true) == "":
		t[CapPersonalSlippageModifiable] = capNo(CapEvidenceProbe, "per-address fee probe",
			"No privileged caller could set one wallet's fee apart from the others'.")
	default:
		t[CapPersonalSlippageModifiable] = capUnknown("no probe set one wallet's fee apart from the others'")
	}

	// Ownership taken back: the reclaim flag (the renounce-then-reclaim
	// proof, a reclaim proven from a caller, or a reclaim path left
	// beside a renounced owner).
	switch r := evmReclaimProbe(f); {
	case in.reclaimFlag != "":
		fl, _ := find(in.flags, in.reclaimFlag)
		ev := CapEvidenceCode
		if in.reclaimProven {
			ev = CapEvidenceProbe
		}
		t[CapCanTakeBackOwnership] = capYes(fl, ev)
	case r != nil && !r.Reclaimed:
		t[CapCanTakeBackOwnership] = capNo(CapEvidenceProbe, "renounce-then-reclaim probe",
			"After "+r.Renounce+" renounced ownership, no privileged address could take it back.")
	default:
		t[CapCanTakeBackOwnership] = capUnknown("no probe renounced ownership through the token's own path and tried to reclaim it")
	}

	// A hidden owner: an address other than the declared owner proved an
	// owner power.
	switch {
	case in.hidden != "":
		fl, _ := find(in.flags, risk.HiddenOwner)
		t[CapHiddenOwner] = capYes(fl, CapEvidenceProbe)
	case f.RoleGoverned && !f.OwnerGetter:
		t[CapHiddenOwner] = capUnknown("access is role-based (AccessControl) with no owner getter: there is no declared owner to hide from, and the role holders are not readable")
	default:
		if why := evmProbesIncomplete(f, false); why != "" {
			t[CapHiddenOwner] = capUnknown(why)
			break
		}
		t[CapHiddenOwner] = capNo(CapEvidenceProbe, "privilege probes",
			"No address but the declared owner proved an owner power (probed from "+evmProbeCallerList(f.Probe)+").")
	}

	// Self-destruct and external calls: read from the code.
	switch {
	case f.Code == nil:
		t[CapSelfdestruct] = capUnknown("the bytecode was not analysed")
	case f.Code.Selfdestruct:
		fl, _ := find(in.flags, risk.Selfdestruct)
		t[CapSelfdestruct] = capYes(fl, CapEvidenceCode)
	case f.Code.StorageTargetDelegatecall:
		t[CapSelfdestruct] = capUnknown("no SELFDESTRUCT in the code, but it delegates to an address loaded from storage, whose code could")
	default:
		t[CapSelfdestruct] = capNo(CapEvidenceCode, "bytecode", "The code has no reachable SELFDESTRUCT.")
	}
	switch {
	case f.Code == nil:
		t[CapExternalCall] = capUnknown("the bytecode was not analysed")
	default:
		if fl, ok := find(in.flags, risk.ExternalCall); ok {
			t[CapExternalCall] = capYes(fl, CapEvidenceProbe)
			break
		}
		// A stored callee the transfer analysis found counts even where
		// the code scan saw no call to a stored address.
		stored, unsettled := f.Code.StorageTargetCall || f.Code.StorageTargetDelegatecall, ""
		for _, c := range f.ExternalCalls {
			if c.Fixed {
				continue
			}
			stored = true
			if c.ChangeableBy == nil && unsettled == "" {
				unsettled = orUnknown(c.Slot)
			}
		}
		if !stored {
			t[CapExternalCall] = capNo(CapEvidenceCode, "bytecode", "The code calls no contract whose address it loads from storage.")
			break
		}
		if why := evmProbesIncomplete(f, false); why != "" {
			t[CapExternalCall] = capUnknown("the code calls a contract whose address it loads from storage; " + why)
			break
		}
		if unsettled != "" {
			t[CapExternalCall] = capUnknown("transfers call the contract whose address slot " + unsettled +
				" holds, and the probes did not establish whether a privileged caller can change it")
			break
		}
		t[CapExternalCall] = capNo(CapEvidenceProbe, "privilege probes",
			"The code calls a contract whose address it loads from storage, but no privileged caller could change that address.")
	}

	if e := t[CapExternalCall]; len(f.ExternalCalls) > 0 {
		e.Calls = f.ExternalCalls
		if e.Value != nil && !*e.Value {
			var named []string
			for _, c := range f.ExternalCalls {
				named = append(named, c.String())
			}
			e.Detail += " Transfers call " + strings.Join(named, "; ") + "."
		}
		t[CapExternalCall] = e
	}

	evmTradeEntries(t, f, in, find)

	// Proxy and source.
	switch {
	case f.Proxy != nil:
		e := EVMCapabilityEntry{Value: evmTrue(), Evidence: capEv(CapEvidenceCode), Source: f.Proxy.Kind,
			Detail: fmt.Sprintf("A %s proxy; the code that runs is %s's.", f.Proxy.Kind, f.Proxy.Implementation)}
		if f.Proxy.Slot != nil {
			e.Detail = fmt.Sprintf("A proxy: its fallback delegates every call it does not define to the address at its storage slot %s, now %s.",
				*f.Proxy.Slot, f.Proxy.Implementation)
		}
		if f.Proxy.Upgradeable {
			e.Flag = risk.ProxyUpgradeable
			e.Detail += " It can be upgraded."
		} else {
			e.Detail += " It cannot be upgraded."
		}
		t[CapIsProxy] = e
	case f.ProxyRead:
		t[CapIsProxy] = capNo(CapEvidenceCode, "proxy slots and code", "No proxy pattern: neither the standard proxy slots nor a minimal-proxy body.")
	default:
		t[CapIsProxy] = capUnknown("the proxy slots could not be read")
	}
	switch {
	case f.Verified == nil:
		t[CapIsOpenSource] = capUnknown("no source-verification service answered")
	case *f.Verified:
		t[CapIsOpenSource] = EVMCapabilityEntry{Value: evmTrue(), Evidence: capEv(CapEvidenceExplorer), Source: f.VerifiedSource,
			Detail: "The source is verified (" + f.VerifiedSource + ")."}
	default:
		fl, _ := find(in.flags, risk.NotVerified)
		e := capNo(CapEvidenceExplorer, "sourcify, explorer", fl.Detail)
		e.Flag = risk.NotVerified
		t[CapIsOpenSource] = e
	}
	return t
}

// evmTradeEntries fills the entries the simulation establishes:
// cannot_buy, is_honeypot, cannot_sell_all, trading_cooldown and
// is_anti_whale.
func evmTradeEntries(t EVMCapabilities, f *EVMContractFacts, in evmCapabilityInputs, find func([]risk.Flag, ...string) (risk.Flag, bool)) {
	sim := f.Simulation
	simRan := sim != nil && sim.CanBuy != nil
	simWhy := "the buy/sell simulation did not run"
	if sim != nil && sim.Error != nil {
		simWhy = "the buy/sell simulation failed: " + *sim.Error
	}

	switch {
	case !simRan:
		t[CapCannotBuy] = capUnknown(simWhy)
	case !*sim.CanBuy:
		fl, _ := find(in.simFlags, risk.HoneypotCannotBuy)
		t[CapCannotBuy] = capYes(fl, CapEvidenceSimulation)
	default:
		t[CapCannotBuy] = capNo(CapEvidenceSimulation, "simulated buy", "A simulated buy from the pool worked.")
	}

	// A honeypot: the sell refused on any path users take (direct, the
	// router's), or real holders who cannot sell.
	hp, hpOK := find(in.simFlags, risk.HoneypotCannotSell)
	block, blockOK := find(in.flags, risk.OwnerCanBlockSells)
	switch {
	case hpOK:
		t[CapIsHoneypot] = capYes(hp, CapEvidenceSimulation)
	case blockOK:
		// A conditional honeypot: one privileged call stops sells.
		t[CapIsHoneypot] = capYes(block, CapEvidenceProbe)
	case !simRan:
		t[CapIsHoneypot] = capUnknown(simWhy)
	case !*sim.CanBuy:
		t[CapIsHoneypot] = capUnknown("the buy failed, so selling could not be tried")
	case sim.CanSell == nil:
		t[CapIsHoneypot] = capUnknown("the sell could not be tried")
	default:
		t[CapIsHoneypot] = capNo(CapEvidenceSimulation, "simulated sell", "A simulated sell back to the pool worked.")
	}

	switch sa := sim; {
	case func() bool { _, ok := find(in.simFlags, risk.CannotSellAll); return ok }():
		fl, _ := find(in.simFlags, risk.CannotSellAll)
		t[CapCannotSellAll] = capYes(fl, CapEvidenceSimulation)
	case sa != nil && sa.SellAll != nil && sa.SellAll.Whole != nil && *sa.SellAll.Whole:
		t[CapCannotSellAll] = capNo(CapEvidenceSimulation, "sell-all simulation", "A simulated sell of the whole holding worked.")
	default:
		t[CapCannotSellAll] = capUnknown("no simulated sell tried the whole holding")
	}

	// A cooldown: observed (a sell or a second buy refused right after a
	// buy, working later: no evidence on the flag, the simulation), or a
	// cooldown power.
	cool, coolOK := find(in.flags, risk.TradingCooldown)
	switch {
	case coolOK && cool.Evidence != "":
		t[CapTradingCooldown] = capYes(cool, CapEvidenceProbe)
	case coolOK:
		t[CapTradingCooldown] = capYes(cool, CapEvidenceSimulation)
	case simRan && sim.CanSell != nil && *sim.CanSell && sim.BuyCooldown.Passed() && evmProbesIncomplete(f, false) == "":
		t[CapTradingCooldown] = capNo(CapEvidenceSimulation, "simulated trades",
			"A sell right after a buy and second buys in the same and the next block all worked, and no privileged caller could set a cooldown.")
	default:
		t[CapTradingCooldown] = capUnknown("no simulated second buy right after the first established whether a cooldown applies")
	}

	// Anti-whale: a trade size refused while a smaller one worked, or a
	// limit power; no limit met at the simulated size excludes none above
	// it.
	limitFl, limitPower := find(in.flags, risk.OwnerCanLimitTx)
	switch {
	case sim != nil && (sim.BuyLimit != nil || sim.SellLimit != nil):
		fl, _ := find(in.simFlags, risk.OwnerCanLimitTx)
		e := capYes(fl, CapEvidenceSimulation)
		e.Evidence = capEv(CapEvidenceSimulation) // the flag's "probe" is the simulation's trade
		t[CapIsAntiWhale] = e
	case limitPower:
		t[CapIsAntiWhale] = capYes(limitFl, CapEvidenceProbe)
	case simRan && *sim.CanBuy && sim.CanSell != nil && *sim.CanSell:
		t[CapIsAntiWhale] = capUnknown("no limit was met at the simulated trade size; a limit above it is not excluded")
	default:
		t[CapIsAntiWhale] = capUnknown(simWhy)
	}
}

// evmProbesIncomplete says why the privilege probes do not establish the
// absence of a power ("" when they do: the code was analysed and the
// probes called every non-standard function from every caller, with a
// funded victim where the power blocks transfers).
func evmProbesIncomplete(f *EVMContractFacts, blocking bool) string {
	switch p := f.Probe; {
	case f.Code == nil:
		return "the bytecode was not analysed"
	case p == nil:
		return "the privilege probes did not run"
	case !p.Complete:
		return "the privilege probes failed for some callers"
	case p.Unprobed > 0:
		return fmt.Sprintf("%d non-standard functions were beyond the probe budget", p.Unprobed)
	case blocking && !p.Funded:
		return "the probes could not give a test wallet tokens, so powers over holders' transfers were not observed"
	case len(p.UnreadGuards) > 0:
		return "the code checks the caller against the address in storage slot " + strings.Join(p.UnreadGuards, ", ") + ", which was not read, so that address was not probed"
	}
	return ""
}

// evmProbeCallerList names the roles the probes ran from.
func evmProbeCallerList(p *EVMProbeFacts) string {
	seen := map[string]bool{}
	var roles []string
	for _, c := range p.Callers {
		if c.Ran && c.Role != evmRoleAnyone && !seen[c.Role] {
			seen[c.Role] = true
			roles = append(roles, c.Role)
		}
	}
	if len(roles) == 0 {
		return "no privileged caller (none is known)"
	}
	return "every privileged caller (" + strings.Join(roles, ", ") + ")"
}

func evmReclaimProbe(f *EVMContractFacts) *EVMReclaimProbe {
	if f.Probe == nil {
		return nil
	}
	return f.Probe.Reclaim
}

func capEv(s string) *string { return &s }

// capYes is a true entry from the flag that expresses it; ev is the
// evidence when the flag does not say.
func capYes(fl risk.Flag, ev string) EVMCapabilityEntry {
	switch fl.Evidence {
	case risk.EvidenceProbe, risk.EvidenceCode:
		ev = fl.Evidence
	}
	src := fl.Source
	if src == "" {
		src = fl.Title
	}
	return EVMCapabilityEntry{Value: evmTrue(), Evidence: capEv(ev), Source: src, Detail: fl.Detail, Flag: fl.Code}
}

func capNo(ev, source, detail string) EVMCapabilityEntry {
	f := false
	return EVMCapabilityEntry{Value: &f, Evidence: capEv(ev), Source: source, Detail: detail}
}

func capUnknown(why string) EVMCapabilityEntry {
	return EVMCapabilityEntry{Detail: "Unknown: " + why + "."}
}
