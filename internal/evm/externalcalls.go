package evm

import (
	"bytes"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
)

// The contracts a transfer calls (issue 18, external_call): where the
// code loads the callee from (method.Report.TransferCalls: a fixed
// storage slot, or an address written in the code), what that slot holds
// now (round trip 1 read the first slots; a later one rides round trip
// 3), whether the callee has code (round trip 3), and who can change it:
// the privileged callers whose probe pointed the transfers at another
// contract (probe's external_target proofs) with a function that writes
// that slot. No request of its own.

// externalCallReads is what round trip 3 reads for the transfer calls.
type externalCallReads struct {
	calls []analysis.EVMExternalCall
	// slots are the storage words read in round trip 3, by call index;
	// codes the callees' code, by call index.
	slots map[int]*hexutil.Bytes
	codes map[int]*hexutil.Bytes
	// setterSlots are, per call, the fixed slot (nil for a fixed callee).
	setterSlots []*uint256.Int
	elems       []rpc.BatchElem
	index       []int  // call index of each element
	isCode      []bool // element reads code (else a slot)
}

// externalCalls plans the reads of the transfer calls of code (the code
// that runs) into rt3; words are round trip 1's first storage slots.
func (r *scanRun) externalCalls(code bytecode.CodeReport, words map[uint64][]byte, rt3 *batchPlan) *externalCallReads {
	calls := code.Methods.TransferCalls
	x := &externalCallReads{slots: map[int]*hexutil.Bytes{}, codes: map[int]*hexutil.Bytes{}}
	seen := map[string]int{}
	rank := map[string]int{"staticcall": 0, "call": 1, "delegatecall": 2}
	for _, tc := range calls {
		e := analysis.EVMExternalCall{Kind: callKind(tc)}
		var key string
		switch {
		case tc.Code != nil:
			a := common.Address(tc.Code.Bytes20())
			if a == r.token {
				continue
			}
			e.Fixed = true
			e.ChangeableBy = []analysis.EVMCalleeChanger{}
			callee := a.Hex()
			e.Callee = &callee
			key = "code:" + callee
		default:
			slot := tc.Slot.Hex()
			e.Slot = &slot
			key = "slot:" + slot
		}
		if j, ok := seen[key]; ok {
			// The same callee called another way: the strongest kind.
			if rank[e.Kind] > rank[x.calls[j].Kind] {
				x.calls[j].Kind = e.Kind
			}
			continue
		}
		i := len(x.calls)
		seen[key] = i
		x.calls = append(x.calls, e)
		x.setterSlots = append(x.setterSlots, tc.Slot)
		if e.Fixed {
			x.readCode(i, common.HexToAddress(*e.Callee))
			continue
		}
		if tc.Slot.IsUint64() {
			if w, ok := words[tc.Slot.Uint64()]; ok {
				if a, ok := calleeIn(w); ok {
					callee := a.Hex()
					x.calls[i].Callee = &callee
					x.readCode(i, a)
				}
				continue
			}
		}
		out := new(hexutil.Bytes)
		x.slots[i] = out
		x.elems = append(x.elems, node.StorageElem(r.token, common.Hash(tc.Slot.Bytes32()), out))
		x.index, x.isCode = append(x.index, i), append(x.isCode, false)
	}
	rt3.add(x.elems)
	return x
}

func (x *externalCallReads) readCode(i int, a common.Address) {
	if a == (common.Address{}) {
		return
	}
	out := new(hexutil.Bytes)
	x.codes[i] = out
	x.elems = append(x.elems, node.CodeElem(a, out))
	x.index, x.isCode = append(x.index, i), append(x.isCode, true)
}

// facts fills what round trip 3 answered (sent: the node answered it)
// and who could change each callee, from the probes' proofs; a callee
// still unknown is null with a warning.
func (x *externalCallReads) facts(r *scanRun, code bytecode.CodeReport, probes *analysis.EVMProbeFacts, sent bool) []analysis.EVMExternalCall {
	if x.calls == nil {
		return []analysis.EVMExternalCall{}
	}
	for j, e := range x.elems {
		i := x.index[j]
		if !sent || e.Error != nil {
			continue
		}
		if x.isCode[j] {
			has := len(*x.codes[i]) > 0
			x.calls[i].CalleeHasCode = &has
			continue
		}
		if a, ok := calleeIn(*x.slots[i]); ok {
			callee := a.Hex()
			x.calls[i].Callee = &callee
		}
	}
	for i := range x.calls {
		c := &x.calls[i]
		if c.Callee == nil {
			r.warn("contract: transfers call the contract whose address slot %s holds, but that slot could not be read as an address; the callee is unknown", *c.Slot)
		}
		if c.Fixed {
			continue
		}
		c.ChangeableBy = changers(x.setterSlots[i], len(x.calls), code, probes)
	}
	return x.calls
}

// changers are the privileged callers whose probe pointed transfers at
// another contract with a function that writes slot (every such proof
// when the token calls one slot only and the function's writes are not
// known); nil when the probes did not run completely, or when none did
// and a guarded setter of slot was never given the test wallet (a
// contract that answers any call) as an address: an argument read as a
// number, a call that reverted, cannot show who changes the callee.
func changers(slot *uint256.Int, n int, code bytecode.CodeReport, probes *analysis.EVMProbeFacts) []analysis.EVMCalleeChanger {
	if probes == nil {
		return nil
	}
	out := []analysis.EVMCalleeChanger{}
	for _, c := range probes.Capabilities {
		if c.Name != bytecode.CapExternalTarget || c.Proven == nil || !*c.Proven || c.Role == probe.RoleAnyone {
			continue
		}
		writes := false
		if m, ok := code.Methods.Lookup(selectorOf(c.Selector)); ok && slot != nil {
			eq := func(w uint256.Int) bool { return w.Eq(slot) }
			writes = slices.ContainsFunc(m.Writes, eq) || slices.ContainsFunc(m.SetSlots, eq)
			if !m.Complete && n == 1 {
				writes = true
			}
		} else {
			writes = n == 1
		}
		if !writes {
			continue
		}
		// The evidence opens with the function: a signature, or a
		// selector and its inferred arguments.
		fn := c.Evidence
		if k := strings.IndexByte(fn, ')'); k > 0 {
			fn = fn[:k+1]
		}
		out = append(out, analysis.EVMCalleeChanger{Address: c.Caller, Role: c.Role, Function: fn})
	}
	if len(out) == 0 && (!probes.Complete || probes.Unprobed > 0) {
		return nil
	}
	if len(out) == 0 && slot != nil {
		for _, m := range code.Methods.Methods {
			sets := slices.ContainsFunc(m.SetSlots, func(w uint256.Int) bool { return w.Eq(slot) })
			if sets && !probes.CalledWithWallet[bytecode.Selector(m.Selector).String()] {
				return nil
			}
		}
	}
	return out
}

func selectorOf(hex string) [4]byte {
	var s [4]byte
	copy(s[:], common.FromHex(hex))
	return s
}

// calleeIn reads the address a storage word holds: the zero address for
// an empty word, else what probe.AddressesInWords recognises.
func calleeIn(w []byte) (common.Address, bool) {
	if len(bytes.Trim(w, "\x00")) == 0 {
		return common.Address{}, true
	}
	as := probe.AddressesInWords([][]byte{w})
	if len(as) != 1 {
		return common.Address{}, false
	}
	return as[0], true
}

func callKind(c method.TransferCall) string {
	switch {
	case c.Delegate:
		return "delegatecall"
	case c.Static:
		return "staticcall"
	}
	return "call"
}
