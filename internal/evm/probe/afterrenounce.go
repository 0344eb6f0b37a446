package probe

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
)

// After the renounce (issue 18, every privileged address before and
// after the token's own renounce path): a power that survives the
// renounce is what makes "renounced" a lie. One eth_simulateV1 of the
// probes' batch runs the live owner's renounce through the token's own
// path (renounceOwnership() first, else each no-argument or one-number
// candidate in turn, as the reclaim probe does), checks that owner()
// reads zero, then runs every caller's probe calls again, the same
// Prober input each caller's eth_call carries, one block each; the
// powers proven after it are compared with those proven before.
//
// The Prober's code is placed once, at ProberHome: each caller and the
// victim get a minimal proxy (EIP-1167) that delegates to it, so every
// call the Prober makes still carries the caller as msg.sender and its
// state is the caller's, while the request carries the large code once
// instead of once per caller.

// ProberHome is where the renounce replay places the Prober's code.
var ProberHome = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.probe.home"))[12:])

const (
	// maxReplayRenounces bounds the renounce candidates tried in turn.
	maxReplayRenounces = 3
	// replayBlockGas is each replay block's gas limit: one Prober run.
	replayBlockGas = probeCallGas + 1_000_000
	// replayInputBudget bounds the Prober inputs the replay carries (raw
	// bytes; twice that as hex), so that round trip 3 stays within one
	// request body on heavy tokens: callers are replayed whole, in
	// probing order (the owner first), while their inputs fit.
	replayInputBudget = 40_000
	// replayGas is the gas the replay's Prober runs share: a node bounds
	// one eth_simulateV1's gas over all its blocks (geth: its RPC gas
	// cap, 50M by default), and a call past it fails the whole request.
	replayGas = 40_000_000
)

// replayChunk is one caller's Prober call to run again after the
// renounce.
type replayChunk struct {
	caller int
	calls  []probeCall
	input  []byte
}

type replayRun struct {
	chunk replayChunk
	call  ref
}

// renounceReplay is the script and what its decoder needs.
type renounceReplay struct {
	// why is set when no replay is built: the reason AfterRenounce is
	// unknown.
	why       string
	s         script
	renounces []bytecode.Selector
	owners    []ref // owner() after each renounce candidate
	// renounced is the candidate after which owner() read zero.
	renounced bytecode.Selector
	runs      []replayRun
	// replayed are the callers whose every chunk runs again; unfinished
	// those of them whose Prober run failed (out of its share of gas).
	replayed, unfinished map[common.Address]bool
}

// newRenounceReplay builds the replay of chunks after the renounce; with
// none to build, why says what is missing.
func newRenounceReplay(req ProbeRequest, callers []probeCaller, chunks []replayChunk, donors []common.Address,
	prober contracts.Compiled, grant map[common.Hash]common.Hash) *renounceReplay {
	rr := &renounceReplay{}
	switch {
	case req.Renounced:
		rr.why = "ownership is renounced already: the powers were proven after it"
		return rr
	case req.Owner == nil || holder.IsBurn(*req.Owner):
		rr.why = "no live owner to renounce"
		return rr
	}
	renounces, _ := reclaimCandidates(req.Code)
	if len(renounces) == 0 {
		rr.why = "the code has no renounce path the probes could take"
		return rr
	}
	if len(renounces) > maxReplayRenounces {
		renounces = renounces[:maxReplayRenounces]
	}
	if renounces[0].sel == bytecode.SelRenounceOwnership {
		renounces = renounces[:1]
	}
	// The control caller is not replayed: a capability it proved is
	// none of the callers' powers before the renounce, so it is never
	// compared after it.
	size := map[int]int{}
	for _, ch := range chunks {
		size[ch.caller] += len(ch.input)
	}
	rr.replayed = map[common.Address]bool{}
	used := 0
	for i, c := range callers {
		if c.role == RoleAnyone || size[i] == 0 || used+size[i] > replayInputBudget {
			continue
		}
		used += size[i]
		rr.replayed[c.addr] = true
	}
	if len(rr.replayed) == 0 {
		rr.why = "the probes to run again after the renounce exceed the request's size budget"
		return rr
	}
	owner := *req.Owner
	rr.s.block(0, nil)
	for _, r := range renounces {
		rr.renounces = append(rr.renounces, r.sel)
		rr.s.call(owner, req.Token, r.data)
		rr.owners = append(rr.owners, rr.s.call(ProbeAnyone, req.Token, bytecode.SelOwner.Bytes()))
	}
	rich := (*hexutil.Big)(new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil))
	ov := node.StateOverride{
		ProberHome:  {Code: prober.DeployedBytecode},
		ProbeVictim: {Code: forwarderCode(ProberHome)},
	}
	for _, d := range donors {
		ov[d] = node.OverrideAccount{Code: forwarderCode(ProberHome)}
	}
	for _, c := range callers {
		if !rr.replayed[c.addr] {
			continue
		}
		acct := node.OverrideAccount{Code: forwarderCode(ProberHome), Balance: rich}
		if _, ok := ov[c.addr]; ok {
			acct.Balance = nil // a donor keeps its native balance, as in its eth_call
		}
		ov[c.addr] = acct
	}
	ov = withGrant(ov, req.Token, grant)
	runs := 0
	for _, ch := range chunks {
		if rr.replayed[callers[ch.caller].addr] {
			runs++
		}
	}
	gas := min(uint64(probeCallGas), uint64(replayGas/runs))
	first := true
	for _, ch := range chunks {
		c := callers[ch.caller]
		if !rr.replayed[c.addr] {
			continue
		}
		if first {
			rr.s.block(0, ov)
			first = false
		} else {
			rr.s.block(0, nil)
		}
		rr.s.blocks[len(rr.s.blocks)-1].BlockOverrides = map[string]any{"gasLimit": hexutil.Uint64(replayBlockGas)}
		r := rr.s.call(c.addr, c.addr, ch.input)
		rr.s.blocks[r.block].Calls[r.call].Gas = hexutil.Uint64(gas)
		rr.runs = append(rr.runs, replayRun{chunk: ch, call: r})
	}
	return rr
}

func (rr *renounceReplay) elems() []rpc.BatchElem {
	if rr.why != "" || len(rr.runs) == 0 {
		return nil
	}
	return []rpc.BatchElem{rr.s.elem()}
}

// apply fills each privileged address's AfterRenounce: true when one of
// its powers was proven again after the renounce, false when none was,
// nil (with the reason) when the replay did not run or did not renounce.
func (rr *renounceReplay) apply(el []rpc.BatchElem, parsed contracts.Compiled, req ProbeRequest, callers []probeCaller, sc scene, privileged []analysis.EVMPrivilegedAddress) {
	why := rr.why
	var after map[string]map[string]bool
	if why == "" {
		after, why = rr.decode(el, parsed, req, callers, sc)
	}
	for i := range privileged {
		p := &privileged[i]
		switch {
		case req.Renounced:
			p.AfterRenounce = new(true)
			p.AfterRenounceDetail = why
		case why != "":
			p.AfterRenounceDetail = why
		case !rr.replayed[common.HexToAddress(p.Address)]:
			p.AfterRenounceDetail = "not probed again after the renounce: the request's size budget went to the callers probed before it"
		case rr.unfinished[common.HexToAddress(p.Address)]:
			p.AfterRenounceDetail = "its probes after the renounce did not complete (the gas one request may use was shared out)"
		default:
			kept, tested := false, false
			for _, pw := range p.Powers {
				if pw == bytecode.CapSeizeStock || pw == bytecode.CapExternalTarget {
					// Proven with the contract's stock credited, which the
					// replay does not do; or by a callback counted on the
					// victim, which the replay, whose callers run the
					// Prober through a forwarder to ProberHome, is not
					// trusted to repeat.
					continue
				}
				tested = true
				kept = kept || after[p.Address][pw]
			}
			if !tested {
				p.AfterRenounceDetail = "its only powers (taking the contract's own tokens, pointing transfers at a contract) are not probed again after the renounce"
				continue
			}
			p.AfterRenounce = new(kept)
			p.AfterRenounceDetail = "probed again after " + renounceName(rr.renounced) + " cleared owner()"
		}
	}
}

// decode reads the replay: the powers each caller proved after the
// renounce (by address), or why they are unknown.
func (rr *renounceReplay) decode(el []rpc.BatchElem, parsed contracts.Compiled, req ProbeRequest, callers []probeCaller, sc scene) (map[string]map[string]bool, string) {
	if len(el) != 1 || !rr.s.answered(el[0]) {
		return nil, "the node did not run the renounce replay (eth_simulateV1)"
	}
	renounced := false
	for i, o := range rr.owners {
		if a, ok := rr.s.ownerOf(o); ok && holder.IsBurn(a) {
			renounced, rr.renounced = true, rr.renounces[i]
			break
		}
	}
	if !renounced {
		return nil, "no renounce path cleared owner()"
	}
	v := newVerdicts(nil, sc)
	ran := 0
	rr.unfinished = map[common.Address]bool{}
	for _, run := range rr.runs {
		c := callers[run.chunk.caller]
		res := rr.s.result(run.call)
		if res.Status != 1 {
			rr.unfinished[c.addr] = true
			continue
		}
		_, base, outs, err := decodeProberRun(parsed.ABI, res.ReturnData)
		if err != nil {
			rr.unfinished[c.addr] = true
			continue
		}
		ran++
		for i, o := range outs {
			if i < len(run.chunk.calls) && !run.chunk.calls[i].stock {
				v.observe(c, run.chunk.calls[i], base, o)
			}
		}
	}
	if ran == 0 {
		return nil, "the probes after the renounce did not run"
	}
	out := map[string]map[string]bool{}
	for _, p := range v.privileged() {
		out[p.Address] = map[string]bool{}
		for _, pw := range p.Powers {
			out[p.Address][pw] = true
		}
	}
	return out, ""
}

// renounceName names the renounce that ran (renounceOwnership() is no
// privileged signature of the catalogue, so functionName would not).
func renounceName(sel bytecode.Selector) string {
	if sel == bytecode.SelRenounceOwnership {
		return "renounceOwnership()"
	}
	return functionName(sel)
}
