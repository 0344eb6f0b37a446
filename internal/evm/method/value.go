package method

import "github.com/holiman/uint256"

// value is one symbolic stack or memory word: a constant, or the opcode
// that produced it over its operands. Taint bits are computed once, when
// the value is built, so that questions about a long expression stay cheap.
type value struct {
	op   byte
	c    *uint256.Int // constant (op == 0)
	args []*value
	// arg is the calldata argument a CALLDATALOAD at a constant offset
	// reads (-1 otherwise); elemOf the dynamic argument whose data a
	// CALLDATALOAD at a computed offset reads (-1 otherwise).
	arg, elemOf int
	// args is the bit set of arguments the value depends on.
	argMask uint64
	taint   uint8
}

const (
	taintCaller    uint8 = 1 << iota // depends on CALLER (or ORIGIN)
	taintPlainLoad                   // depends on an SLOAD whose key no argument decides
	taintLoad                        // depends on any SLOAD
	taintHash                        // depends on a KECCAK256
	taintValue                       // depends on CALLVALUE (the native coin sent)
)

func constant(c *uint256.Int) *value { return &value{c: c, arg: -1, elemOf: -1} }

func constU64(n uint64) *value { return constant(uint256.NewInt(n)) }

// derived builds the value op computes from args, inheriting their taint.
func derived(op byte, args ...*value) *value {
	v := &value{op: op, args: args, arg: -1, elemOf: -1}
	for _, a := range args {
		if a == nil {
			continue
		}
		v.argMask |= a.argMask
		v.taint |= a.taint
	}
	return v
}

func (v *value) isConst() bool { return v != nil && v.c != nil }

// isArg reports whether v is calldata argument k as loaded (before any
// operation).
func (v *value) isArg() (int, bool) {
	if v == nil || v.op != opCalldataload || v.arg < 0 {
		return 0, false
	}
	return v.arg, true
}

// onlyCaller reports whether v is msg.sender (or a value of it alone).
func (v *value) onlyCaller() bool {
	return v != nil && v.taint&taintCaller != 0 && v.argMask == 0 && v.taint&taintLoad == 0
}

// mappingKey splits a KECCAK256 over two words (key . slot) into its key
// and a constant slot, as solc and vyper lay out mapping(k => v).
func (v *value) mappingKey() (key *value, slot *uint256.Int, ok bool) {
	if v == nil || v.op != opKeccak || len(v.args) != 2 {
		return nil, nil, false
	}
	switch {
	case v.args[1].isConst():
		return v.args[0], v.args[1].c, true
	case v.args[0].isConst(): // vyper: keccak(slot . key)
		return v.args[1], v.args[0].c, true
	}
	return nil, nil, false
}

// hasAddressConst reports whether v compares against a constant that
// looks like an address (an immutable owner), within a few levels.
func (v *value) hasAddressConst(depth int) bool {
	if v == nil || depth == 0 {
		return false
	}
	if v.isConst() {
		return v.c.BitLen() > 120 && v.c.BitLen() <= 160 && !v.c.Eq(mask160)
	}
	for _, a := range v.args {
		if a.hasAddressConst(depth - 1) {
			return true
		}
	}
	return false
}

// refersTo reports whether v reads the storage word at key (SLOAD of an
// equal key) within a few levels of arithmetic.
func (v *value) refersTo(key *value, depth int) bool {
	if v == nil || depth == 0 {
		return false
	}
	if v.op == opSload && len(v.args) == 1 && sameValue(v.args[0], key, 6) {
		return true
	}
	for _, a := range v.args {
		if a.refersTo(key, depth-1) {
			return true
		}
	}
	return false
}

// sameValue compares two values structurally, to a depth.
func sameValue(a, b *value, depth int) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || depth == 0 {
		return false
	}
	if a.isConst() || b.isConst() {
		return a.isConst() && b.isConst() && a.c.Eq(b.c)
	}
	if a.op != b.op || a.arg != b.arg || len(a.args) != len(b.args) {
		return false
	}
	if len(a.args) == 0 {
		return a.op == opCaller || a.op == opOrigin || (a.op == opCalldataload && a.arg >= 0)
	}
	for i := range a.args {
		if !sameValue(a.args[i], b.args[i], depth-1) {
			return false
		}
	}
	return true
}

// plainLoads returns the fixed storage slots v reads (SLOAD of a constant
// key) within a few levels of arithmetic.
func (v *value) plainLoads(depth int) []uint256.Int {
	if v == nil || depth == 0 {
		return nil
	}
	if v.op == opSload && len(v.args) == 1 && v.args[0].isConst() {
		return []uint256.Int{*v.args[0].c}
	}
	var out []uint256.Int
	for _, a := range v.args {
		out = append(out, a.plainLoads(depth-1)...)
	}
	return out
}

// isSelf reports whether v is the contract's own address (ADDRESS, masked
// to 160 bits or not).
func (v *value) isSelf(depth int) bool {
	if v == nil || depth == 0 {
		return false
	}
	if v.op == opAddress && len(v.args) == 0 && !v.isConst() {
		return true
	}
	if v.op == opAnd && len(v.args) == 2 {
		for i := range 2 {
			if v.args[i].isConst() && v.args[i].c.Eq(mask160) {
				return v.args[1-i].isSelf(depth - 1)
			}
		}
	}
	return false
}
