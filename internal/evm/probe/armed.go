package probe

import (
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// Armed powers (issue 18, a two-step power never chained): a function
// that takes a holder's tokens may refuse until a switch is on — a flag
// only a privileged caller sets (MiniMe forks' destroyTokens behind a
// flag the controller turns on). The Prober calls each function on the
// current state, each in a frame of its own, so it never sees the
// switch turned. Here each privileged caller turns on every switch the
// code lets it set (a function of one bool, behind a caller check, that
// writes a fixed slot), then calls each function that takes an address
// and an amount with a third party holder and one unit, the holder's
// balance and the total supply read either side: the holder losing
// exactly that unit, with the supply falling by it or the caller
// gaining it, is a seizure. The control caller tries the same after the
// switches are on: what it can do, anyone can. Last, the caller
// appoints a fresh address with every address setter behind a caller
// check (an admin or desk setter) and the appointee tries the same
// takers: a seizure only the appointee proves is the appointing
// caller's, in two steps; so are the mint and the block of a holder the
// appointee proves next (armed_appointee.go).

// probeAppointee is the fresh address a privileged caller appoints with
// each address setter before it tries the takers (a two-step power).
var probeAppointee = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.probe.appointee"))[12:])

const (
	maxArmSetters  = 3
	maxArmSwitches = 4
	maxArmTakers   = 4
	maxArmCallers  = 2
	armedUnit      = 1
)

type armedTry struct {
	caller                probeCaller
	sel                   bytecode.Selector
	supplyBefore, supply  ref
	holderBefore, holder  ref
	callerBefore, callerA ref
	call                  ref
	// appointed: the try is the appointee's, after the caller ran the
	// address setters with it.
	appointed bool
}

type armedScript struct {
	holder   common.Address
	switches []bytecode.Selector
	setters  []bytecode.Selector
	// minters and blockers are what the appointee tries besides the
	// takers (armed_appointee.go).
	minters  []bytecode.Selector
	blockers []blockerCall
	scripts  []*script
	callers  []probeCaller
	tries    [][]armedTry
	// mints and blocks are each script's appointee tries (nil without
	// an address setter).
	mints  [][]mintTry
	blocks []*blockTries
	// amountSetters and credits are the functions of a mint through a
	// stored amount; amounts each script's tries (armed_amount.go).
	amountSetters []bytecode.Selector
	credits       []bytecode.Selector
	amounts       []*amountTries
}

// newArmedScripts builds one script per privileged caller (at most
// maxArmCallers, the control caller's tries in each); none without a
// switch, a taker or a third party holder.
func newArmedScripts(req ProbeRequest, callers []probeCaller, sc scene) *armedScript {
	as := &armedScript{holder: sc.holder}
	if sc.holder == ProbeVictim || sc.holder == (common.Address{}) {
		return as
	}
	var takers []takerCall
	for _, m := range req.Code.Methods.Methods {
		s := bytecode.Selector(m.Selector)
		if bytecode.IsStandard(s) || readOnly(req.Code, s) {
			continue
		}
		switch {
		case isSwitch(m) && len(as.switches) < maxArmSwitches:
			as.switches = append(as.switches, s)
		case isAppointer(m) && len(as.setters) < maxArmSetters:
			as.setters = append(as.setters, s)
		case len(takers) < maxArmTakers:
			if t, ok := takerOf(m); ok {
				takers = append(takers, t)
			}
		}
	}
	as.minters, as.blockers = appointeeCandidates(req)
	if amountOf(req) != nil {
		as.amountSetters, as.credits = amountCandidates(req)
	}
	privileged := scriptCallers(callers)
	if len(privileged) > maxArmCallers {
		privileged = privileged[:maxArmCallers]
	}
	armed := (len(as.switches) > 0 || len(as.setters) > 0) && len(takers) > 0
	appointed := len(as.setters) > 0 && (len(takers) > 0 || len(as.minters) > 0 || len(as.blockers) > 0)
	amounts := len(as.amountSetters) > 0
	if (!armed && !appointed && !amounts) || len(privileged) == 0 {
		return as
	}
	for _, c := range privileged {
		s := &script{}
		s.block(0, nil)
		for _, sw := range as.switches {
			s.call(c.addr, req.Token, append(sw.Bytes(), numWord(1)...))
		}
		var tries []armedTry
		var amounts *amountTries
		for step, who := range []probeCaller{{addr: ProbeAnyone, role: RoleAnyone}, c, {addr: probeAppointee, role: c.role}} {
			if step == 2 {
				// Before any appointment (an address setter may hand the
				// caller's role away), a mint through a stored amount, in
				// a block of its own (armed_amount.go).
				amounts = as.addAmountTries(s, req, sc, privileged, c)
				if len(as.setters) == 0 {
					break
				}
				if amounts != nil {
					s.block(0, nil)
				}
				// Then the caller appoints a fresh address with every
				// address setter, and the appointee tries the takers.
				for _, st := range as.setters {
					s.call(c.addr, req.Token, append(st.Bytes(), addressWord(probeAppointee)...))
				}
			}
			for _, t := range takers {
				tr := armedTry{caller: who, sel: t.sel, appointed: step == 2}
				tr.supplyBefore = s.call(ProbeAnyone, req.Token, bytecode.SelTotalSupply.Bytes())
				tr.holderBefore = s.call(ProbeAnyone, req.Token, balanceOfInput(as.holder))
				tr.callerBefore = s.call(ProbeAnyone, req.Token, balanceOfInput(who.addr))
				tr.call = s.call(who.addr, req.Token, t.input(as.holder, who.addr))
				tr.supply = s.call(ProbeAnyone, req.Token, bytecode.SelTotalSupply.Bytes())
				tr.holder = s.call(ProbeAnyone, req.Token, balanceOfInput(as.holder))
				tr.callerA = s.call(ProbeAnyone, req.Token, balanceOfInput(who.addr))
				tries = append(tries, tr)
			}
		}
		var mints []mintTry
		var blocks *blockTries
		if len(as.setters) > 0 {
			// The appointee's other powers, in blocks of their own (the
			// appointment carries over).
			mints = as.addMintTries(s, req, sc, privileged)
			blocks = as.addBlockTries(s, req)
		}
		as.scripts = append(as.scripts, s)
		as.callers = append(as.callers, c)
		as.tries = append(as.tries, tries)
		as.mints = append(as.mints, mints)
		as.blocks = append(as.blocks, blocks)
		as.amounts = append(as.amounts, amounts)
	}
	return as
}

// isSwitch: a function of one bool that writes a fixed slot, and only
// after a check of the caller.
func isSwitch(m method.Method) bool {
	return m.Complete && m.Guarded && !m.Open && len(m.Args) == 1 && m.Args[0].Kind == method.Bool && len(m.Writes) > 0
}

// isAppointer: a function of one address that writes a fixed slot, and
// only after a check of the caller (an admin, operator or wallet setter).
func isAppointer(m method.Method) bool {
	return m.Complete && m.Guarded && !m.Open && len(m.Args) == 1 && m.Args[0].Kind == method.Address && len(m.Writes) > 0
}

// takerCall is a function that may take a holder's tokens: (address,
// amount) or (from, to, amount).
type takerCall struct {
	sel      bytecode.Selector
	fromToTo bool
}

func takerOf(m method.Method) (takerCall, bool) {
	s := bytecode.Selector(m.Selector)
	k := func(i int) method.Kind { return m.Args[i].Kind }
	switch {
	case len(m.Args) == 2 && k(0) == method.Address && k(1) == method.Uint:
		return takerCall{sel: s}, true
	case len(m.Args) == 3 && k(0) == method.Address && k(1) == method.Address && k(2) == method.Uint:
		return takerCall{sel: s, fromToTo: true}, true
	}
	return takerCall{}, false
}

func (t takerCall) input(holder, caller common.Address) []byte {
	in := append(t.sel.Bytes(), addressWord(holder)...)
	if t.fromToTo {
		in = append(in, addressWord(caller)...)
	}
	return append(in, numWord(armedUnit)...)
}

func (as *armedScript) elems() []rpc.BatchElem {
	out := make([]rpc.BatchElem, len(as.scripts))
	for i, s := range as.scripts {
		out[i] = s.elem()
	}
	return out
}

// decode returns the seizures proven after the switches were on, one
// per caller, none when the control caller could do the same.
func (as *armedScript) decode(elems []rpc.BatchElem) []analysis.EVMCapability {
	var out []analysis.EVMCapability
	unit := big.NewInt(armedUnit)
	for i, s := range as.scripts {
		if i >= len(elems) || !s.answered(elems[i]) {
			continue
		}
		public := map[bytecode.Selector]bool{}
		for _, tr := range as.tries[i] {
			if !s.ok(tr.call) {
				continue
			}
			h0, h1 := s.word(tr.holderBefore), s.word(tr.holder)
			if h0 == nil || h1 == nil || new(big.Int).Sub(h0, h1).Cmp(unit) != 0 {
				continue
			}
			s0, s1 := s.word(tr.supplyBefore), s.word(tr.supply)
			c0, c1 := s.word(tr.callerBefore), s.word(tr.callerA)
			burned := s0 != nil && s1 != nil && new(big.Int).Sub(s0, s1).Cmp(unit) == 0
			taken := c0 != nil && c1 != nil && new(big.Int).Sub(c1, c0).Cmp(unit) == 0
			if !burned && !taken {
				continue
			}
			if tr.caller.role == RoleAnyone {
				public[tr.sel] = true
				continue
			}
			if public[tr.sel] || (!tr.appointed && len(as.switches) == 0) {
				// With no switch turned, the caller's own call is the
				// plain probes' to prove.
				continue
			}
			how := "burned"
			if !burned {
				how = "moved to the caller"
			}
			if tr.appointed {
				// The appointee's power is the appointing caller's: both
				// steps named.
				out = append(out, as.twoStep(i, bytecode.CapSeize, functionName(tr.sel),
					"a holder's token unit "+how+" without any allowance ("+as.holder.Hex()+")"))
				break
			}
			out = append(out, analysis.EVMCapability{Name: bytecode.CapSeize, Proven: new(true), Caller: tr.caller.addr.Hex(), Role: tr.caller.role,
				Evidence: functionName(tr.sel) + " after " + callsWith(as.switches, "true") + ": a holder's token unit " + how + " without any allowance (" + as.holder.Hex() + ", as " + tr.caller.role + ")"})
			break
		}
		if c, ok := as.mintProof(i, s); ok {
			out = append(out, c)
		} else if c, ok := as.amountProof(i, s); ok {
			out = append(out, c)
		}
		if c, ok := as.blockProof(i, s); ok {
			out = append(out, c)
		}
	}
	return out
}

// twoStep is the appointing caller's power the appointee proved: both
// steps named.
func (as *armedScript) twoStep(i int, capability, call, what string) analysis.EVMCapability {
	c := as.callers[i]
	return analysis.EVMCapability{Name: capability, Proven: new(true), Caller: c.addr.Hex(), Role: c.role, TwoStep: true,
		Evidence: "two steps: the " + c.role + " calls " + callsWith(as.setters, "appointee") + ", then the appointee calls " + call + ": " + what}
}

// callsWith names each function called with arg: "f(arg), g(arg)".
func callsWith(sels []bytecode.Selector, arg string) string {
	names := make([]string, len(sels))
	for j, sel := range sels {
		names[j] = functionName(sel) + "(" + arg + ")"
	}
	return strings.Join(names, ", ")
}

// mergeArmed adds the armed seizures to the facts: a capability and a
// power of the caller's privileged entry, where the probes proved none
// from that caller.
func mergeArmed(facts *analysis.EVMProbeFacts, armed []analysis.EVMCapability) {
	for _, c := range armed {
		dup := false
		for _, x := range facts.Capabilities {
			dup = dup || (x.Name == c.Name && x.Caller == c.Caller && x.Proven != nil && *x.Proven)
		}
		if dup {
			continue
		}
		facts.Capabilities = append(facts.Capabilities, c)
		found := false
		for i := range facts.Privileged {
			if facts.Privileged[i].Address == c.Caller {
				found = true
				if !containsString(facts.Privileged[i].Powers, c.Name) {
					facts.Privileged[i].Powers = append(facts.Privileged[i].Powers, c.Name)
				}
			}
		}
		if !found {
			facts.Privileged = append(facts.Privileged, analysis.EVMPrivilegedAddress{Address: c.Caller, Role: c.Role, Powers: []string{c.Name}})
		}
	}
}
