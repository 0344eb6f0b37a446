package risk

import (
	"fmt"
	"slices"
	"strings"
)

// The stable names of a scan's checks, as a report lists them in
// unchecked[] (the check could not run: node error, deadline, refused
// query) and not_configured[] (the operator turned it off).
const (
	// CheckOwner: who owns the token (an owner getter answered).
	CheckOwner = "owner"
	// CheckPools: the search for the token's pools and their reserves and
	// LP holders.
	CheckPools = "pools"
	// CheckSimulation: the buy/transfer/sell simulation (honeypot, taxes).
	CheckSimulation = "simulation"
	// CheckPrivilegeProbes: the simulated calls that prove what a
	// privileged address can do (mint, seize, blacklist, pause, fees).
	CheckPrivilegeProbes = "privilege_probes"
	// CheckProxy: the proxy's slots and the implementation's code.
	CheckProxy = "proxy"
	// CheckHolders: the holder list (EVM: the Transfer log rebuild;
	// Solana: the largest token accounts and their owners).
	CheckHolders = "holders"
	// CheckDeployer: the creator's identity and account (balance,
	// transaction count, share of supply).
	CheckDeployer = "deployer"
	// CheckSourceVerification: whether the source is verified (Sourcify,
	// an Etherscan-family explorer).
	CheckSourceVerification = "source_verification"
	// CheckCreatorHistory: the creation record and the creator's other
	// launches (an Etherscan-family explorer).
	CheckCreatorHistory = "creator_history"
	// CheckInsiders: which top holders are tied to the creator or the
	// launch (package insider); listed when the holders it could not
	// decide hold enough that the insiders' share might pass
	// InsiderPct.
	CheckInsiders = "insiders"
	// CheckImpersonation: whether the token's name or symbol reads as a
	// major token of the chain at another address (the chains file's
	// major_tokens; not configured when the list is empty).
	CheckImpersonation = "impersonation"
)

// CheckDefinition is one check a scan runs and what its absence costs.
type CheckDefinition struct {
	Name string `json:"name"`
	// Floor is the lowest level a report may read when this check could
	// not run: what could not be checked is unknown risk, never no risk.
	Floor   Level  `json:"floor"`
	Meaning string `json:"meaning"`
}

// checks are the checks and their floors. The rationale of each floor:
// medium where the missing check is the one that finds the harms a buyer
// loses money to now (a honeypot or an extreme tax: simulation; a hidden
// mint, a seizure, a blacklist: the probes; the code that really runs: the
// proxy's implementation; the pools the simulation needs; and who holds the
// supply, the only evidence of an insider able to dump it); low where
// it only sharpens the picture (who owns or deployed the token, whether the
// source is public, which top holders are the creator's: the holders'
// concentration is known without it). Every degraded report also carries
// SCAN_INCOMPLETE, so it is never minimal.
var checks = []CheckDefinition{
	{CheckSimulation, LevelMedium, "The buy, transfer and sell simulation: whether the token can be sold and what it taxes."},
	{CheckPrivilegeProbes, LevelMedium, "The privilege probes: which powers (mint, seize, blacklist, pause, fees) a privileged address really has."},
	{CheckPools, LevelMedium, "The pool search: liquidity, LP lock, and the pool the simulation trades against."},
	{CheckProxy, LevelMedium, "The proxy's implementation: the code that really runs."},
	{CheckOwner, LevelLow, "The owner: whether owner powers can still be used."},
	{CheckHolders, LevelMedium, "The holders: supply concentration and whales, the only evidence of who can dump on a buyer."},
	{CheckDeployer, LevelLow, "The creator: its account and share of supply."},
	{CheckSourceVerification, LevelLow, "Source verification on Sourcify or the chain's explorer."},
	{CheckCreatorHistory, LevelLow, "The creation record and the creator's other launches (explorer), and this service's own record of the creator's scanned tokens (a server with a history store runs it on every scan)."},
	{CheckImpersonation, LevelLow, "The impersonation check: whether the name or symbol copies a major token of the chain (chains file major_tokens)."},
	{CheckInsiders, LevelLow, "The insider check: which top holders were funded by the creator or bought in the launch; unchecked when the holders it could not decide might push the insiders' share past the threshold, or when it stood on a holder list with holes or skipped top holders whose owner is unknown."},
}

var checksByName = func() map[string]CheckDefinition {
	m := make(map[string]CheckDefinition, len(checks))
	for _, c := range checks {
		m[c.Name] = c
	}
	return m
}()

// Checks returns every check definition.
func (c *Catalogue) Checks() []CheckDefinition { return slices.Clone(checks) }

// IsCheck says whether name is a documented check name.
func IsCheck(name string) bool {
	_, ok := checksByName[name]
	return ok
}

// levelFloorScore is the lowest score of each level.
var levelFloorScore = map[Level]float64{Minimal: 0, LevelLow: 20, LevelMedium: 40, LevelHigh: 60, LevelCritical: 80}

// floorOf is the highest floor among the unchecked checks (an unknown
// name counts as the strictest documented floor: it is still unknown).
func floorOf(unchecked []string) Level {
	floor := Minimal
	for _, name := range unchecked {
		d, ok := checksByName[name]
		lv := LevelMedium
		if ok {
			lv = d.Floor
		}
		if levelFloorScore[lv] > levelFloorScore[floor] {
			floor = lv
		}
	}
	return floor
}

// IncompleteFlag is the SCAN_INCOMPLETE flag naming the checks that could
// not run.
func IncompleteFlag(unchecked []string) Flag {
	return NewFlag(ScanIncomplete, "Scan incomplete",
		fmt.Sprintf("These checks could not run: %s. What they would have found counts as unknown risk, not as no risk.", strings.Join(unchecked, ", ")))
}
