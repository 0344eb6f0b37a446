package method

import (
	"sort"

	"github.com/holiman/uint256"
)

// CallerSlot is a fixed storage slot the code compares msg.sender with
// before a successful path: the slot holds an address the code gates on
// (an owner, an admin, a controller), wherever the compiler put it.
type CallerSlot struct {
	Slot uint256.Int
	// Uses is how many functions passed a check of it on a successful
	// path: the more, the likelier it is the contract's main guard.
	Uses int
}

// CallerSlots returns the slots the access checks of r's methods compare
// msg.sender with, most used first (then by slot). Mapping lookups keyed
// by the caller (allow-lists, roles) are no fixed slot and are not here.
func (r Report) CallerSlots() []CallerSlot {
	uses := map[uint256.Int]int{}
	for _, m := range r.Methods {
		for _, s := range m.GuardSlots {
			uses[s]++
		}
	}
	out := make([]CallerSlot, 0, len(uses))
	for s, n := range uses {
		out = append(out, CallerSlot{Slot: s, Uses: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Uses != out[j].Uses {
			return out[i].Uses > out[j].Uses
		}
		return out[i].Slot.Lt(&out[j].Slot)
	})
	return out
}
