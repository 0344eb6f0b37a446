package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/hook"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"

	"context"
	"errors"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Uniswap V4 hooks in the round trips (package hook judges them):
//
//  2. simulation: each found pool with a hook has its hook's code, owner
//     getters, proxy slots and first storage slots read beside the pool's
//     state and V4 simulation (they need only the hook's address, known
//     from round trip 1's logs); the explorers are asked whether its
//     source is verified, beside the round trips;
//  3. probes: the hook's owner and stored addresses call each setter the
//     read found, then the V4 simulator trades through the pool, beside
//     the token's privilege probes.
//
// No round trip is added: a scan with hooked pools sends more elements in
// round trips 2 and 3, not more requests in sequence.

// errHookNotAnswered is a hook read or probe whose round trip the node
// did not answer.
var errHookNotAnswered = errors.New("the node did not answer the round trip")

// hookRound is one scan's hook judgments.
type hookRound struct {
	hooks []*hookJob
	wg    sync.WaitGroup
}

type hookJob struct {
	pool     v4.Pool
	read     *hook.Read
	code     *hook.Code
	readErr  error
	probe    *hook.ProbeCall
	probeErr error
	known    *hook.Known
	verified *bool
	note     string
}

// hookReads plans round trip 2's hook reads (the pools the V4 simulation
// covers, with a hook) and starts the explorers' verification queries;
// it runs after v4Calls.
func (r *scanRun) hookReads(ctx context.Context, plan *batchPlan) *hookRound {
	vs := r.s.v4
	if vs == nil || len(vs.pools) == 0 {
		return nil
	}
	hr := &hookRound{}
	// v4Calls ordered the pools: the first maxV4Simulations are simulated.
	for i := range min(len(vs.pools), maxV4Simulations) {
		p := vs.pools[i]
		if p.Key.Hooks == (common.Address{}) {
			continue
		}
		j := &hookJob{pool: p, read: hook.NewRead(p.Key.Hooks), known: knownHook(r, p.Key.Hooks)}
		plan.add(j.read.Elems())
		hr.hooks = append(hr.hooks, j)
		hr.wg.Add(1)
		go func() {
			defer hr.wg.Done()
			j.verified, j.note = r.hookVerified(ctx, p.Key.Hooks)
		}()
	}
	return hr
}

// knownHook is the chains file's entry for a hook address, if any: a
// label, never a pass.
func knownHook(r *scanRun, addr common.Address) *hook.Known {
	for _, k := range r.s.chain.Hooks {
		if strings.EqualFold(k.Address, addr.Hex()) {
			return &hook.Known{Name: k.Name, Takes: k.Takes}
		}
	}
	return nil
}

// hookProbes decodes round trip 2's reads (answered: the node answered the
// batch) and plans round trip 3's probes.
func (r *scanRun) hookProbes(hr *hookRound, answered bool, plan *batchPlan) {
	if hr == nil {
		return
	}
	for _, j := range hr.hooks {
		if !answered {
			j.readErr = errHookNotAnswered
			continue
		}
		k := j.pool.Key
		j.code, j.readErr = j.read.Decode(j.pool.Manager, k.Currency0, k.Currency1, r.token)
		if j.readErr != nil {
			continue
		}
		j.probe, j.probeErr = hook.NewProbeCall(hook.Request{Code: j.code, Pool: j.pool, Token: r.token})
		if j.probeErr == nil {
			plan.add(j.probe.Elems())
		}
	}
}

// hookFacts are the judgments after round trip 3 (answered: the node
// answered it) and the explorers' answers.
func (r *scanRun) hookFacts(hr *hookRound, answered bool) []analysis.EVMHook {
	if hr == nil {
		return nil
	}
	hr.wg.Wait()
	out := make([]analysis.EVMHook, 0, len(hr.hooks))
	for _, j := range hr.hooks {
		probe, probeErr := j.probe, j.probeErr
		if probe != nil && !answered {
			probe, probeErr = nil, errHookNotAnswered
		}
		out = append(out, hook.Judgment{Pool: j.pool, Code: j.code, ReadErr: j.readErr, Probe: probe, ProbeErr: probeErr,
			Known: j.known, Verified: j.verified, VerifyNote: j.note}.Facts())
	}
	return out
}

// hookVerified asks the configured explorers whether the hook's source is
// verified: true when one has it, false only when every one answered no.
func (r *scanRun) hookVerified(ctx context.Context, addr common.Address) (*bool, string) {
	a := r.a
	if a.opts.Sourcify == nil && a.opts.Etherscan == nil {
		return nil, "no explorer configured"
	}
	id := r.s.chain.ChainID
	if r.s.chain.ExplorerChainID != 0 {
		id = r.s.chain.ExplorerChainID
	}
	answered, no := 0, 0
	var errs []string
	if a.opts.Sourcify != nil {
		v, err := a.opts.Sourcify.Verification(ctx, id, addr.Hex())
		switch {
		case err != nil:
			errs = append(errs, "sourcify: "+node.SafeErr(err))
		case v.Verified:
			t := true
			return &t, ""
		default:
			answered, no = answered+1, no+1
		}
	}
	if a.opts.Etherscan != nil {
		v, err := a.opts.Etherscan.Verification(ctx, id, addr.Hex())
		switch {
		case err != nil:
			errs = append(errs, "etherscan: "+node.SafeErr(err))
		case v.Verified:
			t := true
			return &t, ""
		default:
			answered, no = answered+1, no+1
		}
	}
	if len(errs) == 0 && answered > 0 && no == answered {
		f := false
		return &f, ""
	}
	return nil, strings.Join(errs, "; ")
}
