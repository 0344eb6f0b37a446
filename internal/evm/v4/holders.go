package v4

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
)

// The real holders' sells through a V4 pool (as simulation.HolderSellsCall
// for V2/V3 pools): each holder, from its own address, reads its holding,
// approves V4WalletRouter and sells all of it through the pool, the router
// pulling it by transferFrom during the settle, every hook running. One
// eth_simulateV1, one block per holder, the router's code placed once;
// the blocks run one DelayedSell after the latest (a cooldown after a last
// buyer's recent buy is no trap).

// Indexes of a holder's calls in its block.
const (
	holderHeld = iota
	holderApprove
	holderSell
)

// HolderSellsCall builds the holders' element and the decoder of its
// answer, valid after the batch ran (nil when no holder's sell was
// established). req names the pool, the token and the time; Wrapped is
// not needed (holders pay nothing).
func HolderSellsCall(req WalletRequest, sellers []simulation.Seller) ([]rpc.BatchElem, func() *analysis.EVMHolderSells, error) {
	if len(sellers) == 0 {
		return nil, nil, nil
	}
	router, err := contracts.Artifact("V4WalletRouter")
	if err != nil {
		return nil, nil, fmt.Errorf("v4 holder sells: %w", err)
	}
	sell, err := sellInput(router.ABI, req.Pool, req.Token, wholePPM)
	if err != nil {
		return nil, nil, err
	}
	stepGas := req.StepGas
	if stepGas == 0 {
		stepGas = DefaultStepGas
	}
	routeGas := hexutil.Uint64(4*stepGas + 500_000)
	blocks := make([]walletBlock, len(sellers))
	for i, s := range sellers {
		blocks[i].Calls = []walletCall{
			holderHeld:    {From: s.Address, To: req.Token, Gas: 200_000, Input: balanceOfInput(s.Address)},
			holderApprove: {From: s.Address, To: req.Token, Gas: hexutil.Uint64(stepGas), Input: approveRouter()},
			holderSell:    {From: s.Address, To: WalletRouterAddress, Gas: routeGas, Input: sell},
		}
	}
	blocks[0].StateOverrides = node.StateOverride{WalletRouterAddress: {Code: router.DeployedBytecode}}
	if req.DelayedSell > 0 && req.BlockTime > 0 {
		blocks[0].BlockOverrides = map[string]any{"time": hexutil.Uint64(req.BlockTime + uint64(req.DelayedSell.Seconds()))}
	}
	var out []simulation.SimBlockResult
	elems := []rpc.BatchElem{{Method: "eth_simulateV1", Args: []any{walletOpts{BlockStateCalls: blocks}, "latest"}, Result: &out}}
	decode := func() *analysis.EVMHolderSells {
		if elems[0].Error != nil || len(out) != len(blocks) {
			return nil
		}
		var tally simulation.HolderTally
		for i, s := range sellers {
			calls := out[i].Calls
			if len(calls) != 3 || calls[holderHeld].Status != 1 || len(calls[holderHeld].ReturnData) < 32 {
				continue // not established for this holder
			}
			held := new(big.Int).SetBytes(calls[holderHeld].ReturnData[:32])
			if held.Sign() == 0 {
				continue
			}
			tally.Tried(s, held)
			f, reason := routerFill(router.ABI, "sell", calls[holderSell])
			if f == nil {
				if calls[holderApprove].Status != 1 {
					reason += " (the holder's approve of the router failed: " + callReason(calls[holderApprove]) + ")"
				}
				tally.Refused(s, reason)
				continue
			}
			tally.Sold(fillSellTax(f))
		}
		return tally.Result()
	}
	return elems, decode, nil
}

func balanceOfInput(holder common.Address) []byte {
	in := bytecode.SelBalanceOf.Bytes()
	return append(in, common.LeftPadBytes(holder.Bytes(), 32)...)
}
