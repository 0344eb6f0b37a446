package evm

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
)

// Powers by behaviour, not by name (issue 18, item 3): a catalogue match
// is a power only while the code shows it can be one.
//
//   - Dead guard: every successful path of the function passed a check
//     of msg.sender against fixed storage slots only, and each of those
//     slots reads zero now (round trip 1 reads the first slots): only the
//     zero address could call it, so it is no one's power (a renounced
//     owner's setOwner is no ownership reclaim).
//   - An ownership reclaim that writes no fixed slot restores no owner
//     (unlock() of the caller's own time lock).
//   - A cooldown setter whose every write is a fixed slot that no
//     transfer reads cannot delay a trade (a staking wait).

// storageWords keeps the words round trip 1's storage reads answered,
// by slot (StorageCandidateCalls reads slots 0, 1, … in order).
func storageWords(elems []rpc.BatchElem) func() map[uint64][]byte {
	return func() map[uint64][]byte {
		out := map[uint64][]byte{}
		for i, e := range elems {
			b, ok := e.Result.(*hexutil.Bytes)
			if e.Error != nil || !ok || b == nil {
				continue
			}
			out[uint64(i)] = *b
		}
		return out
	}
}

// deadGuard reports whether only the zero address can pass m's checks.
func deadGuard(m method.Method, words map[uint64][]byte) bool {
	if !m.Complete || !m.Guarded || m.Open || m.GuardOther || len(m.GuardSlots) == 0 {
		return false
	}
	for _, s := range m.GuardSlots {
		if !s.IsUint64() {
			return false
		}
		w, ok := words[s.Uint64()]
		if !ok || new(uint256.Int).SetBytes(w).Sign() != 0 {
			return false
		}
	}
	return true
}

// inertReason says why a catalogue match cannot be the power it is named
// for ("" when it may be).
func inertReason(capability string, m method.Method, r bytecode.CodeReport, words map[uint64][]byte) string {
	switch {
	case deadGuard(m, words):
		return "only the zero address passes its caller check (the slot it compares msg.sender with reads zero)"
	case capability == bytecode.CapOwnershipReclaim && m.Complete && len(m.Writes) == 0:
		return "it writes no fixed storage slot, so it restores no owner"
	case capability == bytecode.CapCooldown && m.Complete && !m.MapWrites && !m.Calls && len(m.Writes) > 0 && !anyReadByTransfers(m.Writes, r):
		return "no transfer reads what it sets"
	}
	return ""
}

func anyReadByTransfers(slots []uint256.Int, r bytecode.CodeReport) bool {
	for _, s := range slots {
		if r.Methods.ReadByTransfers(s) {
			return true
		}
	}
	return false
}

// clearInert marks the capabilities whose every catalogue match is inert
// (analysis.EVMCodeFacts.Inert) and drops the code powers of functions
// only the zero address can call.
func clearInert(f *analysis.EVMCodeFacts, r bytecode.CodeReport, words map[uint64][]byte) {
	if f == nil {
		return
	}
	inert, live := map[string]string{}, map[string]bool{}
	for _, p := range r.Privileged {
		m, ok := r.Methods.Lookup(p.Selector)
		why := ""
		if ok {
			why = inertReason(p.Capability, m, r, words)
		}
		if why == "" {
			live[p.Capability] = true
			continue
		}
		inert[p.Capability] = p.Signature + " (" + p.Selector.String() + "): " + why
	}
	for c, why := range inert {
		if !live[c] {
			if f.Inert == nil {
				f.Inert = map[string]string{}
			}
			f.Inert[c] = why
		}
	}
	kept := f.Powers[:0]
	for _, c := range f.Powers {
		dead := false
		for _, m := range r.Methods.Methods {
			if bytecode.Selector(m.Selector).String() == c.Selector && deadGuard(m, words) {
				dead = true
			}
		}
		if !dead {
			kept = append(kept, c)
		}
	}
	f.Powers = kept
}

// warnUnreadGuards says which slots the code compares msg.sender with
// were never read: their holders were not probed, so a power only they
// have is unknown, never absent (a proxy's implementation names its
// slots only in round trip 2; its slot dump read a window and the
// implementation's constants, probe/slotdump.go).
func (r *scanRun) warnUnreadGuards(slots []string, isProxy bool, dump *probe.SlotDump) {
	if len(slots) == 0 {
		return
	}
	why := "they are past the caller-check slots read beyond the first, or their read failed"
	switch {
	case isProxy && dump != nil && dump.Read:
		why = fmt.Sprintf("the proxy's slot dump reads slots %d-%d and the implementation's 32-byte constants; these are elsewhere (computed at run time)",
			probe.StorageCandidateSlots, probe.StorageCandidateSlots+probe.DumpSlots-1)
	case isProxy && dump != nil:
		why = "the proxy's slot dump was not read: " + dump.Err
	}
	r.warn("contract: the code compares the caller with storage slot %s, not read (%s); whoever it holds was not probed, so a power only that address has is unknown",
		strings.Join(slots, ", "), why)
}

// slotNames are slots as the report names them (0x3a).
func slotNames(slots []common.Hash) []string {
	var out []string
	for _, s := range slots {
		out = append(out, hexutil.EncodeBig(s.Big()))
	}
	return out
}
