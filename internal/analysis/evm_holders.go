package analysis

import (
	"fmt"
	"math/big"

	"github.com/tokenrisk/tokenrisk/internal/insider"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// EVMTopHolders is how many holders holder_analysis lists.
const EVMTopHolders = 20

// EVMHolderEvidence is holder_analysis for an EVM token.
type EVMHolderEvidence struct {
	// HolderCount is a lower bound when the rebuild was partial.
	HolderCount *int `json:"holder_count"`
	// Top10Pct is the ten largest holders' share, pools, burns and
	// lockers excluded.
	Top10Pct   *float64    `json:"top10_pct"`
	TopHolders []EVMHolder `json:"top_holders"`
	// TransfersScanned, FromBlock and ToBlock describe the log rebuild.
	TransfersScanned int    `json:"transfers_scanned"`
	FromBlock        uint64 `json:"from_block"`
	ToBlock          uint64 `json:"to_block"`
	// Insiders are the top holders tied to the creator or the launch;
	// null when the check could not run.
	Insiders *insider.Result `json:"insiders"`
}

// EVMHolder is one listed holder.
type EVMHolder struct {
	Address    string   `json:"address"`
	Balance    string   `json:"balance"`
	SharePct   *float64 `json:"share_pct"`
	IsContract *bool    `json:"is_contract"`
	// Label is pool, burn, locker, creator, owner, exchange, token (the
	// token contract itself) or "".
	Label string `json:"label,omitempty"`
}

// evmHolderLabel names what an address is, most specific first.
func evmHolderLabel(f *EVMFacts, h EVMHolderBalance) string {
	if h.Pool {
		return "pool"
	}
	for _, p := range f.Liquidity.Pools {
		if evmSameAddress(p.Address, h.Address) || evmSameAddress(p.PoolManager, h.Address) {
			return "pool"
		}
	}
	for _, b := range f.BurnAddresses {
		if evmSameAddress(b, h.Address) {
			return "burn"
		}
	}
	for a := range f.Lockers {
		if evmSameAddress(a, h.Address) {
			return "locker"
		}
	}
	if c := f.Deployer.Creator; c != nil && evmSameAddress(*c, h.Address) {
		return "creator"
	}
	if f.OwnerKnown && evmSameAddress(f.Owner, h.Address) {
		return "owner"
	}
	for a := range f.Exchanges {
		if evmSameAddress(a, h.Address) {
			return "exchange"
		}
	}
	if evmSameAddress(f.Token, h.Address) {
		return "token"
	}
	return ""
}

// evmExcludedLabel says whether a holder is out of circulation for
// concentration: pools, burns and lockers.
func evmExcludedLabel(label string) bool {
	return label == "pool" || label == "burn" || label == "locker"
}

// AnalyseEVMHolders raises TOP10_CONCENTRATED, WHALE_HOLDER and FEW_HOLDERS
// from the holder rebuild.
func AnalyseEVMHolders(f *EVMFacts) (scan.Section, []string) {
	ev := EVMHolderEvidence{TopHolders: []EVMHolder{}}
	h := f.Holders
	if h == nil {
		return scan.Section{Status: scan.Unavailable, Evidence: ev},
			[]string{"holders: the Transfer log rebuild could not run; holders unknown"}
	}
	ev.TransfersScanned, ev.FromBlock, ev.ToBlock = h.Transfers, h.FromBlock, h.ToBlock
	count := h.HolderCount
	ev.HolderCount = &count
	var flags []risk.Flag
	var warnings []string
	status := scan.Complete
	if !h.Complete {
		status = scan.Partial
		warnings = append(warnings, fmt.Sprintf("holders: rebuilt from blocks %d-%d only (budget reached); counts and shares are partial", h.FromBlock, h.ToBlock))
	}

	top10 := new(big.Int)
	counted := 0
	var whale *EVMHolder
	for _, hb := range h.Top {
		label := evmHolderLabel(f, hb)
		item := EVMHolder{
			Address:    hb.Address,
			Balance:    hb.Balance.String(),
			SharePct:   evmShare(hb.Balance, f.TotalSupply),
			IsContract: hb.IsContract,
			Label:      label,
		}
		if len(ev.TopHolders) < EVMTopHolders {
			ev.TopHolders = append(ev.TopHolders, item)
		}
		if evmExcludedLabel(label) {
			continue
		}
		if counted < 10 {
			top10.Add(top10, hb.Balance)
			counted++
		}
		if whale == nil && item.SharePct != nil && *item.SharePct > risk.WhalePct {
			w := item
			whale = &w
		}
	}
	ev.Top10Pct = evmShare(top10, f.TotalSupply)
	if ev.Top10Pct == nil {
		status = scan.Partial
		warnings = append(warnings, "holders: total supply unknown; shares cannot be computed")
	}
	if ev.Top10Pct != nil && *ev.Top10Pct > risk.Top10Pct {
		flags = append(flags, risk.NewFlag(risk.Top10Concentrated,
			fmt.Sprintf("Top 10 holders own %.1f%%", *ev.Top10Pct),
			"The ten largest holders, pools, burns and lockers excluded, own more than half the supply.").WithValue(*ev.Top10Pct))
	}
	if whale != nil {
		who := whale.Address
		if whale.Label != "" {
			who += " (" + whale.Label + ")"
		}
		flags = append(flags, risk.NewFlag(risk.WhaleHolder,
			fmt.Sprintf("One holder owns %.1f%%", *whale.SharePct),
			fmt.Sprintf("%s holds %.2f%% of the supply.", who, *whale.SharePct)).WithValue(*whale.SharePct))
	}
	switch {
	case count < risk.FewHoldersCount && h.Complete:
		flags = append(flags, risk.NewFlag(risk.FewHolders,
			fmt.Sprintf("Only %d holders", count),
			fmt.Sprintf("%d addresses hold a positive balance.", count)).WithValue(float64(count)))
	case count < risk.FewHoldersCount:
		warnings = append(warnings, fmt.Sprintf("holders: at least %d holders found; whether there are fewer than %d is unknown", count, risk.FewHoldersCount))
	}
	if h.InsidersSkipped != "" {
		warnings = append(warnings, "insiders: "+h.InsidersSkipped)
	} else {
		flags, warnings = insiderFindings(evmInsiders(f), &ev.Insiders, flags, warnings)
	}
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// EVMHealthyHolders is the checklist's healthy_holders: true only when the
// rebuild was complete, raised no holder flag and the insider check's
// verdict is established.
func EVMHealthyHolders(f *EVMFacts, holder scan.Section) bool {
	ev, _ := holder.Evidence.(EVMHolderEvidence)
	return f.Holders != nil && f.Holders.Complete && holder.Status == scan.Complete && len(holder.Flags) == 0 &&
		(f.Holders.InsidersSkipped != "" || ev.Insiders != nil && ev.Insiders.Conclusive)
}

// EVMInsiderHolders is how many top holders the insider check examines
// (pools, burns, lockers, the creator, the owner, exchanges and the token
// itself left out).
const EVMInsiderHolders = 10

// evmInsiders runs the insider check over the top holders: same_block
// when a holder first received the token in the block a pool received its
// first tokens, from_creator when its first tokens came from the creator.
func evmInsiders(f *EVMFacts) *insider.Result {
	h := f.Holders
	switch {
	case h == nil || !h.InsidersRead || f.TotalSupply == nil:
		return nil
	case f.TotalSupply.Sign() <= 0:
		return insider.Assess(insider.Facts{ThresholdPct: risk.InsiderPct}) // nothing to hold
	}
	in := insider.Facts{
		Launch: h.Launch, PointReason: insider.SameBlock, FundingReason: insider.FromCreator, Hops: 1,
		ThresholdPct: risk.InsiderPct,
	}
	if f.Deployer.Creator != nil {
		in.Creator = *f.Deployer.Creator
	}
	for _, hb := range h.Top {
		if len(in.Holders) == EVMInsiderHolders {
			break
		}
		if evmHolderLabel(f, hb) != "" || hb.Balance.Sign() <= 0 {
			continue
		}
		share := evmShare(hb.Balance, f.TotalSupply)
		c := insider.Holder{Address: hb.Address, SharePct: *share, First: hb.First}
		if hb.FirstFrom != nil {
			c.Funding = &insider.Funding{Ended: *hb.FirstFrom == ""}
			if *hb.FirstFrom != "" {
				c.Funding.Chain = []string{*hb.FirstFrom}
			}
		}
		in.Holders = append(in.Holders, c)
	}
	r := insider.Assess(in)
	r.Cost = h.InsiderCost
	return r
}

// insiderFindings adds the insider check's evidence, its INSIDER_SUPPLY
// flag and, when it is inconclusive, its warning (an unrun check is named
// by the engine in unchecked[]).
func insiderFindings(r *insider.Result, ev **insider.Result, flags []risk.Flag, warnings []string) ([]risk.Flag, []string) {
	if r == nil {
		return flags, append(warnings, "insiders: the insider check could not run; which top holders are the creator's is unknown")
	}
	*ev = r
	if fl, ok := r.Flag(); ok {
		flags = append(flags, fl)
	}
	if w := r.Warning(); w != "" {
		warnings = append(warnings, w)
	}
	return flags, warnings
}
