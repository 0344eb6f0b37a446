package simulation

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
)

// The sell through the DEX's own router (issue 18, "sell as users sell"):
// where the chain's file names the pool's DEX router (Uniswap V2 Router02
// and its forks), the fresh wallet buys, approves that router and sells
// with swapExactTokensForTokensSupportingFeeOnTransferTokens(amount, 0,
// [token, quote], wallet, deadline): the router pulls the tokens with
// transferFrom into the pair and swaps, exactly as a user's sell does.
// A wallet cannot compute between its transactions, so it tries a sell
// ladder like the wallet path's (fixed amounts from the quoted buy, 65%
// each step; one above the holding fails for the balance alone); the pair's
// reserves and the wallet's quote balance are read before each step, so
// the step that sold is priced on the reserves it met. The sell runs in a
// block one DelayedSell after the buy (a sell cooldown is the direct
// path's finding, not a router trap). One more element
// of the simulation's batch. The simulator acting as the router
// (routeSellFrom, fresh.go) stays the fallback where no router is named
// or its sell was not established; a disagreement between the two is
// noted.

// routerSellSteps is the router ladder's length: from 99.9% of the quoted
// buy down to 4.9% (a buy tax up to 95% still leaves a step that fits);
// every step within the holding swaps, so fewer than the wallet path's.
const routerSellSteps = 8

// routerDeadline is the swaps' deadline: far beyond any block time.
var routerDeadline = new(big.Int).Lsh(big.NewInt(1), 63)

// routerStep indexes one ladder step's calls in the block.
type routerStep struct{ reserves, quoteBefore, swap int }

// realRouterPlan is the element and the indexes its decoder reads.
type realRouterPlan struct {
	router     common.Address
	token0     bool // the token is the pair's token0
	feeBps     int
	ladder     []*big.Int
	buy, held  int
	steps      []routerStep
	quoteAfter int
	out        []SimBlockResult
	calls      int
	elem       rpc.BatchElem
	parsed     abi.ABI
}

// routerSwapInput packs swapExactTokensForTokensSupportingFeeOnTransferTokens.
func routerSwapInput(amount *big.Int, token, quote, to common.Address) []byte {
	out := bytecode.SelectorOf("swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256,uint256,address[],address,uint256)").Bytes()
	word := func(v *big.Int) []byte { return common.LeftPadBytes(v.Bytes(), 32) }
	out = append(out, word(amount)...)
	out = append(out, word(new(big.Int))...)
	out = append(out, word(big.NewInt(5*32))...) // the path's offset
	out = append(out, common.LeftPadBytes(to.Bytes(), 32)...)
	out = append(out, word(routerDeadline)...)
	out = append(out, word(big.NewInt(2))...)
	out = append(out, common.LeftPadBytes(token.Bytes(), 32)...)
	return append(out, common.LeftPadBytes(quote.Bytes(), 32)...)
}

// getReservesInput is getReserves().
var getReservesInput = bytecode.SelectorOf("getReserves()").Bytes()

// newRealRouterPlan builds the router sell, or nil when the request names
// no router, the pool is not V2 or the quoted buy is unknown.
func newRealRouterPlan(parsed abi.ABI, req SimulationRequest, amount *big.Int, stepGas uint64, ov node.StateOverride, buyInput []byte) *realRouterPlan {
	if req.Router == (common.Address{}) || req.PoolKind != "v2" || req.TokenReserve == nil || req.TokenReserve.Sign() <= 0 || req.QuoteReserve == nil {
		return nil
	}
	expected := quoteOut(amount, req.QuoteReserve, req.TokenReserve, req.FeeBps)
	pl := &realRouterPlan{router: req.Router, token0: bytes.Compare(req.Token.Bytes(), req.Quote.Bytes()) < 0, feeBps: req.FeeBps, parsed: parsed}
	for i := range routerSellSteps {
		step := new(big.Int).Mul(expected, big.NewInt(999))
		step.Mul(step, new(big.Int).Exp(big.NewInt(walletSellNum), big.NewInt(int64(i)), nil))
		step.Div(step, new(big.Int).Mul(big.NewInt(1000), new(big.Int).Exp(big.NewInt(walletSellDen), big.NewInt(int64(i)), nil)))
		if step.Sign() == 0 {
			break
		}
		pl.ladder = append(pl.ladder, step)
	}
	if len(pl.ladder) == 0 {
		return nil
	}
	routeGas := stepGas*4 + 500_000
	var b1, b walletBlock
	pl.buy = b1.add(SimulatorAddress, routeGas, buyInput)
	b1.add(req.Token, stepGas, approveInput(req.Router))
	pl.held = b.add(req.Token, walletReadGas, balanceOfInput(SimulationWallet))
	for _, amt := range pl.ladder {
		pl.steps = append(pl.steps, routerStep{
			reserves:    b.add(req.Pool, walletReadGas, getReservesInput),
			quoteBefore: b.add(req.Quote, walletReadGas, balanceOfInput(SimulationWallet)),
			swap:        b.add(req.Router, routeGas, routerSwapInput(amt, req.Token, req.Quote, SimulationWallet)),
		})
	}
	pl.quoteAfter = b.add(req.Quote, walletReadGas, balanceOfInput(SimulationWallet))
	pl.calls = len(b.calls)
	blocks := []simBlock{{StateOverrides: ov, Calls: b1.calls}, {Calls: b.calls}}
	if req.DelayedSell > 0 && req.BlockTime > 0 {
		blocks[1].BlockOverrides = map[string]any{"time": hexutil.Uint64(req.BlockTime + uint64(req.DelayedSell.Seconds()))}
	}
	pl.elem = rpc.BatchElem{Method: "eth_simulateV1", Args: []any{simOpts{BlockStateCalls: blocks}, "latest"}, Result: &pl.out}
	return pl
}

// decode reads the router sell: nil when not established (the node did
// not simulate, the buy failed, the wallet held too little to try).
func (pl *realRouterPlan) decode(el rpc.BatchElem) (*analysis.EVMRouterSell, string) {
	if err := simulated(el, pl.out, 2); err != nil {
		return nil, err.Error()
	}
	calls := pl.out[1].Calls
	if len(calls) != pl.calls || len(pl.out[0].Calls) != 2 {
		return nil, fmt.Sprintf("eth_simulateV1 answered %d calls for %d", len(calls), pl.calls)
	}
	buy, err := routeResult(pl.parsed, pl.out[0].Calls[pl.buy])
	if err != nil || !buy.BuyOk {
		return nil, "the buy before the router sell failed"
	}
	held, ok := callWord(calls[pl.held])
	if !ok {
		return nil, "the wallet's holding was unreadable"
	}
	rs := &analysis.EVMRouterSell{Router: pl.router.Hex()}
	left := new(big.Int).Set(held)
	var refused string
	for k, st := range pl.steps {
		amt := pl.ladder[k]
		if amt.Cmp(left) > 0 {
			continue
		}
		if calls[st.swap].Status != 1 {
			if refused == "" {
				refused = callFailed(calls[st.swap])
			}
			continue
		}
		left.Sub(left, amt)
		if rs.CanSell != nil {
			continue
		}
		rs.CanSell = new(true)
		next := pl.quoteAfter
		if k+1 < len(pl.steps) {
			next = pl.steps[k+1].quoteBefore
		}
		r0, r1, okR := reservesWords(calls[st.reserves])
		q0, ok0 := callWord(calls[st.quoteBefore])
		q1, ok1 := callWord(calls[next])
		if okR && ok0 && ok1 {
			rToken, rQuote := r0, r1
			if !pl.token0 {
				rToken, rQuote = r1, r0
			}
			rs.SellTax = LossPct(new(big.Int).Sub(q1, q0), quoteOut(amt, rToken, rQuote, pl.feeBps))
		}
	}
	switch {
	case rs.CanSell != nil:
		return rs, ""
	case refused != "":
		msg := "sell failed: " + refused
		rs.CanSell, rs.Error = new(false), &msg
		return rs, ""
	}
	return nil, "the wallet held too little to try the router sell"
}

// reservesWords reads getReserves()'s first two words.
func reservesWords(c SimCallResult) (*big.Int, *big.Int, bool) {
	if c.Status != 1 || len(c.ReturnData) < 64 {
		return nil, nil, false
	}
	return new(big.Int).SetBytes(c.ReturnData[:32]), new(big.Int).SetBytes(c.ReturnData[32:64]), true
}
