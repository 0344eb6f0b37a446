package simulation

import (
	"math/big"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// HolderTally adds up the real holders' sells, whichever pool they sold
// through: who was siphoned, who was refused (the first reason kept),
// and the taxes of the sells that went through.
type HolderTally struct {
	hs             analysis.EVMHolderSells
	taxSum, taxMax float64
	taxed          int
}

// Tried counts a seller whose holding was read: held below what its
// Transfer logs give, though it never sent, is siphoned.
func (t *HolderTally) Tried(s Seller, held *big.Int) {
	if s.NeverSent && s.Logged != nil && held.Cmp(s.Logged) < 0 {
		t.hs.Siphoned = append(t.hs.Siphoned, s.Address.Hex())
	}
	t.hs.Tried++
}

// Refused counts a sell that failed, for reason.
func (t *HolderTally) Refused(s Seller, reason string) {
	t.hs.Failed++
	t.hs.FailedHolders = append(t.hs.FailedHolders, s.Address.Hex())
	if t.hs.Error == nil {
		t.hs.Error = &reason
	}
}

// Sold counts a sell that went through, at tax percent (nil: unknown).
func (t *HolderTally) Sold(tax *float64) {
	if tax == nil {
		return
	}
	t.taxSum += *tax
	t.taxMax = max(t.taxMax, *tax)
	t.taxed++
}

// Result is the holders' sells, nil when no holder was tried.
func (t *HolderTally) Result() *analysis.EVMHolderSells {
	if t.hs.Tried == 0 {
		return nil
	}
	hs := t.hs
	if t.taxed > 0 {
		hs.AverageTax, hs.HighestTax = Pct(t.taxSum/float64(t.taxed)/100), Pct(t.taxMax/100)
	}
	return &hs
}
