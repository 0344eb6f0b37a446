package bytecode

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// The fallback's delegation (a proxy that keeps its logic address at a
// slot of its own, not a standard one): a bounded forward walk over a
// symbolic stack from the first instruction, on the path a call with no
// known selector takes (a branch taken only when the selector equals a
// constant is a function, not the fallback; every other branch is
// followed both ways). A DELEGATECALL whose address argument is an SLOAD
// of a constant slot (masked to an address or not) names that slot; one
// whose address is a constant in the code is a library call, not a proxy.

const (
	// delegateWalkSteps bounds the instructions walked over all paths.
	delegateWalkSteps = 20_000
	// delegateVisits bounds how often one instruction is walked (loops,
	// and paths that join again).
	delegateVisits   = 4
	delegateMaxStack = 1024
	opJumpi          = 0x57
	opSstore         = 0x55
	opSha3           = 0x20
)

type symKind uint8

const (
	symUnknown  symKind = iota
	symConst            // a constant: v
	symStored           // SLOAD of the constant slot v (or it masked)
	symSelector         // derived from calldataload(0)
	symSelEq            // selector == constant: non-zero when a function matched
	symSelNe            // selector != constant: non-zero when it did not
	symHashed           // KECCAK256 of memory (plus an offset): a mapping's or array's slot
)

type sym struct {
	kind symKind
	v    uint256.Int
}

type walkState struct {
	at    int // index into the instructions
	stack []sym
}

// DelegateSlot returns the constant storage slot whose stored address the
// code's fallback DELEGATECALLs to; false when the fallback path reaches
// no such DELEGATECALL within the walk's bounds.
func DelegateSlot(code []byte) (common.Hash, bool) {
	var slot common.Hash
	found := false
	walkCode(code, true, func(op byte, addr sym) bool {
		if (op == opDelegatecall || op == opCallcode) && addr.kind == symStored {
			slot, found = common.Hash(addr.v.Bytes32()), true
		}
		return found
	})
	return slot, found
}

// WritesSlot reports whether any path of code (every branch followed,
// functions too) may SSTORE to slot: true when one does, and when the
// walk ran out of its bounds first (unknown is never "cannot").
func WritesSlot(code []byte, slot common.Hash) bool {
	var want uint256.Int
	want.SetBytes(slot[:])
	found := false
	complete := walkCode(code, false, func(op byte, key sym) bool {
		// A computed key may be this slot too, but a mapping's or an
		// array's (hashed) is not: a collision with a constant slot is
		// out of reach.
		if op == opSstore && (key.kind == symConst && key.v.Eq(&want) || key.kind != symConst && key.kind != symHashed) {
			found = true
		}
		return found
	})
	return found || !complete
}

// walkCode walks code's paths from its first instruction over a symbolic
// stack, calling visit at each DELEGATECALL and CALLCODE (with the
// address argument) and each SSTORE (with the key) until visit returns
// true. fallbackOnly skips the branches a selector match takes. It
// returns false when the walk stopped at its bounds with paths left.
func walkCode(code []byte, fallbackOnly bool, visit func(op byte, arg sym) bool) bool {
	ins := decode(stripMetadata(code))
	if len(ins) == 0 {
		return true
	}
	byPC := make(map[int]int, len(ins))
	for i, in := range ins {
		byPC[in.pc] = i
	}
	visits := make([]uint8, len(ins))
	work := []walkState{{at: 0}}
	steps := 0
	for len(work) > 0 {
		if steps >= delegateWalkSteps {
			return false
		}
		st := work[len(work)-1]
		work = work[:len(work)-1]
	path:
		for st.at < len(ins) {
			if steps >= delegateWalkSteps {
				return false
			}
			if visits[st.at] >= delegateVisits {
				break
			}
			visits[st.at]++
			steps++
			in := ins[st.at]
			op := in.op
			switch {
			case op >= opPush1 && op <= opPush32:
				var s sym
				s.kind = symConst
				s.v.SetBytes(in.data)
				st.push(s)
			case op == 0x5f: // PUSH0
				st.push(sym{kind: symConst})
			case op >= 0x80 && op <= 0x8f: // DUPn
				st.push(st.peek(int(op-0x80) + 1))
			case op >= 0x90 && op <= 0x9f: // SWAPn
				st.swap(int(op-0x90) + 1)
			case op == opSload:
				k := st.pop()
				if k.kind == symConst {
					st.push(sym{kind: symStored, v: k.v})
				} else {
					st.push(sym{})
				}
			case op == opSstore:
				key := st.pop()
				st.pop()
				if visit(op, key) {
					return true
				}
			case op == opDelegatecall || op == opCallcode:
				st.pop() // gas
				addr := st.pop()
				n := 4
				if op == opCallcode {
					n = 5
				}
				for range n {
					st.pop()
				}
				if visit(op, addr) {
					return true
				}
				st.push(sym{})
			case op == opJump:
				next, ok := jumpTarget(st.pop(), byPC, ins)
				if !ok {
					break path
				}
				st.at = next
				continue
			case op == opJumpi:
				dest, cond := st.pop(), st.pop()
				next, ok := jumpTarget(dest, byPC, ins)
				taken, fall := true, true
				switch cond.kind {
				case symSelEq:
					taken = !fallbackOnly // a function matched: not the fallback
				case symSelNe:
					fall = !fallbackOnly
				case symConst:
					taken, fall = !cond.v.IsZero(), cond.v.IsZero()
				}
				if taken && ok {
					work = append(work, walkState{at: next, stack: clone(st.stack)})
				}
				if !fall {
					break path
				}
			case op == opStop, op == opReturn, op == opRevert, op == opInvalid, op == opSelfdestruct:
				break path
			default:
				if !st.apply(op) {
					break path // an opcode the walk does not know
				}
			}
			st.at++
		}
	}
	return true
}

func clone(s []sym) []sym { return append([]sym(nil), s...) }

func jumpTarget(dest sym, byPC map[int]int, ins []instruction) (int, bool) {
	if dest.kind != symConst || !dest.v.IsUint64() {
		return 0, false
	}
	i, ok := byPC[int(dest.v.Uint64())]
	if !ok || ins[i].op != opJumpdest {
		return 0, false
	}
	return i, true
}

func (st *walkState) push(s sym) {
	if len(st.stack) >= delegateMaxStack {
		st.stack = st.stack[1:]
	}
	st.stack = append(st.stack, s)
}

// pop returns the top (unknown on an empty stack: the walk began mid-code).
func (st *walkState) pop() sym {
	if len(st.stack) == 0 {
		return sym{}
	}
	s := st.stack[len(st.stack)-1]
	st.stack = st.stack[:len(st.stack)-1]
	return s
}

func (st *walkState) peek(n int) sym {
	if n > len(st.stack) {
		return sym{}
	}
	return st.stack[len(st.stack)-n]
}

func (st *walkState) swap(n int) {
	for len(st.stack) <= n {
		st.stack = append([]sym{{}}, st.stack...)
	}
	top := len(st.stack) - 1
	st.stack[top], st.stack[top-n] = st.stack[top-n], st.stack[top]
}

// stackEffect is how many words an opcode the walk does not model pops
// and pushes (their result is unknown).
var stackEffect = map[byte][2]int{
	0x01: {2, 1}, 0x02: {2, 1}, 0x03: {2, 1}, 0x04: {2, 1}, 0x05: {2, 1}, 0x06: {2, 1}, 0x07: {2, 1},
	0x08: {3, 1}, 0x09: {3, 1}, 0x0a: {2, 1}, 0x0b: {2, 1},
	0x10: {2, 1}, 0x11: {2, 1}, 0x12: {2, 1}, 0x13: {2, 1}, 0x14: {2, 1}, 0x15: {1, 1}, 0x16: {2, 1},
	0x17: {2, 1}, 0x18: {2, 1}, 0x19: {1, 1}, 0x1a: {2, 1}, 0x1b: {2, 1}, 0x1c: {2, 1}, 0x1d: {2, 1},
	0x20: {2, 1},
	0x30: {0, 1}, 0x31: {1, 1}, 0x32: {0, 1}, 0x33: {0, 1}, 0x34: {0, 1}, 0x35: {1, 1}, 0x36: {0, 1},
	0x37: {3, 0}, 0x38: {0, 1}, 0x39: {3, 0}, 0x3a: {0, 1}, 0x3b: {1, 1}, 0x3c: {4, 0}, 0x3d: {0, 1},
	0x3e: {3, 0}, 0x3f: {1, 1},
	0x40: {1, 1}, 0x41: {0, 1}, 0x42: {0, 1}, 0x43: {0, 1}, 0x44: {0, 1}, 0x45: {0, 1}, 0x46: {0, 1},
	0x47: {0, 1}, 0x48: {0, 1}, 0x49: {1, 1}, 0x4a: {0, 1},
	0x50: {1, 0}, 0x51: {1, 1}, 0x52: {2, 0}, 0x53: {2, 0}, 0x58: {0, 1}, 0x59: {0, 1},
	0x5a: {0, 1}, 0x5b: {0, 0}, 0x5c: {1, 1}, 0x5d: {2, 0}, 0x5e: {3, 0},
	0xa0: {2, 0}, 0xa1: {3, 0}, 0xa2: {4, 0}, 0xa3: {5, 0}, 0xa4: {6, 0},
	0xf0: {3, 1}, 0xf1: {7, 1}, 0xf5: {4, 1}, 0xfa: {6, 1},
}

// apply runs an arithmetic, comparison or environment opcode on the
// symbolic stack: constants fold, an address mask keeps a stored value,
// the selector's comparisons with a constant are tracked; anything else
// is unknown. False for an opcode it does not know.
func (st *walkState) apply(op byte) bool {
	const (
		opAdd, opMul, opDiv, opExp          = 0x01, 0x02, 0x04, 0x0a
		opIszero, opAnd, opOr, opNot, opShr = 0x15, 0x16, 0x17, 0x19, 0x1c
		opCalldataload                      = 0x35
	)
	switch op {
	case opAdd, opMul, opSub, opDiv, opExp, opAnd, opOr, opShl, opShr, opEQ, opXor, opLT, opGT:
		a, b := st.pop(), st.pop()
		st.push(binary(op, a, b))
		return true
	case opIszero:
		a := st.pop()
		switch a.kind {
		case symConst:
			var r sym
			r.kind = symConst
			if a.v.IsZero() {
				r.v.SetOne()
			}
			st.push(r)
		case symSelEq:
			st.push(sym{kind: symSelNe})
		case symSelNe:
			st.push(sym{kind: symSelEq})
		default:
			st.push(sym{})
		}
		return true
	case opNot:
		a := st.pop()
		if a.kind == symConst {
			var r sym
			r.kind = symConst
			r.v.Not(&a.v)
			st.push(r)
		} else {
			st.push(sym{})
		}
		return true
	case opSha3:
		st.pop()
		st.pop()
		st.push(sym{kind: symHashed})
		return true
	case opCalldataload:
		a := st.pop()
		if a.kind == symConst && a.v.IsZero() {
			st.push(sym{kind: symSelector})
		} else {
			st.push(sym{})
		}
		return true
	}
	e, ok := stackEffect[op]
	if !ok {
		return false
	}
	for range e[0] {
		st.pop()
	}
	for range e[1] {
		st.push(sym{})
	}
	return true
}

// binary applies op to a (the top) and b.
func binary(op byte, a, b sym) sym {
	const (
		opAdd, opMul, opDiv, opExp = 0x01, 0x02, 0x04, 0x0a
		opAnd, opOr, opShr         = 0x16, 0x17, 0x1c
	)
	if a.kind == symConst && b.kind == symConst {
		var r sym
		r.kind = symConst
		switch op {
		case opAdd:
			r.v.Add(&a.v, &b.v)
		case opMul:
			r.v.Mul(&a.v, &b.v)
		case opSub:
			r.v.Sub(&a.v, &b.v)
		case opDiv:
			r.v.Div(&a.v, &b.v)
		case opExp:
			r.v.Exp(&a.v, &b.v)
		case opAnd:
			r.v.And(&a.v, &b.v)
		case opOr:
			r.v.Or(&a.v, &b.v)
		case opXor:
			r.v.Xor(&a.v, &b.v)
		case opShl:
			if a.v.LtUint64(256) {
				r.v.Lsh(&b.v, uint(a.v.Uint64()))
			}
		case opShr:
			if a.v.LtUint64(256) {
				r.v.Rsh(&b.v, uint(a.v.Uint64()))
			}
		case opEQ:
			if a.v.Eq(&b.v) {
				r.v.SetOne()
			}
		case opLT:
			if a.v.Lt(&b.v) {
				r.v.SetOne()
			}
		case opGT:
			if a.v.Gt(&b.v) {
				r.v.SetOne()
			}
		}
		return r
	}
	one := func(k symKind) (sym, sym, bool) { // the k operand, the other
		switch {
		case a.kind == k:
			return a, b, true
		case b.kind == k:
			return b, a, true
		}
		return sym{}, sym{}, false
	}
	switch op {
	case opAdd:
		if _, _, ok := one(symHashed); ok {
			return sym{kind: symHashed} // an element or member past the hashed base
		}
	case opAnd:
		// An address mask (or any constant mask) keeps what was loaded.
		if s, o, ok := one(symStored); ok && o.kind == symConst {
			return s
		}
		if s, o, ok := one(symSelector); ok && o.kind == symConst {
			return s
		}
	case opDiv:
		// stored / 1 (solc's packed-slot read at offset 0); the selector
		// shifted down by a division (0x0100000000…).
		if a.kind == symStored && b.kind == symConst && b.v.IsUint64() && b.v.Uint64() == 1 {
			return a
		}
		if a.kind == symSelector && b.kind == symConst {
			return a
		}
	case opShr:
		if b.kind == symSelector && a.kind == symConst {
			return b
		}
	case opEQ:
		if _, o, ok := one(symSelector); ok && o.kind == symConst {
			return sym{kind: symSelEq}
		}
	case opXor, opSub:
		if _, o, ok := one(symSelector); ok && o.kind == symConst {
			return sym{kind: symSelNe}
		}
	}
	return sym{}
}
