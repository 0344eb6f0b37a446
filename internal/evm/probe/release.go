package probe

import (
	"bytes"
	"math/big"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// Reserve releases (issue 18, item 3): a privileged credit that the
// declared total supply already counts (a reserve or vesting allocation
// paid out) is no mint. The probes prove it from the calls they already
// make to one function from one caller:
//
//   - every call that credited tokens left the total supply unchanged,
//     and after it the watched balances (top holders, the pool, the
//     callers, the token contract's own) still summed to no more than the
//     supply: the credit never exceeded what the supply counts;
//   - the call asking for the whole supply was refused: the function
//     cannot credit beyond an allocation smaller than the supply.
//
// A mint fails one or the other: it raises the supply, or it credits
// tokens the supply does not count (the balances then sum above it), or
// it credits the whole supply when asked.

// releaseTrack is what one (caller, function)'s calls showed.
type releaseTrack struct {
	// credited is the largest credit a call made, within: every credit
	// stayed within the supply, refused: the supply-sized call was
	// refused (its amount), exceeded: some credit did not.
	credited, refused *big.Int
	exceeded          bool
}

// asksSupply reports whether a call passes the whole supply as an amount.
func asksSupply(p probeCall) bool {
	return len(p.data) > 4 && bytes.Contains(p.data[4:], placeholder(fillSupply))
}

// trackRelease records one outcome of a call for the release proof.
func (v *verdicts) trackRelease(key callerSelector, p probeCall, base proberMeasure, o proberOutcome) {
	if !o.Complete {
		return
	}
	t := v.releases[key]
	if t == nil {
		t = &releaseTrack{}
		v.releases[key] = t
	}
	if !o.Ok {
		if asksSupply(p) && base.TotalSupply != nil && base.TotalSupply.Sign() > 0 {
			t.refused = new(big.Int).Set(base.TotalSupply)
		}
		return
	}
	credit, debit, _, _ := balanceDeltas(base, o.M, key.caller, v.sc)
	if credit.Cmp(debit) <= 0 {
		return
	}
	if base.TotalSupply == nil || o.M.TotalSupply == nil || o.M.TotalSupply.Cmp(base.TotalSupply) != 0 || !withinSupply(o.M) {
		t.exceeded = true
		return
	}
	net := new(big.Int).Sub(credit, debit)
	if t.credited == nil || net.Cmp(t.credited) > 0 {
		t.credited = net
	}
}

// withinSupply reports whether the watched balances and the token
// contract's own sum to no more than the total supply.
func withinSupply(m proberMeasure) bool {
	sum := new(big.Int)
	for _, b := range m.Balances {
		if b != nil {
			sum.Add(sum, b)
		}
	}
	if m.TokenBalance != nil {
		sum.Add(sum, m.TokenBalance)
	}
	return m.TotalSupply != nil && sum.Cmp(m.TotalSupply) <= 0
}

// release is the proof for a mint verdict of key, nil when the credit may
// be a mint.
func (v *verdicts) release(key callerSelector) *analysis.EVMRelease {
	t := v.releases[key]
	if t == nil || t.exceeded || t.credited == nil || t.refused == nil {
		return nil
	}
	return &analysis.EVMRelease{Credited: t.credited.String(), Refused: t.refused.String()}
}

// withRelease marks a proven mint capability as a release when its
// calls proved one.
func (v *verdicts) withRelease(c *analysis.EVMCapability, key callerSelector) {
	if c.Name != bytecode.CapMint {
		return
	}
	c.Release = v.release(key)
}
