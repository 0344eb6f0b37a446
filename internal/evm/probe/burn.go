package probe

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// burnedFrom finds a burn of another holder's tokens too small for the
// rounding tolerance of balanceDeltas (a call that burned 1 unit of the
// test wallet's, the most its balance checks let through): a watched
// address other than the caller lost exactly what the total supply lost.
// Reflection rounding moves balances by a few units but never the supply
// with them, so the exact match is a burn from that holder, made without
// its allowance. It returns the amount and the holder (nil when none).
func burnedFrom(base, m proberMeasure, c probeCaller, sc scene) (*big.Int, common.Address) {
	if base.TotalSupply == nil || m.TotalSupply == nil || m.TotalSupply.Cmp(base.TotalSupply) >= 0 {
		return nil, common.Address{}
	}
	burned := new(big.Int).Sub(base.TotalSupply, m.TotalSupply)
	for i, a := range sc.watch {
		if a == c.addr || i >= len(base.Balances) || i >= len(m.Balances) || base.Balances[i] == nil || m.Balances[i] == nil {
			continue
		}
		if new(big.Int).Sub(base.Balances[i], m.Balances[i]).Cmp(burned) == 0 {
			return burned, a
		}
	}
	return nil, common.Address{}
}
