package probe

import "math/big"

// signBit is 2^255: a uint256 balance at or above it is, read as a
// signed number, below zero.
var signBit = new(big.Int).Lsh(big.NewInt(1), 255)

// wrappedBelowZero reports whether a balance the probe reads crossed
// 2^255 upwards during a call: read as an unsigned number it rose by
// almost 2^256, but it is a subtraction below zero with no check (a
// transfer that debits the recipient too, or debits a sender holding
// less than it sends). Such a rise created nothing a holder can rely on:
// it is no mint.
func wrappedBelowZero(base, m proberMeasure) bool {
	wrapped := func(before, after *big.Int) bool {
		return before != nil && after != nil && before.Cmp(signBit) < 0 && after.Cmp(signBit) >= 0
	}
	if wrapped(base.CallerBalance, m.CallerBalance) || wrapped(base.TokenBalance, m.TokenBalance) ||
		wrapped(base.VictimBalance, m.VictimBalance) {
		return true
	}
	for i := range base.Balances {
		if i < len(m.Balances) && wrapped(base.Balances[i], m.Balances[i]) {
			return true
		}
	}
	return false
}
