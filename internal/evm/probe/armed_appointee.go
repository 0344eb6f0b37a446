package probe

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// The appointee's other powers (issue 18, every field): once a
// privileged caller has appointed probeAppointee with every address
// setter (armed.go), the appointee tries to create tokens and to stop a
// holder's transfers, in blocks of the same script (no new request).
// What it proves is the appointing caller's power, in two steps; what
// the control caller can do after the same appointment is anyone's.
//
//   - mint: the control caller, then the appointee, call each function
//     of an address and an amount with themselves and one unit; the
//     appointee credited that unit, with the total supply rising by it or
//     no watched balance (top holders, the pool, the callers, the token
//     contract) falling, is a mint, unless the control caller was
//     credited too;
//   - blacklist: the holder sends a fresh wallet some units and the
//     fresh wallet passes one on (both must work); the control caller
//     calls each function of an address (or an address and a bool, with
//     true) with the holder, and the holder's next transfer must still
//     work; then the appointee calls them one by one, each followed by a
//     transfer of the holder's and one of the fresh wallet's: the
//     holder's failing while the fresh wallet's works is a block of that
//     holder (a transfer every wallet fails is no blacklist).
//
// Bounds: at most maxArmMinters and maxArmBlockers functions. A script
// adds at most maxArmMinters×(8+2×watched) = 152 calls in one block
// (watched <= 12 + the token + maxArmCallers = 15) and 2 + (maxArmBlockers
// + 1) + maxArmBlockers×3 = 19 calls in 2 + maxArmBlockers blocks; with
// the seizure tries' 91 calls, at most 262 calls in 8 blocks a script,
// each call capped at scriptCallGas (reads cost ~25k gas: a block stays
// far below a block gas limit), and at most maxArmCallers scripts a scan
// (391 calls in 10 blocks with the amount tries of armed_amount.go).

const (
	maxArmMinters  = 4
	maxArmBlockers = 4
	// armedSeed is what the holder sends the fresh wallet before the
	// block tries: enough for each of its one-unit transfers, after a fee.
	armedSeed = 1000
)

// Throwaway wallets of the block tries: the fresh wallet the holder
// sends to, and the one it passes units on to.
var (
	blockSink  = scriptWallet("twostep.sink", 0)
	blockOther = scriptWallet("twostep.sink", 1)
)

// blockerCall is a function that may stop one holder's transfers: of an
// address, or of an address and a bool (called with true).
type blockerCall struct {
	sel  bytecode.Selector
	flag bool
}

func (b blockerCall) input(holder common.Address) []byte {
	in := append(b.sel.Bytes(), addressWord(holder)...)
	if b.flag {
		in = append(in, numWord(1)...)
	}
	return in
}

// appointeeCandidates are the functions the appointee tries: of an
// address and an amount (minters), of an address or an address and a
// bool (blockers); each with a caller check on some path and writing a
// mapping entry (a balance, a per-holder record), or not fully
// explored. A path the exploration reads as unchecked does not exclude
// a function (a check after a zero test of the stored address reads
// so): the control caller's tries tell what anyone can do. A function
// that stores its address in a fixed slot names a role (an owner, a
// controller): called with the holder it hands the holder that role,
// and whatever the role's own transfers then do is no block of a
// holder, so it is no blocker.
func appointeeCandidates(req ProbeRequest) ([]bytecode.Selector, []blockerCall) {
	var minters []bytecode.Selector
	var blockers []blockerCall
	for _, m := range req.Code.Methods.Methods {
		s := bytecode.Selector(m.Selector)
		if bytecode.IsStandard(s) || readOnly(req.Code, s) {
			continue
		}
		if m.Complete && (!m.Guarded || !m.MapWrites) {
			continue
		}
		k := func(i int) method.Kind { return m.Args[i].Kind }
		switch {
		case len(m.Args) == 2 && k(0) == method.Address && k(1) == method.Uint && len(minters) < maxArmMinters:
			minters = append(minters, s)
		case len(m.SetSlots) > 0 || len(blockers) >= maxArmBlockers:
		case len(m.Args) == 1 && k(0) == method.Address:
			blockers = append(blockers, blockerCall{sel: s})
		case len(m.Args) == 2 && k(0) == method.Address && k(1) == method.Bool:
			blockers = append(blockers, blockerCall{sel: s, flag: true})
		}
	}
	return minters, blockers
}

// mintTry is one function's mint try: the control caller's call to
// itself, then the appointee's, the balances read either side.
type mintTry struct {
	sel                          bytecode.Selector
	ctrlBefore, ctrlCall, ctrlAf ref
	supplyBefore, supply         ref
	before, call, after          ref
	watchBefore, watchAfter      []ref
}

// addMintTries adds the mint tries to s, in a block of their own.
func (as *armedScript) addMintTries(s *script, req ProbeRequest, sc scene, privileged []probeCaller) []mintTry {
	if len(as.minters) == 0 {
		return nil
	}
	watched := mintWatch(req, sc, privileged)
	s.block(0, nil)
	var out []mintTry
	for _, sel := range as.minters {
		in := func(to common.Address) []byte {
			return append(append(sel.Bytes(), addressWord(to)...), numWord(armedUnit)...)
		}
		tr := mintTry{sel: sel}
		tr.ctrlBefore = s.call(ProbeAnyone, req.Token, balanceOfInput(ProbeAnyone))
		tr.ctrlCall = s.call(ProbeAnyone, req.Token, in(ProbeAnyone))
		tr.ctrlAf = s.call(ProbeAnyone, req.Token, balanceOfInput(ProbeAnyone))
		tr.supplyBefore = s.call(ProbeAnyone, req.Token, bytecode.SelTotalSupply.Bytes())
		tr.before = s.call(ProbeAnyone, req.Token, balanceOfInput(probeAppointee))
		for _, w := range watched {
			tr.watchBefore = append(tr.watchBefore, s.call(ProbeAnyone, req.Token, balanceOfInput(w)))
		}
		tr.call = s.call(probeAppointee, req.Token, in(probeAppointee))
		tr.supply = s.call(ProbeAnyone, req.Token, bytecode.SelTotalSupply.Bytes())
		tr.after = s.call(ProbeAnyone, req.Token, balanceOfInput(probeAppointee))
		for _, w := range watched {
			tr.watchAfter = append(tr.watchAfter, s.call(ProbeAnyone, req.Token, balanceOfInput(w)))
		}
		out = append(out, tr)
	}
	return out
}

// mintWatch is whose balances a mint try watches: the probes' watch
// list (the test wallet, the pool, the top holders, the creator), the
// token contract and the privileged callers.
func mintWatch(req ProbeRequest, sc scene, privileged []probeCaller) []common.Address {
	seen := map[common.Address]bool{probeAppointee: true, ProbeAnyone: true}
	var out []common.Address
	add := func(a common.Address) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, a := range sc.watch {
		add(a)
	}
	add(req.Token)
	for _, c := range privileged {
		add(c.addr)
	}
	return out
}

// mintProof is the first mint the appointee of script i proved.
func (as *armedScript) mintProof(i int, s *script) (analysis.EVMCapability, bool) {
	unit := big.NewInt(armedUnit)
	for _, tr := range as.mints[i] {
		if s.ok(tr.ctrlCall) && rose(s, tr.ctrlBefore, tr.ctrlAf) {
			continue // the control caller is credited too: anyone's
		}
		b0, b1 := s.word(tr.before), s.word(tr.after)
		if !s.ok(tr.call) || b0 == nil || b1 == nil || new(big.Int).Sub(b1, b0).Cmp(unit) != 0 {
			continue
		}
		s0, s1 := s.word(tr.supplyBefore), s.word(tr.supply)
		what := "the total supply rose by one unit, credited to the appointee"
		if s0 == nil || s1 == nil || new(big.Int).Sub(s1, s0).Cmp(unit) != 0 {
			if s0 == nil || s1 == nil || s0.Cmp(s1) != 0 || !noneFell(s, tr.watchBefore, tr.watchAfter) {
				continue
			}
			what = "one unit credited to the appointee from nowhere (the total supply unchanged, no watched balance fell)"
		}
		return as.twoStep(i, bytecode.CapMint, functionName(tr.sel)+"(appointee, 1)", what), true
	}
	return analysis.EVMCapability{}, false
}

// rose says the balance read at after is above the one at before.
func rose(s *script, before, after ref) bool {
	b0, b1 := s.word(before), s.word(after)
	return b0 != nil && b1 != nil && b1.Cmp(b0) > 0
}

// noneFell says every watched balance was read both times and none fell.
func noneFell(s *script, before, after []ref) bool {
	for j := range before {
		b0, b1 := s.word(before[j]), s.word(after[j])
		if b0 == nil || b1 == nil || b1.Cmp(b0) < 0 {
			return false
		}
	}
	return true
}

// blockTries are one script's block tries.
type blockTries struct {
	seed, seedOn ref // the holder funds the fresh wallet, which passes a unit on
	control      ref // the holder's transfer after the control caller's calls
	steps        []blockStep
}

// blockStep is the appointee's call of one blocker, then the holder's
// and the fresh wallet's transfers.
type blockStep struct {
	blocker       blockerCall
	call          ref
	holder, other ref
}

// addBlockTries adds the block tries to s: a block to fund the fresh
// wallet, one for the control caller, one per blocker.
func (as *armedScript) addBlockTries(s *script, req ProbeRequest) *blockTries {
	if len(as.blockers) == 0 {
		return nil
	}
	unit := big.NewInt(armedUnit)
	bt := &blockTries{}
	s.block(0, nil)
	bt.seed = s.call(as.holder, req.Token, transferInput(blockSink, big.NewInt(armedSeed)))
	bt.seedOn = s.call(blockSink, req.Token, transferInput(blockOther, unit))
	s.block(0, nil)
	for _, b := range as.blockers {
		s.call(ProbeAnyone, req.Token, b.input(as.holder))
	}
	bt.control = s.call(as.holder, req.Token, transferInput(blockSink, unit))
	for _, b := range as.blockers {
		s.block(0, nil)
		st := blockStep{blocker: b}
		st.call = s.call(probeAppointee, req.Token, b.input(as.holder))
		st.holder = s.call(as.holder, req.Token, transferInput(blockSink, unit))
		st.other = s.call(blockSink, req.Token, transferInput(blockOther, unit))
		bt.steps = append(bt.steps, st)
	}
	return bt
}

// blockProof is the block of the holder the appointee of script i
// proved: the first blocker after whose call the holder's transfer
// failed while the fresh wallet's went through, all transfers having
// worked before (and after the control caller's calls).
func (as *armedScript) blockProof(i int, s *script) (analysis.EVMCapability, bool) {
	bt := as.blocks[i]
	if bt == nil || !s.ok(bt.seed) || !s.ok(bt.seedOn) || !s.ok(bt.control) {
		return analysis.EVMCapability{}, false
	}
	for _, st := range bt.steps {
		if s.ok(st.holder) {
			continue
		}
		if !s.ok(st.call) || !s.ok(st.other) {
			// The holder's transfer failed without the appointee's call,
			// or every wallet's did: no blacklist, and what follows is
			// no clean test.
			return analysis.EVMCapability{}, false
		}
		arg := "(holder)"
		if st.blocker.flag {
			arg = "(holder, true)"
		}
		return as.twoStep(i, bytecode.CapBlacklist, functionName(st.blocker.sel)+arg,
			"the holder's transfer of one unit to a fresh wallet then failed, while the fresh wallet's still went through ("+as.holder.Hex()+")"), true
	}
	return analysis.EVMCapability{}, false
}
