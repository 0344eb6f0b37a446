package simulation

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"
)

// The real holders' sells (issue 18; what Honeypot.is reports): each
// holder, from its own address (eth_simulateV1 sends from any address; no
// key, no code needed), approves the simulator and sells its whole
// holding the way a DEX router does (routeSellFrom: transferFrom into the
// pool, then the swap; a refused size is retried at a quarter, so a
// max-sell limit is no failure). One eth_simulateV1, one block per holder
// (a limit of sells per block never meets two holders), the simulator's
// code placed once: an element of a batch the scan sends anyway. Each
// sell is priced on the reserves right before it, so the earlier holders'
// sells move the price the later ones meet but not the tax measured.

// Seller is one holder whose sell is simulated.
type Seller struct {
	Address common.Address
	// Logged is the balance the Transfer logs give (nil: unknown); with
	// NeverSent, a real holding below it is siphoned.
	Logged    *big.Int
	NeverSent bool
}

// HolderSellsCall builds the sellers' element and the decoder of its
// answer, valid after the batch ran. req is the simulation's own request
// (the same pool, quote and fee).
func HolderSellsCall(req SimulationRequest, sellers []Seller) ([]rpc.BatchElem, func() *analysis.EVMHolderSells, error) {
	if len(sellers) == 0 {
		return nil, nil, nil
	}
	sim, err := SimulatorContract()
	if err != nil {
		return nil, nil, fmt.Errorf("simulation: %w", err)
	}
	kind, err := simulatorPoolKind(req.PoolKind)
	if err != nil {
		return nil, nil, err
	}
	stepGas := req.StepGas
	if stepGas == 0 {
		stepGas = DefaultStepGas
	}
	p := simParams{
		Token: req.Token, Pool: req.Pool, Quote: req.Quote, Wrapped: req.Wrapped, FundPool: req.FundPool,
		PoolKind: kind, FeeBps: big.NewInt(int64(req.FeeBps)), AmountIn: new(big.Int), Recipient: SimulationRecipient,
		GasPerStep: new(big.Int).SetUint64(stepGas), Steps: stepSell,
	}
	sell, err := routeSellFromInput(sim.ABI, p, wholePPM, false)
	if err != nil {
		return nil, nil, err
	}
	ov := node.StateOverride{SimulatorAddress: {Code: sim.DeployedBytecode}}
	routeGas := hexutil.Uint64(stepGas*4 + 500_000)
	// The sells run one DelayedSell after the latest block: a sell
	// cooldown after a last buyer's recent buy is no trap (the fresh
	// wallet's refused sell is retried as late). A block of its own
	// for a retry would double the node's time for every holder.
	later := req.DelayedSell > 0 && req.BlockTime > 0
	at := req.BlockTime + uint64(req.DelayedSell.Seconds())
	var out []SimBlockResult
	blocks := make([]simBlock, len(sellers))
	for i, s := range sellers {
		blocks[i].Calls = []simCall{
			{From: s.Address, To: req.Token, Gas: hexutil.Uint64(stepGas), Input: approveInput(SimulatorAddress)},
			{From: s.Address, To: SimulatorAddress, Gas: routeGas, Input: sell},
		}
	}
	blocks[0].StateOverrides = ov
	if later {
		blocks[0].BlockOverrides = map[string]any{"time": hexutil.Uint64(at)}
	}
	elems := []rpc.BatchElem{{Method: "eth_simulateV1", Args: []any{simOpts{BlockStateCalls: blocks}, "latest"}, Result: &out}}
	decode := func() *analysis.EVMHolderSells {
		if simulated(elems[0], out, len(blocks)) != nil {
			return nil
		}
		var tally HolderTally
		for i, s := range sellers {
			if len(out[i].Calls) != 2 {
				continue // not established for this holder
			}
			r, held, err := routeSellFromResult(sim.ABI, out[i].Calls[1])
			if err != nil || held.Sign() == 0 {
				continue
			}
			tally.Tried(s, held)
			if !r.SellOk {
				tally.Refused(s, revert.RevertReason(r.SellError))
				continue
			}
			tally.Sold(sellTax(r))
		}
		return tally.Result()
	}
	return elems, decode, nil
}
