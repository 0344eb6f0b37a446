package analysis

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// EVM capability names (contract_analysis.capabilities[].name); they match
// the evm package's catalogue.
const (
	EVMCapMint          = "mint"
	EVMCapBlacklist     = "blacklist"
	EVMCapWhitelist     = "whitelist"
	EVMCapPause         = "pause"
	EVMCapFeeChange     = "fee_change"
	EVMCapBalanceChange = "balance_change"
	EVMCapSeize         = "seize"
	// EVMCapSeizeStock: the tokens the token contract itself holds
	// (holders sent or sold them to it) can be taken:
	// OWNER_CAN_TAKE_CONTRACT_TOKENS (a buyer's own wallet is not touched).
	EVMCapSeizeStock       = "seize_stock"
	EVMCapLimitTx          = "limit_tx"
	EVMCapCooldown         = "cooldown"
	EVMCapTradingSwitch    = "trading_switch"
	EVMCapOwnershipReclaim = "ownership_reclaim"
	EVMCapExternalTarget   = "external_target"
	EVMCapUpgrade          = "upgrade"
	EVMCapSelfdestruct     = "selfdestruct"
	EVMCapDelegatecall     = "delegatecall"
)

// EVMCapability is one privileged power of the token's code.
type EVMCapability struct {
	Name string `json:"name"`
	// Proven is true when a simulated call proved the power, false when
	// the call could not be made by the owner (it reverted), null when
	// not established (found in the code only, or callable with no
	// visible effect).
	Proven *bool `json:"proven"`
	// Evidence names the function (signature and/or selector) and, for a
	// proof, what changed.
	Evidence string `json:"evidence"`
	// Caller is the address the power was proven from, Role what it is:
	// "owner", "stored", "creator" or "anyone" (a control address with no
	// privilege: the function is public).
	Caller string `json:"caller,omitempty"`
	Role   string `json:"role,omitempty"`
	// Ceiling is, for a proven fee setter, the highest transfer or sell
	// tax (percent) the probes could make it set.
	Ceiling *float64 `json:"ceiling,omitempty"`
	// Release is, for a proven mint, the proof that the credit is no
	// mint: the total supply did not change and a credit larger than the
	// supply was refused, so the tokens came from an allocation the
	// declared supply already counts (a reserve or vesting release).
	// OWNER_CAN_RELEASE_RESERVE says who can release how much.
	Release *EVMRelease `json:"release,omitempty"`
	// Code is true for a power read from the bytecode's storage writes
	// (a balance or supply write behind a caller check), not matched by
	// name and not proven; Selector is its function's selector.
	Code     bool   `json:"-"`
	Selector string `json:"-"`
	// TwoStep marks a code power that takes two calls (a privileged
	// setter, then a holder's own call), which no single probe call
	// exercises: a probe that called either function without a visible
	// effect does not clear it.
	TwoStep bool `json:"-"`
	// Refuted marks a catalogue power whose setter the probes ran, as
	// the privileged caller and with the test wallet as its argument,
	// and whose effect they then measured absent (the wallet still
	// transferred): false when every transfer it would block was
	// measured, null when only part was. Either way it raises no flag:
	// the code's word is answered by the measurement.
	Refuted bool `json:"-"`
}

// EVMProxy is contract_analysis.proxy.
type EVMProxy struct {
	Kind           string `json:"kind"`
	Implementation string `json:"implementation"`
	// Admin is the address that can upgrade: the admin contract's owner,
	// else the admin; nil when the implementation decides (UUPS, beacon).
	Admin     *string `json:"admin"`
	AdminSlot *string `json:"admin_slot,omitempty"`
	Beacon    *string `json:"beacon,omitempty"`
	// Slot is where a storage_slot proxy keeps its implementation's
	// address (a slot of its own naming, found in its fallback's code).
	Slot        *string `json:"slot,omitempty"`
	Upgradeable bool    `json:"upgradeable"`
}

// ProxyNone is EVMProxy.Kind when the proxy slots and code were read and
// the token is no proxy.
const ProxyNone = "none"

// MarshalJSON writes an established absence as {"kind": "none",
// "upgradeable": false}: no implementation or admin to name.
func (p EVMProxy) MarshalJSON() ([]byte, error) {
	if p.Kind == ProxyNone {
		return []byte(`{"kind":"none","upgradeable":false}`), nil
	}
	type plain EVMProxy
	return json.Marshal(plain(p))
}

// EVMHiddenOwner is contract_analysis.hidden_owner: whether anyone but the
// declared owner holds owner powers (the privilege probes' verdict).
type EVMHiddenOwner struct {
	Found bool `json:"found"`
	// Address proved an owner power without being the declared owner;
	// null when none did, or when the route is an ownership-reclaim
	// function read from the code.
	Address *string `json:"address"`
	// Detail says what was seen.
	Detail string `json:"detail"`
}

// EVMCodeFacts is what static analysis of the (implementation's) code found.
type EVMCodeFacts struct {
	Size      int `json:"code_size"`
	Selectors int `json:"selectors"`
	// Candidates are catalogue matches of the dispatcher's selectors.
	Candidates []EVMCapability `json:"-"`
	// Powers are mint and seize powers read from storage writes behind a
	// caller check (EVMCapability.Code), whatever the function's name.
	Powers []EVMCapability `json:"-"`
	// Inert are the capabilities whose every catalogue match the code
	// shows cannot be that power (only the zero address passes its caller
	// check, a reclaim that restores no owner, a cooldown setter no
	// transfer reads), with why: an unproven verdict of theirs raises no
	// flag.
	Inert                     map[string]string `json:"-"`
	Selfdestruct              bool              `json:"selfdestruct"`
	Delegatecall              bool              `json:"delegatecall"`
	StorageTargetCall         bool              `json:"storage_target_call"`
	StorageTargetDelegatecall bool              `json:"storage_target_delegatecall"`
}

// EVMProbeCaller is one address the privilege probes ran from.
type EVMProbeCaller struct {
	Address string `json:"address"`
	// Role is "owner", "stored" (an address found in the token's storage)
	// or "creator".
	Role string `json:"role"`
	Ran  bool   `json:"ran"`
	// Error says why the probes from this caller could not run.
	Error string `json:"error,omitempty"`
}

// EVMProbeFacts are the privilege probes' results.
type EVMProbeFacts struct {
	Callers []EVMProbeCaller
	// Capabilities are verdicts: proven true (with caller), false (the
	// owner's call reverted) or null (callable, no visible effect).
	Capabilities []EVMCapability
	// Funded is false when no donor could give the probe's victim tokens,
	// so transfer-blocking powers could not be observed.
	Funded bool
	// Complete is true when the probes ran from every caller.
	Complete bool
	// Functions is how many non-standard functions were probed,
	// Unprobed how many could not be (beyond the probe budget).
	Functions, Unprobed int
	// UnreadGuards are storage slots (0x…) the code compares msg.sender
	// with whose holders were never read, so never probed: a power only
	// such an address has is unknown.
	UnreadGuards []string
	// Exercised are the selectors (0x…) a privileged caller called
	// without a revert: their code-read powers were put to the test.
	Exercised map[string]bool
	// CalledWithWallet are the selectors (0x…) a privileged caller
	// called without a revert with the probes' test wallet (a contract
	// that answers any call) as an address argument: a setter of a
	// stored callee so called would have pointed transfers at it.
	CalledWithWallet map[string]bool

	// Privileged are the addresses the code checks msg.sender against,
	// with the powers proven from each (nil: not established).
	Privileged []EVMPrivilegedAddress
	// Reclaim is the renounce-then-reclaim proof (nil: not tried).
	Reclaim *EVMReclaimProbe
	// Whitelist and PerAddressFee are the listing and per-wallet fee
	// proofs (nil: not tried; a proof that found nothing has Listed or
	// Proven false).
	Whitelist     *EVMWhitelistProbe
	PerAddressFee *EVMPerAddressFeeProbe
	// SellBlocks are the probes' two-step proofs: a privileged call after
	// which the test wallet's sell failed while its wallet transfer still
	// worked (the adapter adds them to the simulation's SellBlocks).
	SellBlocks []EVMSellBlock
}

// EVMContractFacts is what the adapter collected for the contract analysis.
type EVMContractFacts struct {
	// Trusted is the configured trusted token's name, "" otherwise.
	Trusted string
	// Verified is nil when no explorer could answer.
	Verified       *bool
	VerifiedSource string
	// OwnerKnown is true when the owner question was answered; Owner is
	// then the owner, or "" when none (no getter, zero or dead address).
	OwnerKnown bool
	Owner      string
	// OwnerGetter says an owner getter answered (so "" means renounced).
	OwnerGetter bool
	// RoleGoverned says the code has AccessControl's hasRole and grantRole:
	// its privileges belong to role holders no getter names. Without an
	// owner getter the owner is then unknown (OwnerKnown false), and a
	// power proven from a probed address is a role holder's, not a hidden
	// owner's.
	RoleGoverned bool
	// ProxyRead is true when the proxy slots were read (and a proxy's
	// implementation code), so a nil Proxy means no proxy.
	ProxyRead bool
	Proxy     *EVMProxy
	// Code is nil when the code could not be analysed.
	Code *EVMCodeFacts
	// Probe is nil when the probes did not run.
	Probe *EVMProbeFacts
	// ExternalCalls are the contracts transfers call at an address the
	// code fixes (a storage slot, an immutable): nil when the code was
	// not analysed, empty when they call none.
	ExternalCalls []EVMExternalCall
	// Simulation is the honeypot simulation (for an observed cooldown).
	Simulation *EVMSimulation
	// NonStandard lists observed ERC-20 deviations.
	NonStandard []string
}

// EVMContractEvidence is contract_analysis for an EVM token.
type EVMContractEvidence struct {
	Verified           *bool   `json:"verified"`
	VerifiedSource     string  `json:"verified_source,omitempty"`
	Owner              *string `json:"owner"`
	OwnershipRenounced *bool   `json:"ownership_renounced"`
	// HiddenOwner and Proxy are null only when unknown (with a warning);
	// an established absence is {"found": false} and {"kind": "none"}.
	HiddenOwner *EVMHiddenOwner `json:"hidden_owner"`
	Proxy       *EVMProxy       `json:"proxy"`
	// Capabilities is the table a GoPlus user compares (one entry per
	// EVMCapabilityNames); Powers the privileged powers found, with
	// their proofs, that it is read from.
	Capabilities EVMCapabilities  `json:"capabilities"`
	Powers       []EVMCapability  `json:"powers"`
	Code         *EVMCodeFacts    `json:"code"`
	ProbedFrom   []EVMProbeCaller `json:"probed_from"`
	// PrivilegedAddresses are the callers that proved a power only they
	// hold, each with its powers and whether they survive the token's
	// own renounce (null when the probes did not run).
	PrivilegedAddresses []EVMPrivilegedAddress `json:"privileged_addresses"`
	// FunctionsProbed and FunctionsUnprobed count the non-standard
	// functions the privilege probes called and those they could not.
	FunctionsProbed   *int     `json:"functions_probed,omitempty"`
	FunctionsUnprobed *int     `json:"functions_unprobed,omitempty"`
	NonStandard       []string `json:"non_standard,omitempty"`
	Trusted           string   `json:"trusted_token,omitempty"`
}

// EVMContractChecklist is the contract analysis' part of the checklist.
type EVMContractChecklist struct {
	Verified           bool
	OwnershipRenounced bool
	NoMint             bool
}

// evmRoleAnyone is the probes' control caller role (probe.RoleAnyone).
const evmRoleAnyone = "anyone"

// evmCapFlag maps a capability to the flag it raises.
var evmCapFlag = map[string]string{
	EVMCapMint:          risk.OwnerCanMint,
	EVMCapBlacklist:     risk.OwnerCanBlacklist,
	EVMCapWhitelist:     risk.WhitelistOnly,
	EVMCapPause:         risk.OwnerCanPause,
	EVMCapFeeChange:     risk.OwnerCanChangeFees,
	EVMCapBalanceChange: risk.OwnerCanChangeBalance,
	EVMCapSeize:         risk.OwnerCanSeize,
	EVMCapSeizeStock:    risk.OwnerCanTakeContractTokens,
	EVMCapLimitTx:       risk.OwnerCanLimitTx,
	EVMCapCooldown:      risk.TradingCooldown,
	EVMCapTradingSwitch: risk.TradingSwitch,
}

var evmCapTitle = map[string]string{
	EVMCapMint:          "Owner can mint new tokens",
	EVMCapBlacklist:     "Owner can blacklist wallets",
	EVMCapWhitelist:     "Owner can restrict trading to a whitelist",
	EVMCapPause:         "Owner can pause transfers",
	EVMCapFeeChange:     "Owner can change fees",
	EVMCapBalanceChange: "Owner can change balances",
	EVMCapSeize:         "Owner can take holders' tokens",
	EVMCapSeizeStock:    "Owner can take the tokens the contract holds",
	EVMCapLimitTx:       "Owner can limit transaction size",
	EVMCapCooldown:      "Owner can impose a trading cooldown",
	EVMCapTradingSwitch: "Owner can switch trading on or off",
}

// AnalyseEVMContract merges the code's candidates with the probes'
// verdicts and raises the contract flags. A power is flagged when proven,
// or when found in the code while an owner can still call it; a power the
// live owner could not call, or that only a renounced owner could, is
// listed but not flagged. It returns the section, the checklist fields
// and warnings for what is unknown.
func AnalyseEVMContract(f *EVMContractFacts) (scan.Section, EVMContractChecklist, []string) {
	var flags []risk.Flag
	var warnings []string
	var cl EVMContractChecklist
	ev := EVMContractEvidence{Verified: f.Verified, VerifiedSource: f.VerifiedSource, Proxy: f.Proxy,
		Code: f.Code, NonStandard: f.NonStandard, Trusted: f.Trusted, Powers: []EVMCapability{}}
	if f.Proxy == nil && f.ProxyRead {
		ev.Proxy = &EVMProxy{Kind: ProxyNone} // unread: null, and the adapter's warning says why
	}
	status := scan.Complete

	// Verification.
	switch {
	case f.Verified == nil:
		status = scan.Partial
		warnings = append(warnings, "contract: source verification unknown (no explorer answered)")
	case !*f.Verified:
		flags = append(flags, risk.NewFlag(risk.NotVerified, "Source code not verified",
			"Neither Sourcify nor the chain's explorer has verified source for this contract."))
	default:
		cl.Verified = true
	}

	// Owner.
	ownerLive := f.OwnerKnown && f.Owner != ""
	renounced := f.OwnerKnown && f.Owner == ""
	if f.OwnerKnown {
		if f.Owner != "" {
			o := f.Owner
			ev.Owner = &o
		}
	} else {
		status = scan.Partial
		if f.RoleGoverned && !f.OwnerGetter {
			warnings = append(warnings, "contract: owner unknown: no owner(), getOwner() or admin() answered and access is role-based (AccessControl hasRole/grantRole); the role holders are not readable from the token")
		} else {
			warnings = append(warnings, "contract: owner unknown")
		}
	}
	if ownerLive {
		flags = append(flags, risk.NewFlag(risk.OwnerNotRenounced, "Ownership not renounced",
			"The contract's owner is "+f.Owner+"; owner-only functions can still be called."))
	}

	// Proxy.
	if f.Proxy != nil && f.Proxy.Upgradeable {
		admin := "decided by the implementation's own access control"
		if f.Proxy.Admin != nil {
			admin = *f.Proxy.Admin
		}
		flags = append(flags, risk.NewFlag(risk.ProxyUpgradeable, "Upgradeable proxy",
			fmt.Sprintf("The token is a %s proxy; its implementation %s can be replaced (upgrade authority: %s).",
				f.Proxy.Kind, f.Proxy.Implementation, admin)))
	}

	// Capabilities: code candidates, then probe verdicts on top.
	caps := map[string]*EVMCapability{}
	var order []string
	add := func(c EVMCapability) {
		cur, ok := caps[c.Name]
		if !ok {
			cc := c
			caps[c.Name] = &cc
			order = append(order, c.Name)
			return
		}
		if evmProofRank(c) > evmProofRank(*cur) {
			*cur = c
		} else if evmProofRank(c) == evmProofRank(*cur) && !strings.Contains(cur.Evidence, c.Evidence) {
			cur.Evidence += "; " + c.Evidence
		}
	}
	if f.Code == nil {
		status = scan.Unavailable
		warnings = append(warnings, "contract: bytecode not analysed; capabilities unknown")
	} else {
		for _, c := range f.Code.Candidates {
			add(c)
		}
		if f.Code.Selfdestruct {
			add(EVMCapability{Name: EVMCapSelfdestruct, Proven: evmTrue(), Evidence: "SELFDESTRUCT opcode reachable in the code"})
		}
	}
	if f.Probe == nil {
		if status == scan.Complete {
			status = scan.Partial
		}
		warnings = append(warnings, "contract: privilege probes did not run; capabilities are unproven")
	} else {
		ev.ProbedFrom = f.Probe.Callers
		ev.PrivilegedAddresses = f.Probe.Privileged
		if ev.PrivilegedAddresses == nil {
			ev.PrivilegedAddresses = []EVMPrivilegedAddress{}
		}
		probed, unprobed := f.Probe.Functions, f.Probe.Unprobed
		ev.FunctionsProbed, ev.FunctionsUnprobed = &probed, &unprobed
		for _, c := range f.Probe.Capabilities {
			add(c)
		}
		if !f.Probe.Funded {
			warnings = append(warnings, "contract: the probes could not give a test wallet tokens; transfer-blocking powers were not observed")
		}
		if !f.Probe.Complete {
			if status == scan.Complete {
				status = scan.Partial
			}
			warnings = append(warnings, "contract: the privilege probes failed for some addresses; their powers are unproven")
		}
	}
	sort.Strings(order)

	// Hidden owner: a power proven from an address other than the live
	// owner, or ownership reclaimed.
	// hiddenReclaim: an address other than the owner proved it takes
	// ownership, whatever it proved first (ShadowToken's creator changes
	// the fee before its unlock() makes it owner again).
	var hidden string
	hiddenReclaim := false
	public := map[string]bool{}
	if f.Probe != nil {
		for _, c := range f.Probe.Capabilities {
			if c.Proven != nil && *c.Proven && c.Role == evmRoleAnyone {
				public[c.Name] = true
			}
		}
		for _, c := range f.Probe.Capabilities {
			if f.RoleGoverned && !f.OwnerGetter {
				break // no declared owner to hide from: the role holder's powers are flagged by capability
			}
			if c.Proven != nil && *c.Proven && c.Caller != "" && c.Role != evmRoleAnyone &&
				!public[c.Name] && !strings.EqualFold(c.Caller, f.Owner) {
				if hidden == "" {
					hidden = c.Caller
				}
				if c.Name == EVMCapOwnershipReclaim {
					hiddenReclaim = true
				}
			}
		}
	}
	survivor, survived := renounceSurvivor(f, hidden, public)
	if hidden == "" && survivor != "" {
		hidden = survivor
	}
	reclaim := caps[EVMCapOwnershipReclaim]
	reclaimFlag := ""      // the flag that says ownership can be taken back
	reclaimProven := false // by a probe, not read from the code
	switch {
	case hidden != "":
		detail := "The address " + hidden + ", which is not the declared owner, proved owner powers in simulation."
		if strings.EqualFold(hidden, f.Owner) {
			detail = "The owner " + hidden + " would keep owner powers after renouncing ownership."
		}
		if survived != "" {
			detail += " " + survived
		}
		ev.HiddenOwner = &EVMHiddenOwner{Found: true, Address: &hidden, Detail: detail}
		flags = append(flags, risk.NewFlag(risk.HiddenOwner, "Hidden owner", detail))
		if hiddenReclaim {
			reclaimFlag, reclaimProven = risk.HiddenOwner, true
		}
	case reclaim != nil && reclaim.Proven == nil && renounced && inertWhy(f.Code, EVMCapOwnershipReclaim) == "":
		detail := "Ownership is renounced, but the code has an ownership-reclaim function (" + reclaim.Evidence + ")."
		ev.HiddenOwner = &EVMHiddenOwner{Found: true, Detail: detail}
		flags = append(flags, risk.NewFlag(risk.HiddenOwner, "Ownership can be reclaimed", detail))
		reclaimFlag = risk.HiddenOwner
	}

	observedCooldown := f.Simulation != nil && f.Simulation.Cooldown != nil && *f.Simulation.Cooldown
	if observedCooldown {
		flags = append(flags, risk.NewFlag(risk.TradingCooldown, "Trading cooldown",
			"The simulated sell right after the buy failed but succeeded later: the token enforces a wait between trades."))
	}
	// Probes that did not run (or not from every caller) prove nothing
	// either way: a power found in the code then still counts, even
	// behind a renounced owner (another caller may hold it), and so does
	// a call to a stored address.
	probesMissed := f.Probe == nil || !f.Probe.Complete
	for _, n := range order {
		c := caps[n]
		ev.Powers = append(ev.Powers, *c)
		code, ok := evmCapFlag[n]
		if !ok || (code == risk.TradingCooldown && observedCooldown) {
			continue
		}
		if s := caps[EVMCapSeize]; n == EVMCapSeizeStock && s != nil && s.Proven != nil && *s.Proven {
			continue // holders' own tokens already: one seizure flag
		}
		proven := c.Proven != nil && *c.Proven
		if c.Refuted && !proven {
			continue // its setter ran and the transfers it would block still worked
		}
		if why := inertWhy(f.Code, n); !proven && why != "" {
			ev.Powers[len(ev.Powers)-1].Evidence += "; not a power: " + why
			continue
		}
		// An unproven power counts while someone may call it: a live or
		// unknown owner (a renounced owner's powers are dead unless a
		// probe proved another caller has them).
		if proven || (c.Proven == nil && (!renounced || probesMissed)) {
			how := "found in the code (" + c.Evidence + ") and callable by the owner"
			switch {
			case proven && public[n]:
				how = "open to anyone: proven by a simulated call from an address with no privilege (" + c.Evidence + ")"
			case proven:
				how = "proven by a simulated call from " + c.Caller + " (" + c.Evidence + ")"
			}
			if n == EVMCapWhitelist && !proven {
				if w := f.Probe; w != nil && w.Whitelist != nil && w.Whitelist.Listed {
					continue // the listing proof raises its own flag
				}
				if evmUnlistedTrades(f.Simulation) {
					// A list setter whose effect no probe saw, while a
					// fresh, unlisted wallet bought and sold: trading is
					// not limited to the list now; a list the owner keeps.
					fl := risk.NewFlag(risk.OwnerCanWhitelist, "Owner controls a list of wallets",
						"The code has a list setter callable by the owner ("+c.Evidence+"); no probe saw its effect, and a fresh wallet not on any list bought and sold, so trading is not limited to the list.").
						WithEvidence(risk.EvidenceCode, c.Evidence)
					flags = append(flags, fl)
					continue
				}
			}
			fl := risk.NewFlag(code, evmCapTitle[n], "The power is "+how+".").WithEvidence(risk.EvidenceCode, c.Evidence)
			if proven {
				fl = fl.WithEvidence(risk.EvidenceProbe, c.Evidence)
			}
			if n == EVMCapFeeChange && proven && c.Ceiling != nil {
				fl = feeCeilingFlag(fl, *c.Ceiling)
			}
			if n == EVMCapMint && proven && c.Release != nil {
				flags = append(flags, evmReleaseFlag(*c))
				continue
			}
			if n == EVMCapMint && proven && !evmDeclaresMint(f.Code) {
				// A mint through a function no buyer would read as one
				// (rewards, airdrops, anything): a hidden mint is critical.
				fl = fl.WithSeverity(risk.Critical)
				fl.Title = "Hidden mint"
				fl.Detail = "A privileged address creates tokens through a function not named as a mint: proven by a simulated call from " + c.Caller + " (" + c.Evidence + ")."
			}
			flags = append(flags, fl)
		}
	}
	// Powers read from the storage writes alone: flagged, as code
	// evidence, when no probe put the function to the test (no privileged
	// caller could call it) and no proof or name already raised the flag.
	if f.Code != nil && !renounced {
		raised := map[string]bool{}
		for _, fl := range flags {
			raised[fl.Code] = true
		}
		for _, c := range f.Code.Powers {
			code := evmCapFlag[c.Name]
			if code == "" || raised[code] || (!c.TwoStep && f.Probe != nil && f.Probe.Exercised[c.Selector]) {
				continue
			}
			raised[code] = true
			ev.Powers = append(ev.Powers, c)
			flags = append(flags, risk.NewFlag(code, evmCapTitle[c.Name],
				"The power is read from the code ("+c.Evidence+"); no probe could call the function to prove it.").
				WithEvidence(risk.EvidenceCode, c.Evidence))
		}
	}
	if c := caps[EVMCapSelfdestruct]; c != nil && f.Code != nil && f.Code.Selfdestruct {
		flags = append(flags, risk.NewFlag(risk.Selfdestruct, "Contract can self-destruct",
			"The code contains a reachable SELFDESTRUCT."))
	}
	external, externalProven := "", false
	if c := caps[EVMCapExternalTarget]; c != nil {
		proven := c.Proven != nil && *c.Proven
		externalProven = proven
		storageCall := f.Code != nil && (f.Code.StorageTargetCall || f.Code.StorageTargetDelegatecall)
		if proven || (c.Proven == nil && (!renounced || probesMissed) && storageCall) {
			external = "Transfers call an address a privileged account can change (" + c.Evidence + ")."
		}
	}
	externalFromCode := false
	if external == "" && caps[EVMCapExternalTarget] == nil && probesMissed && f.Code != nil && f.Code.StorageTargetCall {
		external = "The code CALLs an address it loads from storage; the probes that would show whether a privileged account can change that address did not run."
		externalFromCode = true
	}
	// Code outside a known proxy pattern that delegates to an address it
	// loads from storage runs whatever code that address holds.
	if external == "" && f.Proxy == nil && f.Code != nil && f.Code.StorageTargetDelegatecall && !renounced {
		external = "The code DELEGATECALLs an address loaded from storage, outside any standard proxy pattern."
	}
	if external != "" {
		calls := evmExternalCallsText(f.ExternalCalls)
		if calls != "" {
			external += " Transfers call " + calls + "."
		}
		fl := risk.NewFlag(risk.ExternalCall, "Calls a settable external contract", external)
		switch {
		case externalFromCode:
			fl = fl.WithEvidence(risk.EvidenceCode, "CALL to an address loaded from storage")
		case externalProven && calls != "":
			fl = fl.WithEvidence(risk.EvidenceProbe, calls)
		}
		flags = append(flags, fl)
	}
	if len(f.NonStandard) > 0 {
		flags = append(flags, risk.NewFlag(risk.NonStandardToken, "Non-standard ERC-20",
			"Deviations: "+strings.Join(f.NonStandard, "; ")+"."))
	}
	if f.Trusted != "" {
		flags = append(flags, risk.NewFlag(risk.TrustedToken, "Trusted token: "+f.Trusted,
			"A configured trusted token; its level is capped at low, its capabilities are still reported."))
	}

	flagged := map[string]bool{}
	for _, fl := range flags {
		flagged[fl.Code] = true
	}
	proofFlags, proofReclaim := evmProofFlags(f, renounced, flagged)
	for _, fl := range proofFlags {
		flags = append(flags, fl)
		flagged[fl.Code] = true
	}
	if reclaimFlag == "" {
		reclaimFlag = proofReclaim
	}
	var simFlags []risk.Flag
	if f.Simulation != nil {
		simFlags, _ = AnalyseEVMSimulation(f.Simulation, true)
	}
	ev.Capabilities = evmCapabilityTable(evmCapabilityInputs{f: f, flags: flags, simFlags: simFlags,
		renounced: renounced, hidden: hidden, reclaimFlag: reclaimFlag, reclaimProven: reclaimProven, caps: caps})
	if ev.HiddenOwner == nil {
		// Established absence or unknown, as the capability table decided.
		switch e := ev.Capabilities[CapHiddenOwner]; {
		case flagged[risk.HiddenOwner]:
			// Raised by a later proof (ownership reclaimed in simulation).
			for _, fl := range flags {
				if fl.Code == risk.HiddenOwner {
					ev.HiddenOwner = &EVMHiddenOwner{Found: true, Detail: fl.Detail}
					break
				}
			}
		case e.Value != nil && !*e.Value:
			ev.HiddenOwner = &EVMHiddenOwner{Detail: e.Detail}
		case e.Value == nil:
			warnings = append(warnings, "contract: hidden owner unknown: "+e.Detail)
		}
	}
	cl.OwnershipRenounced = renounced && hidden == "" && !flagged[risk.HiddenOwner]
	if f.OwnerKnown {
		// A renounced owner() with a hidden owner beside it is not
		// renounced ownership.
		r := cl.OwnershipRenounced
		ev.OwnershipRenounced = &r
	}
	cl.NoMint = f.Code != nil && f.Probe != nil && f.Probe.Complete && !flagged[risk.OwnerCanMint] && !flagged[risk.OwnerCanChangeBalance]
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, cl, warnings
}

// inertWhy is why the code shows a capability's catalogue matches cannot
// be that power ("" when they may be).
func inertWhy(code *EVMCodeFacts, capability string) string {
	if code == nil {
		return ""
	}
	return code.Inert[capability]
}

// feeCeilingFlag grades a proven fee setter by the highest fee the
// probes could set: at or above FeeCeilingHighPct it can make the token
// unsellable (high, with the ceiling as value); at or below FeeCappedPct
// it is a capped fee (low); in between it stays a fee power with its
// ceiling.
func feeCeilingFlag(fl risk.Flag, ceiling float64) risk.Flag {
	switch {
	case ceiling >= risk.FeeCeilingHighPct:
		fl.Detail += fmt.Sprintf(" The highest fee it could set in simulation is %.1f%%: enough to make selling pointless.", ceiling)
	case ceiling <= risk.FeeCappedPct:
		capped := risk.NewFlag(risk.FeeCapped, "Owner can change fees (capped)",
			fmt.Sprintf("%s The highest fee it could set in simulation is %.1f%%.", fl.Detail, ceiling))
		capped.Evidence, capped.Source = fl.Evidence, fl.Source
		fl = capped
	default:
		fl.Detail += fmt.Sprintf(" The highest fee it could set in simulation is %.1f%%.", ceiling)
	}
	return fl.WithValue(ceiling)
}

// evmDeclaresMint says the code has a function named as a mint (the
// selector catalogue's mint candidates), so a buyer reading it sees one.
func evmDeclaresMint(code *EVMCodeFacts) bool {
	if code == nil {
		return false
	}
	for _, c := range code.Candidates {
		if c.Name == EVMCapMint {
			return true
		}
	}
	return false
}

// evmProofRank orders verdicts: proven, callable by a probed address with
// no visible effect, refused to the owner, found in the code only.
func evmProofRank(c EVMCapability) int {
	switch {
	case c.Proven != nil && *c.Proven:
		return 3
	case c.Proven == nil && c.Caller != "":
		return 2
	case c.Proven != nil:
		return 1
	default:
		return 0
	}
}

func evmTrue() *bool { t := true; return &t }

// evmExternalCallsText names the contracts transfers call at a stored
// address (not those fixed in the code), with their slot and who can
// change them; "" when none is known.
func evmExternalCallsText(calls []EVMExternalCall) string {
	var out []string
	for _, c := range calls {
		if !c.Fixed {
			out = append(out, c.String())
		}
	}
	return strings.Join(out, "; ")
}

// renounceSurvivor finds a privileged address whose powers the probes
// proved again after the token's own renounce path cleared owner(): the
// hidden owner when given (else the first such address, the owner's
// own powers among them, while ownership is not renounced yet: a
// renounce that would leave them is no renounce), and the sentence
// saying so ("" when none survived).
func renounceSurvivor(f *EVMContractFacts, hidden string, public map[string]bool) (string, string) {
	if f.Probe == nil {
		return "", ""
	}
	for _, p := range f.Probe.Privileged {
		if p.AfterRenounce == nil || !*p.AfterRenounce || p.Role == evmRoleAnyone {
			continue
		}
		if hidden != "" && !strings.EqualFold(p.Address, hidden) {
			continue
		}
		if hidden == "" && (f.Owner == "" || !strings.EqualFold(p.Address, f.Owner)) {
			continue // a non-owner's power is a hidden owner already, or public
		}
		var powers []string
		for _, pw := range p.Powers {
			if !public[pw] {
				powers = append(powers, pw)
			}
		}
		if len(powers) == 0 {
			continue
		}
		return p.Address, "Its powers (" + strings.Join(powers, ", ") + ") survive the token's own renounce (" + p.AfterRenounceDetail + ")."
	}
	return "", ""
}

// evmUnlistedTrades reports whether the simulation's fresh wallet, on no
// list, bought and sold.
func evmUnlistedTrades(sim *EVMSimulation) bool {
	return sim != nil && sim.CanBuy != nil && *sim.CanBuy && sim.CanSell != nil && *sim.CanSell
}
