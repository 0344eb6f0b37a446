package evm

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
)

// The real holders' sells ride the batch that first knows the holders
// (round trip 3, or the holders' round trip when the rebuild outlived it):
// no round trip of their own.
const (
	// holderSellsTop and holderSellsLast bound the sellers: the largest
	// holders, then the last buyers not already among them.
	holderSellsTop  = 8
	holderSellsLast = 4
)

// holderSellsPlan is the sells' elements and decoder.
type holderSellsPlan struct {
	elems  []rpc.BatchElem
	decode func() *analysis.EVMHolderSells
}

// holderSells plans the sells of the real holders of hs against the
// simulation's own pool (the V2/V3 pool of req, or the V4 pool whose
// simulation decided, through V4WalletRouter); nil when there is nothing
// to try (no simulation,
// no holder that is not a pool, a quote token, a locker, a burn address,
// the token or a privileged address: the owner, the creator, an address
// stored in the token, whose sells are not a user's; or a token the chain
// trusts).
func (r *scanRun) holderSells(req *simulation.SimulationRequest, f *v4Facts, sim *analysis.EVMSimulation, hs *holder.HolderScan, privileged []common.Address) *holderSellsPlan {
	if sim == nil || hs == nil {
		return nil
	}
	v4Pool := f.decidingPool(sim)
	if req == nil && v4Pool == nil {
		return nil
	}
	if _, trusted := r.s.chain.IsTrusted(r.token.Hex()); trusted {
		return nil // its holders are exchanges and bridges, its sells no question
	}
	exclude := append([]common.Address{r.token}, privileged...)
	var pools []common.Address
	for _, p := range r.s.pools {
		pools = append(pools, p.Address)
		exclude = append(exclude, p.Address)
	}
	if f != nil {
		// A V4 pool's tokens are the PoolManager's: it pays the buyers.
		for _, p := range f.Pools {
			if !slices.Contains(pools, p.Manager) {
				pools = append(pools, p.Manager)
				exclude = append(exclude, p.Manager)
			}
		}
	}
	for _, q := range r.s.chain.QuoteTokens {
		exclude = append(exclude, common.HexToAddress(q.Address))
	}
	for _, l := range r.s.chain.Lockers {
		exclude = append(exclude, common.HexToAddress(l.Address))
	}
	for _, b := range r.s.chain.BurnAddresses {
		exclude = append(exclude, common.HexToAddress(b))
	}
	picked := holder.Sellers(hs, pools, func(a common.Address) bool { return slices.Contains(exclude, a) }, holderSellsTop, holderSellsLast)
	sellers := make([]simulation.Seller, len(picked))
	for i, s := range picked {
		sellers[i] = simulation.Seller{Address: s.Address, Logged: s.Logged, NeverSent: s.NeverSent}
	}
	var elems []rpc.BatchElem
	var decode func() *analysis.EVMHolderSells
	var err error
	if v4Pool != nil {
		wr := v4.WalletRequest{Pool: *v4Pool, Token: r.token, DelayedSell: simulation.DefaultDelayedSell}
		if r.s.lens != nil {
			wr.BlockTime = r.s.lens.Timestamp
		}
		elems, decode, err = v4.HolderSellsCall(wr, sellers)
	} else {
		elems, decode, err = simulation.HolderSellsCall(*req, sellers)
	}
	if err != nil {
		r.warn("simulation: the real holders' sells were not built (%s)", node.SafeErr(err))
		return nil
	}
	if len(elems) == 0 {
		return nil
	}
	return &holderSellsPlan{elems: elems, decode: decode}
}

// decidingPool is the V4 pool whose simulation decided (sim's pool), nil
// when a V2/V3 pool's did.
func (f *v4Facts) decidingPool(sim *analysis.EVMSimulation) *v4.Pool {
	if f == nil || sim == nil || sim.Path != v4.PathV4 {
		return nil
	}
	for i := range f.Pools {
		if f.Pools[i].ID.Hex() == sim.Pool {
			return &f.Pools[i]
		}
	}
	return nil
}

// apply fills sim.HolderSells after the batch (sent: the node answered
// it); sells asked but not established are unknown, with a warning.
func (p *holderSellsPlan) apply(r *scanRun, sim *analysis.EVMSimulation, sent bool) {
	if p == nil || sim == nil {
		return
	}
	if sent {
		sim.HolderSells = p.decode()
	}
	if sim.HolderSells == nil {
		r.warn("simulation: the real holders' sells could not be simulated; whether holders can sell is unknown")
	}
}
