package analysis

import (
	"slices"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func evmF64(v float64) *float64 { return &v }
func evmStr(s string) *string   { return &s }

// evmSimulated is a simulation that bought and sold.
func evmSimulated() *EVMSimulation {
	return &EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(true), BuyTax: evmF64(0), SellTax: evmF64(0), TransferTax: evmF64(0)}
}

// evmTable runs the contract analysis and returns its table, with every
// flag a report would carry (contract and simulation).
func evmTable(t *testing.T, f *EVMContractFacts) (EVMCapabilities, []risk.Flag) {
	t.Helper()
	sec, _, _ := AnalyseEVMContract(f)
	ev, ok := sec.Evidence.(EVMContractEvidence)
	if !ok {
		t.Fatalf("evidence is %T", sec.Evidence)
	}
	flags := append([]risk.Flag(nil), sec.Flags...)
	if f.Simulation != nil {
		sf, _ := AnalyseEVMSimulation(f.Simulation, true)
		flags = append(flags, sf...)
	}
	return ev.Capabilities, flags
}

func TestCapabilityTableEntries(t *testing.T) {
	owned := func(f *EVMContractFacts) { f.Owner = evmTestOwner }
	proven := func(name string) EVMCapability {
		return EVMCapability{Name: name, Proven: evmBoolPtr(true), Evidence: "f(): effect", Caller: evmTestOwner, Role: "owner"}
	}
	type want struct {
		value    *bool // nil: null
		evidence string
		flag     string
	}
	yes := func(ev, flag string) want { return want{evmBoolPtr(true), ev, flag} }
	no := func(ev string) want { return want{evmBoolPtr(false), ev, ""} }
	null := want{}
	tests := []struct {
		name  string
		facts *EVMContractFacts
		want  map[string]want
	}{
		{name: "renounced token, probes complete, simulation sold", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.ProxyRead = true
		}), want: map[string]want{
			CapIsMintable: no("probe"), CapOwnerChangeBalance: no("probe"), CapIsBlacklisted: no("probe"),
			CapTransferPausable: no("probe"), CapHiddenOwner: no("probe"), CapSelfdestruct: no("code"),
			CapExternalCall: no("code"), CapCannotBuy: no("simulation"), CapIsHoneypot: no("simulation"),
			CapIsProxy: no("code"), CapIsOpenSource: yes("explorer", ""),
			// Not established by what ran: a whole-holding sell, a second
			// buy, a reclaim, a per-address fee, a limit above the size.
			CapCannotSellAll: null, CapTradingCooldown: null, CapCanTakeBackOwnership: null,
			CapPersonalSlippageModifiable: null, CapIsAntiWhale: null,
		}},
		{name: "probes did not run: powers unknown, never false", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe = nil
		}), want: map[string]want{
			CapIsMintable: null, CapIsBlacklisted: null, CapHiddenOwner: null, CapIsHoneypot: null, CapCannotBuy: null,
			CapIsProxy: null, CapSelfdestruct: no("code"),
		}},
		{name: "functions beyond the probe budget: unknown", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Unprobed = 3
		}), want: map[string]want{CapIsMintable: null, CapSlippageModifiable: null}},
		{name: "a guard slot the code checks was not read: its holder's powers unknown", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.UnreadGuards = []string{"0x3a"}
		}), want: map[string]want{CapIsMintable: null, CapIsBlacklisted: null, CapOwnerChangeBalance: null}},
		{name: "victim not funded: blocking powers unknown, mint still known", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Funded = false
		}), want: map[string]want{CapIsMintable: no("probe"), CapIsBlacklisted: null, CapTransferPausable: null}},
		{name: "proven powers", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Capabilities = []EVMCapability{proven(EVMCapMint), proven(EVMCapBlacklist), proven(EVMCapPause),
				proven(EVMCapSeize), proven(EVMCapLimitTx), proven(EVMCapWhitelist)}
			fee := proven(EVMCapFeeChange)
			fee.Ceiling = evmF64(5)
			f.Probe.Capabilities = append(f.Probe.Capabilities, fee)
		}), want: map[string]want{
			CapIsMintable: yes("probe", risk.OwnerCanMint), CapIsBlacklisted: yes("probe", risk.OwnerCanBlacklist),
			CapTransferPausable: yes("probe", risk.OwnerCanPause), CapOwnerChangeBalance: yes("probe", risk.OwnerCanSeize),
			CapAntiWhaleModifiable: yes("probe", risk.OwnerCanLimitTx), CapIsAntiWhale: yes("probe", risk.OwnerCanLimitTx),
			CapIsWhitelisted: yes("probe", risk.WhitelistOnly), CapSlippageModifiable: yes("probe", risk.FeeCapped),
		}},
		{name: "a power in the code behind a renounced owner is no power", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Code.Candidates = []EVMCapability{{Name: EVMCapMint, Evidence: "mint(address,uint256) (0x40c10f19)"}}
		}), want: map[string]want{CapIsMintable: no("probe")}},
		{name: "a power in the code with a live owner, not proven", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{{Name: EVMCapPause, Evidence: "pause() (0x8456cb59)"}}
		}), want: map[string]want{CapTransferPausable: yes("code", risk.OwnerCanPause)}},
		{name: "hidden owner", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "stored", Evidence: "m()"}}
		}), want: map[string]want{CapHiddenOwner: yes("probe", risk.HiddenOwner), CapIsMintable: yes("probe", risk.OwnerCanMint)}},
		{name: "a stored address takes ownership", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapOwnershipReclaim, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "stored", Evidence: "claim()"}}
		}), want: map[string]want{CapHiddenOwner: yes("probe", risk.HiddenOwner), CapCanTakeBackOwnership: yes("probe", risk.HiddenOwner)}},
		// ShadowToken: owner() is zero, the creator (a guard slot) changes
		// the fee and its unlock() makes it owner again; the reclaim is
		// not the first power it proved.
		{name: "a stored address changes the fee, then takes ownership", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Capabilities = []EVMCapability{
				{Name: EVMCapFeeChange, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "guard", Evidence: "setTaxFeePercent(uint256)"},
				{Name: EVMCapOwnershipReclaim, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "guard", Evidence: "unlock(): owner() became the caller"},
			}
		}), want: map[string]want{CapHiddenOwner: yes("probe", risk.HiddenOwner), CapCanTakeBackOwnership: yes("probe", risk.HiddenOwner)}},
		{name: "the owner itself takes ownership: no hidden reclaim", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Capabilities = []EVMCapability{
				{Name: EVMCapFeeChange, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "guard", Evidence: "setTaxFeePercent(uint256)"},
				{Name: EVMCapOwnershipReclaim, Proven: evmBoolPtr(true), Caller: evmTestOwner, Role: "owner", Evidence: "transferOwnership(address)"},
			}
		}), want: map[string]want{CapHiddenOwner: yes("probe", risk.HiddenOwner), CapCanTakeBackOwnership: null}},
		{name: "reclaim proven at launch", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Reclaim = &EVMReclaimProbe{Renounce: "renounceOwnership()", Reclaimed: true, Function: "unlock()", Caller: evmTestOwner}
		}), want: map[string]want{CapCanTakeBackOwnership: yes("probe", risk.OwnerCanReclaim)}},
		{name: "reclaim proven after the renounce", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Reclaim = &EVMReclaimProbe{Renounce: "renounceOwnership()", Reclaimed: true, Function: "unlock()", Caller: evmTestHidden}
		}), want: map[string]want{CapCanTakeBackOwnership: yes("probe", risk.HiddenOwner)}},
		{name: "reclaim tried and failed", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Reclaim = &EVMReclaimProbe{Renounce: "renounceOwnership()"}
		}), want: map[string]want{CapCanTakeBackOwnership: no("probe")}},
		{name: "whitelist exemptions", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Whitelist = &EVMWhitelistProbe{Function: "excludeFromFee(address)", Caller: evmTestOwner, Listed: true, Exempt: []string{"fee"}}
		}), want: map[string]want{CapIsWhitelisted: yes("probe", risk.OwnerCanWhitelist)}},
		{name: "per-address fee", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.PerAddressFee = &EVMPerAddressFeeProbe{Function: "setFeeOf(address,uint256)", Caller: evmTestOwner, Proven: true, TaxBefore: evmF64(0), TaxAfter: evmF64(99)}
		}), want: map[string]want{CapPersonalSlippageModifiable: yes("probe", risk.PerAddressFee)}},
		{name: "per-address fee probe ran and found none", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.PerAddressFee = &EVMPerAddressFeeProbe{}
		}), want: map[string]want{CapPersonalSlippageModifiable: no("probe")}},
		{name: "cannot buy", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = &EVMSimulation{CanBuy: evmBoolPtr(false), Error: evmStr("trading not open")}
		}), want: map[string]want{CapCannotBuy: yes("simulation", risk.HoneypotCannotBuy), CapIsHoneypot: null}},
		{name: "honeypot", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.Simulation.CanSell = evmBoolPtr(false)
		}), want: map[string]want{CapIsHoneypot: yes("simulation", risk.HoneypotCannotSell), CapCannotBuy: no("simulation")}},
		{name: "the router's sell refused, the direct one passed", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.Simulation.RouterSell = &EVMRouterSell{CanSell: evmBoolPtr(false), Error: evmStr("TRANSFER_FROM_FAILED")}
		}), want: map[string]want{CapIsHoneypot: yes("simulation", risk.HoneypotCannotSell)}},
		{name: "whole holding refused, 99.9% sold", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.Simulation.SellAll = &EVMSellAll{Whole: evmBoolPtr(false), Part: evmBoolPtr(true)}
		}), want: map[string]want{CapCannotSellAll: yes("simulation", risk.CannotSellAll), CapIsHoneypot: no("simulation")}},
		{name: "whole holding sold", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.Simulation.SellAll = &EVMSellAll{Whole: evmBoolPtr(true), Part: evmBoolPtr(true)}
		}), want: map[string]want{CapCannotSellAll: no("simulation")}},
		{name: "second buy refused", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.Simulation.BuyCooldown = &EVMBuyCooldown{SameBlock: evmBoolPtr(false), NextBlock: evmBoolPtr(true)}
		}), want: map[string]want{CapTradingCooldown: yes("simulation", risk.TradingCooldown)}},
		{name: "second buys passed", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.Simulation.BuyCooldown = &EVMBuyCooldown{SameBlock: evmBoolPtr(true), NextBlock: evmBoolPtr(true)}
		}), want: map[string]want{CapTradingCooldown: no("simulation")}},
		{name: "a trade size refused", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = evmSimulated()
			f.Simulation.BuyLimit = &EVMTradeLimit{Refused: "100", Accepted: "50"}
		}), want: map[string]want{CapIsAntiWhale: yes("simulation", risk.OwnerCanLimitTx), CapAntiWhaleModifiable: no("probe")}},
		{name: "an owner call stops sells", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Simulation = evmSimulated()
			f.Simulation.SellBlocks = []EVMSellBlock{{Function: "setRule(uint8)", Caller: evmTestOwner, Role: "owner"}}
		}), want: map[string]want{CapTransferPausable: yes("probe", risk.OwnerCanBlockSells),
			// A conditional honeypot (GoPlus' is_honeypot counts an owner
			// switch): true from the probe though the sell works today.
			CapIsHoneypot: yes("probe", risk.OwnerCanBlockSells)}},
		{name: "selfdestruct and a settable external call", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Selfdestruct = true
			f.Code.StorageTargetCall = true
			f.Probe.Capabilities = []EVMCapability{proven(EVMCapExternalTarget)}
		}), want: map[string]want{CapSelfdestruct: yes("code", risk.Selfdestruct), CapExternalCall: yes("probe", risk.ExternalCall)}},
		{name: "a stored callee nobody can change", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Code.StorageTargetCall = true
		}), want: map[string]want{CapExternalCall: no("probe")}},
		{name: "a stored callee whose changers were not established", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Code.StorageTargetCall = true
			f.ExternalCalls = []EVMExternalCall{{Callee: evmStr(evmTestOwner), Slot: evmStr("0x0"), Kind: "call"}}
		}), want: map[string]want{CapExternalCall: null}},
		{name: "a stored callee only the transfer analysis found, changers not established", facts: evmContractWith(func(f *EVMContractFacts) {
			f.ExternalCalls = []EVMExternalCall{{Callee: evmStr(evmTestOwner), Slot: evmStr("0x0"), Kind: "call"}}
		}), want: map[string]want{CapExternalCall: null}},
		{name: "a stored callee only the transfer analysis found, nobody can change it", facts: evmContractWith(func(f *EVMContractFacts) {
			f.ExternalCalls = []EVMExternalCall{{Callee: evmStr(evmTestOwner), Slot: evmStr("0x0"), Kind: "call", ChangeableBy: []EVMCalleeChanger{}}}
		}), want: map[string]want{CapExternalCall: no("probe")}},
		{name: "a callee fixed in the code", facts: evmContractWith(func(f *EVMContractFacts) {
			f.ExternalCalls = []EVMExternalCall{{Callee: evmStr(evmTestOwner), Fixed: true, Kind: "call", ChangeableBy: []EVMCalleeChanger{}}}
		}), want: map[string]want{CapExternalCall: no("code")}},
		{name: "a blacklist setter that went through and blocked nothing measured", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{{Name: EVMCapBlacklist, Evidence: "freezeAccount(address,bool) (0xe724529c)"}}
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapBlacklist, Proven: evmBoolPtr(false), Refuted: true, Caller: evmTestOwner, Role: "owner",
				Evidence: "freezeAccount(address,bool): went through for the owner, and the test wallet it named still transferred to a wallet and to the pool"}}
		}), want: map[string]want{CapIsBlacklisted: no("probe")}},
		{name: "a blacklist setter that went through, the wallet transfer alone measured", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{{Name: EVMCapBlacklist, Evidence: "freezeAccount(address,bool) (0xe724529c)"}}
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapBlacklist, Refuted: true, Caller: evmTestOwner, Role: "owner",
				Evidence: "freezeAccount(address,bool): went through for the owner, and the test wallet it named still transferred to a wallet (its transfer to the pool was not measured)"}}
		}), want: map[string]want{CapIsBlacklisted: null}},
		{name: "a blacklist setter callable, its effect not measured", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapBlacklist, Caller: evmTestOwner, Role: "owner",
				Evidence: "freezeAccount(address,bool): callable by the owner, effect not observed"}}
		}), want: map[string]want{CapIsBlacklisted: yes("code", risk.OwnerCanBlacklist)}},
		{name: "proxies", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Proxy = &EVMProxy{Kind: "eip1967", Implementation: evmTestHidden, Upgradeable: true}
		}), want: map[string]want{CapIsProxy: yes("code", risk.ProxyUpgradeable)}},
		{name: "not verified", facts: evmContractWith(func(f *EVMContractFacts) { f.Verified = evmBoolPtr(false) }),
			want: map[string]want{CapIsOpenSource: want{evmBoolPtr(false), "explorer", risk.NotVerified}}},
		{name: "verification unknown", facts: evmContractWith(func(f *EVMContractFacts) { f.Verified = nil }),
			want: map[string]want{CapIsOpenSource: null}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, _ := evmTable(t, tt.facts)
			for name, w := range tt.want {
				got, ok := table[name]
				if !ok {
					t.Fatalf("%s missing", name)
				}
				switch {
				case w.value == nil && got.Value != nil:
					t.Errorf("%s = %v (%s), want null", name, *got.Value, got.Detail)
				case w.value != nil && (got.Value == nil || *got.Value != *w.value):
					t.Errorf("%s = %v (%s), want %v", name, fmtBool(got.Value), got.Detail, *w.value)
				}
				if w.value != nil && (got.Evidence == nil || *got.Evidence != w.evidence) {
					t.Errorf("%s evidence = %v, want %s", name, fmtStr(got.Evidence), w.evidence)
				}
				if got.Flag != w.flag {
					t.Errorf("%s flag = %q, want %q", name, got.Flag, w.flag)
				}
			}
		})
	}
}

// TestCapabilityTableIsWhole: in every report every name has an entry;
// null carries no evidence and says why; false and true say how they
// are known; a true value's flag is raised in the report (the risky
// polarity of is_open_source is false).
func TestCapabilityTableIsWhole(t *testing.T) {
	variants := []*EVMContractFacts{
		evmBaseContract(),
		{},
		evmContractWith(func(f *EVMContractFacts) {
			f.Owner = evmTestOwner
			f.Verified = evmBoolPtr(false)
			f.Code.Selfdestruct, f.Code.StorageTargetDelegatecall = true, true
			f.Probe.Capabilities = []EVMCapability{
				{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "stored", Evidence: "m()"},
				{Name: EVMCapWhitelist, Proven: evmBoolPtr(true), Caller: evmTestOwner, Role: "owner", Evidence: "w()"},
			}
			f.Probe.Reclaim = &EVMReclaimProbe{Renounce: "r()", Reclaimed: true, Function: "u()", Caller: evmTestOwner}
			f.Probe.PerAddressFee = &EVMPerAddressFeeProbe{Function: "p()", Proven: true}
			f.Simulation = evmSimulated()
			f.Simulation.SellAll = &EVMSellAll{Whole: evmBoolPtr(false), Part: evmBoolPtr(true)}
			f.Simulation.RouterSell = &EVMRouterSell{CanSell: evmBoolPtr(false)}
			f.Simulation.BuyCooldown = &EVMBuyCooldown{SameBlock: evmBoolPtr(false)}
			f.Simulation.SellLimit = &EVMTradeLimit{Accepted: "1"}
			f.Simulation.SellBlocks = []EVMSellBlock{{Function: "x()"}, {Condition: "after block 10"}}
			f.Proxy = &EVMProxy{Kind: "eip1167"}
		}),
	}
	for i, f := range variants {
		table, flags := evmTable(t, f)
		raised := map[string]bool{}
		for _, fl := range flags {
			raised[fl.Code] = true
		}
		if len(table) != len(EVMCapabilityNames) {
			t.Errorf("variant %d: %d entries, want %d", i, len(table), len(EVMCapabilityNames))
		}
		for _, name := range EVMCapabilityNames {
			e, ok := table[name]
			switch {
			case !ok:
				t.Errorf("variant %d: %s missing", i, name)
			case e.Value == nil && (e.Evidence != nil || e.Detail == ""):
				t.Errorf("variant %d: %s null with evidence %v, detail %q", i, name, fmtStr(e.Evidence), e.Detail)
			case e.Value != nil && e.Evidence == nil:
				t.Errorf("variant %d: %s = %v without evidence", i, name, *e.Value)
			case e.Flag != "" && !raised[e.Flag]:
				t.Errorf("variant %d: %s names %s, which the report does not raise", i, name, e.Flag)
			case e.Value != nil && *e.Value && e.Flag == "" && name != CapIsOpenSource && name != CapIsProxy:
				t.Errorf("variant %d: %s is true without a flag (%s)", i, name, e.Detail)
			}
		}
	}
}

// An owner call that stops every sell reads critical.
func TestOwnerCanBlockSellsIsCritical(t *testing.T) {
	f := evmContractWith(func(f *EVMContractFacts) {
		f.Owner = evmTestOwner
		f.Simulation = evmSimulated()
		f.Simulation.SellBlocks = []EVMSellBlock{{Function: "setRule(uint8)", Caller: evmTestOwner, Role: "owner"}}
	})
	_, flags := evmTable(t, f)
	res := risk.NewCatalogue().Score(flags)
	if res.Level != risk.LevelCritical {
		t.Errorf("level %s (%.1f), want critical; flags %v", res.Level, res.Overall, flags)
	}
}

func fmtBool(b *bool) any {
	if b == nil {
		return "null"
	}
	return *b
}

func fmtStr(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// A credit the declared supply already counts (a vesting or reserve
// release) is no mint, hidden or not: its own low fact, is_mintable
// false, no_mint true; the same credit beyond the supply stays a hidden
// mint (critical).
func TestReleaseIsNoMint(t *testing.T) {
	credit := func(release *EVMRelease) *EVMContractFacts {
		return evmContractWith(func(f *EVMContractFacts) {
			f.Owner = evmTestOwner
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestOwner, Role: "owner",
				Evidence: "release(uint256): balances rose by 100 with 0 debited", Release: release}}
		})
	}
	sec, cl, _ := AnalyseEVMContract(credit(&EVMRelease{Credited: "100", Refused: "2000"}))
	table := sec.Evidence.(EVMContractEvidence).Capabilities
	var codes []string
	for _, fl := range sec.Flags {
		codes = append(codes, fl.Code)
		if fl.Code == risk.OwnerCanMint {
			t.Errorf("a release raised %s: %s", fl.Code, fl.Detail)
		}
	}
	if !slices.Contains(codes, risk.OwnerCanReleaseReserve) || !cl.NoMint {
		t.Errorf("flags %v, no_mint %v: want OWNER_CAN_RELEASE_RESERVE and no_mint", codes, cl.NoMint)
	}
	if e := table[CapIsMintable]; e.Value == nil || *e.Value {
		t.Errorf("is_mintable = %v (%s), want false", fmtBool(e.Value), e.Detail)
	}
	if lvl := risk.NewCatalogue().Score(sec.Flags).Level; lvl != risk.LevelLow {
		t.Errorf("a release with a live owner reads %s, want low", lvl)
	}

	sec, _, _ = AnalyseEVMContract(credit(nil))
	if lvl := risk.NewCatalogue().Score(sec.Flags).Level; lvl != risk.LevelCritical {
		t.Errorf("a credit from nowhere through a function not named a mint reads %s, want critical (hidden mint)", lvl)
	}
}
