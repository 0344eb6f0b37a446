package probe

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// Renounce, then reclaim (issue 18, can_take_back_ownership at launch):
// the live owner renounces through the token's own path — each function
// it can call with no argument or one number (renounceOwnership(), a
// lock(uint256) that clears owner() for a time) — and, a week later in
// a second block, every privileged address calls each function that
// takes nothing, only an address (its own) or only a number (0: the
// first of a list of past owners): unlock(), a reclaim, a
// transferOwnership(itself), a restore(index). owner() is read after every step: a
// renounce is proven by owner() reading zero, a reclaim by owner()
// reading an address again. One script per renounce candidate.

const (
	maxRenounceCandidates = 5
	maxReclaimCandidates  = 12
	// reclaimDelay is how long after the renounce the reclaims are tried
	// (a lock that opens later).
	reclaimDelay = 7 * 24 * 3600
)

type reclaimScript struct {
	s        script
	renounce bytecode.Selector
	// renounced is the owner() read after the renounce; tries the
	// reclaims in order, each with the owner() read after it.
	renounced ref
	tries     []reclaimTry
}

type reclaimTry struct {
	caller probeCaller
	sel    bytecode.Selector
	call   ref
	owner  ref
}

type reclaimScripts struct{ scripts []*reclaimScript }

// newReclaimScripts builds the scripts; none without a live owner, the
// head block's time or a renounce candidate.
func newReclaimScripts(req ProbeRequest, callers []probeCaller) *reclaimScripts {
	rs := &reclaimScripts{}
	if req.Owner == nil || holder.IsBurn(*req.Owner) || req.BlockTime == 0 {
		return rs
	}
	renounces, reclaims := reclaimCandidates(req.Code)
	privileged := scriptCallers(callers)
	if len(renounces) == 0 || len(reclaims) == 0 || len(privileged) == 0 {
		return rs
	}
	owner := *req.Owner
	for _, r := range renounces {
		x := &reclaimScript{renounce: r.sel}
		x.s.block(0, nil)
		x.s.call(owner, req.Token, r.data)
		x.renounced = x.s.call(owner, req.Token, bytecode.SelOwner.Bytes())
		x.s.block(req.BlockTime+reclaimDelay, nil)
		for _, c := range privileged {
			for _, f := range reclaims {
				data := f.Bytes()
				if m, ok := req.Code.Methods.Lookup(f); ok && len(m.Args) == 1 {
					if m.Args[0].Kind == method.Address {
						data = append(data, addressWord(c.addr)...)
					} else {
						data = append(data, numWord(0)...) // the first entry of a list of past owners
					}
				}
				t := reclaimTry{caller: c, sel: f}
				t.call = x.s.call(c.addr, req.Token, data)
				t.owner = x.s.call(c.addr, req.Token, bytecode.SelOwner.Bytes())
				x.tries = append(x.tries, t)
			}
		}
		rs.scripts = append(rs.scripts, x)
	}
	return rs
}

type renounceCandidate struct {
	sel  bytecode.Selector
	data []byte
}

// reclaimCandidates are the functions a renounce may go through (no
// argument, or one number passed as 0; renounceOwnership() first) and
// those a reclaim may (no argument, one address: the caller's, or one
// number: 0, an index into stored past owners).
func reclaimCandidates(code bytecode.CodeReport) (renounces []renounceCandidate, reclaims []bytecode.Selector) {
	var numbered []renounceCandidate
	var numberedReclaims []bytecode.Selector
	for _, s := range code.Selectors {
		if s == bytecode.SelRenounceOwnership {
			renounces = append(renounces, renounceCandidate{sel: s, data: s.Bytes()})
		}
	}
	for _, s := range code.Selectors {
		if s == bytecode.SelTransferOwnership {
			reclaims = append(reclaims, s)
			continue
		}
		if bytecode.IsStandard(s) || readOnly(code, s) {
			continue
		}
		m, typed := code.Methods.Lookup(s)
		switch {
		case !typed || len(m.Args) == 0:
			renounces = append(renounces, renounceCandidate{sel: s, data: s.Bytes()})
			reclaims = append(reclaims, s)
		case len(m.Args) == 1 && (m.Args[0].Kind == method.Uint || m.Args[0].Kind == method.Small):
			numbered = append(numbered, renounceCandidate{sel: s, data: append(s.Bytes(), numWord(0)...)})
			numberedReclaims = append(numberedReclaims, s)
		case len(m.Args) == 1 && m.Args[0].Kind == method.Address:
			reclaims = append(reclaims, s)
		}
	}
	// No argument first (renounceOwnership() before all), then one number.
	renounces = append(renounces, numbered...)
	// A reclaim by index into a list of past owners (0: the one that
	// just renounced) comes after those taking nothing or an address.
	reclaims = append(reclaims, numberedReclaims...)
	if len(renounces) > maxRenounceCandidates {
		renounces = renounces[:maxRenounceCandidates]
	}
	if len(reclaims) > maxReclaimCandidates {
		reclaims = reclaims[:maxReclaimCandidates]
	}
	return renounces, reclaims
}

func (rs *reclaimScripts) elems() []rpc.BatchElem {
	out := make([]rpc.BatchElem, len(rs.scripts))
	for i, x := range rs.scripts {
		out[i] = x.s.elem()
	}
	return out
}

// decode returns the first reclaim proven after a proven renounce; a
// renounce with no reclaim is Reclaimed false; nil when no script
// renounced (or none ran).
func (rs *reclaimScripts) decode(elems []rpc.BatchElem) *analysis.EVMReclaimProbe {
	var none *analysis.EVMReclaimProbe
	for i, x := range rs.scripts {
		if i >= len(elems) || !x.s.answered(elems[i]) {
			continue
		}
		if o, ok := x.s.ownerOf(x.renounced); !ok || !holder.IsBurn(o) {
			continue // not a renounce (or owner() unreadable)
		}
		current := common.Address{}
		for _, t := range x.tries {
			o, ok := x.s.ownerOf(t.owner)
			if !ok {
				continue
			}
			if x.s.ok(t.call) && !holder.IsBurn(o) && o != current {
				return &analysis.EVMReclaimProbe{Renounce: functionName(x.renounce), Reclaimed: true,
					Function: functionName(t.sel), Caller: t.caller.addr.Hex()}
			}
			current = o
		}
		if none == nil {
			none = &analysis.EVMReclaimProbe{Renounce: functionName(x.renounce)}
		}
	}
	return none
}
