package probe

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/evm/node"
)

// A proxy's guards (issue 18): the code that runs is the
// implementation's, which arrives only in round trip 2, so the slots its
// access checks compare msg.sender with are not known while round trip 2
// is built. The slot dump reads them without knowing them: one eth_call
// to the token whose code a state override replaces by a small program
// (slotDumpCode) that runs on the token's own storage (the proxy's, so
// the implementation's state) and returns every non-zero word of
// DumpSlots slots from StorageCandidateSlots on, and of every slot the
// implementation's code pushes as a 32-byte constant (PUSH32: where a
// hashed slot, EIP-1967 or ERC-7201 style, is written). Round trip 1
// read the slots before the window. What the implementation's code then
// names inside the window or among its PUSH32 constants is read (a slot
// missing from the answer holds zero); a slot elsewhere (past the
// window, a mapping entry, a constant computed at run time) stays
// unread, and the scan says so.

const (
	// DumpSlots is how many slots the dump reads from
	// StorageCandidateSlots on (slots 12..523): past the gaps of
	// OpenZeppelin's upgradeable contracts (50 slots each), where a
	// token's own state variables begin.
	DumpSlots = 512
	// dumpGas covers the window's cold reads (2,100 gas each), the
	// sweep of a 24 KB implementation and its PUSH32 constants' reads.
	dumpGas = 8_000_000
)

// asm assembles EVM code with labels: a byte is an opcode or data, a
// label string defines a jump destination (JUMPDEST emitted), a ref
// pushes a label's offset (PUSH2), a push16 pushes a 16-bit constant.
type (
	asmRef    string
	asmPush16 uint16
)

func asm(items ...any) []byte {
	var code []byte
	labels := map[string]int{}
	refs := map[int]string{}
	for _, it := range items {
		switch v := it.(type) {
		case vm.OpCode:
			code = append(code, byte(v))
		case byte:
			code = append(code, v)
		case string:
			labels[v] = len(code)
			code = append(code, byte(vm.JUMPDEST))
		case asmRef:
			refs[len(code)+1] = string(v)
			code = append(code, byte(vm.PUSH2), 0, 0)
		case asmPush16:
			code = append(code, byte(vm.PUSH2), byte(v>>8), byte(v))
		default:
			panic(fmt.Sprintf("asm: %T", it))
		}
	}
	for at, name := range refs {
		off, ok := labels[name]
		if !ok {
			panic("asm: no label " + name)
		}
		code[at], code[at+1] = byte(off>>8), byte(off)
	}
	return code
}

// slotDumpCode is the dump program. Call data: the implementation's
// address as a word (or nothing: no sweep). Memory: the implementation's
// code at 0, then from base = its size + 32 the answer, pairs of words
// (slot, value) for each non-zero value read. Stack comments list the
// top first.
func slotDumpCode() []byte {
	first, end := asmPush16(StorageCandidateSlots), asmPush16(StorageCandidateSlots+DumpSlots)
	return asm(
		// impl = calldataload(0); n = extcodesize(impl); extcodecopy(impl, 0, 0, n)
		vm.PUSH1, byte(0), vm.CALLDATALOAD, // impl
		vm.DUP1, vm.EXTCODESIZE, // n impl
		vm.DUP1, vm.PUSH1, byte(0), vm.PUSH1, byte(0), vm.DUP5, vm.EXTCODECOPY, // n impl
		vm.SWAP1, vm.POP, // n
		vm.DUP1, vm.PUSH1, byte(32), vm.ADD, // base n
		vm.DUP1, // p base n
		first,   // i p base n
		"window",
		vm.DUP1, vm.SLOAD, // v i p base n
		vm.DUP1, asmRef("wkeep"), vm.JUMPI, // v i p base n
		vm.POP, asmRef("wnext"), vm.JUMP,
		"wkeep",                                        // v i p base n
		vm.DUP3, vm.PUSH1, byte(32), vm.ADD, vm.MSTORE, // mem[p+32] = v; i p base n
		vm.DUP1, vm.DUP3, vm.MSTORE, // mem[p] = i; i p base n
		vm.SWAP1, vm.PUSH1, byte(64), vm.ADD, vm.SWAP1, // i p+64 base n
		"wnext",                   // i p base n
		vm.PUSH1, byte(1), vm.ADD, // i+1 p base n
		end, vm.DUP2, vm.LT, asmRef("window"), vm.JUMPI, // loop while i+1 < end
		vm.POP,            // p base n
		vm.PUSH1, byte(0), // pc p base n
		"sweep",
		vm.DUP4, vm.DUP2, vm.LT, vm.ISZERO, asmRef("done"), vm.JUMPI, // pc >= n: done
		vm.DUP1, vm.MLOAD, vm.PUSH1, byte(248), vm.SHR, // op pc p base n
		vm.DUP1, vm.PUSH1, byte(vm.PUSH32), vm.EQ, vm.ISZERO, asmRef("notpush32"), vm.JUMPI, // op pc p base n
		vm.DUP2, vm.PUSH1, byte(1), vm.ADD, vm.MLOAD, // slot op pc p base n
		vm.DUP1, vm.SLOAD, // v slot op pc p base n
		vm.DUP1, asmRef("skeep"), vm.JUMPI,
		vm.POP, vm.POP, asmRef("notpush32"), vm.JUMP,
		"skeep",                                        // v slot op pc p base n
		vm.DUP5, vm.PUSH1, byte(32), vm.ADD, vm.MSTORE, // mem[p+32] = v; slot op pc p base n
		vm.DUP4, vm.MSTORE, // mem[p] = slot; op pc p base n
		vm.SWAP2, vm.PUSH1, byte(64), vm.ADD, vm.SWAP2, // op pc p+64 base n
		"notpush32", // op pc p base n
		// step = PUSH1..PUSH32 ? op - 0x5e : 1
		vm.DUP1, vm.PUSH1, byte(vm.PUSH1), vm.GT, asmRef("one"), vm.JUMPI, // op < PUSH1 (PUSH1 > op)
		vm.DUP1, vm.PUSH1, byte(vm.PUSH32), vm.LT, asmRef("one"), vm.JUMPI, // op > PUSH32 (PUSH32 < op)
		vm.PUSH1, byte(vm.PUSH1-2), vm.SWAP1, vm.SUB, // op-0x5e pc p base n
		asmRef("step"), vm.JUMP,
		"one",
		vm.POP, vm.PUSH1, byte(1), // 1 pc p base n
		"step",
		vm.ADD, asmRef("sweep"), vm.JUMP, // pc' p base n
		"done",                            // pc p base n
		vm.POP, vm.DUP2, vm.SWAP1, vm.SUB, // p-base base n
		vm.SWAP1, vm.RETURN, // return(base, p-base)
	)
}

// push32Constants lists the 32-byte constants code pushes, as the dump
// program's sweep finds them (a linear sweep that skips push data).
func push32Constants(code []byte) []common.Hash {
	var out []common.Hash
	for pc := 0; pc < len(code); {
		op := vm.OpCode(code[pc])
		switch {
		case op == vm.PUSH32:
			var w [32]byte
			if pc+1 < len(code) {
				copy(w[:], code[pc+1:])
			}
			out = append(out, w)
			pc += 33
		case op >= vm.PUSH1 && op < vm.PUSH32:
			pc += int(op-vm.PUSH1) + 2
		default:
			pc++
		}
	}
	return out
}

// SlotDump is the answer of a proxy's slot dump.
type SlotDump struct {
	elems []rpc.BatchElem
	out   *hexutil.Bytes
	// Words are the non-zero words read, by slot; nil until Read.
	Words map[common.Hash][]byte
	// Read is true when the node answered the dump.
	Read bool
	// Err says why the dump was not read.
	Err   string
	impl  common.Address
	swept map[common.Hash]bool
}

// SlotDumpCall builds the dump of token's storage (a proxy's), sweeping
// impl's code for PUSH32 constants (impl zero: the window alone).
func SlotDumpCall(token, impl common.Address) *SlotDump {
	d := &SlotDump{out: new(hexutil.Bytes), impl: impl}
	msg := node.CallMsg{To: token, Gas: dumpGas, Data: common.LeftPadBytes(impl.Bytes(), 32)}
	if impl == (common.Address{}) {
		msg.Data = nil
	}
	d.elems = []rpc.BatchElem{node.CallElem(msg, node.StateOverride{token: {Code: slotDumpCode()}}, d.out)}
	return d
}

// Elems are the dump's batch elements (nil on a nil dump).
func (d *SlotDump) Elems() []rpc.BatchElem {
	if d == nil {
		return nil
	}
	return d.elems
}

// Apply reads the answer after the batch; implCode is the code of the
// implementation the dump swept, when it arrived (its PUSH32 constants
// were read), nil otherwise.
func (d *SlotDump) Apply(answered bool, implCode []byte) {
	if d == nil {
		return
	}
	switch e := d.elems[0]; {
	case !answered:
		d.Err = "the node did not answer round trip 2"
		return
	case e.Error != nil:
		d.Err = "the node refused the slot dump (" + node.SafeErr(e.Error) + ")"
		return
	case len(*d.out)%64 != 0:
		d.Err = fmt.Sprintf("the slot dump answered %d bytes, not pairs of words", len(*d.out))
		return
	}
	d.Read = true
	d.Words = map[common.Hash][]byte{}
	for b := []byte(*d.out); len(b) >= 64; b = b[64:] {
		d.Words[common.BytesToHash(b[:32])] = b[32:64]
	}
	d.swept = map[common.Hash]bool{}
	if d.impl == (common.Address{}) {
		return
	}
	for _, c := range push32Constants(implCode) {
		d.swept[c] = true
	}
}

// Covers reports whether the dump read slot (its word is then in Words,
// or zero).
func (d *SlotDump) Covers(slot common.Hash) bool {
	if d == nil || !d.Read {
		return false
	}
	if d.swept[slot] {
		return true
	}
	n := slot.Big()
	return n.IsUint64() && n.Uint64() >= StorageCandidateSlots && n.Uint64() < StorageCandidateSlots+DumpSlots
}
