// Package codeprint fingerprints EVM runtime bytecode so that the same
// contract deployed again reads as the same code: the CBOR metadata
// trailer compilers append (solc, vyper) is cut off, embedded solc
// metadata of child contracts is masked, and every PUSH operand is
// dropped (immutables written into the code at deploy, embedded addresses,
// constants, jump targets that move with them), leaving the opcode
// skeleton. A second fingerprint covers the dispatcher: the sorted set of
// selectors the code compares calldata against.
//
// The algorithm is a stored contract: fingerprints are kept with the
// history of scans and compared with later ones, so it is versioned
// (the "cp1_" and "ds1_" prefixes) and never shares code with the
// bytecode analyses, whose heuristics may change. A change here needs a
// new version prefix.
package codeprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// Version prefixes of the two fingerprints.
const (
	CodePrefix       = "cp1_"
	DispatcherPrefix = "ds1_"
)

// Print is the pair of fingerprints of one runtime code.
type Print struct {
	// Code is the skeleton fingerprint: "cp1_" and 32 hex digits, "" for
	// empty code.
	Code string
	// Dispatcher is the selector-set fingerprint: "ds1_" and 32 hex
	// digits, "" when the code compares against no selector.
	Dispatcher string
	// Selectors is how many selectors the dispatcher compares against.
	Selectors int
	// Trailer is the length of the metadata trailer cut off (0 when
	// none was recognised); Masked the bytes of embedded metadata masked.
	Trailer, Masked int
}

// IsZero reports whether p fingerprints nothing (empty code).
func (p Print) IsZero() bool { return p.Code == "" }

// EVM opcodes the walk needs.
const (
	opEQ      = 0x14
	opXOR     = 0x18
	opPush0   = 0x5f
	opPush1   = 0x60
	opPush3   = 0x62
	opPush4   = 0x63
	opPush32  = 0x7f
	opInvalid = 0xfe
)

// selectorWindow is how many instructions after a PUSH4 the dispatcher's
// comparison may come: solc's `DUP1 PUSH4 s EQ`, via-IR's `PUSH4 s DUP2
// EQ`, vyper's `PUSH4 s DUP2 XOR`.
const selectorWindow = 2

// Of fingerprints runtime code. It is pure, linear in len(code) and never
// panics, whatever the bytes.
func Of(code []byte) Print {
	var p Print
	if len(code) == 0 {
		return p
	}
	body, trailer := cutTrailer(code)
	p.Trailer = trailer
	body, p.Masked = maskEmbedded(body)

	skeleton := make([]byte, 0, len(body))
	var selectors [][4]byte
	// pending is a candidate selector waiting for its comparison, and
	// how many instructions it may still wait.
	var pending [4]byte
	wait := 0
	for pc := 0; pc < len(body); {
		op := body[pc]
		pc++
		if op >= opPush0 && op <= opPush32 {
			// One token for every push: operands and their widths change
			// with the values deployed (an address with a leading zero
			// byte is pushed one byte shorter).
			skeleton = append(skeleton, opPush0)
			n := int(op) - opPush0
			if (op == opPush4 || op == opPush3) && pc+n <= len(body) {
				var s [4]byte
				copy(s[4-n:], body[pc:pc+n])
				if s != ([4]byte{}) && s != ([4]byte{0xff, 0xff, 0xff, 0xff}) {
					pending, wait = s, selectorWindow+1
				}
			}
			pc += n
		} else {
			skeleton = append(skeleton, op)
			if wait > 0 && (op == opEQ || op == opXOR) {
				selectors = append(selectors, pending)
				wait = 0
			}
		}
		if wait > 0 {
			wait--
		}
	}
	sum := sha256.Sum256(skeleton)
	p.Code = CodePrefix + hex.EncodeToString(sum[:16])
	if len(selectors) > 0 {
		slices.SortFunc(selectors, func(a, b [4]byte) int { return bytes.Compare(a[:], b[:]) })
		selectors = slices.Compact(selectors)
		p.Selectors = len(selectors)
		h := sha256.New()
		for _, s := range selectors {
			h.Write(s[:])
		}
		p.Dispatcher = DispatcherPrefix + hex.EncodeToString(h.Sum(nil)[:16])
	}
	return p
}

// cutTrailer removes the CBOR metadata trailer compilers append to
// runtime code: a CBOR map or array whose byte length is the code's last
// two bytes. The trailer is cut only when those bytes are exactly one
// well-formed CBOR map or array, so ordinary code ending in two bytes
// that happen to read as a length keeps them.
func cutTrailer(code []byte) ([]byte, int) {
	if len(code) < 3 {
		return code, 0
	}
	n := int(code[len(code)-2])<<8 | int(code[len(code)-1])
	start := len(code) - 2 - n
	if n == 0 || start < 0 {
		return code, 0
	}
	meta := code[start : len(code)-2]
	if major := meta[0] >> 5; major != 4 && major != 5 { // array or map
		return code, 0
	}
	if end, ok := cborItem(meta, 0, 0); !ok || end != len(meta) {
		return code, 0
	}
	return code[:start], n + 2
}

// embeddedKeys open the metadata solc appends to every contract's code,
// so also to the code of a child contract a token creates (`new`), which
// sits inside the parent's runtime: the text keys "ipfs" and "bzzr0"/
// "bzzr1" right after the map header.
var embeddedKeys = [][]byte{
	{0x64, 'i', 'p', 'f', 's'},
	{0x65, 'b', 'z', 'z', 'r'},
}

// maskEmbedded replaces each embedded solc metadata blob (a CBOR map
// opening with an embeddedKeys key, followed by its own two-byte length)
// with one INVALID byte: a child's metadata hash changes with its source
// like the parent's does. It returns body itself when nothing is masked.
func maskEmbedded(body []byte) ([]byte, int) {
	var out []byte
	masked, from := 0, 0 // from: where the bytes not yet copied start
	for i := 1; i < len(body); {
		j := nextKey(body[i:])
		if j < 0 {
			break
		}
		at := i + j - 1 // the map header before the key
		i += j + 1
		if body[at]>>5 != 5 {
			continue
		}
		end, ok := cborItem(body, at, 0)
		if !ok || end+2 > len(body) || int(body[end])<<8|int(body[end+1]) != end-at {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(body))
		}
		out = append(append(out, body[from:at]...), opInvalid)
		masked += end + 2 - at
		from = end + 2
		i = from + 1
	}
	if out == nil {
		return body, 0
	}
	return append(out, body[from:]...), masked
}

// nextKey returns the index of the first embeddedKeys key in b, or -1.
func nextKey(b []byte) int {
	first := -1
	for _, key := range embeddedKeys {
		if j := bytes.Index(b, key); j >= 0 && (first < 0 || j < first) {
			first = j
		}
	}
	return first
}
