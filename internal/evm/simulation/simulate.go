package simulation

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"

	"errors"
	"fmt"

	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Throwaway addresses of the simulation: the simulator's code is placed at
// SimulatorAddress by state override, and the call is sent from that same
// address, so the buyer is also tx.origin (tokens that only let a wallet
// buy for itself, tx.origin == to, trade normally); SimulationRecipient
// receives the transfer test. They are hashes, so no real account or
// precompile lives there.
var (
	SimulatorAddress    = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.simulator"))[12:])
	SimulationRecipient = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.simulation.recipient"))[12:])
)

// Simulation defaults.
const (
	// DefaultStepGas caps each external step (buy, transfer, sell) so a
	// hostile token cannot burn the node's whole call gas.
	DefaultStepGas = 3_000_000
	// DefaultBuyBps sizes the buy: 0.3% of the pool's quote reserve, small
	// enough to stay under usual max-transaction limits.
	DefaultBuyBps = 30
	// DefaultDelayedSell is how much later the cooldown check sells.
	DefaultDelayedSell = time.Hour
)

// Simulation step bits (Simulator.sol's Params.steps).
const (
	stepBuy      = 1
	stepTransfer = 2
	stepSell     = 4
)

// SimulationRequest describes one honeypot simulation against one pool.
type SimulationRequest struct {
	Token common.Address
	Pool  common.Address
	// PoolKind is the DEX kind: "v2" (and Solidly volatile pools, which
	// share its swap interface) or "v3".
	PoolKind string
	// Quote is the pool's other token; Wrapped the chain's wrapped native.
	Quote   common.Address
	Wrapped common.Address
	// FundPool is a V2 wrapped/quote pool used to buy the quote token
	// when it is not the wrapped native (required then).
	FundPool common.Address
	// FeeBps is a V2 pool's swap fee (30 = 0.3%); a few bps too low is
	// absorbed by a retry with a 1% margin.
	FeeBps int
	// QuoteReserve sizes the buy (DefaultBuyBps of it) unless AmountIn,
	// in quote units, is set.
	QuoteReserve *big.Int
	AmountIn     *big.Int
	// TokenReserve is the pool's token reserve: it quotes the buy for the
	// wallet path's transfer amounts, so without it (or on a V3 pool)
	// only the contract simulator runs.
	TokenReserve *big.Int
	// StepGas caps each step (DefaultStepGas when zero).
	StepGas uint64
	// BlockTime is the latest block's timestamp; with DelayedSell > 0 a
	// second simulation (eth_simulateV1) buys at once and sells
	// DelayedSell later, telling a cooldown from a honeypot. Zero
	// BlockTime or DelayedSell disables it.
	BlockTime   uint64
	DelayedSell time.Duration
	// BlockNumber is the latest block's number: with BlockTime it places
	// the fresh wallet's later trade (fresh.go); zero disables it and the
	// second buys.
	BlockNumber uint64
	// Router is the pool's DEX router (Uniswap V2 Router02-compatible),
	// zero when the chains file names none: the fresh wallet then sells
	// through it as well (router.go).
	Router common.Address
}

// simParams mirrors Simulator.Params (field names follow the ABI).
type simParams struct {
	Token      common.Address
	Pool       common.Address
	Quote      common.Address
	Wrapped    common.Address
	FundPool   common.Address
	PoolKind   uint8
	FeeBps     *big.Int
	AmountIn   *big.Int
	Recipient  common.Address
	GasPerStep *big.Int
	Steps      uint8
}

// simResult mirrors Simulator.Result.
type SimResult struct {
	BuyOk            bool
	BuyError         []byte
	BuyGas           *big.Int
	BuyExpected      *big.Int
	BuyReceived      *big.Int
	QuoteSpent       *big.Int
	TransferOk       bool
	TransferError    []byte
	TransferSent     *big.Int
	TransferReceived *big.Int
	SellOk           bool
	SellError        []byte
	SellGas          *big.Int
	SellSent         *big.Int
	SellPoolReceived *big.Int
	SellExpected     *big.Int
	SellReceived     *big.Int
	BuyFull          *big.Int
	BuyRefused       *big.Int
	SellRefused      *big.Int
	XferDropPpm      *big.Int
	SellDropPpm      *big.Int
}

var SimulatorContract = sync.OnceValues(func() (contracts.Compiled, error) {
	return contracts.Artifact("Simulator")
})

// simCall is one call of an eth_simulateV1 block.
type simCall struct {
	From  common.Address `json:"from"`
	To    common.Address `json:"to"`
	Gas   hexutil.Uint64 `json:"gas"`
	Input hexutil.Bytes  `json:"input"`
}

type simBlock struct {
	BlockOverrides map[string]any     `json:"blockOverrides,omitempty"`
	StateOverrides node.StateOverride `json:"stateOverrides,omitempty"`
	Calls          []simCall          `json:"calls"`
}

type simOpts struct {
	BlockStateCalls []simBlock `json:"blockStateCalls"`
	Validation      bool       `json:"validation"`
}

type SimCallResult struct {
	ReturnData hexutil.Bytes  `json:"returnData"`
	Status     hexutil.Uint64 `json:"status"`
	GasUsed    hexutil.Uint64 `json:"gasUsed"`
	Error      *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    string `json:"data"`
	} `json:"error"`
}

type SimBlockResult struct {
	Calls []SimCallResult `json:"calls"`
}

// SimulationCall builds the simulation's batch elements and the decoder of
// their results, valid after the batch ran: one eth_call of the contract
// simulator, and one eth_simulateV1 holding the wallet path (pools with a
// known token reserve) or else the contract's buy-now-sell-later cooldown
// check. The decoder never reports a pass it
// did not observe: what failed is nil plus Error; see doc.go for how the
// two paths combine.
func SimulationCall(req SimulationRequest) ([]rpc.BatchElem, func() (*analysis.EVMSimulation, error), error) {
	sim, err := SimulatorContract()
	if err != nil {
		return nil, nil, fmt.Errorf("simulation: %w", err)
	}
	kind, err := simulatorPoolKind(req.PoolKind)
	if err != nil {
		return nil, nil, err
	}
	if req.Quote != req.Wrapped && req.FundPool == (common.Address{}) {
		return nil, nil, errors.New("simulation: the quote token is not the wrapped native and no funding pool was given")
	}
	amount := req.AmountIn
	if amount == nil {
		if req.QuoteReserve == nil || req.QuoteReserve.Sign() <= 0 {
			return nil, nil, errors.New("simulation: the pool has no quote reserve")
		}
		amount = new(big.Int).Div(new(big.Int).Mul(req.QuoteReserve, big.NewInt(DefaultBuyBps)), big.NewInt(10_000))
	}
	if amount.Sign() <= 0 {
		return nil, nil, errors.New("simulation: buy amount rounds to zero")
	}
	stepGas := req.StepGas
	if stepGas == 0 {
		stepGas = DefaultStepGas
	}
	params := func(steps uint8) simParams {
		return simParams{
			Token: req.Token, Pool: req.Pool, Quote: req.Quote, Wrapped: req.Wrapped, FundPool: req.FundPool,
			PoolKind: kind, FeeBps: big.NewInt(int64(req.FeeBps)), AmountIn: amount, Recipient: SimulationRecipient,
			GasPerStep: new(big.Int).SetUint64(stepGas), Steps: steps,
		}
	}
	pack := func(steps uint8) ([]byte, error) {
		in, err := sim.ABI.Pack("simulate", params(steps))
		if err != nil {
			return nil, fmt.Errorf("simulation: pack: %w", err)
		}
		return in, nil
	}
	full, err := pack(stepBuy | stepTransfer | stepSell)
	if err != nil {
		return nil, nil, err
	}
	balance := new(big.Int).Add(new(big.Int).Mul(amount, big.NewInt(2)), big.NewInt(1e18))
	if req.Quote != req.Wrapped {
		// The quote is bought with wrapped native at the funding pool's
		// price, unknown here: plenty of native (it exists only in the call).
		balance = new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil)
	}
	overrides := node.StateOverride{SimulatorAddress: {Code: sim.DeployedBytecode, Balance: (*hexutil.Big)(balance)}}
	callGas := hexutil.Uint64(stepGas*8 + 1_000_000)
	origin := SimulatorAddress
	out := new(hexutil.Bytes)
	elems := []rpc.BatchElem{node.CallElem(node.CallMsg{From: &origin, To: SimulatorAddress, Gas: callGas, Data: full}, overrides, out)}

	routeBuy, err := sim.ABI.Pack("routeBuy", params(stepBuy))
	if err != nil {
		return nil, nil, fmt.Errorf("simulation: pack: %w", err)
	}
	routeSell, err := sim.ABI.Pack("routeSell", params(stepSell))
	if err != nil {
		return nil, nil, fmt.Errorf("simulation: pack: %w", err)
	}
	routeMark, err := sim.ABI.Pack("routeMark", params(stepSell))
	if err != nil {
		return nil, nil, fmt.Errorf("simulation: pack: %w", err)
	}
	wallet := NewWalletPlan(req, kind == 2, amount, stepGas, overrides, routeBuy, routeSell, routeMark)
	var delayed []SimBlockResult
	switch {
	case wallet != nil:
		elems = append(elems, wallet.elem())
	case req.DelayedSell > 0 && req.BlockTime > 0:
		buy, err := pack(stepBuy)
		if err != nil {
			return nil, nil, err
		}
		sell, err := pack(stepSell)
		if err != nil {
			return nil, nil, err
		}
		later := req.BlockTime + uint64(req.DelayedSell/time.Second)
		opts := simOpts{BlockStateCalls: []simBlock{
			{StateOverrides: overrides, Calls: []simCall{{From: origin, To: SimulatorAddress, Gas: callGas, Input: buy}}},
			{BlockOverrides: map[string]any{"time": hexutil.Uint64(later)}, Calls: []simCall{{From: origin, To: SimulatorAddress, Gas: callGas, Input: sell}}},
		}}
		elems = append(elems, rpc.BatchElem{Method: "eth_simulateV1", Args: []any{opts, "latest"}, Result: &delayed})
	}

	// The fresh wallet's other paths (fresh.go), after the others.
	var fresh *freshPlan
	if wallet != nil {
		fresh, err = newFreshPlan(sim.ABI, req, params(stepSell), amount, stepGas, overrides, routeBuy, full)
		if err != nil {
			return nil, nil, err
		}
	}
	freshAt := len(elems)
	if fresh != nil {
		elems = append(elems, fresh.elems...)
	}

	decode := func() (*analysis.EVMSimulation, error) {
		res, err := contractOutcome(sim.ABI, req.Pool.Hex(), amount.String(), kind == 1, elems[0], *out)
		if wallet != nil {
			contractSold := res.CanSell
			w, note := wallet.Decode(sim.ABI, elems[1])
			if w != nil {
				err = nil // the wallet decides; the contract's failure is noted
			}
			combined := CombineSimulations(res, w, note)
			if fresh != nil {
				copy(fresh.elems, elems[freshAt:])
				fresh.apply(combined, contractSold)
			}
			return combined, err
		}
		if err == nil && len(elems) > 1 && res.CanBuy != nil && *res.CanBuy {
			applyDelayedSell(sim.ABI, res, elems[1], delayed, kind == 1)
		}
		res.Path = PathContract
		return res, err
	}
	return elems, decode, nil
}

// contractOutcome decodes the contract simulator's eth_call.
func contractOutcome(parsed abi.ABI, pool, quoteIn string, v2 bool, el rpc.BatchElem, out []byte) (*analysis.EVMSimulation, error) {
	res := &analysis.EVMSimulation{Pool: pool, QuoteIn: quoteIn}
	if err := el.Error; err != nil {
		msg := "simulation call failed: " + revert.CallFailure(err)
		res.Error = &msg
		return res, nil
	}
	r, err := decodeSimResult(parsed, out)
	if err != nil {
		msg := "simulation result unreadable"
		res.Error = &msg
		return res, fmt.Errorf("simulation: %w", err)
	}
	fillSimulation(res, r, v2)
	return res, nil
}

func decodeSimResult(parsed abi.ABI, data []byte) (*SimResult, error) {
	vals, err := parsed.Methods["simulate"].Outputs.Unpack(data)
	if err != nil {
		return nil, fmt.Errorf("unpack: %w", err)
	}
	if len(vals) != 1 {
		return nil, fmt.Errorf("unpack: %d values", len(vals))
	}
	r := new(SimResult)
	if err := revert.SafeConvert(vals[0], r); err != nil {
		return nil, err
	}
	return r, nil
}

// fillSimulation turns the simulator's measurements into the report's
// percentages; v2 says the pool is V2-style (reserves priced the sell, so
// the token's own price drop was measured).
func fillSimulation(res *analysis.EVMSimulation, r *SimResult, v2 bool) {
	res.CanBuy = new(r.BuyOk)
	if !r.BuyOk {
		msg := "buy failed: " + revert.RevertReason(r.BuyError)
		res.Error = &msg
		return
	}
	res.BuyGas = new(r.BuyGas.Uint64())
	res.BuyTax = LossPct(r.BuyReceived, r.BuyExpected)
	res.BuyLimit = buyLimit(r)
	if v2 {
		res.SelfDump = ppmPct(maxBig(r.XferDropPpm, r.SellDropPpm))
	}
	var errs []string
	if r.TransferOk {
		res.TransferTax = LossPct(r.TransferReceived, r.TransferSent)
	} else {
		errs = append(errs, "transfer failed: "+revert.RevertReason(r.TransferError))
	}
	res.CanSell = new(r.SellOk)
	if r.SellOk {
		res.SellGas = new(r.SellGas.Uint64())
		res.SellTax = sellTax(r)
		res.SellLimit = sellLimit(r)
	} else {
		errs = append(errs, "sell failed: "+revert.RevertReason(r.SellError))
	}
	if len(errs) > 0 {
		msg := strings.Join(errs, "; ")
		res.Error = &msg
	}
}

// buyLimit reports a buy the token refused at full size but accepted
// smaller (the simulator halves a refused size; on a V3 pool sizes are
// in the quote token, so the refused token amount is unknown).
func buyLimit(r *SimResult) *analysis.EVMTradeLimit {
	if r.BuyRefused == nil || r.BuyRefused.Sign() == 0 || r.BuyExpected == nil {
		return nil
	}
	l := &analysis.EVMTradeLimit{Accepted: r.BuyExpected.String()}
	if r.BuyFull != nil && r.BuyFull.Sign() > 0 {
		l.Refused = r.BuyRefused.String()
	}
	return l
}

// sellLimit reports a sell the token refused at full size but accepted
// smaller.
func sellLimit(r *SimResult) *analysis.EVMTradeLimit {
	if r.SellRefused == nil || r.SellRefused.Sign() == 0 || r.SellSent == nil {
		return nil
	}
	return &analysis.EVMTradeLimit{Refused: r.SellRefused.String(), Accepted: r.SellSent.String()}
}

// ppmPct turns parts per million into a percentage, two decimals; nil
// stays nil.
func ppmPct(v *big.Int) *float64 {
	if v == nil {
		return nil
	}
	if !v.IsInt64() || v.Int64() > 1_000_000 {
		return Pct(1)
	}
	return Pct(float64(v.Int64()) / 1e6)
}

func maxBig(a, b *big.Int) *big.Int {
	switch {
	case a == nil:
		return b
	case b == nil || a.Cmp(b) >= 0:
		return a
	}
	return b
}

// sellTax combines what the pool received of the tokens sent with what was
// paid of what the pool owed.
func sellTax(r *SimResult) *float64 {
	if r.SellSent.Sign() == 0 || r.SellExpected.Sign() == 0 {
		return nil
	}
	tokenSide, _ := new(big.Rat).SetFrac(r.SellPoolReceived, r.SellSent).Float64()
	quoteSide, _ := new(big.Rat).SetFrac(r.SellReceived, r.SellExpected).Float64()
	return Pct(1 - tokenSide*quoteSide)
}

// applyDelayedSell folds the eth_simulateV1 buy-now-sell-later result in:
// a sell that failed at once but succeeds later is a cooldown.
func applyDelayedSell(parsed abi.ABI, res *analysis.EVMSimulation, el rpc.BatchElem, blocks []SimBlockResult, v2 bool) {
	if el.Error != nil || len(blocks) != 2 || len(blocks[1].Calls) != 1 || len(blocks[0].Calls) != 1 {
		return // the node cannot simulate blocks: cooldown unknown
	}
	buy, sell := blocks[0].Calls[0], blocks[1].Calls[0]
	if buy.Error != nil || sell.Error != nil {
		return
	}
	rb, err1 := decodeSimResult(parsed, buy.ReturnData)
	rs, err2 := decodeSimResult(parsed, sell.ReturnData)
	if err1 != nil || err2 != nil || !rb.BuyOk {
		return
	}
	immediate := res.CanSell != nil && *res.CanSell
	if immediate {
		res.Cooldown = new(false)
		return
	}
	if !rs.SellOk {
		res.Cooldown = new(false)
		msg := revert.RevertReason(rs.SellError)
		res.DelayedSellError = &msg
		return
	}
	res.Cooldown = new(true)
	res.CanSell = new(true)
	msg := "cooldown: the sell right after the buy failed; the same sell succeeded later"
	if res.Error != nil {
		msg = "cooldown: " + *res.Error + "; the same sell succeeded later"
	}
	res.Error = &msg
	res.SellGas = new(rs.SellGas.Uint64())
	res.SellTax = sellTax(rs)
	res.SellLimit = sellLimit(rs)
	if d := ppmPct(rs.SellDropPpm); v2 && d != nil && (res.SelfDump == nil || *d > *res.SelfDump) {
		res.SelfDump = d
	}
}

// simulatorPoolKind is the Simulator's code for a pool kind (1: V2-style
// and Solidly, 2: V3).
func simulatorPoolKind(kind string) (uint8, error) {
	switch kind {
	case "v2", "solidly":
		return 1, nil
	case "v3":
		return 2, nil
	}
	return 0, fmt.Errorf("simulation: unsupported pool kind %q", kind)
}
