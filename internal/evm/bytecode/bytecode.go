package bytecode

import (
	"bytes"
	"github.com/tokenrisk/tokenrisk/internal/codeprint"
	"sort"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// Opcodes the bytecode walk cares about.
const (
	opStop         = 0x00
	opSub          = 0x03
	opLT           = 0x10
	opGT           = 0x11
	opEQ           = 0x14
	opXor          = 0x18
	opShl          = 0x1b
	opSload        = 0x54
	opJump         = 0x56
	opJumpdest     = 0x5b
	opPush1        = 0x60
	opPush3        = 0x62
	opPush4        = 0x63
	opPush20       = 0x73
	opPush32       = 0x7f
	opCall         = 0xf1
	opCallcode     = 0xf2
	opReturn       = 0xf3
	opDelegatecall = 0xf4
	opStaticcall   = 0xfa
	opRevert       = 0xfd
	opInvalid      = 0xfe
	opSelfdestruct = 0xff
)

// storageCallWindow is how many instructions after an address loaded from
// storage a CALL still counts as calling that stored address.
const storageCallWindow = 120

// PrivilegedMatch is a dispatcher selector that matches the catalogue.
type PrivilegedMatch struct {
	Selector   Selector
	Signature  string
	Capability string
}

// CodeReport is what static analysis of runtime bytecode establishes.
type CodeReport struct {
	// Size is the code length in bytes.
	Size int
	// Selectors are the function selectors the dispatcher compares
	// against, sorted and unique (a generous superset).
	Selectors []Selector
	// Privileged are the selectors that match the privileged catalogue.
	Privileged []PrivilegedMatch
	// Reachable opcodes of interest (metadata and dead code skipped).
	HasSelfdestruct bool
	HasDelegatecall bool
	HasCallcode     bool
	// StorageTargetCall: a CALL/STATICCALL whose target address is loaded
	// from storage shortly before (a settable target, when a setter exists).
	StorageTargetCall bool
	// StorageTargetDelegatecall: the same for DELEGATECALL/CALLCODE.
	StorageTargetDelegatecall bool
	// MinimalProxyTarget is the EIP-1167 clone target, when the code is one.
	MinimalProxyTarget *common.Address
	// DelegateSlot is the constant storage slot whose address the
	// fallback DELEGATECALLs to (DelegateSlot), when it does;
	// DelegateSlotWritten whether the code may write that slot
	// (WritesSlot).
	DelegateSlot        *common.Hash
	DelegateSlotWritten bool
	// Methods is what each non-standard selector's code does: its
	// argument types, balance and supply writes, caller checks.
	Methods method.Report
	// Print fingerprints the code for its twins (zero for an EIP-1167
	// clone: the target's code is the one that runs).
	Print codeprint.Print
}

// HasSelector reports whether the dispatcher compares against s.
func (r CodeReport) HasSelector(s Selector) bool {
	i := sort.Search(len(r.Selectors), func(i int) bool { return bytes.Compare(r.Selectors[i][:], s[:]) >= 0 })
	return i < len(r.Selectors) && r.Selectors[i] == s
}

// Capabilities returns the distinct catalogue capabilities found.
func (r CodeReport) Capabilities() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range r.Privileged {
		if !seen[m.Capability] {
			seen[m.Capability] = true
			out = append(out, m.Capability)
		}
	}
	sort.Strings(out)
	return out
}

// instruction is one decoded opcode with its push data.
type instruction struct {
	pc   int
	op   byte
	data []byte
}

// decode walks code opcode by opcode, skipping PUSH data; a truncated
// final PUSH keeps the bytes that exist.
func decode(code []byte) []instruction {
	out := make([]instruction, 0, len(code)/2)
	for pc := 0; pc < len(code); {
		op := code[pc]
		in := instruction{pc: pc, op: op}
		next := pc + 1
		if op >= opPush1 && op <= opPush32 {
			n := int(op-opPush1) + 1
			end := min(next+n, len(code))
			in.data = code[next:end]
			next = next + n
		}
		out = append(out, in)
		pc = next
	}
	return out
}

// stripMetadata removes solc's CBOR metadata trailer (its length is the
// last two bytes) so that its bytes are not read as opcodes.
func stripMetadata(code []byte) []byte {
	if len(code) < 4 {
		return code
	}
	n := int(code[len(code)-2])<<8 | int(code[len(code)-1])
	start := len(code) - 2 - n
	if n == 0 || start < 0 {
		return code
	}
	// A CBOR map header (0xa1..0xa5 entries) opens solc's metadata.
	if h := code[start]; h >= 0xa1 && h <= 0xa5 {
		return code[:start]
	}
	return code
}

// eip1167Prefix and eip1167Suffix frame an EIP-1167 minimal proxy's target
// (PUSHn <target> between them; vanity clones push fewer than 20 bytes).
var (
	eip1167Prefix = []byte{0x36, 0x3d, 0x3d, 0x37, 0x3d, 0x3d, 0x3d, 0x36, 0x3d}
	eip1167Suffix = []byte{0x5a, 0xf4, 0x3d, 0x82, 0x80, 0x3e, 0x90, 0x3d, 0x91}
)

// MinimalProxyTarget returns the clone target of an EIP-1167 minimal proxy.
func MinimalProxyTarget(code []byte) (common.Address, bool) {
	if !bytes.HasPrefix(code, eip1167Prefix) || len(code) < len(eip1167Prefix)+1 {
		return common.Address{}, false
	}
	op := code[len(eip1167Prefix)]
	if op < opPush1 || op > opPush20 {
		return common.Address{}, false
	}
	n := int(op-opPush1) + 1
	start := len(eip1167Prefix) + 1
	if len(code) < start+n+len(eip1167Suffix) || !bytes.HasPrefix(code[start+n:], eip1167Suffix) {
		return common.Address{}, false
	}
	return common.BytesToAddress(code[start : start+n]), true
}

// AnalyseCode statically analyses runtime bytecode: dispatcher selectors,
// catalogue matches, reachable dangerous opcodes, calls to storage-loaded
// targets and EIP-1167 clones. It is pure and never panics.
func AnalyseCode(code []byte) CodeReport {
	r := CodeReport{Size: len(code)}
	if t, ok := MinimalProxyTarget(code); ok {
		r.MinimalProxyTarget = &t
		r.HasDelegatecall = true
		return r
	}
	r.Print = codeprint.Of(code)
	ins := decode(stripMetadata(code))
	selectors := map[Selector]bool{}
	reachable := true
	lastStorageAddr := -1 // index of the last address loaded from storage
	for i, in := range ins {
		if in.op == opJumpdest {
			reachable = true
		}
		if !reachable {
			continue
		}
		switch {
		case in.op == opPush4 || in.op == opPush3:
			if s, ok := comparedSelector(ins, i); ok {
				selectors[s] = true
			}
		case in.op == opSload:
			if loadsAddress(ins, i) {
				lastStorageAddr = i
			}
		case in.op == opSelfdestruct:
			r.HasSelfdestruct = true
		case in.op == opDelegatecall || in.op == opCallcode:
			if in.op == opDelegatecall {
				r.HasDelegatecall = true
			} else {
				r.HasCallcode = true
			}
			if lastStorageAddr >= 0 && i-lastStorageAddr <= storageCallWindow {
				r.StorageTargetDelegatecall = true
			}
		case in.op == opCall || in.op == opStaticcall:
			if lastStorageAddr >= 0 && i-lastStorageAddr <= storageCallWindow {
				r.StorageTargetCall = true
			}
		}
		switch in.op {
		case opStop, opReturn, opRevert, opInvalid, opSelfdestruct, opJump:
			reachable = false
		}
	}
	if r.HasDelegatecall || r.HasCallcode {
		if s, ok := DelegateSlot(code); ok {
			r.DelegateSlot = &s
			r.DelegateSlotWritten = WritesSlot(code, s)
		}
	}
	for s := range selectors {
		r.Selectors = append(r.Selectors, s)
	}
	sort.Slice(r.Selectors, func(i, j int) bool { return bytes.Compare(r.Selectors[i][:], r.Selectors[j][:]) < 0 })
	var custom [][4]byte
	for _, s := range r.Selectors {
		for _, p := range LookupPrivileged(s) {
			r.Privileged = append(r.Privileged, PrivilegedMatch{Selector: s, Signature: p.Signature, Capability: p.Capability})
		}
		if !IsStandard(s) {
			custom = append(custom, s)
		}
	}
	r.Methods = method.Analyse(code, custom)
	return r
}

// comparedSelector reports whether the PUSH3/PUSH4 at i is compared (EQ,
// GT, LT, XOR, SUB within the next three instructions) as dispatchers do:
// solc's `DUP1 PUSH4 s EQ`, via-IR's `PUSH4 s DUP2 EQ`, solc's binary
// search `PUSH4 s GT`, vyper's `PUSH4 s XOR`.
func comparedSelector(ins []instruction, i int) (Selector, bool) {
	var s Selector
	d := ins[i].data
	if len(d) != int(ins[i].op-opPush1)+1 {
		return s, false // truncated push
	}
	copy(s[4-len(d):], d)
	if s == (Selector{}) || s == (Selector{0xff, 0xff, 0xff, 0xff}) {
		return s, false
	}
	for j := i + 1; j < len(ins) && j <= i+3; j++ {
		switch ins[j].op {
		case opEQ, opGT, opLT, opXor, opSub:
			return s, true
		case opJumpdest, opJump, opStop, opReturn, opRevert:
			return s, false
		}
	}
	return s, false
}

// loadsAddress reports whether the SLOAD at i is masked to an address
// within the next few instructions (PUSH20 0xff…ff AND, or the
// `1 << 160 - 1` mask built with SHL/SUB, then AND).
func loadsAddress(ins []instruction, i int) bool {
	shl := false
	for j := i + 1; j < len(ins) && j <= i+8; j++ {
		in := ins[j]
		switch {
		case in.op == opPush20 && len(in.data) == 20 && bytes.Count(in.data, []byte{0xff}) == 20:
			return true
		case in.op == opPush1 && len(in.data) == 1 && in.data[0] == 0xa0:
			shl = true
		case in.op == opShl && shl:
			return true
		case in.op == opSload, in.op == opJumpdest:
			return false
		}
	}
	return false
}
