package probe

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// A mint in two steps through a stored amount (issue 18): the owner
// sets an amount with a function of one number ("set reward amount",
// "set airdrop amount"), then a function of one address credits that
// amount to the address and adds it to the total supply ("distribute",
// "airdrop"). On the state the probes run on the amount is zero, so the
// credit function alone creates nothing. In the armed script each
// privileged caller, in a block of its own after its other tries:
//
//  1. calls each credit function with a fresh address first, before
//     setting anything: a credit here is no two-step power (it is the
//     plain probes' to prove, or no one's), and the function is skipped;
//  2. the control caller sets every amount and calls each credit
//     function with a fresh address of its own: a credit to it is
//     anyone's power, and the function is skipped;
//  3. the caller sets every amount, then calls each credit function with
//     another fresh address: that address credited by some N > 0, the
//     total supply rising by the same N and no watched balance (top
//     holders, the pool, the callers, the token contract) falling, is
//     the caller's OWNER_CAN_MINT, both steps named.
//
// The amount is a thousandth of the total supply (at least one unit):
// whatever the token's decimals, non-zero, and below any cap a setter
// puts relative to the supply; an amount the credit function scales by
// 10^decimals (whole tokens) stays far from an overflow.
//
// Amount setters: a function of one number behind a caller check that
// writes a fixed slot with its argument and no mapping entry (a burn or
// a mint of the caller's own is no setter). Credit functions: a function
// of one address behind a caller check on some path, writing a mapping
// entry (or not fully explored), that stores no address in a fixed slot
// (a role setter would hand the fresh address the caller's role), those
// the code reads as crediting first.
//
// Bounds: at most maxAmountSetters setters and maxAmountCredits credit
// functions: one block of at most 2×setters + credits×(3+3) +
// credits×(5+2×watched) = 6 + 18 + 105 = 129 calls a script (watched <=
// 15), each capped at scriptCallGas (reads cost ~25k gas); the
// appointment after it starts a block of its own. With the seizure,
// mint and block tries (armed_appointee.go), at most 391 calls in 10
// blocks a script, 2 scripts a scan, in the same batch element.

const (
	maxAmountSetters = 3
	maxAmountCredits = 3
)

// amountTries are one script's tries of the amount setters and credit
// functions.
type amountTries struct {
	amount  *big.Int
	set     []ref // the caller's setter calls
	credits []creditTry
}

// creditTry is one credit function's tries: the caller's before any
// setting, the control caller's after it set the amounts, the caller's
// after it set them.
type creditTry struct {
	sel                          bytecode.Selector
	preBefore, preCall, preAfter ref
	ctrlBefore, ctrlCall, ctrlAf ref
	supplyBefore, supply         ref
	before, call, after          ref
	watchBefore, watchAfter      []ref
}

// Fresh recipients of the credit tries, one per function: the caller's
// before setting, the control caller's, the caller's after setting.
func creditRecipient(kind string, k int) common.Address {
	return scriptWallet("armed.credit."+kind, k)
}

// isAmountSetter: a function of one number behind a caller check that
// stores its argument in a fixed slot and writes no mapping entry.
func isAmountSetter(m method.Method) bool {
	return m.Complete && m.Guarded && !m.Open && len(m.Args) == 1 && m.Args[0].Kind == method.Uint &&
		len(m.SetSlots) > 0 && !m.MapWrites
}

// amountCandidates are the amount setters and the credit functions of
// the code (bounded), credit functions the code reads as crediting
// first; none without both.
func amountCandidates(req ProbeRequest) ([]bytecode.Selector, []bytecode.Selector) {
	var setters, credits, others []bytecode.Selector
	for _, m := range req.Code.Methods.Methods {
		s := bytecode.Selector(m.Selector)
		if bytecode.IsStandard(s) || readOnly(req.Code, s) {
			continue
		}
		switch {
		case isAmountSetter(m):
			if len(setters) < maxAmountSetters {
				setters = append(setters, s)
			}
		case len(m.Args) != 1 || m.Args[0].Kind != method.Address || len(m.SetSlots) > 0:
		case m.Complete && (!m.Guarded || !m.MapWrites):
		case m.Credit || m.GuardedCredit:
			credits = append(credits, s)
		default:
			others = append(others, s)
		}
	}
	credits = append(credits, others...)
	if len(credits) > maxAmountCredits {
		credits = credits[:maxAmountCredits]
	}
	if len(setters) == 0 || len(credits) == 0 {
		return nil, nil
	}
	return setters, credits
}

// amountOf is the amount the setters are called with: a thousandth of
// the supply, at least one unit (nil: the supply is unknown, no tries).
func amountOf(req ProbeRequest) *big.Int {
	if req.Supply == nil || req.Supply.Sign() <= 0 {
		return nil
	}
	a := new(big.Int).Div(req.Supply, big.NewInt(1000))
	if a.Sign() == 0 {
		a.SetInt64(1)
	}
	return a
}

// addAmountTries adds the tries of caller c to s, in a block of their own.
func (as *armedScript) addAmountTries(s *script, req ProbeRequest, sc scene, privileged []probeCaller, c probeCaller) *amountTries {
	amount := amountOf(req)
	if len(as.amountSetters) == 0 || amount == nil {
		return nil
	}
	setIn := func(sel bytecode.Selector) []byte {
		return append(sel.Bytes(), common.LeftPadBytes(amount.Bytes(), 32)...)
	}
	creditIn := func(sel bytecode.Selector, to common.Address) []byte {
		return append(sel.Bytes(), addressWord(to)...)
	}
	watched := mintWatch(req, sc, privileged)
	at := &amountTries{amount: amount}
	s.block(0, nil)
	for k, sel := range as.credits {
		to := creditRecipient("before", k)
		tr := creditTry{sel: sel}
		tr.preBefore = s.call(ProbeAnyone, req.Token, balanceOfInput(to))
		tr.preCall = s.call(c.addr, req.Token, creditIn(sel, to))
		tr.preAfter = s.call(ProbeAnyone, req.Token, balanceOfInput(to))
		at.credits = append(at.credits, tr)
	}
	for _, sel := range as.amountSetters {
		s.call(ProbeAnyone, req.Token, setIn(sel))
	}
	for k, sel := range as.credits {
		to := creditRecipient("anyone", k)
		tr := &at.credits[k]
		tr.ctrlBefore = s.call(ProbeAnyone, req.Token, balanceOfInput(to))
		tr.ctrlCall = s.call(ProbeAnyone, req.Token, creditIn(sel, to))
		tr.ctrlAf = s.call(ProbeAnyone, req.Token, balanceOfInput(to))
	}
	for _, sel := range as.amountSetters {
		at.set = append(at.set, s.call(c.addr, req.Token, setIn(sel)))
	}
	for k, sel := range as.credits {
		to := creditRecipient("caller", k)
		tr := &at.credits[k]
		tr.supplyBefore = s.call(ProbeAnyone, req.Token, bytecode.SelTotalSupply.Bytes())
		tr.before = s.call(ProbeAnyone, req.Token, balanceOfInput(to))
		for _, w := range watched {
			tr.watchBefore = append(tr.watchBefore, s.call(ProbeAnyone, req.Token, balanceOfInput(w)))
		}
		tr.call = s.call(c.addr, req.Token, creditIn(sel, to))
		tr.supply = s.call(ProbeAnyone, req.Token, bytecode.SelTotalSupply.Bytes())
		tr.after = s.call(ProbeAnyone, req.Token, balanceOfInput(to))
		for _, w := range watched {
			tr.watchAfter = append(tr.watchAfter, s.call(ProbeAnyone, req.Token, balanceOfInput(w)))
		}
	}
	return at
}

// amountProof is the first mint caller i proved by setting an amount and
// crediting it.
func (as *armedScript) amountProof(i int, s *script) (analysis.EVMCapability, bool) {
	if i >= len(as.amounts) || as.amounts[i] == nil {
		return analysis.EVMCapability{}, false
	}
	at := as.amounts[i]
	var set []string
	for j, r := range at.set {
		if s.ok(r) {
			set = append(set, functionName(as.amountSetters[j])+"("+at.amount.String()+")")
		}
	}
	if len(set) == 0 {
		return analysis.EVMCapability{}, false
	}
	for _, tr := range at.credits {
		if s.ok(tr.preCall) && rose(s, tr.preBefore, tr.preAfter) {
			continue // credited before any amount was set: no two steps
		}
		if s.ok(tr.ctrlCall) && rose(s, tr.ctrlBefore, tr.ctrlAf) {
			continue // the control caller is credited too: anyone's
		}
		b0, b1 := s.word(tr.before), s.word(tr.after)
		s0, s1 := s.word(tr.supplyBefore), s.word(tr.supply)
		if !s.ok(tr.call) || b0 == nil || b1 == nil || s0 == nil || s1 == nil {
			continue
		}
		n := new(big.Int).Sub(b1, b0)
		if n.Sign() <= 0 || new(big.Int).Sub(s1, s0).Cmp(n) != 0 || !noneFell(s, tr.watchBefore, tr.watchAfter) {
			continue
		}
		c := as.callers[i]
		return analysis.EVMCapability{Name: bytecode.CapMint, Proven: new(true), Caller: c.addr.Hex(), Role: c.role, TwoStep: true,
			Evidence: "two steps: the " + c.role + " calls " + strings.Join(set, ", ") + ", then " + functionName(tr.sel) +
				"(address) with a fresh address: " + n.String() + " units credited to it and the total supply rose by " + n.String() +
				", no watched balance fell"}, true
	}
	return analysis.EVMCapability{}, false
}
