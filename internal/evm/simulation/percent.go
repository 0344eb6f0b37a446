package simulation

import (
	"math"
	"math/big"
)

// LossPct is the percentage of want that did not arrive (0 when more
// arrived); nil when want is zero or either is unknown. Every simulation
// (the contract and wallet paths, the V4 simulator) measures a tax with it.
func LossPct(got, want *big.Int) *float64 {
	if want == nil || got == nil || want.Sign() == 0 {
		return nil
	}
	ratio, _ := new(big.Rat).SetFrac(got, want).Float64()
	return Pct(1 - ratio)
}

// Pct turns a loss fraction into a percentage in [0, 100], two decimals.
func Pct(loss float64) *float64 {
	v := math.Round(loss*10_000) / 100
	v = math.Max(0, math.Min(100, v))
	return &v
}
