package analysis

import (
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

func evmBoolPtr(b bool) *bool { return &b }

const (
	evmTestOwner  = "0x00000000000000000000000000000000000A11CE"
	evmTestHidden = "0x000000000000000000000000000000000000B0B0"
)

// evmBaseContract is a verified token with analysed code, probes run and
// ownership renounced: no flag at all.
func evmBaseContract() *EVMContractFacts {
	return &EVMContractFacts{
		Verified: evmBoolPtr(true), OwnerKnown: true, OwnerGetter: true,
		Code:  &EVMCodeFacts{Size: 2000, Selectors: 10},
		Probe: &EVMProbeFacts{Funded: true, Complete: true},
	}
}

func evmContractWith(mod func(f *EVMContractFacts)) *EVMContractFacts {
	f := evmBaseContract()
	mod(f)
	return f
}

func TestAnalyseEVMContractFlags(t *testing.T) {
	proven := func(name, caller string) EVMCapability {
		return EVMCapability{Name: name, Proven: evmBoolPtr(true), Evidence: "probe", Caller: caller}
	}
	candidate := func(name string) EVMCapability { return EVMCapability{Name: name, Evidence: "sig()"} }
	owned := func(f *EVMContractFacts) { f.Owner = evmTestOwner }
	tests := []struct {
		name   string
		facts  *EVMContractFacts
		want   []string
		absent []string
		status scan.Status
	}{
		{name: "clean renounced token", facts: evmBaseContract(), absent: []string{risk.OwnerNotRenounced, risk.NotVerified, risk.OwnerCanMint}, status: scan.Complete},
		{name: "not verified", facts: evmContractWith(func(f *EVMContractFacts) { f.Verified = evmBoolPtr(false) }), want: []string{risk.NotVerified}},
		{name: "verification unknown is a warning, not a flag", facts: evmContractWith(func(f *EVMContractFacts) { f.Verified = nil }), absent: []string{risk.NotVerified}, status: scan.Partial},
		{name: "live owner", facts: evmContractWith(owned), want: []string{risk.OwnerNotRenounced}},
		{name: "proven mint", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Capabilities = []EVMCapability{proven(EVMCapMint, evmTestOwner)}
		}), want: []string{risk.OwnerCanMint}, absent: []string{risk.HiddenOwner}},
		{name: "role-governed without an owner getter: the minter is a role holder, not a hidden owner", facts: evmContractWith(func(f *EVMContractFacts) {
			f.OwnerKnown, f.OwnerGetter, f.RoleGoverned = false, false, true
			f.Probe.Capabilities = []EVMCapability{proven(EVMCapMint, evmTestHidden)}
		}), want: []string{risk.OwnerCanMint}, absent: []string{risk.HiddenOwner, risk.OwnerNotRenounced}, status: scan.Partial},
		{name: "role-governed with an owner getter: a power beside the owner is hidden", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.RoleGoverned = true
			f.Probe.Capabilities = []EVMCapability{proven(EVMCapMint, evmTestHidden)}
		}), want: []string{risk.OwnerCanMint, risk.HiddenOwner}},
		{name: "mint in code with a live owner, unproven", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{candidate(EVMCapMint)}
		}), want: []string{risk.OwnerCanMint}},
		{name: "mint in code but the owner's call reverted", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{candidate(EVMCapMint)}
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapMint, Proven: evmBoolPtr(false), Caller: evmTestOwner}}
		}), absent: []string{risk.OwnerCanMint}},
		{name: "mint in code, ownership renounced", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Code.Candidates = []EVMCapability{candidate(EVMCapMint)}
		}), absent: []string{risk.OwnerCanMint}},
		{name: "mint in code, ownership renounced, probes did not run: another caller may hold it", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Code.Candidates = []EVMCapability{candidate(EVMCapMint)}
			f.Probe = nil
		}), want: []string{risk.OwnerCanMint}, status: scan.Partial},
		{name: "mint in code, ownership renounced, probes failed for some callers", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Code.Candidates = []EVMCapability{candidate(EVMCapMint)}
			f.Probe.Complete = false
		}), want: []string{risk.OwnerCanMint}, status: scan.Partial},
		{name: "stored-address call in code, probes did not run: the static evidence keeps its flag", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.StorageTargetCall = true
			f.Probe = nil
		}), want: []string{risk.ExternalCall}},
		{name: "stored-address call in code, probes found no settable target", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.StorageTargetCall = true
		}), absent: []string{risk.ExternalCall}},
		{name: "blacklist, pause, fees, balance, limit, switch", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			for _, n := range []string{EVMCapBlacklist, EVMCapPause, EVMCapFeeChange, EVMCapBalanceChange, EVMCapLimitTx, EVMCapTradingSwitch} {
				f.Probe.Capabilities = append(f.Probe.Capabilities, proven(n, evmTestOwner))
			}
		}), want: []string{risk.OwnerCanBlacklist, risk.OwnerCanPause, risk.OwnerCanChangeFees, risk.OwnerCanChangeBalance, risk.OwnerCanLimitTx, risk.TradingSwitch}},
		{name: "power proven from a stored address while renounced", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Capabilities = []EVMCapability{proven(EVMCapFeeChange, evmTestHidden)}
		}), want: []string{risk.HiddenOwner, risk.OwnerCanChangeFees}},
		{name: "reclaim function in code while renounced", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Code.Candidates = []EVMCapability{candidate(EVMCapOwnershipReclaim)}
		}), want: []string{risk.HiddenOwner}},
		{name: "list setter in code, trading closed", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{candidate(EVMCapWhitelist)}
		}), want: []string{risk.WhitelistOnly}},
		{name: "list setter in code, an unlisted wallet trades", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{candidate(EVMCapWhitelist)}
			f.Simulation = &EVMSimulation{CanBuy: evmBoolPtr(true), CanSell: evmBoolPtr(true)}
		}), want: []string{risk.OwnerCanWhitelist}, absent: []string{risk.WhitelistOnly}},
		{name: "selfdestruct", facts: evmContractWith(func(f *EVMContractFacts) { f.Code.Selfdestruct = true }), want: []string{risk.Selfdestruct}},
		{name: "proven external target", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Probe.Capabilities = []EVMCapability{proven(EVMCapExternalTarget, evmTestOwner)}
		}), want: []string{risk.ExternalCall}},
		{name: "target setter in code without a storage call", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.Candidates = []EVMCapability{candidate(EVMCapExternalTarget)}
		}), absent: []string{risk.ExternalCall}},
		{name: "delegates to a stored address outside a proxy", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.StorageTargetDelegatecall = true
		}), want: []string{risk.ExternalCall}},
		{name: "a proxy's own delegatecall is not an external call", facts: evmContractWith(func(f *EVMContractFacts) {
			owned(f)
			f.Code.StorageTargetDelegatecall = true
			f.Proxy = &EVMProxy{Kind: "eip1967", Implementation: evmTestHidden}
		}), absent: []string{risk.ExternalCall}},
		{name: "upgradeable proxy", facts: evmContractWith(func(f *EVMContractFacts) {
			a := evmTestOwner
			f.Proxy = &EVMProxy{Kind: "eip1967", Implementation: evmTestHidden, Admin: &a, Upgradeable: true}
		}), want: []string{risk.ProxyUpgradeable}},
		{name: "clone is not upgradeable", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Proxy = &EVMProxy{Kind: "eip1167", Implementation: evmTestHidden}
		}), absent: []string{risk.ProxyUpgradeable}},
		{name: "observed cooldown", facts: evmContractWith(func(f *EVMContractFacts) {
			f.Simulation = &EVMSimulation{Cooldown: evmBoolPtr(true)}
		}), want: []string{risk.TradingCooldown}},
		{name: "non-standard and trusted", facts: evmContractWith(func(f *EVMContractFacts) {
			f.NonStandard = []string{"name() reverts"}
			f.Trusted = "USD Coin"
		}), want: []string{risk.NonStandardToken, risk.TrustedToken}},
		{name: "no code analysed", facts: evmContractWith(func(f *EVMContractFacts) { f.Code = nil }), status: scan.Unavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sec, _, _ := AnalyseEVMContract(tt.facts)
			for _, c := range tt.want {
				if !evmHas(sec.Flags, c) {
					t.Errorf("flag %s missing; got %v", c, evmCodes(sec))
				}
			}
			for _, c := range tt.absent {
				if evmHas(sec.Flags, c) {
					t.Errorf("flag %s raised; got %v", c, evmCodes(sec))
				}
			}
			if tt.status != "" && sec.Status != tt.status {
				t.Errorf("status = %s, want %s", sec.Status, tt.status)
			}
			seen := map[string]bool{}
			for _, f := range sec.Flags {
				if seen[f.Code] {
					t.Errorf("flag %s raised twice", f.Code)
				}
				seen[f.Code] = true
			}
		})
	}
}

func TestAnalyseEVMContractChecklist(t *testing.T) {
	tests := []struct {
		name  string
		facts *EVMContractFacts
		want  EVMContractChecklist
	}{
		{"clean", evmBaseContract(), EVMContractChecklist{Verified: true, OwnershipRenounced: true, NoMint: true}},
		{"owner unknown", evmContractWith(func(f *EVMContractFacts) { f.OwnerKnown = false }), EVMContractChecklist{Verified: true, NoMint: true}},
		{"probes did not run: mint unknown", evmContractWith(func(f *EVMContractFacts) { f.Probe = nil }), EVMContractChecklist{Verified: true, OwnershipRenounced: true}},
		{"probes failed: mint unknown", evmContractWith(func(f *EVMContractFacts) { f.Probe.Complete = false }), EVMContractChecklist{Verified: true, OwnershipRenounced: true}},
		{"role-governed without an owner getter is not renounced", evmContractWith(func(f *EVMContractFacts) {
			f.OwnerKnown, f.OwnerGetter, f.RoleGoverned = false, false, true
		}), EVMContractChecklist{Verified: true, NoMint: true}},
		{"hidden owner is not renounced", evmContractWith(func(f *EVMContractFacts) {
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapOwnershipReclaim, Proven: evmBoolPtr(true), Caller: evmTestHidden}}
		}), EVMContractChecklist{Verified: true, NoMint: true}},
		{"balance change is not no_mint", evmContractWith(func(f *EVMContractFacts) {
			f.Owner = evmTestOwner
			f.Probe.Capabilities = []EVMCapability{{Name: EVMCapBalanceChange, Proven: evmBoolPtr(true), Caller: evmTestOwner}}
		}), EVMContractChecklist{Verified: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, _ := AnalyseEVMContract(tt.facts)
			if got != tt.want {
				t.Errorf("checklist = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestAnalyseEVMContractEvidenceNullsUnknowns(t *testing.T) {
	sec, _, warnings := AnalyseEVMContract(&EVMContractFacts{Code: &EVMCodeFacts{}})
	ev := sec.Evidence.(EVMContractEvidence)
	if ev.Verified != nil || ev.Owner != nil || ev.OwnershipRenounced != nil {
		t.Errorf("unknowns must be null: verified=%v owner=%v renounced=%v", ev.Verified, ev.Owner, ev.OwnershipRenounced)
	}
	if len(warnings) < 3 {
		t.Errorf("warnings = %q, want verification, owner and probes named", warnings)
	}
}

func evmHas(flags []risk.Flag, code string) bool {
	for _, f := range flags {
		if f.Code == code {
			return true
		}
	}
	return false
}

func TestAnalyseEVMContractHiddenBesideOwner(t *testing.T) {
	f := evmBaseContract()
	f.Owner = evmTestOwner
	f.Probe.Capabilities = []EVMCapability{
		{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestOwner, Evidence: "owner"},
		{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestHidden, Evidence: "stored"},
	}
	sec, _, _ := AnalyseEVMContract(f)
	if !evmHas(sec.Flags, risk.HiddenOwner) {
		t.Errorf("HIDDEN_OWNER missing when a second address can mint; got %v", evmCodes(sec))
	}
	if ev := sec.Evidence.(EVMContractEvidence); ev.HiddenOwner == nil || ev.HiddenOwner.Address == nil || *ev.HiddenOwner.Address != evmTestHidden {
		t.Errorf("hidden_owner = %v, want %s", ev.HiddenOwner, evmTestHidden)
	}
}

func TestAnalyseEVMContractHiddenOwnerIsNotRenounced(t *testing.T) {
	f := evmBaseContract()
	f.Probe.Capabilities = []EVMCapability{{Name: EVMCapOwnershipReclaim, Proven: evmBoolPtr(true), Caller: evmTestHidden}}
	sec, _, _ := AnalyseEVMContract(f)
	ev := sec.Evidence.(EVMContractEvidence)
	if ev.OwnershipRenounced == nil || *ev.OwnershipRenounced {
		t.Errorf("ownership_renounced = %v, want false beside a hidden owner", ev.OwnershipRenounced)
	}
	sec, _, _ = AnalyseEVMContract(evmBaseContract())
	if ev := sec.Evidence.(EVMContractEvidence); ev.OwnershipRenounced == nil || !*ev.OwnershipRenounced {
		t.Errorf("ownership_renounced = %v, want true", ev.OwnershipRenounced)
	}
}

func TestAnalyseEVMContractPublicPowerIsNoHiddenOwner(t *testing.T) {
	f := evmBaseContract()
	f.Probe.Capabilities = []EVMCapability{
		{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: evmTestHidden, Role: "stored"},
		{Name: EVMCapMint, Proven: evmBoolPtr(true), Caller: "0x00000000000000000000000000000000000000A7", Role: "anyone"},
	}
	sec, _, _ := AnalyseEVMContract(f)
	if evmHas(sec.Flags, risk.HiddenOwner) {
		t.Error("HIDDEN_OWNER raised for a function anyone can call")
	}
	if !evmHas(sec.Flags, risk.OwnerCanMint) {
		t.Error("OWNER_CAN_MINT missing: anyone can mint")
	}
}

// TestEVMStaticEvidenceSaysSo: a flag kept from code alone, because the
// probes did not run, says its evidence is code.
func TestEVMStaticEvidenceSaysSo(t *testing.T) {
	f := evmContractWith(func(f *EVMContractFacts) {
		f.Owner = evmTestOwner
		f.Code.StorageTargetCall = true
		f.Probe = nil
	})
	sec, _, _ := AnalyseEVMContract(f)
	for _, fl := range sec.Flags {
		if fl.Code == risk.ExternalCall && fl.Evidence != risk.EvidenceCode {
			t.Errorf("EXTERNAL_CALL evidence %q, want code", fl.Evidence)
		}
	}
}

// TestEVMHiddenMintIsCritical: a proven mint through a function not named
// as one is a hidden mint (critical); a declared mint stays high.
func TestEVMHiddenMintIsCritical(t *testing.T) {
	mintProof := EVMCapability{Name: EVMCapMint, Proven: evmBoolPtr(true), Evidence: "distributeRewards(address,uint256): supply +1e24", Caller: evmTestOwner}
	tests := map[string]struct {
		candidates []EVMCapability
		want       risk.Severity
	}{
		"mint through a rewards function":  {nil, risk.Critical},
		"a declared mint(address,uint256)": {[]EVMCapability{{Name: EVMCapMint, Evidence: "mint(address,uint256) (0x40c10f19)"}}, risk.High},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := evmContractWith(func(f *EVMContractFacts) {
				f.Owner = evmTestOwner
				f.Code.Candidates = tt.candidates
				f.Probe.Capabilities = []EVMCapability{mintProof}
			})
			sec, _, _ := AnalyseEVMContract(f)
			for _, fl := range sec.Flags {
				if fl.Code == risk.OwnerCanMint {
					if fl.Severity != tt.want || fl.Evidence != risk.EvidenceProbe {
						t.Errorf("OWNER_CAN_MINT %s (%s), want %s from a probe", fl.Severity, fl.Evidence, tt.want)
					}
					return
				}
			}
			t.Errorf("no OWNER_CAN_MINT in %v", evmCodes(sec))
		})
	}
}

// TestEVMWhitelistProvenTwiceIsOneFlag: a listing call that unblocked the
// probe's wallet and the listing script's proof are one fact, one
// WHITELIST_ONLY (the corpus counted both).
func TestEVMWhitelistProvenTwiceIsOneFlag(t *testing.T) {
	f := evmContractWith(func(f *EVMContractFacts) {
		f.Owner = evmTestOwner
		f.Probe.Capabilities = []EVMCapability{{Name: EVMCapWhitelist, Proven: evmBoolPtr(true), Evidence: "probe", Caller: evmTestOwner}}
		f.Probe.Whitelist = &EVMWhitelistProbe{Function: "0x5f6f8b5f (address) wallet", Caller: evmTestOwner, Listed: true, OnlyListed: true}
	})
	sec, _, _ := AnalyseEVMContract(f)
	n := 0
	for _, fl := range sec.Flags {
		if fl.Code == risk.WhitelistOnly {
			n++
		}
	}
	if n != 1 {
		t.Errorf("WHITELIST_ONLY raised %d times, want once: %v", n, evmCodes(sec))
	}
}
