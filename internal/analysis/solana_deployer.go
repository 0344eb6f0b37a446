package analysis

import (
	"fmt"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// AnalyseSolanaDeployer reports the creator and its holdings.
func AnalyseSolanaDeployer(f *SolanaFacts) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Deployer...)
	ev := SolanaDeployerEvidence{OtherTokens: nil, CreatorCandidates: f.CreatorCandidates()}
	if ev.CreatorCandidates == nil {
		ev.CreatorCandidates = []SolanaIdentity{}
	}
	cr := f.Creator
	if cr == nil {
		if f.Trusted == "" {
			warnings = append(warnings, "deployer: creator not established (unchecked)")
		}
		return scan.Section{Status: scan.Unavailable, Evidence: ev}, warnings
	}
	status := scan.Complete
	addr, src := cr.Address, cr.Source
	ev.Creator, ev.CreatorSource = &addr, &src
	ev.CreationTx = cr.CreationSignature
	ev.CreatorIsProgramAccount = cr.IsProgramAccount
	if cr.CreationTime != nil {
		t := time.Unix(*cr.CreationTime, 0).UTC().Format(time.RFC3339)
		ev.CreatedAt = &t
	}
	if cr.BalanceLamports != nil {
		b := float64(*cr.BalanceLamports) / solanaLamportsPerSOL
		ev.CreatorBalanceSOL = &b
	} else {
		status = scan.Partial
	}
	if src == SolanaCreatorUpdateAuthority {
		status = scan.Partial
		warnings = append(warnings, "deployer: creator is the metadata update authority (best on-chain evidence, not the proven creator)")
	}
	if src == SolanaCreatorFeePayer && !cr.OldestSignatureComplete {
		status = scan.Partial
	}
	var flags []risk.Flag
	if f.Holders != nil && f.Mint.Supply > 0 {
		var held uint64
		found := false
		for _, a := range f.Holders.Accounts {
			if a.Owner != nil && *a.Owner == addr {
				held += a.Amount
				found = true
			}
		}
		switch {
		case found || f.Holders.Complete:
			s := solanaRound2(100 * float64(held) / float64(f.Mint.Supply))
			ev.CreatorSharePct = &s
			if s > risk.LargeSharePct {
				flags = append(flags, risk.NewFlag(risk.CreatorHoldsLargeShare, fmt.Sprintf("Creator holds %.1f%%", s), addr+" holds more than 5% of the supply.").WithValue(s))
			}
		case f.Holders.Inconsistent:
			// The smallest account listed bounds nothing when the list
			// has holes.
			status = scan.Partial
			warnings = append(warnings, "deployer: creator share not established (unchecked): the creator is not among the token accounts listed, and the list has holes")
		case len(f.Holders.Accounts) > 0:
			smallest := f.Holders.Accounts[len(f.Holders.Accounts)-1].Amount
			m := solanaRound2(100 * float64(smallest) / float64(f.Mint.Supply))
			ev.CreatorShareMaxPct = &m
			warnings = append(warnings, fmt.Sprintf("deployer: creator is not among the largest token accounts; its share is at most %.2f%% per account", m))
		}
	} else {
		status = scan.Partial
		warnings = append(warnings, "deployer: creator share unknown (holders not established)")
	}
	ev.CreatorTxCount = cr.TxCount
	if cr.FirstActivity != nil {
		t := time.Unix(*cr.FirstActivity, 0).UTC().Format(time.RFC3339)
		ev.CreatorFirstActivity = &t
	}
	if cr.IsProgramAccount == nil || !*cr.IsProgramAccount {
		switch {
		case cr.TxCount != nil && *cr.TxCount < SolanaCreatorNewWalletTxs:
			flags = append(flags, risk.NewFlag(risk.CreatorNewWallet, "Creator wallet is new",
				fmt.Sprintf("The creator %s has taken part in only %d transaction(s).", addr, *cr.TxCount)).WithValue(float64(*cr.TxCount)))
		case cr.FirstActivity != nil && cr.CreationTime != nil && *cr.CreationTime-*cr.FirstActivity < SolanaCreatorFreshSeconds:
			hours := float64(*cr.CreationTime-*cr.FirstActivity) / 3600
			flags = append(flags, risk.NewFlag(risk.CreatorNewWallet, "Creator wallet was fresh at launch",
				fmt.Sprintf("The creator %s first appeared %.1f hours before the token was created.", addr, hours)).WithValue(solanaRound2(hours)))
		}
	}
	warnings = append(warnings, "deployer: the creator's other launches need an indexer; not established")
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}
