package simulation

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"

	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// SimulationWallet is the throwaway wallet of the wallet path: an address
// with no code and a native balance by state override, sending real
// transactions (it is msg.sender and tx.origin, and extcodesize is zero),
// so anti-bot rules that refuse contracts see an ordinary user.
var SimulationWallet = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.simulation.wallet"))[12:])

// Simulation paths, reported as EVMSimulation.Path.
const (
	PathWallet   = "wallet"
	PathContract = "contract"
)

// The wallet cannot compute between its transactions, so it transfers
// ladders of amounts fixed in advance, each a fraction of the quoted buy.
// A transfer above the holding reverts and changes nothing, so the first
// step that fits sells at least 65% of the holding, and smaller steps may
// follow it; the balance reads around the ladder measure what really
// moved, however many steps did.
const (
	walletSellSteps = 16 // from 99.9% of the quoted buy down to 0.16%
	walletSellNum   = 13 // each step is 13/20 = 0.65 of the one before
	walletSellDen   = 20
	walletReadGas   = 200_000
)

// walletTransferParts: the transfer test sends 1/20 of the quoted buy,
// then 1/1000 (which still fits when the buy was taxed or cut short).
var walletTransferParts = []int64{20, 1000}

// walletSell indexes one sell in a block: the holding read before,
// routeMark (V2-style pools; -1 on V3), the transfer ladder to the pool
// each followed by a routeSell (V2-style pools), the last routeSell (its
// answer sums the ladder's), the holding read after.
type walletSell struct {
	before, after, mark, route int
	steps, routes              []int
}

// walletPlan is the eth_simulateV1 request of the wallet path: block 1
// buys, tests a transfer and sells; block 2 (one DelayedSell later, when
// enabled) retries the sell, telling a cooldown from a honeypot.
type WalletPlan struct {
	Blocks       []simBlock
	buy          int
	v3           bool
	pool         common.Address
	markBefore   int // routeMark before the transfer test (V2-style pools; -1 on V3)
	held         int // the wallet's holding after the buy
	rcptBefore   int
	xfer         []int
	rcptAfter    int
	sell         walletSell
	later        *walletSell
	SellLadder   []*big.Int
	XferSmallest *big.Int
	Out          []SimBlockResult
}

// walletBlock collects one block's calls from the wallet.
type walletBlock struct{ calls []simCall }

func (b *walletBlock) add(to common.Address, gas uint64, input []byte) int {
	b.calls = append(b.calls, simCall{From: SimulationWallet, To: to, Gas: hexutil.Uint64(gas), Input: input})
	return len(b.calls) - 1
}

func balanceOfInput(holder common.Address) []byte {
	return append(bytecode.SelBalanceOf.Bytes(), common.LeftPadBytes(holder.Bytes(), 32)...)
}

func transferInput(to common.Address, amount *big.Int) []byte {
	out := bytecode.SelectorOf("transfer(address,uint256)").Bytes()
	out = append(out, common.LeftPadBytes(to.Bytes(), 32)...)
	return append(out, common.LeftPadBytes(amount.Bytes(), 32)...)
}

// quoteOut is the constant-product output of amountIn (V2 formula).
func quoteOut(amountIn, reserveIn, reserveOut *big.Int, feeBps int) *big.Int {
	if amountIn == nil || reserveIn == nil || reserveOut == nil || feeBps < 0 || feeBps >= 10_000 {
		return new(big.Int)
	}
	in := new(big.Int).Mul(amountIn, big.NewInt(int64(10_000-feeBps)))
	num := new(big.Int).Mul(in, reserveOut)
	den := new(big.Int).Add(new(big.Int).Mul(reserveIn, big.NewInt(10_000)), in)
	if den.Sign() == 0 {
		return new(big.Int)
	}
	return num.Div(num, den)
}

// newWalletPlan builds the wallet path, or nil when the quoted buy is
// unknown (no token reserve) or rounds to nothing. buyInput, sellInput and
// markInput are the simulator's routeBuy, routeSell and routeMark calls.
// On a V2-style pool (v3 false) the wallet transfers to the pool itself,
// and the router swaps after each transfer (so a token that sells its own
// fees during a later transfer never sweeps an earlier one still waiting
// in the pool, which a single real sell never leaves); routeMark calls
// around the transfer test and before the sell mark the pool's price, so
// the token's own swaps inside them are measured apart. On a V3 pool it
// approves the simulator, whose swap callback pulls the tokens as
// Uniswap's router does (the quote, from the pool's balances, is then
// only an estimate: it sizes the transfer test alone).
func NewWalletPlan(req SimulationRequest, v3 bool, amount *big.Int, stepGas uint64, overrides node.StateOverride, buyInput, sellInput, markInput []byte) *WalletPlan {
	if req.TokenReserve == nil || req.TokenReserve.Sign() <= 0 || req.QuoteReserve == nil {
		return nil
	}
	expected := quoteOut(amount, req.QuoteReserve, req.TokenReserve, req.FeeBps)
	pl := &WalletPlan{v3: v3, pool: req.Pool, markBefore: -1}
	for i := range walletSellSteps {
		if v3 {
			break
		}
		step := new(big.Int).Mul(expected, big.NewInt(999))
		step.Mul(step, new(big.Int).Exp(big.NewInt(walletSellNum), big.NewInt(int64(i)), nil))
		step.Div(step, new(big.Int).Mul(big.NewInt(1000), new(big.Int).Exp(big.NewInt(walletSellDen), big.NewInt(int64(i)), nil)))
		if step.Sign() == 0 {
			break
		}
		pl.SellLadder = append(pl.SellLadder, step)
	}
	if len(pl.SellLadder) == 0 && !v3 || expected.Sign() == 0 {
		return nil
	}
	routeGas := stepGas*4 + 500_000
	tokenGas := stepGas // a wallet sets its gas by estimate: as much as a contract step

	var b1 walletBlock
	pl.buy = b1.add(SimulatorAddress, routeGas, buyInput)
	pl.held = b1.add(req.Token, walletReadGas, balanceOfInput(SimulationWallet))
	pl.rcptBefore = b1.add(req.Token, walletReadGas, balanceOfInput(SimulationRecipient))
	if !v3 {
		pl.markBefore = b1.add(SimulatorAddress, routeGas, markInput)
	}
	for _, part := range walletTransferParts {
		amt := new(big.Int).Div(expected, big.NewInt(part))
		if amt.Sign() == 0 {
			continue
		}
		pl.XferSmallest = amt
		pl.xfer = append(pl.xfer, b1.add(req.Token, tokenGas, transferInput(SimulationRecipient, amt)))
	}
	pl.sell.before = b1.add(req.Token, walletReadGas, balanceOfInput(SimulationWallet))
	pl.rcptAfter = b1.add(req.Token, walletReadGas, balanceOfInput(SimulationRecipient))
	if v3 {
		approve := bytecode.SelectorOf("approve(address,uint256)").Bytes()
		approve = append(approve, common.LeftPadBytes(SimulatorAddress.Bytes(), 32)...)
		approve = append(approve, common.MaxHash.Bytes()...)
		b1.add(req.Token, tokenGas, approve)
	}
	pl.addSell(&b1, &pl.sell, req.Token, tokenGas, routeGas, sellInput, markInput)
	ov := node.StateOverride{SimulatorAddress: overrides[SimulatorAddress], SimulationWallet: {Balance: (*hexutil.Big)(big.NewInt(1e18))}}
	pl.Blocks = []simBlock{{StateOverrides: ov, Calls: b1.calls}}

	if req.DelayedSell > 0 && req.BlockTime > 0 {
		var b2 walletBlock
		later := &walletSell{before: b2.add(req.Token, walletReadGas, balanceOfInput(SimulationWallet))}
		pl.addSell(&b2, later, req.Token, tokenGas, routeGas, sellInput, markInput)
		pl.later = later
		at := req.BlockTime + uint64(req.DelayedSell.Seconds())
		pl.Blocks = append(pl.Blocks, simBlock{BlockOverrides: map[string]any{"time": hexutil.Uint64(at)}, Calls: b2.calls})
	}
	return pl
}

// addSell appends routeMark, the sell ladder (each step followed by
// routeSell) or, on a V3 pool, the one routeSell, and the holding read
// after.
func (pl *WalletPlan) addSell(b *walletBlock, s *walletSell, token common.Address, tokenGas, routeGas uint64, sellInput, markInput []byte) {
	s.mark = -1
	if !pl.v3 {
		s.mark = b.add(SimulatorAddress, routeGas, markInput)
	}
	for _, amt := range pl.SellLadder {
		s.steps = append(s.steps, b.add(token, tokenGas, transferInput(pl.pool, amt)))
		s.routes = append(s.routes, b.add(SimulatorAddress, routeGas, sellInput))
	}
	if len(s.routes) == 0 {
		s.routes = append(s.routes, b.add(SimulatorAddress, routeGas, sellInput))
	}
	s.route = s.routes[len(s.routes)-1]
	s.after = b.add(token, walletReadGas, balanceOfInput(SimulationWallet))
}

// elem is the plan's batch element.
func (pl *WalletPlan) elem() rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_simulateV1", Args: []any{simOpts{BlockStateCalls: pl.Blocks}, "latest"}, Result: &pl.Out}
}

// callWord reads a successful call's first return word.
func callWord(c SimCallResult) (*big.Int, bool) {
	if c.Status != 1 || len(c.ReturnData) < 32 {
		return nil, false
	}
	return new(big.Int).SetBytes(c.ReturnData[:32]), true
}

// callFailed describes why a token call did not move anything.
func callFailed(c SimCallResult) string {
	if c.Status == 1 {
		return "the transfer returned false"
	}
	if c.Error != nil {
		if data, err := hexutil.Decode(c.Error.Data); err == nil && len(data) > 0 {
			return revert.RevertReason(data)
		}
		if len(c.ReturnData) > 0 {
			return revert.RevertReason(c.ReturnData)
		}
		if c.Error.Message != "" {
			return revert.SanitiseReason(c.Error.Message)
		}
	}
	return revert.RevertReason(c.ReturnData)
}

// routeResult decodes a routeBuy/routeSell call (they never revert for
// the token's sake: a failed call means the path did not run).
func routeResult(parsed abi.ABI, c SimCallResult) (*SimResult, error) {
	if c.Status != 1 {
		return nil, fmt.Errorf("the router call failed (%s)", callFailed(c))
	}
	return decodeSimResult(parsed, c.ReturnData)
}

// walletSellOutcome is one decoded sell: tried says the holding covered
// the smallest ladder step (else the sell is untested, not failed).
type walletSellOutcome struct {
	tried, ok bool
	reason    string
	gas       uint64
	tax       *float64
	limit     *analysis.EVMTradeLimit
	dropPpm   *big.Int // the token's price drop inside the sell (V2-style pools)
}

// stepMoved says a token transfer of the ladder went through (it did not
// revert, nor return false).
func stepMoved(c SimCallResult) bool {
	if c.Status != 1 {
		return false
	}
	w, ok := callWord(c)
	return !ok && len(c.ReturnData) == 0 || ok && w.Sign() != 0
}

func (pl *WalletPlan) decodeSell(parsed abi.ABI, calls []SimCallResult, s walletSell) (walletSellOutcome, error) {
	before, ok1 := callWord(calls[s.before])
	after, ok2 := callWord(calls[s.after])
	if !ok1 || !ok2 {
		return walletSellOutcome{}, fmt.Errorf("the wallet's balance was unreadable")
	}
	route, err := routeResult(parsed, calls[s.route])
	if err != nil {
		return walletSellOutcome{}, err
	}
	// Which steps the token refused: a step within the holding left that
	// did not go through (one above it fails for the balance alone).
	left := new(big.Int).Set(before)
	refused, moved := -1, -1
	for k, i := range s.steps {
		amt := pl.SellLadder[k]
		if amt.Cmp(left) > 0 {
			continue
		}
		if stepMoved(calls[i]) {
			left.Sub(left, amt)
			if moved < 0 {
				moved = k
			}
		} else if refused < 0 && moved < 0 {
			refused = k
		}
	}
	sent := new(big.Int).Sub(before, after)
	if sent.Sign() <= 0 {
		switch {
		case len(s.steps) == 0 && before.Cmp(big.NewInt(1000)) < 0,
			len(s.steps) > 0 && before.Cmp(pl.SellLadder[len(pl.SellLadder)-1]) < 0:
			return walletSellOutcome{reason: "the wallet held too little to try the sell"}, nil
		case len(s.steps) == 0: // the router pulled nothing: its swap says why
			return walletSellOutcome{tried: true, reason: "sell failed: " + revert.RevertReason(route.SellError)}, nil
		case refused >= 0:
			return walletSellOutcome{tried: true, reason: "sell failed: " + callFailed(calls[s.steps[refused]])}, nil
		}
		return walletSellOutcome{tried: true, reason: "sell failed: " + callFailed(calls[s.steps[len(s.steps)-1]])}, nil
	}
	out := walletSellOutcome{tried: true, ok: route.SellOk}
	if !route.SellOk {
		out.reason = "sell failed: " + revert.RevertReason(route.SellError)
		return out, nil
	}
	if !pl.v3 {
		out.dropPpm = route.SellDropPpm
	}
	switch {
	case len(s.steps) == 0: // V3: the router sized the sell
		out.limit = sellLimit(route)
		out.gas = uint64(calls[s.route].GasUsed)
	case moved >= 0:
		if refused >= 0 {
			out.limit = &analysis.EVMTradeLimit{Refused: pl.SellLadder[refused].String(), Accepted: pl.SellLadder[moved].String()}
		}
		out.gas = uint64(calls[s.steps[moved]].GasUsed) + uint64(calls[s.routes[moved]].GasUsed)
	}
	route.SellSent = sent
	out.tax = sellTax(route)
	return out, nil
}

// decode reads the wallet path's answer: nil and the reason when it did
// not run (no eth_simulateV1, a broken answer, the router failing).
func (pl *WalletPlan) Decode(parsed abi.ABI, el rpc.BatchElem) (*analysis.EVMSimulation, string) {
	if el.Error != nil {
		return nil, "the node did not run eth_simulateV1: " + node.SafeErr(el.Error)
	}
	if len(pl.Out) != len(pl.Blocks) {
		return nil, fmt.Sprintf("eth_simulateV1 answered %d blocks for %d", len(pl.Out), len(pl.Blocks))
	}
	for i, b := range pl.Out {
		if len(b.Calls) != len(pl.Blocks[i].Calls) {
			return nil, fmt.Sprintf("eth_simulateV1 answered %d calls for %d", len(b.Calls), len(pl.Blocks[i].Calls))
		}
	}
	calls := pl.Out[0].Calls
	buy, err := routeResult(parsed, calls[pl.buy])
	if err != nil {
		return nil, "the wallet's buy: " + err.Error()
	}
	w := &analysis.EVMSimulation{CanBuy: new(buy.BuyOk)}
	if !buy.BuyOk {
		msg := "buy failed: " + revert.RevertReason(buy.BuyError)
		w.Error = &msg
		return w, ""
	}
	w.BuyGas = new(uint64(calls[pl.buy].GasUsed))
	w.BuyTax = LossPct(buy.BuyReceived, buy.BuyExpected)
	w.BuyLimit = buyLimit(buy)
	var xferDrop *big.Int
	if pl.sell.mark >= 0 {
		xferDrop, _ = callWord(calls[pl.sell.mark]) // routeMark: the drop since the mark before the transfer test
	}

	var errs []string
	held, ok1 := callWord(calls[pl.held])
	left, ok2 := callWord(calls[pl.sell.before])
	r0, ok3 := callWord(calls[pl.rcptBefore])
	r1, ok4 := callWord(calls[pl.rcptAfter])
	switch {
	case !ok1 || !ok2 || !ok3 || !ok4:
		errs = append(errs, "transfer not measured: a balance was unreadable")
	case held.Cmp(left) > 0:
		w.TransferTax = LossPct(new(big.Int).Sub(r1, r0), new(big.Int).Sub(held, left))
	case pl.XferSmallest == nil || held.Cmp(pl.XferSmallest) < 0:
		errs = append(errs, "transfer not tried: the wallet held too little")
	default:
		errs = append(errs, "transfer failed: "+callFailed(calls[pl.xfer[len(pl.xfer)-1]]))
	}

	now, err := pl.decodeSell(parsed, calls, pl.sell)
	switch {
	case err != nil:
		errs = append(errs, "sell not measured: "+err.Error())
	case !now.tried:
		errs = append(errs, now.reason)
	case now.ok:
		w.CanSell, w.SellGas, w.SellTax, w.SellLimit = new(true), new(now.gas), now.tax, now.limit
		if pl.later != nil {
			w.Cooldown = new(false)
		}
	default:
		w.CanSell = new(false)
		errs = append(errs, now.reason)
		pl.retryLater(parsed, w, &errs)
	}
	if !pl.v3 {
		w.SelfDump = ppmPct(maxBig(xferDrop, now.dropPpm))
	}
	if len(errs) > 0 {
		msg := strings.Join(errs, "; ")
		w.Error = &msg
	}
	return w, ""
}

// retryLater folds block 2 in after a failed sell: a sell that works one
// DelayedSell later is a cooldown, not a honeypot.
func (pl *WalletPlan) retryLater(parsed abi.ABI, w *analysis.EVMSimulation, errs *[]string) {
	if pl.later == nil {
		return
	}
	later, err := pl.decodeSell(parsed, pl.Out[1].Calls, *pl.later)
	switch {
	case err != nil || !later.tried:
		return // cooldown unknown
	case later.ok:
		w.Cooldown, w.CanSell, w.SellGas, w.SellTax, w.SellLimit = new(true), new(true), new(later.gas), later.tax, later.limit
		(*errs)[len(*errs)-1] = "cooldown: " + (*errs)[len(*errs)-1] + "; the same sell succeeded later"
	default:
		w.Cooldown = new(false)
		msg := later.reason
		w.DelayedSellError = &msg
	}
}

// combineSimulations decides between the two paths: the wallet path, when
// it ran, decides can_buy and can_sell (it trades the way a user does);
// the contract simulator fills what the wallet could not establish and
// decides alone when the wallet path did not run. Disagreements are noted.
func CombineSimulations(c, w *analysis.EVMSimulation, walletNote string) *analysis.EVMSimulation {
	if w == nil {
		c.Path = PathContract
		if walletNote != "" {
			c.Notes = append(c.Notes, "the wallet path did not run ("+walletNote+"); the contract simulator decided")
		}
		return c
	}
	w.Path, w.Pool, w.QuoteIn = PathWallet, c.Pool, c.QuoteIn
	contractErr := "no reason"
	if c.Error != nil {
		contractErr = *c.Error
	}
	switch {
	case c.CanBuy == nil:
		w.Notes = append(w.Notes, "the contract simulator did not run ("+contractErr+")")
	case *w.CanBuy && !*c.CanBuy:
		w.Notes = append(w.Notes, "a contract buyer was refused ("+contractErr+") but a wallet's buy worked: the token treats contracts differently (an anti-bot rule), not a honeypot")
	case !*w.CanBuy && *c.CanBuy:
		w.Notes = append(w.Notes, "a contract buyer could buy but a wallet's buy failed; the wallet decides")
	}
	if !*w.CanBuy || c.CanBuy == nil || !*c.CanBuy {
		return w
	}
	switch {
	case w.CanSell == nil && c.CanSell != nil:
		w.CanSell, w.SellTax, w.SellGas, w.SellLimit = c.CanSell, c.SellTax, c.SellGas, c.SellLimit
		w.Cooldown, w.DelayedSellError = c.Cooldown, c.DelayedSellError
		w.Notes = append(w.Notes, "the wallet's sell was not established; the contract simulator's sell decided")
	case w.CanSell != nil && c.CanSell != nil && *w.CanSell && !*c.CanSell && (w.Cooldown == nil || !*w.Cooldown):
		w.Notes = append(w.Notes, "a contract seller was refused ("+contractErr+") but a wallet's sell worked: the token treats contracts differently, not a honeypot")
	case w.CanSell != nil && c.CanSell != nil && !*w.CanSell && *c.CanSell:
		w.Notes = append(w.Notes, "a contract seller could sell but a wallet's sell failed; the wallet decides")
	}
	if w.SelfDump == nil && c.SelfDump != nil {
		w.SelfDump = c.SelfDump
	}
	if w.TransferTax == nil && c.TransferTax != nil {
		w.TransferTax = c.TransferTax
		w.Notes = append(w.Notes, "the transfer tax is the contract simulator's measure")
	}
	return w
}
