package analysis

import (
	"fmt"
	"sort"

	"github.com/tokenrisk/tokenrisk/internal/insider"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// solanaHolderLabel labels an owner or token account.
func solanaHolderLabel(f *SolanaFacts, tokenAccount string, owner *string) string {
	for _, p := range f.Liquidity.Pools {
		if tokenAccount == p.TokenVault || tokenAccount == p.QuoteVault {
			return SolanaLabelPool
		}
		if owner != nil && (*owner == p.Address || (p.Authority != "" && *owner == p.Authority)) {
			return SolanaLabelPool
		}
	}
	if owner == nil {
		return ""
	}
	if bc := f.Liquidity.BondingCurve; bc != nil && *owner == bc.Address {
		return SolanaLabelPool
	}
	for _, b := range f.BurnAddresses {
		if *owner == b {
			return SolanaLabelBurn
		}
	}
	if _, ok := f.Lockers[*owner]; ok {
		return SolanaLabelLocker
	}
	if f.Creator != nil && *owner == f.Creator.Address {
		return SolanaLabelCreator
	}
	if _, ok := f.Exchanges[*owner]; ok {
		return SolanaLabelExchange
	}
	return ""
}

// solanaOutOfCirculation reports whether a holder label takes the tokens
// out of the holder counts and shares: pools, burns and lockers.
func solanaOutOfCirculation(label string) bool {
	return label == SolanaLabelPool || label == SolanaLabelBurn || label == SolanaLabelLocker
}

// solanaHolders aggregates the largest token accounts by owner.
func solanaHolders(f *SolanaFacts) []SolanaHolder {
	if f.Holders == nil {
		return nil
	}
	out := []SolanaHolder{}
	byOwner := map[string]int{}
	for _, a := range f.Holders.Accounts {
		key := a.Address
		if a.Owner != nil {
			key = *a.Owner
		}
		label := solanaHolderLabel(f, a.Address, a.Owner)
		if i, ok := byOwner[key]; ok {
			out[i].Amount += a.Amount
			out[i].TokenAccounts = append(out[i].TokenAccounts, a.Address)
			if out[i].Label == "" {
				out[i].Label = label
			}
			continue
		}
		byOwner[key] = len(out)
		out = append(out, SolanaHolder{Address: key, TokenAccounts: []string{a.Address}, Amount: a.Amount, IsContract: a.OwnerIsProgramAccount, Label: label})
	}
	for i := range out {
		if f.Mint.Supply > 0 {
			s := solanaRound2(100 * float64(out[i].Amount) / float64(f.Mint.Supply))
			out[i].SharePct = &s
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Amount > out[j].Amount })
	return out
}

// AnalyseSolanaHolders reports the largest holders and concentration.
func AnalyseSolanaHolders(f *SolanaFacts) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Holder...)
	if f.Holders == nil {
		return scan.Section{Status: scan.Unavailable, Evidence: SolanaHolderEvidence{TopHolders: []SolanaHolder{}}}, append(warnings, "holders: largest holders unknown")
	}
	holders := solanaHolders(f)
	ev := SolanaHolderEvidence{TopHolders: holders}
	var flags []risk.Flag
	status := scan.Complete
	n, exact, how := solanaHolderCount(f, holders)
	ev.HolderCount, ev.HolderCountExact = &n, &exact
	switch {
	case !exact:
		warnings = append(warnings, fmt.Sprintf("holders: holder_count %d is a lower bound: %s", n, how))
	case n < risk.FewHoldersCount:
		flags = append(flags, risk.NewFlag(risk.FewHolders, fmt.Sprintf("Only %d holders", n), how+"; pools, burns and lockers are not counted.").WithValue(float64(n)))
	}
	unresolved := false
	for _, a := range f.Holders.Accounts {
		if a.Owner == nil {
			unresolved = true
		}
	}
	if unresolved || f.Holders.Inconsistent {
		status = scan.Partial
	}
	if f.Mint.Supply == 0 {
		warnings = append(warnings, "holders: supply is zero; shares not defined")
		return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
	}
	var top10 uint64
	counted := 0
	var whale *SolanaHolder
	for i, h := range holders {
		if solanaOutOfCirculation(h.Label) {
			continue
		}
		if counted < 10 {
			top10 += h.Amount
			counted++
		}
		if whale == nil && h.SharePct != nil && *h.SharePct > risk.WhalePct {
			whale = &holders[i]
		}
	}
	share := solanaRound2(100 * float64(top10) / float64(f.Mint.Supply))
	switch {
	case f.Holders.Inconsistent:
		// A whale listed is a whale; a top-10 share from a list with
		// holes is not a share.
		warnings = append(warnings, "holders: top-10 share not established (unchecked): the node's token index misses accounts")
	case share > risk.Top10Pct:
		ev.Top10SharePct = &share
		flags = append(flags, risk.NewFlag(risk.Top10Concentrated, fmt.Sprintf("Top 10 holders own %.1f%%", share), "Pools, burns and lockers excluded.").WithValue(share))
	default:
		ev.Top10SharePct = &share
	}
	if whale != nil {
		flags = append(flags, risk.NewFlag(risk.WhaleHolder, fmt.Sprintf("One holder owns %.1f%%", *whale.SharePct), whale.Address+" holds more than 10% of the supply.").WithValue(*whale.SharePct))
	}
	if f.Trusted != "" {
		warnings = append(warnings, "insiders: not checked for a trusted token")
	} else {
		r := solanaInsiders(f)
		flags, warnings = insiderFindings(r, &ev.Insiders, flags, warnings)
		if r != nil && r.Conclusive && !r.Above() && !solanaInsiderPoolEstablished(f) {
			// A clean verdict over a list with holes, or past holders
			// whose owner is unknown, is a verdict over the wrong
			// holders (insiders found above the threshold stay found).
			r.Conclusive = false
			warnings = append(warnings, fmt.Sprintf("insiders: verdict not established (unchecked): %d holder(s) examined, but the holder list has holes or top holders whose owner is unknown", r.Examined))
		}
	}
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// SolanaInsiderHolders is how many top holders the insider check examines
// (pools, burns, lockers, exchanges, the creator and holders whose owner
// is unknown left out).
const SolanaInsiderHolders = 10

// SolanaInsiderCandidates are the holders the insider check examines, by
// owner, largest first.
func SolanaInsiderCandidates(f *SolanaFacts) []SolanaHolder {
	owners := map[string]bool{}
	if f.Holders != nil {
		for _, a := range f.Holders.Accounts {
			if a.Owner != nil {
				owners[*a.Owner] = true
			}
		}
	}
	var out []SolanaHolder
	for _, h := range solanaHolders(f) {
		if len(out) == SolanaInsiderHolders {
			break
		}
		if h.Label != "" || !owners[h.Address] || h.Amount == 0 {
			continue // labelled, or its owner unresolved
		}
		out = append(out, h)
	}
	return out
}

// solanaInsiders runs the insider check: creator_funded when a holder's
// first SOL came from the creator or from a wallet whose own first SOL
// came from it, same_slot when its token account first appeared in the
// slot the mint or a pool was created.
func solanaInsiders(f *SolanaFacts) *insider.Result {
	in := f.Insiders
	if in == nil || f.Mint.Supply == 0 {
		return nil
	}
	facts := insider.Facts{
		Launch: in.Launch, PointReason: insider.SameSlot, FundingReason: insider.CreatorFunded, Hops: 2,
		ThresholdPct: risk.InsiderPct,
	}
	if f.Creator != nil {
		facts.Creator = f.Creator.Address
	}
	for _, h := range SolanaInsiderCandidates(f) {
		c := insider.Holder{Address: h.Address, SharePct: solanaRound2(100 * float64(h.Amount) / float64(f.Mint.Supply))}
		if s, ok := in.First[h.Address]; ok {
			c.First = &s
		}
		if fu, ok := in.Funding[h.Address]; ok {
			c.Funding = &fu
		}
		facts.Holders = append(facts.Holders, c)
	}
	r := insider.Assess(facts)
	r.Cost = in.Cost
	return r
}

// solanaInsiderPoolEstablished reports whether the holders the insider
// check examines are the real top holders: the list has no holes and no
// holder ranked among them has an unresolved owner.
func solanaInsiderPoolEstablished(f *SolanaFacts) bool {
	if f.Holders == nil || f.Holders.Inconsistent {
		return false
	}
	owners := map[string]bool{}
	for _, a := range f.Holders.Accounts {
		if a.Owner != nil {
			owners[*a.Owner] = true
		}
	}
	examined := 0
	for _, h := range solanaHolders(f) {
		if examined == SolanaInsiderHolders {
			break
		}
		switch {
		case h.Amount == 0 || h.Label != "":
		case !owners[h.Address]:
			return false
		default:
			examined++
		}
	}
	return true
}

// solanaHolderCount counts the holders with a balance, pools, burns and
// lockers left out, says whether the count is exact, and how it was
// taken.
func solanaHolderCount(f *SolanaFacts, holders []SolanaHolder) (n int, exact bool, how string) {
	owners, outAccounts := 0, 0
	for _, h := range holders {
		switch {
		case h.Amount == 0:
		case solanaOutOfCirculation(h.Label):
			outAccounts += len(h.TokenAccounts)
		default:
			owners++
		}
	}
	hc := f.Holders.Count
	switch {
	case f.Holders.Complete:
		return owners, true, "The node listed every token account of the mint"
	case hc != nil:
		n := max(hc.Accounts-outAccounts, owners)
		if hc.Held != f.Mint.Supply {
			return n, false, fmt.Sprintf("the %d token accounts counted hold %d of %d raw units of supply (the node's index misses accounts)", hc.Accounts, hc.Held, f.Mint.Supply)
		}
		return n, true, fmt.Sprintf("A count of the mint's token accounts found %d with a balance", hc.Accounts)
	}
	if f.Trusted != "" {
		return owners, false, fmt.Sprintf("the node listed %d token accounts; a trusted token's holders are not counted (too many)", len(f.Holders.Accounts))
	}
	return owners, false, fmt.Sprintf("the node listed %d token accounts and would not count the rest", len(f.Holders.Accounts))
}
