// Package insider finds the top holders that are the creator's own wallets
// or bought in the launch itself: holders first funded by the creator (or
// by a wallet the creator funded), sent their first tokens by the
// creator, or that first received the token in the slot or block the
// pool was created. It is chain-neutral and pure: the chain engines
// establish the facts (first funders, first receipts, launch points) and
// this package decides, per holder, what is proven, disproven or unknown.
package insider

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// Reason says why a holder counts as an insider.
type Reason string

// The reasons, as reported in insiders[].why.
const (
	// CreatorFunded (Solana): the first SOL transfer into the wallet came
	// from the creator, or from a wallet whose own first SOL came from the
	// creator (one hop).
	CreatorFunded Reason = "creator_funded"
	// SameSlot (Solana): the holder's token account first appeared in the
	// slot the mint or a pool of it was created (a bundled launch).
	SameSlot Reason = "same_slot"
	// SameBlock (EVM): the holder first received the token in the block a
	// pool of it received its first tokens (its liquidity was added).
	SameBlock Reason = "same_block"
	// FromCreator (EVM): the holder's first tokens came straight from the
	// creator.
	FromCreator Reason = "from_creator"
)

// Span is a slot or block known to lie in [Lo, Hi]; Lo == Hi when it is
// known exactly. A bound is what the engine could establish (e.g. "no
// later than the oldest activity seen") when the exact point is beyond its
// budget.
type Span struct{ Lo, Hi uint64 }

// At is the span of exactly p.
func At(p uint64) Span { return Span{p, p} }

// Exact says the span is one point.
func (s Span) Exact() bool { return s.Lo == s.Hi }

// meets says whether two spans can share a point.
func (s Span) meets(o Span) bool { return s.Lo <= o.Hi && o.Lo <= s.Hi }

// Funding is a holder's chain of first funders: Chain[0] sent the holder
// its first inflow (SOL on Solana, the token on EVM), Chain[1] sent
// Chain[0] its own, and so on.
type Funding struct {
	Chain []string
	// Ended is true when the chain stops before the depth the test asks
	// for because there is no earlier funder (an account that received
	// nothing, a mint): the missing links are known not to exist.
	Ended bool
}

// Holder is one top holder the engine examined, with what it established;
// a nil field is a fact that could not be established.
type Holder struct {
	Address  string
	SharePct float64
	// First is when the holder first received the token.
	First *Span
	// Funding is the holder's chain of first funders.
	Funding *Funding
}

// Facts are the inputs of one insider check.
type Facts struct {
	// Creator is the token's creator ("" when unknown: the funding test
	// is then undecided for every holder).
	Creator string
	// Launch are the points (slots or blocks) of the launch: the mint's
	// or the pools' creation. Empty when unknown (the same-point test is
	// then undecided for every holder).
	Launch []Span
	// PointReason and FundingReason name the two tests on this chain.
	PointReason, FundingReason Reason
	// Hops is how deep the funding test looks: 1 counts only the
	// creator's own transfers, 2 also a wallet the creator funded.
	Hops int
	// Holders are the top holders examined, pools, burns, lockers,
	// exchanges and the creator itself left out by the engine.
	Holders []Holder
	// ThresholdPct is the combined share above which insiders are a
	// finding (risk.InsiderPct).
	ThresholdPct float64
}

// Finding is one holder with the reasons found (for undecided holders:
// the tests that could not be decided).
type Finding struct {
	Address  string   `json:"address"`
	SharePct float64  `json:"share_pct"`
	Why      []Reason `json:"why"`
}

// Cost is what the check cost upstream: JSON-RPC calls, HTTP requests and
// sequential round trips (calls folded into a scan's existing batch cost
// no request or round trip of their own).
type Cost struct {
	Calls      int `json:"calls"`
	Requests   int `json:"requests"`
	RoundTrips int `json:"round_trips"`
}

// Result is the check's evidence, reported as holder_analysis.insiders.
type Result struct {
	// Insiders are the holders proven to be insiders, largest first.
	Insiders []Finding `json:"insiders"`
	// SharePct is their combined share of the supply.
	SharePct float64 `json:"share_pct"`
	// Undecided are the holders not proven insiders whose tests could not
	// all be decided, with the tests named; UndecidedSharePct their
	// combined share.
	Undecided         []Finding `json:"undecided"`
	UndecidedSharePct float64   `json:"undecided_share_pct"`
	// Examined is how many top holders were examined.
	Examined int `json:"holders_examined"`
	// ThresholdPct is the share above which INSIDER_SUPPLY is raised.
	ThresholdPct float64 `json:"threshold_pct"`
	// Conclusive is true when the verdict is established: the insiders
	// found already hold more than the threshold, or they would not even
	// if every undecided holder were one.
	Conclusive bool `json:"conclusive"`
	// Cost is the check's upstream cost.
	Cost Cost `json:"cost"`
}

// tri is a test's outcome.
type tri int

const (
	no tri = iota
	yes
	unknown
)

// Assess decides every holder's tests and sums the shares.
func Assess(f Facts) *Result {
	r := &Result{Insiders: []Finding{}, Undecided: []Finding{}, Examined: len(f.Holders), ThresholdPct: f.ThresholdPct}
	for _, h := range f.Holders {
		var why, open []Reason
		for _, t := range []struct {
			reason Reason
			out    tri
		}{{f.PointReason, f.samePoint(h)}, {f.FundingReason, f.funded(h)}} {
			switch t.out {
			case yes:
				why = append(why, t.reason)
			case unknown:
				open = append(open, t.reason)
			}
		}
		switch {
		case len(why) > 0:
			r.Insiders = append(r.Insiders, Finding{h.Address, h.SharePct, why})
			r.SharePct += h.SharePct
		case len(open) > 0:
			r.Undecided = append(r.Undecided, Finding{h.Address, h.SharePct, open})
			r.UndecidedSharePct += h.SharePct
		}
	}
	r.SharePct, r.UndecidedSharePct = round2(r.SharePct), round2(r.UndecidedSharePct)
	byShare := func(a, b Finding) int {
		if a.SharePct != b.SharePct {
			if a.SharePct > b.SharePct {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Address, b.Address)
	}
	slices.SortStableFunc(r.Insiders, byShare)
	slices.SortStableFunc(r.Undecided, byShare)
	r.Conclusive = r.Above() || r.SharePct+r.UndecidedSharePct <= r.ThresholdPct
	return r
}

// samePoint: did the holder first receive the token at a launch point?
func (f Facts) samePoint(h Holder) tri {
	if len(f.Launch) == 0 || h.First == nil {
		return unknown
	}
	out := no
	for _, l := range f.Launch {
		switch {
		case l.Exact() && h.First.Exact() && l.Lo == h.First.Lo:
			return yes
		case l.meets(*h.First):
			out = unknown
		}
	}
	return out
}

// funded: is the creator among the holder's first funders, within Hops?
func (f Facts) funded(h Holder) tri {
	if f.Creator == "" || h.Funding == nil {
		return unknown
	}
	hops := max(f.Hops, 1)
	chain := h.Funding.Chain
	if len(chain) > hops {
		chain = chain[:hops]
	}
	if slices.Contains(chain, f.Creator) {
		return yes
	}
	if len(chain) == hops || h.Funding.Ended {
		return no
	}
	return unknown
}

// Above says the insiders found hold more than the threshold.
func (r *Result) Above() bool { return r.SharePct > r.ThresholdPct }

// Flag is INSIDER_SUPPLY when the insiders hold more than the threshold.
func (r *Result) Flag() (risk.Flag, bool) {
	if r == nil || !r.Above() {
		return risk.Flag{}, false
	}
	var names []string
	for i, in := range r.Insiders {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(r.Insiders)-3))
			break
		}
		names = append(names, fmt.Sprintf("%s (%.2f%%, %s)", in.Address, in.SharePct, joinReasons(in.Why)))
	}
	return risk.NewFlag(risk.InsiderSupply, fmt.Sprintf("Insiders hold %.1f%%", r.SharePct),
		fmt.Sprintf("%d top holder(s) tied to the creator or the launch hold %.2f%% of the supply (above %.0f%%): %s.",
			len(r.Insiders), r.SharePct, r.ThresholdPct, strings.Join(names, ", "))).WithValue(r.SharePct), true
}

// Warning says why an inconclusive check is inconclusive ("" when it is
// conclusive).
func (r *Result) Warning() string {
	if r == nil || r.Conclusive {
		return ""
	}
	return fmt.Sprintf("insiders: %d top holder(s) holding %.2f%% could not be checked within the budget; with the %.2f%% proven, the insiders' share may exceed %.0f%%",
		len(r.Undecided), r.UndecidedSharePct, r.SharePct, r.ThresholdPct)
}

func joinReasons(rs []Reason) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	return strings.Join(s, "+")
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
