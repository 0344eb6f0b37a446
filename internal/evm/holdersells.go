package evm

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
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
// simulation's own pool; nil when there is nothing to try (no simulation,
// no holder that is not a pool, a quote token, a locker, a burn address,
// the token or a privileged address: the owner, the creator, an address
// stored in the token, whose sells are not a user's; or a token the chain
// trusts).
func (r *scanRun) holderSells(req *simulation.SimulationRequest, sim *analysis.EVMSimulation, hs *holder.HolderScan, privileged []common.Address) *holderSellsPlan {
	if req == nil || sim == nil || hs == nil {
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
	elems, decode, err := simulation.HolderSellsCall(*req, sellers)
	if err != nil {
		r.warn("simulation: the real holders' sells were not built (%s)", node.SafeErr(err))
		return nil
	}
	if len(elems) == 0 {
		return nil
	}
	return &holderSellsPlan{elems: elems, decode: decode}
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
