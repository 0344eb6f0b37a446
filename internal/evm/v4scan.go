package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"

	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// Uniswap V4 in the round trips (package v4 reads the pools):
//
//  1. detect: the PoolManager's Initialize logs with the token as
//     currency0 or currency1, two eth_getLogs per V4 deployment the
//     chains file names, in the same batch as detection;
//  2. simulation: each found pool's slot0 and liquidity (one extsload
//     per PoolManager) and the V4 simulation of up to maxV4Simulations
//     pools beside the V2/V3 simulation (the V4 simulator sizes its buy
//     from the pool's state itself, so it needs no answer of this round
//     trip).
//
// After round trip 2 the V4 pools join the pool list, valued like the
// others; the simulation of the deepest pool that has one decides.

// Bounds on one scan's V4 pools: a token such as a stablecoin is a
// currency of thousands. The state of at most maxV4StatePools is read
// (pools against the native coin or a quote token first), at most
// maxV4Simulations are simulated (each is one eth_call running the hook
// twice) and the maxV4Listed deepest are listed; a warning says when some
// were left out.
const (
	maxV4StatePools  = 64
	maxV4Simulations = 4
	maxV4Listed      = 8
)

// v4Facts are the V4 pools of the scan and their simulations: the seam
// the hook analysis reads (each pool's Key.Hooks; what the simulator saw
// through it).
type v4Facts struct {
	// Pools are the V4 pools listed in the report (at most maxV4Listed,
	// the deepest), with their keys and state.
	Pools []v4.Pool
	// Sims are the V4 simulations by pool id (nil where the call failed).
	Sims map[common.Hash]*v4.Simulation
	// Reports are the simulations as the analysis reads them, by pool id.
	Reports map[common.Hash]*analysis.EVMSimulation
	// SearchFailed says a log search failed or did not reach its
	// deployment block: V4 pools are unknown (those found are listed).
	SearchFailed bool
}

// v4Round is round trip 2's V4 part.
type v4Round struct {
	search *v4Search
	states []*v4.StateCall
	sims   []v4SimCall
}

type v4SimCall struct {
	pool   int // index in search.pools
	decode func() (*v4.Simulation, error)
	// wallet decodes the wallet path through the pool; nil when it was
	// not planned (walletNote says why).
	wallet     func() (*analysis.EVMSimulation, string)
	walletNote string
}

// v4Calls plans round trip 2's V4 calls into plan.
func (r *scanRun) v4Calls(plan *batchPlan) *v4Round {
	vs := r.s.v4
	if vs == nil || len(vs.pools) == 0 {
		return &v4Round{search: vs}
	}
	vr := &v4Round{search: vs}
	order := r.v4Order(vs)
	if len(order) > maxV4StatePools {
		r.warn("v4: %d Uniswap V4 pools found; the first %d against the native coin or a quote token are read", len(order), maxV4StatePools)
		order = order[:maxV4StatePools]
	}
	pools, dexOf := make([]v4.Pool, len(order)), make([]chains.DEX, len(order))
	for j, i := range order {
		pools[j], dexOf[j] = vs.pools[i], vs.dexOf[i]
	}
	vs.pools, vs.dexOf = pools, dexOf
	byManager := map[common.Address][]*v4.Pool{}
	var managers []common.Address
	for i := range vs.pools {
		m := vs.pools[i].Manager
		if _, ok := byManager[m]; !ok {
			managers = append(managers, m)
		}
		byManager[m] = append(byManager[m], &vs.pools[i])
	}
	for _, m := range managers {
		sc := v4.NewStateCall(m, byManager[m])
		vr.states = append(vr.states, sc)
		plan.add(sc.Elems())
	}
	var wrapped common.Address
	if w, ok := r.s.chain.Wrapped(); ok {
		wrapped = common.HexToAddress(w.Address)
	}
	var blockTime uint64
	if r.s.lens != nil {
		blockTime = r.s.lens.Timestamp
	}
	for i := range min(len(vs.pools), maxV4Simulations) {
		elems, decode, err := v4.SimulationCall(v4.SimulationRequest{Pool: vs.pools[i], Token: r.token})
		if err != nil {
			r.warn("v4 simulation: %s", node.SafeErr(err))
			continue
		}
		plan.add(elems)
		sc := v4SimCall{pool: i, decode: decode}
		welems, wdecode, err := v4.WalletCall(v4.WalletRequest{Pool: vs.pools[i], Token: r.token, Wrapped: wrapped,
			BlockTime: blockTime, DelayedSell: simulation.DefaultDelayedSell})
		if err != nil {
			sc.walletNote = node.SafeErr(err)
		} else {
			plan.add(welems)
			sc.wallet = wdecode
		}
		vr.sims = append(vr.sims, sc)
	}
	return vr
}

// v4Order orders the found pools: those against the native coin or a
// configured quote token first (they can be valued, so they can be the
// main pool), oldest first within each.
func (r *scanRun) v4Order(vs *v4Search) []int {
	quotes := map[common.Address]bool{{}: true}
	for _, q := range r.s.chain.QuoteTokens {
		quotes[common.HexToAddress(q.Address)] = true
	}
	var first, rest []int
	for i, p := range vs.pools {
		if quotes[p.Key.Other(r.token)] {
			first = append(first, i)
		} else {
			rest = append(rest, i)
		}
	}
	if n := len(first) + len(rest); n > maxV4Simulations {
		r.warn("v4: %d Uniswap V4 pools found; %d simulated (against the native coin or a quote token first)", n, maxV4Simulations)
	}
	return append(first, rest...)
}

// apply reads round trip 2's V4 answers (answered: the node answered the
// batch), lists the pools among the others and returns the facts.
func (r *scanRun) v4Apply(vr *v4Round, answered bool) *v4Facts {
	vs := vr.search
	if vs == nil {
		return nil
	}
	f := &v4Facts{SearchFailed: vs.err != nil || len(vs.partial) > 0, Sims: map[common.Hash]*v4.Simulation{}, Reports: map[common.Hash]*analysis.EVMSimulation{}}
	if vs.err != nil {
		r.warn("v4: the Uniswap V4 pool search failed (%s); V4 pools are unknown", node.SafeErr(vs.err))
	}
	for _, p := range vs.partial {
		r.warn("v4: %s", p)
	}
	for _, sc := range vr.states {
		if !answered {
			break
		}
		if err := sc.Apply(); err != nil {
			r.warn("v4: %s; the pools' liquidity is unknown", node.SafeErr(err))
		}
	}
	for _, sc := range vr.sims {
		p := vs.pools[sc.pool]
		var rep *analysis.EVMSimulation
		if !answered {
			msg := "the node did not answer the V4 simulation call"
			rep = &analysis.EVMSimulation{Error: &msg, Pool: p.ID.Hex(), Path: v4.PathV4}
		} else if sim, err := sc.decode(); err != nil {
			msg := node.SafeErr(err)
			rep = &analysis.EVMSimulation{Error: &msg, Pool: p.ID.Hex(), Path: v4.PathV4}
		} else {
			f.Sims[p.ID] = sim
			rep = sim.Report(p)
		}
		if answered {
			rep = v4Wallet(rep, sc)
		}
		f.Reports[p.ID] = rep
	}
	if len(vs.pools) == 0 {
		return f
	}
	// One PoolManager holds every pool's tokens: a pool's first liquidity
	// is the manager's first receipt only when the token has one pool
	// there (assemble reads it by address).
	listed := make([]pool.Pool, len(vs.pools))
	byID := map[common.Hash]v4.Pool{}
	for i, p := range vs.pools {
		listed[i] = r.s.plan.V4Pool(r.s.lens, vs.dexOf[i], p)
		byID[p.ID] = p
	}
	pool.SortDeepest(listed)
	if len(listed) > maxV4Listed {
		r.warn("v4: %d Uniswap V4 pools read; the %d deepest are listed", len(listed), maxV4Listed)
		listed = listed[:maxV4Listed]
	}
	f.Pools = nil
	for _, p := range listed {
		f.Pools = append(f.Pools, byID[common.HexToHash(p.Report.PoolID)])
	}
	r.s.pools = append(r.s.pools, listed...)
	pool.SortDeepest(r.s.pools)
	return f
}

// v4Wallet folds the wallet path through a pool into its contract
// simulation (v4.Combine: the wallet decides buying and selling).
func v4Wallet(contract *analysis.EVMSimulation, sc v4SimCall) *analysis.EVMSimulation {
	if sc.wallet == nil {
		return v4.Combine(contract, nil, sc.walletNote)
	}
	w, note := sc.wallet()
	return v4.Combine(contract, w, note)
}

// chooseSimulation picks the simulation that decides: that of the deepest
// pool with liquidity whose simulation ran (the V2/V3 one, sim of simPool,
// or a V4 pool's). The others' disagreements on buying or selling are
// noted.
func (r *scanRun) chooseSimulation(sim *analysis.EVMSimulation, simPool *pool.Pool, f *v4Facts) (*analysis.EVMSimulation, *pool.Pool) {
	if f == nil || len(f.Reports) == 0 {
		return sim, simPool
	}
	type cand struct {
		sim  *analysis.EVMSimulation
		pool *pool.Pool
		name string
	}
	var ran []cand
	for i := range r.s.pools {
		p := &r.s.pools[i]
		if p.QuoteReserve == nil || p.QuoteReserve.Sign() == 0 {
			continue
		}
		switch {
		case p.DEX.Kind == "v4":
			if s := f.Reports[common.HexToHash(p.Report.PoolID)]; s != nil && s.CanBuy != nil {
				ran = append(ran, cand{s, p, fmt.Sprintf("the %s pool %s", p.DEX.Name, p.Report.PoolID)})
			}
		case simPool != nil && p.Address == simPool.Address && sim != nil && sim.CanBuy != nil:
			ran = append(ran, cand{sim, p, fmt.Sprintf("the %s pool %s", p.DEX.Name, p.Address.Hex())})
		}
	}
	if len(ran) == 0 {
		if sim != nil {
			return sim, simPool
		}
		// No simulation ran: report the first V4 pool's failure.
		for i := range r.s.pools {
			p := &r.s.pools[i]
			if s := f.Reports[common.HexToHash(p.Report.PoolID)]; p.DEX.Kind == "v4" && s != nil {
				return s, p
			}
		}
		return sim, simPool
	}
	chosen := ran[0]
	for _, o := range ran[1:] {
		if note := disagreement(chosen.sim, o.sim, o.name); note != "" {
			chosen.sim.Notes = append(chosen.sim.Notes, note)
		}
	}
	return chosen.sim, chosen.pool
}

// disagreement words how another pool's simulation differs from the
// deciding one on buying or selling.
func disagreement(chosen, other *analysis.EVMSimulation, name string) string {
	eq := func(a, b *bool) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
	if eq(chosen.CanBuy, other.CanBuy) && eq(chosen.CanSell, other.CanSell) {
		return ""
	}
	state := func(v *bool, what string) string {
		switch {
		case v == nil:
			return what + " unknown"
		case *v:
			return what + " works"
		}
		return what + " fails"
	}
	msg := fmt.Sprintf("through %s (a shallower pool): %s, %s", name, state(other.CanBuy, "buying"), state(other.CanSell, "selling"))
	if other.Error != nil {
		msg += " (" + *other.Error + ")"
	}
	return msg
}

// onePoolIn says the token has exactly one V4 pool in manager.
func (f *v4Facts) onePoolIn(manager common.Address) bool {
	if f == nil {
		return false
	}
	n := 0
	for _, p := range f.Pools {
		if p.Manager == manager {
			n++
		}
	}
	return n == 1
}
