package probe

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
)

// Scripted probes (issue 18): behaviours that take several steps in
// order — renounce then reclaim, list a wallet then compare its trade
// with an unlisted one's — run as eth_simulateV1 scripts: plain calls
// from the privileged addresses and throwaway wallets, in blocks whose
// state carries over (and whose time can move on, for a lock that opens
// later). They are more elements of the probes' batch, never another
// round trip, and need no Prober code. A node without eth_simulateV1
// leaves their facts nil (not established).

// scriptCall, scriptBlock and scriptOpts are eth_simulateV1's request.
type scriptCall struct {
	From  common.Address `json:"from"`
	To    common.Address `json:"to"`
	Gas   hexutil.Uint64 `json:"gas"`
	Input hexutil.Bytes  `json:"input"`
}

type scriptBlock struct {
	BlockOverrides map[string]any     `json:"blockOverrides,omitempty"`
	StateOverrides node.StateOverride `json:"stateOverrides,omitempty"`
	Calls          []scriptCall       `json:"calls"`
}

type scriptOpts struct {
	BlockStateCalls []scriptBlock `json:"blockStateCalls"`
	Validation      bool          `json:"validation"`
}

// scriptCallResult and scriptBlockResult are its answer.
type scriptCallResult struct {
	ReturnData hexutil.Bytes  `json:"returnData"`
	Status     hexutil.Uint64 `json:"status"`
	Error      *struct {
		Message string `json:"message"`
		Data    string `json:"data"`
	} `json:"error"`
}

type scriptBlockResult struct {
	Calls []scriptCallResult `json:"calls"`
}

const scriptCallGas = 1_000_000

// script is one eth_simulateV1 request being built.
type script struct {
	blocks []scriptBlock
	out    []scriptBlockResult
}

// ref names one call of a script: its block and index.
type ref struct{ block, call int }

// block opens a block (time 0: the node's default, 12 s after the
// previous one).
func (s *script) block(time uint64, ov node.StateOverride) {
	b := scriptBlock{StateOverrides: ov, Calls: []scriptCall{}}
	if time > 0 {
		b.BlockOverrides = map[string]any{"time": hexutil.Uint64(time)}
	}
	s.blocks = append(s.blocks, b)
}

// call adds a call to the last block.
func (s *script) call(from, to common.Address, input []byte) ref {
	b := &s.blocks[len(s.blocks)-1]
	b.Calls = append(b.Calls, scriptCall{From: from, To: to, Gas: scriptCallGas, Input: input})
	return ref{len(s.blocks) - 1, len(b.Calls) - 1}
}

func (s *script) elem() rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_simulateV1", Args: []any{scriptOpts{BlockStateCalls: s.blocks}, "latest"}, Result: &s.out}
}

// answered says the node ran the script as asked.
func (s *script) answered(el rpc.BatchElem) bool {
	if el.Error != nil || len(s.out) != len(s.blocks) {
		return false
	}
	for i, b := range s.out {
		if len(b.Calls) != len(s.blocks[i].Calls) {
			return false
		}
	}
	return true
}

func (s *script) result(r ref) scriptCallResult { return s.out[r.block].Calls[r.call] }

// ok says a call went through (and did not answer false).
func (s *script) ok(r ref) bool {
	c := s.result(r)
	return c.Status == 1 && !answeredFalse(c.ReturnData)
}

// word reads a call's answer as one number (nil: failed or empty).
func (s *script) word(r ref) *big.Int {
	c := s.result(r)
	if c.Status != 1 || len(c.ReturnData) < 32 {
		return nil
	}
	return new(big.Int).SetBytes(c.ReturnData[:32])
}

// ownerOf reads an owner() answer: the address, and whether it answered.
func (s *script) ownerOf(r ref) (common.Address, bool) {
	c := s.result(r)
	if c.Status != 1 || len(c.ReturnData) < 32 {
		return common.Address{}, false
	}
	return common.BytesToAddress(c.ReturnData[12:32]), true
}

func balanceOfInput(a common.Address) []byte {
	return append(bytecode.SelBalanceOf.Bytes(), addressWord(a)...)
}

func transferInput(to common.Address, amount *big.Int) []byte {
	return append(append(bytecode.SelTransfer.Bytes(), addressWord(to)...), common.LeftPadBytes(amount.Bytes(), 32)...)
}

// scriptWallet is a throwaway address of the scripts (hash-derived).
func scriptWallet(kind string, i int) common.Address {
	return common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.probe."+kind), big.NewInt(int64(i)).Bytes())[12:])
}

// creditOverride credits each wallet amount tokens in every balance
// mapping the code reads (solc's and vyper's layouts): nil when no
// balance mapping is known.
func creditOverride(req ProbeRequest, wallets []common.Address, amount *big.Int) node.StateOverride {
	if len(req.Code.Methods.BalanceSlots) == 0 || amount == nil || amount.Sign() <= 0 {
		return nil
	}
	diff := map[common.Hash]common.Hash{}
	word := common.BigToHash(amount)
	for _, w := range wallets {
		key := addressWord(w)
		for _, slot := range req.Code.Methods.BalanceSlots {
			sw := slot.Bytes32()
			diff[crypto.Keccak256Hash(key, sw[:])] = word
			diff[crypto.Keccak256Hash(sw[:], key)] = word
		}
	}
	return node.StateOverride{req.Token: {StateDiff: diff}}
}

// scriptCallers are the privileged addresses the scripts act from: the
// probes' callers without the control caller.
func scriptCallers(callers []probeCaller) []probeCaller {
	var out []probeCaller
	for _, c := range callers {
		if c.role != RoleAnyone && !holder.IsBurn(c.addr) {
			out = append(out, c)
		}
	}
	return out
}

// scriptCalls builds the scripted probes' elements and their decoder,
// which reads the same elements once the batch ran (answers copied back)
// and fills facts.
// The decoder returns the armed seizures, for the caller to merge once
// the probes' own verdicts are in the facts (mergeArmed).
func scriptCalls(req ProbeRequest, callers []probeCaller, sc scene) ([]rpc.BatchElem, func([]rpc.BatchElem, *analysis.EVMProbeFacts) []analysis.EVMCapability) {
	rc := newReclaimScripts(req, callers)
	lc := newListingScript(req, callers)
	ac := newArmedScripts(req, callers, sc)
	var elems []rpc.BatchElem
	elems = append(elems, rc.elems()...)
	nrc := len(elems)
	elems = append(elems, lc.elems()...)
	nlc := len(elems)
	elems = append(elems, ac.elems()...)
	return elems, func(answered []rpc.BatchElem, facts *analysis.EVMProbeFacts) []analysis.EVMCapability {
		if len(answered) != len(elems) {
			return nil
		}
		facts.Reclaim = rc.decode(answered[:nrc])
		facts.Whitelist, facts.PerAddressFee = lc.decode(answered[nrc:nlc])
		return ac.decode(answered[nlc:])
	}
}
