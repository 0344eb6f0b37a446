package method

import (
	"github.com/holiman/uint256"
)

// Opcodes the interpreter gives meaning to (the others only move the
// stack by their arity and push an unknown value).
const (
	opStop           = 0x00
	opAdd            = 0x01
	opMul            = 0x02
	opSub            = 0x03
	opDiv            = 0x04
	opSdiv           = 0x05
	opMod            = 0x06
	opSmod           = 0x07
	opAddmod         = 0x08
	opMulmod         = 0x09
	opExp            = 0x0a
	opSignextend     = 0x0b
	opLT             = 0x10
	opGT             = 0x11
	opSLT            = 0x12
	opSGT            = 0x13
	opEQ             = 0x14
	opIszero         = 0x15
	opAnd            = 0x16
	opOr             = 0x17
	opXor            = 0x18
	opNot            = 0x19
	opByte           = 0x1a
	opShl            = 0x1b
	opShr            = 0x1c
	opSar            = 0x1d
	opKeccak         = 0x20
	opAddress        = 0x30
	opOrigin         = 0x32
	opCaller         = 0x33
	opCallvalue      = 0x34
	opCalldataload   = 0x35
	opCalldatasize   = 0x36
	opCalldatacopy   = 0x37
	opMload          = 0x51
	opMstore         = 0x52
	opSload          = 0x54
	opSstore         = 0x55
	opJump           = 0x56
	opJumpi          = 0x57
	opJumpdest       = 0x5b
	opPush0          = 0x5f
	opPush1          = 0x60
	opPush32         = 0x7f
	opDup1           = 0x80
	opDup16          = 0x8f
	opSwap1          = 0x90
	opSwap16         = 0x9f
	opCall           = 0xf1
	opReturn         = 0xf3
	opDelegatecall   = 0xf4
	opStaticcall     = 0xfa
	opRevert         = 0xfd
	opInvalid        = 0xfe
	opSelfdestruct   = 0xff
	opReturndatasize = 0x3d
)

// stackArity is (pops, pushes) of the opcodes the interpreter treats
// generically; an opcode missing here ends the path (invalid).
var stackArity = func() [256][2]int8 {
	var a [256][2]int8
	for i := range a {
		a[i] = [2]int8{-1, -1}
	}
	set := func(ops []byte, pop, push int8) {
		for _, o := range ops {
			a[o] = [2]int8{pop, push}
		}
	}
	set([]byte{opAdd, opMul, opSub, opDiv, opSdiv, opMod, opSmod, opExp, opSignextend, opLT, opGT, opSLT, opSGT, opEQ,
		opAnd, opOr, opXor, opByte, opShl, opShr, opSar, opKeccak}, 2, 1)
	set([]byte{opAddmod, opMulmod}, 3, 1)
	set([]byte{opIszero, opNot, opCalldataload, opMload, opSload, 0x31 /*BALANCE*/, 0x3b /*EXTCODESIZE*/, 0x3f /*EXTCODEHASH*/, 0x40 /*BLOCKHASH*/, 0x49 /*BLOBHASH*/}, 1, 1)
	set([]byte{0x30, opOrigin, opCaller, opCallvalue, opCalldatasize, 0x38, 0x3a, opReturndatasize, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a, 0x58, 0x59, 0x5a, opPush0}, 0, 1)
	set([]byte{opMstore, 0x53 /*MSTORE8*/, opSstore, 0x5d /*TSTORE*/}, 2, 0)
	set([]byte{0x5c /*TLOAD*/}, 1, 1)
	set([]byte{opCalldatacopy, 0x39 /*CODECOPY*/, 0x3e /*RETURNDATACOPY*/, 0x5e /*MCOPY*/}, 3, 0)
	set([]byte{0x3c /*EXTCODECOPY*/}, 4, 0)
	set([]byte{0x50 /*POP*/}, 1, 0)
	set([]byte{0xa0}, 2, 0)
	set([]byte{0xa1}, 3, 0)
	set([]byte{0xa2}, 4, 0)
	set([]byte{0xa3}, 5, 0)
	set([]byte{0xa4}, 6, 0)
	set([]byte{0xf0 /*CREATE*/}, 3, 1)
	set([]byte{0xf5 /*CREATE2*/}, 4, 1)
	set([]byte{opCall, 0xf2 /*CALLCODE*/}, 7, 1)
	set([]byte{opDelegatecall, opStaticcall}, 6, 1)
	return a
}()

// calldataSize is what CALLDATASIZE answers: room for ten words of
// arguments, so the ABI decoder's length checks pass.
const calldataSize = 4 + 32*10

// path is one execution state.
type path struct {
	pc    int
	stack []*value
	mem   map[uint64]*value
	// guarded: a branch on msg.sender against stored state was passed.
	guarded bool
	// guard are the access checks passed: the fixed storage slots they
	// compared msg.sender with, and whether any compared it with
	// something else (a role mapping, an address in the code).
	guard guardInfo
	// mutates: the path wrote storage, called out or self-destructed.
	mutates bool
	// lossy: a loop was cut short, so a branch was not explored.
	lossy  bool
	writes []write
	// calls are the CALLs made on the path (recipient and native value).
	calls  []outCall
	visits map[int]int // JUMPI pc → times taken on this path
}

// outCall is one CALL on a path.
type outCall struct {
	to, value *value
}

func (p *path) fork() *path {
	q := &path{pc: p.pc, guarded: p.guarded, mutates: p.mutates, lossy: p.lossy}
	q.guard = guardInfo{slots: append([]uint256.Int(nil), p.guard.slots...), other: p.guard.other}
	q.stack = append([]*value(nil), p.stack...)
	q.mem = make(map[uint64]*value, len(p.mem))
	for k, v := range p.mem {
		q.mem[k] = v
	}
	q.writes = append([]write(nil), p.writes...)
	q.calls = append([]outCall(nil), p.calls...)
	q.visits = make(map[int]int, len(p.visits))
	for k, v := range p.visits {
		q.visits[k] = v
	}
	return q
}

func (p *path) pop() (*value, bool) {
	if len(p.stack) == 0 {
		return nil, false
	}
	v := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	return v, true
}

func (p *path) push(v *value) { p.stack = append(p.stack, v) }

// write is one SSTORE on a path.
type write struct {
	key, val *value
	guarded  bool
}

// ending is how a path ended.
type ending int

const (
	endStop ending = iota // STOP or RETURN: the call succeeds
	endRevert
	endBudget
	// endUnknown: the path reached what the interpreter cannot follow (a
	// jump to a computed target, a stack it lost track of).
	endUnknown
)

// observer receives what the interpreter sees, for argument typing.
type observer interface {
	op(op byte, args []*value, res *value)
	sload(key *value)
	end(p *path, how ending)
}

// program is decoded code: instructions by pc and the valid jump targets.
type program struct {
	code  []byte
	dests map[int]bool
	// pushes are the constants PUSH instructions push, by pc (values are
	// never mutated, so every path shares them).
	pushes map[int]*value
	// balance are the balance mapping's slots: a test of the caller's own
	// balance is not an access check.
	balance map[uint256.Int]bool
	// coin: CALLVALUE is symbolic (some coin may be sent) instead of 0.
	coin bool
}

// guardInfo is what one path's access checks compared msg.sender with.
type guardInfo struct {
	slots []uint256.Int
	other bool
}

// accessCheck reports whether a branch condition that depends on
// msg.sender tests it against stored state (an owner, an admin mapping)
// or an address in the code, rather than the caller's own balance, and
// what it compared the caller with. A mapping entry of the caller's own
// compared with an argument (a frozen or staked amount, a quota) is an
// amount check, not an access check.
func (pr *program) accessCheck(cond *value) (bool, guardInfo) {
	var caller, plain, role bool
	var g guardInfo
	var walk func(v *value, depth int)
	walk = func(v *value, depth int) {
		if v == nil || depth == 0 {
			return
		}
		switch v.op {
		case opCall, 0xf2, opDelegatecall, opStaticcall:
			return // a call's success flag (a payment to the caller) checks nobody
		case opCaller, opOrigin:
			if len(v.args) == 0 {
				caller = true
			}
			return
		case opSload:
			if len(v.args) != 1 {
				return
			}
			key := v.args[0]
			if k, slot, ok := key.mappingKey(); ok && pr.balance[*slot] && k.onlyCaller() {
				return // the caller's own balance
			}
			if key.argMask == 0 {
				switch {
				case key.taint&taintCaller != 0:
					role = true // a mapping keyed by the caller alone
				case key.isConst():
					plain = true
					g.slots = addSlot(g.slots, *key.c)
				default:
					plain = true
					g.other = true
				}
			}
			return
		}
		for _, a := range v.args {
			walk(a, depth-1)
		}
	}
	walk(cond, 12)
	if role && cond.argMask != 0 {
		role = false // the caller's own entry against an amount it chose
	}
	code := cond.hasAddressConst(6)
	ok := role || (caller && (plain || code))
	g.other = g.other || role || code
	return ok, g
}

func newProgram(code []byte) *program {
	p := &program{code: code, dests: map[int]bool{}, pushes: map[int]*value{}}
	for pc := 0; pc < len(code); pc++ {
		op := code[pc]
		if op == opJumpdest {
			p.dests[pc] = true
		}
		if op >= opPush1 && op <= opPush32 {
			n := int(op - opPush1 + 1)
			buf := make([]byte, n)
			copy(buf, code[pc+1:min(pc+1+n, len(code))])
			p.pushes[pc] = constant(new(uint256.Int).SetBytes(buf))
			pc += n
		}
	}
	return p
}

// limits bound one exploration.
type limits struct {
	steps     int // instructions over all paths
	paths     int // paths started
	loopTurns int // times one JUMPI may be taken on a path
	stack     int
}

var defaultLimits = limits{steps: 20_000, paths: 600, loopTurns: 3, stack: 1024}

// contractSteps bounds the instructions interpreted for one contract, over
// all its selectors (the analysis sits on the scan's critical path): the
// methods past it are left unexplored (incomplete, arguments unknown).
const contractSteps = 250_000

// explore runs code from pc 0 with the selector's call data, forking at
// every branch the symbolic state cannot decide. It reports whether the
// exploration ended within its limits.
func (pr *program) explore(sel [4]byte, lim limits, obs observer) (complete bool, steps int) {
	selWord := new(uint256.Int).SetBytes(sel[:])
	selWord.Lsh(selWord, 224)
	start := &path{mem: map[uint64]*value{}, visits: map[int]int{}}
	work := []*path{start}
	started := 1
	complete = true
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		for {
			if steps >= lim.steps {
				obs.end(p, endBudget)
				return false, steps
			}
			steps++
			forked, how, done := pr.step(p, selWord, obs)
			if forked != nil {
				if started < lim.paths {
					started++
					work = append(work, forked)
				} else {
					complete = false
				}
			}
			if done {
				obs.end(p, how)
				if how == endUnknown || p.lossy {
					complete = false
				}
				break
			}
			if len(p.stack) > lim.stack {
				obs.end(p, endBudget)
				complete = false
				break
			}
		}
	}
	return complete, steps
}

// step executes one instruction. It returns a second path when a branch
// forks, and done when the path ended.
func (pr *program) step(p *path, selWord *uint256.Int, obs observer) (*path, ending, bool) {
	if p.pc >= len(pr.code) {
		return nil, endStop, true
	}
	op := pr.code[p.pc]
	switch {
	case op >= opPush1 && op <= opPush32:
		p.push(pr.pushes[p.pc])
		p.pc += 1 + int(op-opPush1+1)
		return nil, 0, false
	case op >= opDup1 && op <= opDup16:
		n := int(op-opDup1) + 1
		if len(p.stack) < n {
			return nil, endUnknown, true
		}
		p.push(p.stack[len(p.stack)-n])
		p.pc++
		return nil, 0, false
	case op >= opSwap1 && op <= opSwap16:
		n := int(op-opSwap1) + 1
		if len(p.stack) < n+1 {
			return nil, endUnknown, true
		}
		top := len(p.stack) - 1
		p.stack[top], p.stack[top-n] = p.stack[top-n], p.stack[top]
		p.pc++
		return nil, 0, false
	}
	switch op {
	case opStop, opReturn:
		return nil, endStop, true
	case opSelfdestruct:
		p.mutates = true
		return nil, endStop, true
	case opRevert, opInvalid:
		return nil, endRevert, true
	case opJumpdest:
		p.pc++
		return nil, 0, false
	case opJump:
		dst, ok := p.pop()
		if !ok || !dst.isConst() {
			return nil, endUnknown, true
		}
		if !dst.c.IsUint64() || !pr.dests[int(dst.c.Uint64())] {
			return nil, endRevert, true
		}
		p.pc = int(dst.c.Uint64())
		return nil, 0, false
	case opJumpi:
		dst, ok1 := p.pop()
		cond, ok2 := p.pop()
		if !ok1 || !ok2 || !dst.isConst() {
			return nil, endUnknown, true
		}
		if !dst.c.IsUint64() || !pr.dests[int(dst.c.Uint64())] {
			// Taking the branch fails; not taking it goes on: old solc's
			// payable check jumps to 0 when coin was sent.
			if cond.isConst() && !cond.c.IsZero() {
				return nil, endRevert, true
			}
			p.pc++
			return nil, 0, false
		}
		target := int(dst.c.Uint64())
		if cond.isConst() {
			if cond.c.IsZero() {
				p.pc++
			} else {
				p.pc = target
			}
			return nil, 0, false
		}
		// A branch on msg.sender against stored state is an access check
		// (an owner, an admin mapping), not an allowance (its key holds
		// an argument).
		if cond.taint&taintCaller != 0 {
			if ok, g := pr.accessCheck(cond); ok {
				p.guarded = true
				for _, sl := range g.slots {
					p.guard.slots = addSlot(p.guard.slots, sl)
				}
				p.guard.other = p.guard.other || g.other
			}
		}
		p.visits[p.pc]++
		if p.visits[p.pc] > defaultLimits.loopTurns {
			p.lossy = true
			p.pc++ // leave the loop
			return nil, 0, false
		}
		q := p.fork()
		q.pc = target
		p.pc++
		return q, 0, false
	}
	ar := stackArity[op]
	if ar[0] < 0 {
		return nil, endRevert, true // undefined opcode
	}
	if len(p.stack) < int(ar[0]) {
		return nil, endUnknown, true
	}
	args := make([]*value, ar[0])
	for i := range args {
		args[i], _ = p.pop()
	}
	var res *value
	switch op {
	case opCalldataload:
		res = calldataload(args[0], selWord)
	case opPush0:
		res = constU64(0)
	case opCalldatasize:
		res = constU64(calldataSize)
	case opCallvalue:
		if pr.coin {
			res = derived(op)
			res.taint |= taintValue
		} else {
			res = constU64(0)
		}
	case opCaller, opOrigin:
		res = derived(op)
		res.taint |= taintCaller
	case opMload:
		if args[0].isConst() && args[0].c.IsUint64() {
			if v, ok := p.mem[args[0].c.Uint64()]; ok {
				res = v
			}
		}
		if res == nil {
			res = derived(op, args[0])
		}
	case opMstore:
		if args[0].isConst() && args[0].c.IsUint64() {
			off := args[0].c.Uint64()
			// Overlapping words are forgotten.
			for k := range p.mem {
				if k != off && k+32 > off && k < off+32 {
					delete(p.mem, k)
				}
			}
			p.mem[off] = args[1]
		}
	case opKeccak:
		res = keccak(p, args[0], args[1])
	case opSload:
		res = derived(op, args[0])
		res.taint |= taintLoad
		if args[0].argMask == 0 {
			res.taint |= taintPlainLoad
		}
		obs.sload(args[0])
	case opSstore:
		p.mutates = true
		p.writes = append(p.writes, write{key: args[0], val: args[1], guarded: p.guarded})
	case opCall, 0xf2, opDelegatecall, 0xf0, 0xf5:
		p.mutates = true
		res = derived(op, args...)
		if op == opCall {
			p.calls = append(p.calls, outCall{to: args[1], value: args[2]})
		}
	default:
		if ar[1] == 1 {
			res = fold(op, args)
		}
	}
	if res != nil && ar[1] == 1 {
		obs.op(op, args, res)
		p.push(res)
	}
	p.pc++
	return nil, 0, false
}

// calldataload gives the word at a call data offset: the selector word at
// 0, argument k at 4+32k, else a load whose offset an argument decides (a
// dynamic argument's length or element).
func calldataload(off *value, selWord *uint256.Int) *value {
	if off.isConst() {
		if off.c.IsZero() {
			return constant(new(uint256.Int).Set(selWord))
		}
		if off.c.IsUint64() {
			o := off.c.Uint64()
			if o >= 4 && (o-4)%32 == 0 && (o-4)/32 < 64 {
				k := int((o - 4) / 32)
				v := &value{op: opCalldataload, arg: k, elemOf: -1, argMask: 1 << k}
				return v
			}
		}
		return &value{op: opCalldataload, arg: -1, elemOf: -1}
	}
	v := derived(opCalldataload, off)
	for k := 0; k < 64; k++ {
		if off.argMask&(1<<k) != 0 {
			v.elemOf = k
			break
		}
	}
	return v
}

// keccak hashes memory words it knows, 32 bytes at a time.
func keccak(p *path, off, size *value) *value {
	if off.isConst() && size.isConst() && off.c.IsUint64() && size.c.IsUint64() {
		o, n := off.c.Uint64(), size.c.Uint64()
		if n > 0 && n%32 == 0 && n <= 32*4 {
			words := make([]*value, 0, n/32)
			for i := uint64(0); i < n; i += 32 {
				w, ok := p.mem[o+i]
				if !ok {
					w = derived(opMload, constU64(o+i))
				}
				words = append(words, w)
			}
			v := derived(opKeccak, words...)
			v.taint |= taintHash
			return v
		}
	}
	v := derived(opKeccak, off, size)
	v.taint |= taintHash
	return v
}

// fold computes constant operations and builds symbolic ones.
func fold(op byte, a []*value) *value {
	allConst := len(a) > 0
	for _, x := range a {
		allConst = allConst && x.isConst()
	}
	if !allConst {
		// Identities that keep values readable: x+0, x*1, x&ones.
		if op == opAnd && len(a) == 2 {
			if a[0].isConst() && a[0].c.Eq(ones256) {
				return a[1]
			}
			if a[1].isConst() && a[1].c.Eq(ones256) {
				return a[0]
			}
		}
		return derived(op, a...)
	}
	x := a[0].c
	r := new(uint256.Int)
	switch op {
	case opAdd:
		r.Add(x, a[1].c)
	case opMul:
		r.Mul(x, a[1].c)
	case opSub:
		r.Sub(x, a[1].c)
	case opDiv:
		r.Div(x, a[1].c)
	case opSdiv:
		r.SDiv(x, a[1].c)
	case opMod:
		r.Mod(x, a[1].c)
	case opSmod:
		r.SMod(x, a[1].c)
	case opAddmod:
		r.AddMod(x, a[1].c, a[2].c)
	case opMulmod:
		r.MulMod(x, a[1].c, a[2].c)
	case opExp:
		r.Exp(x, a[1].c)
	case opSignextend:
		r.ExtendSign(a[1].c, x)
	case opLT:
		setBool(r, x.Lt(a[1].c))
	case opGT:
		setBool(r, x.Gt(a[1].c))
	case opSLT:
		setBool(r, x.Slt(a[1].c))
	case opSGT:
		setBool(r, x.Sgt(a[1].c))
	case opEQ:
		setBool(r, x.Eq(a[1].c))
	case opIszero:
		setBool(r, x.IsZero())
	case opAnd:
		r.And(x, a[1].c)
	case opOr:
		r.Or(x, a[1].c)
	case opXor:
		r.Xor(x, a[1].c)
	case opNot:
		r.Not(x)
	case opByte:
		r.Set(a[1].c)
		r.Byte(x)
	case opShl:
		if x.LtUint64(256) {
			r.Lsh(a[1].c, uint(x.Uint64()))
		}
	case opShr:
		if x.LtUint64(256) {
			r.Rsh(a[1].c, uint(x.Uint64()))
		}
	case opSar:
		if x.LtUint64(256) {
			r.SRsh(a[1].c, uint(x.Uint64()))
		} else if a[1].c.Sign() < 0 {
			r.SetAllOne()
		}
	default:
		return derived(op, a...)
	}
	return constant(r)
}

var ones256 = new(uint256.Int).SetAllOne()

func setBool(r *uint256.Int, b bool) {
	if b {
		r.SetOne()
	}
}
