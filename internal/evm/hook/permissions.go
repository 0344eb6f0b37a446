// Package hook judges a Uniswap V4 hook, the code a pool's traders swap
// through: which callbacks it runs (its permission bits, from its
// address), its code read like a token's (owner, proxy and upgradeability,
// privileged setters), and what its owner can do, proven by simulation:
// the owner (or an address the hook stores) calls each setter, then the V4
// simulator buys, transfers and sells through the pool with the hook
// running. Calls are rpc.BatchElem values with decoders, so the adapter
// joins them to its round trips: the read to the round trip of the V4
// simulation, the probe to the privilege probes' (it needs the owner and
// the setters the read found).
package hook

import (
	"github.com/ethereum/go-ethereum/common"
)

// Permissions are the low 14 bits of a hook's address (v4-core
// Hooks.sol): the PoolManager calls a callback only when its bit is set.
type Permissions uint16

// The permission bits, highest first.
const (
	BeforeInitialize                 Permissions = 1 << 13
	AfterInitialize                  Permissions = 1 << 12
	BeforeAddLiquidity               Permissions = 1 << 11
	AfterAddLiquidity                Permissions = 1 << 10
	BeforeRemoveLiquidity            Permissions = 1 << 9
	AfterRemoveLiquidity             Permissions = 1 << 8
	BeforeSwap                       Permissions = 1 << 7
	AfterSwap                        Permissions = 1 << 6
	BeforeDonate                     Permissions = 1 << 5
	AfterDonate                      Permissions = 1 << 4
	BeforeSwapReturnsDelta           Permissions = 1 << 3
	AfterSwapReturnsDelta            Permissions = 1 << 2
	AfterAddLiquidityReturnsDelta    Permissions = 1 << 1
	AfterRemoveLiquidityReturnsDelta Permissions = 1 << 0

	allPermissions  Permissions = 1<<14 - 1
	swapDeltas                  = BeforeSwapReturnsDelta | AfterSwapReturnsDelta
	liquidityDeltas             = AfterAddLiquidityReturnsDelta | AfterRemoveLiquidityReturnsDelta
)

// permissionNames are the bits' names as Hooks.sol's Permissions struct
// spells them, highest bit (1<<13) first.
var permissionNames = [14]string{
	"beforeInitialize", "afterInitialize",
	"beforeAddLiquidity", "afterAddLiquidity",
	"beforeRemoveLiquidity", "afterRemoveLiquidity",
	"beforeSwap", "afterSwap",
	"beforeDonate", "afterDonate",
	"beforeSwapReturnDelta", "afterSwapReturnDelta",
	"afterAddLiquidityReturnDelta", "afterRemoveLiquidityReturnDelta",
}

// FromAddress reads a hook's permissions from its address.
func FromAddress(hook common.Address) Permissions {
	return Permissions(uint16(hook[18])<<8|uint16(hook[19])) & allPermissions
}

// Has reports whether every bit of q is set.
func (p Permissions) Has(q Permissions) bool { return p&q == q }

// Names lists the callbacks the hook runs, highest bit first.
func (p Permissions) Names() []string {
	out := []string{}
	for i, name := range permissionNames {
		if p.Has(1 << (len(permissionNames) - 1 - i)) {
			out = append(out, name)
		}
	}
	return out
}

// TakesCut reports whether the hook may return a delta on swaps
// (beforeSwapReturnDelta or afterSwapReturnDelta): it can take part of a
// trade, or all of it, beside the pool's LP fee.
func (p Permissions) TakesCut() bool { return p&swapDeltas != 0 }

// CutBits names the swap delta bits set.
func (p Permissions) CutBits() []string {
	var out []string
	if p.Has(BeforeSwapReturnsDelta) {
		out = append(out, permissionNames[10])
	}
	if p.Has(AfterSwapReturnsDelta) {
		out = append(out, permissionNames[11])
	}
	return out
}

// OnSwap reports whether the hook runs on swaps at all (a hook that does
// not cannot refuse or tax a trade).
func (p Permissions) OnSwap() bool { return p&(BeforeSwap|AfterSwap|swapDeltas) != 0 }

// OnRemoveLiquidity reports whether the hook runs when liquidity is
// removed (it can refuse or tax an LP's exit).
func (p Permissions) OnRemoveLiquidity() bool {
	return p&(BeforeRemoveLiquidity|AfterRemoveLiquidity|AfterRemoveLiquidityReturnsDelta) != 0
}

// Valid reports whether the bits are consistent as the PoolManager
// requires of a hook address (Hooks.validateHookPermissions): a delta bit
// needs its callback's bit. A pool whose hook fails it cannot exist.
func (p Permissions) Valid() bool {
	if p.Has(BeforeSwapReturnsDelta) && !p.Has(BeforeSwap) {
		return false
	}
	if p.Has(AfterSwapReturnsDelta) && !p.Has(AfterSwap) {
		return false
	}
	if p.Has(AfterAddLiquidityReturnsDelta) && !p.Has(AfterAddLiquidity) {
		return false
	}
	if p.Has(AfterRemoveLiquidityReturnsDelta) && !p.Has(AfterRemoveLiquidity) {
		return false
	}
	return true
}

// LiquidityDeltas reports whether the hook can return deltas when
// liquidity is added or removed (a cut of LPs' deposits or withdrawals).
func (p Permissions) LiquidityDeltas() bool { return p&liquidityDeltas != 0 }
