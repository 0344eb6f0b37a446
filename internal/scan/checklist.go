package scan

import (
	"slices"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// The three answers to a checklist question.
const (
	// Yes: proven (the checklist's true).
	Yes = "yes"
	// No: disproven: a flag says the opposite, or the analysis that decides
	// it ran completely and did not prove it.
	No = "no"
	// Unknown: not proven and not disproven: the check that decides it did
	// not run, or not completely.
	Unknown = "unknown"
)

// ChecklistAnswer is one checklist question's answer and what decided it.
type ChecklistAnswer struct {
	// State is yes, no or unknown.
	State string `json:"state"`
	// Because names what decided a "no" (the flag codes that disprove it,
	// or the complete analysis) or an "unknown" (the checks that did not
	// run or are turned off, or the analysis that is not complete); empty
	// for "yes".
	Because []string `json:"because"`
}

// ChecklistStates is safety_checklist_states: the safety checklist's
// questions answered in three states. The checklist itself is true only
// where proven, so its false means "no" or "unknown" alike; these say
// which.
type ChecklistStates struct {
	Verified           ChecklistAnswer `json:"verified"`
	NotHoneypot        ChecklistAnswer `json:"not_honeypot"`
	HealthyHolders     ChecklistAnswer `json:"healthy_holders"`
	OwnershipRenounced ChecklistAnswer `json:"ownership_renounced"`
	LiquidityLocked    ChecklistAnswer `json:"liquidity_locked"`
	NoMint             ChecklistAnswer `json:"no_mint"`
}

// checklistQuestion is what answers one question besides its proof: the
// flags that disprove it, the checks it needs, and the analysis that
// decides it (its name in the report).
type checklistQuestion struct {
	disproof []string
	checks   []string
	analysis string
}

var (
	qVerified = checklistQuestion{[]string{risk.NotVerified},
		[]string{risk.CheckSourceVerification}, "contract_analysis"}
	qNotHoneypot = checklistQuestion{[]string{risk.HoneypotCannotBuy, risk.HoneypotCannotSell, risk.CannotSellAll, risk.NonTransferable, risk.OwnerCanBlockSells},
		[]string{risk.CheckSimulation, risk.CheckPools}, "liquidity_analysis"}
	qHealthyHolders = checklistQuestion{[]string{risk.CreatorHoldsLargeShare, risk.OwnerHoldsLargeShare, risk.WhaleHolder, risk.FewHolders, risk.InsiderSupply},
		[]string{risk.CheckHolders, risk.CheckInsiders}, "holder_analysis"}
	qOwnershipRenounced = checklistQuestion{[]string{risk.OwnerNotRenounced, risk.HiddenOwner, risk.OwnerCanReclaim, risk.MintAuthorityEnabled, risk.FreezeAuthorityEnabled},
		[]string{risk.CheckOwner, risk.CheckPrivilegeProbes}, "contract_analysis"}
	qLiquidityLocked = checklistQuestion{[]string{risk.LPNotLocked, risk.NoLiquidity},
		[]string{risk.CheckPools}, "liquidity_analysis"}
	qNoMint = checklistQuestion{[]string{risk.OwnerCanMint, risk.OwnerCanChangeBalance, risk.MintAuthorityEnabled},
		[]string{risk.CheckPrivilegeProbes}, "contract_analysis"}
)

// checklistStates answers each question: yes where proven; no where a
// flag disproves it or its analysis is complete and did not prove it;
// unknown otherwise (naming the checks that did not run: unchecked holds
// those that failed and those the operator turned off).
func checklistStates(ck Checklist, flags []risk.Flag, unchecked []string, status map[string]Status) ChecklistStates {
	answer := func(proven bool, q checklistQuestion) ChecklistAnswer {
		if proven {
			return ChecklistAnswer{State: Yes, Because: []string{}}
		}
		var by []string
		for _, f := range flags {
			if slices.Contains(q.disproof, f.Code) && !slices.Contains(by, f.Code) {
				by = append(by, f.Code)
			}
		}
		if len(by) > 0 {
			return ChecklistAnswer{State: No, Because: by}
		}
		for _, c := range q.checks {
			if slices.Contains(unchecked, c) {
				by = append(by, c)
			}
		}
		if len(by) == 0 && status[q.analysis] == Complete {
			return ChecklistAnswer{State: No, Because: []string{q.analysis}}
		}
		if len(by) == 0 {
			by = append(by, q.analysis)
		}
		return ChecklistAnswer{State: Unknown, Because: by}
	}
	return ChecklistStates{
		Verified:           answer(ck.Verified, qVerified),
		NotHoneypot:        answer(ck.NotHoneypot, qNotHoneypot),
		HealthyHolders:     answer(ck.HealthyHolders, qHealthyHolders),
		OwnershipRenounced: answer(ck.OwnershipRenounced, qOwnershipRenounced),
		LiquidityLocked:    answer(ck.LiquidityLocked, qLiquidityLocked),
		NoMint:             answer(ck.NoMint, qNoMint),
	}
}
