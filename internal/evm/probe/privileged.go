package probe

import (
	"math/big"
	"sort"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Every privileged address (issue 18): the probes run from the owner,
// the addresses stored in the token's first slots and the creator; an
// address is privileged when a call of its had an effect the control
// caller's same calls did not (a power only it holds). Privileged lists
// each with the powers proven from it, so a power kept by a second
// stored address (a fee setter, a marketing wallet, the previous owner)
// stays in the report once owner() is renounced.

// privileged returns the callers with at least one proven power, in
// probing order, each with its powers' names sorted; nil when none.
func (v *verdicts) privileged() []analysis.EVMPrivilegedAddress {
	public := map[string]bool{} // capability names the control caller proved
	for _, key := range v.order {
		if key.caller.role == RoleAnyone {
			for _, e := range v.seen[key] {
				public[e.capability] = true
			}
		}
	}
	var out []analysis.EVMPrivilegedAddress
	index := map[probeCaller]int{}
	for _, key := range v.order {
		if key.caller.role == RoleAnyone {
			continue
		}
		for _, e := range v.seen[key] {
			if public[e.capability] {
				continue
			}
			i, ok := index[key.caller]
			if !ok {
				i = len(out)
				index[key.caller] = i
				a := analysis.EVMPrivilegedAddress{Address: key.caller.addr.Hex(), Role: key.caller.role, Powers: []string{}}
				if key.caller.slot != (common.Hash{}) || key.caller.role == RoleGuard {
					a.Slot = hexutil.EncodeBig(new(big.Int).SetBytes(key.caller.slot[:]))
				}
				out = append(out, a)
			}
			if !containsString(out[i].Powers, e.capability) {
				out[i].Powers = append(out[i].Powers, e.capability)
			}
		}
	}
	for i := range out {
		sort.Strings(out[i].Powers)
	}
	return out
}

func containsString(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}
