package probe

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
)

// Guards (issue 18, every privileged address): the addresses the code
// really gates on are the values of the fixed slots its access checks
// compare msg.sender with (method.Report.CallerSlots), wherever the
// compiler or the author put them: slot 0, slot 27 after a long list of
// state variables, a hashed constant written in assembly. The first
// StorageCandidateSlots slots are read in round trip 1 already; the
// others (at most maxGuardSlots, the most used first) ride round trip 2,
// since the code that names them arrives with round trip 1's answer;
// a proxy's implementation's arrive in round trip 2, read beforehand by
// the proxy's slot dump (slotdump.go). The guards are probed before the
// other stored addresses.

const (
	// maxGuardSlots bounds the caller-check slots read beyond the first.
	maxGuardSlots = 6
)

// RoleGuard is a caller read from a slot the code compares msg.sender
// with.
const RoleGuard = "guard"

// Guard is an address read from a slot the code compares msg.sender
// with.
type Guard struct {
	Addr common.Address
	Slot common.Hash
	// Uses is how many functions check the caller against the slot.
	Uses int
}

// GuardSlotCalls reads code's caller-check slots that round trip 1 did
// not (slots from StorageCandidateSlots on, at most maxGuardSlots). The
// decoder returns the addresses held by the caller-check slots of the
// code that runs (a proxy's implementation, known only after this
// read: its slots are found in dump, the proxy's slot dump of the same
// round trip, or here where the proxy's own code checks them too), most
// used slot first, from the words read here, in dump and in known
// (round trip 1's words, by slot); and the caller-check slots none of
// them read (unread: whoever they hold was not probed).
func GuardSlotCalls(token common.Address, code bytecode.CodeReport, known map[uint64][]byte) ([]rpc.BatchElem, func(bytecode.CodeReport, *SlotDump) ([]Guard, []common.Hash)) {
	words := map[common.Hash]*hexutil.Bytes{}
	for i, w := range known {
		b := hexutil.Bytes(w)
		words[common.BigToHash(new(big.Int).SetUint64(i))] = &b
	}
	var elems []rpc.BatchElem
	var slots []common.Hash
	for _, s := range code.Methods.CallerSlots() {
		if len(elems) >= maxGuardSlots {
			break
		}
		if s.Slot.IsUint64() && s.Slot.Uint64() < StorageCandidateSlots {
			continue
		}
		slot := common.Hash(s.Slot.Bytes32())
		out := new(hexutil.Bytes)
		slots = append(slots, slot)
		elems = append(elems, node.StorageElem(token, slot, out))
	}
	decode := func(code bytecode.CodeReport, dump *SlotDump) (guards []Guard, unread []common.Hash) {
		for i, e := range elems {
			if out, ok := e.Result.(*hexutil.Bytes); ok && e.Error == nil && out != nil {
				words[slots[i]] = out
			}
		}
		seen := map[common.Address]bool{}
		for _, s := range code.Methods.CallerSlots() {
			slot := common.Hash(s.Slot.Bytes32())
			var w []byte
			switch known, ok := words[slot]; {
			case ok && known != nil:
				w = *known
			case dump.Covers(slot):
				w = dump.Words[slot] // nil: the slot holds zero
			default:
				unread = append(unread, slot)
				continue
			}
			a, ok := guardAddress(w)
			if !ok || seen[a] {
				continue
			}
			seen[a] = true
			guards = append(guards, Guard{Addr: a, Slot: slot, Uses: s.Uses})
		}
		return guards, unread
	}
	return elems, decode
}

// guardAddress reads the address in a caller-check slot's word: as
// AddressesInWords does, or, since the code is known to compare the
// caller with it, the low 20 bytes beside other packed values when they
// look like an address (at least 4 of their top 6 bytes non-zero).
func guardAddress(w []byte) (common.Address, bool) {
	if len(w) > 32 {
		return common.Address{}, false
	}
	if as := AddressesInWords([][]byte{w}); len(as) == 1 {
		return as[0], true
	}
	word := common.LeftPadBytes(w, 32)
	nonzero := 0
	for _, b := range word[12:18] {
		if b != 0 {
			nonzero++
		}
	}
	if nonzero < 4 {
		return common.Address{}, false
	}
	return common.BytesToAddress(word[12:]), true
}
