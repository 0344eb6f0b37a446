package hook

import (
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// The permission bits are the low 14 bits of the hook's address, named
// as v4-core's Hooks.sol names them; the bits above them are no
// permission.
func TestPermissionsFromAddress(t *testing.T) {
	for _, tc := range []struct {
		addr          string
		names         []string
		cut, onSwap   bool
		removeLiq     bool
		liquidityCuts bool
		valid         bool
	}{
		{"0x0000000000000000000000000000000000000000", []string{}, false, false, false, false, true},
		// The devnet's TaxHook: beforeSwap, afterSwap, afterSwapReturnDelta.
		{"0x1234567890abcdef1234567890abcdef123400c4", []string{"beforeSwap", "afterSwap", "afterSwapReturnDelta"}, true, true, false, false, true},
		// Bits above the 14th are ignored (0xc000 | 0x0080).
		{"0x000000000000000000000000000000000000c080", []string{"beforeSwap"}, false, true, false, false, true},
		// Every bit.
		{"0x0000000000000000000000000000000000003fff", []string{
			"beforeInitialize", "afterInitialize", "beforeAddLiquidity", "afterAddLiquidity",
			"beforeRemoveLiquidity", "afterRemoveLiquidity", "beforeSwap", "afterSwap", "beforeDonate", "afterDonate",
			"beforeSwapReturnDelta", "afterSwapReturnDelta", "afterAddLiquidityReturnDelta", "afterRemoveLiquidityReturnDelta",
		}, true, true, true, true, true},
		// beforeSwapReturnDelta without beforeSwap: no pool can use it.
		{"0x0000000000000000000000000000000000000008", []string{"beforeSwapReturnDelta"}, true, true, false, false, false},
		// Liquidity only: afterRemoveLiquidity with its delta.
		{"0x0000000000000000000000000000000000000101", []string{"afterRemoveLiquidity", "afterRemoveLiquidityReturnDelta"}, false, false, true, true, true},
		// Initialize and donate only: runs on no swap.
		{"0x0000000000000000000000000000000000003030", []string{"beforeInitialize", "afterInitialize", "beforeDonate", "afterDonate"}, false, false, false, false, true},
	} {
		p := FromAddress(common.HexToAddress(tc.addr))
		if got := p.Names(); !slices.Equal(got, tc.names) {
			t.Errorf("%s: names %v, want %v", tc.addr, got, tc.names)
		}
		if p.TakesCut() != tc.cut || p.OnSwap() != tc.onSwap || p.OnRemoveLiquidity() != tc.removeLiq ||
			p.LiquidityDeltas() != tc.liquidityCuts || p.Valid() != tc.valid {
			t.Errorf("%s: cut %v onSwap %v removeLiquidity %v liquidityDeltas %v valid %v", tc.addr,
				p.TakesCut(), p.OnSwap(), p.OnRemoveLiquidity(), p.LiquidityDeltas(), p.Valid())
		}
	}
	if got := FromAddress(common.HexToAddress("0x000000000000000000000000000000000000000c")).CutBits(); !slices.Equal(got, []string{"beforeSwapReturnDelta", "afterSwapReturnDelta"}) {
		t.Errorf("cut bits %v", got)
	}
}
