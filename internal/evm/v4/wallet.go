package v4

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
)

// The wallet path through a V4 pool: a wallet without code
// (simulation.SimulationWallet, or a real holder) trades through a router
// that takes the PoolManager's lock, as users' routers do (V4WalletRouter,
// placed by state override): it buys, approves the router and sells its
// whole holding, the router pulling it by transferFrom into the
// PoolManager during the settle. A token or hook that traps only this
// path (tx.origin, a transferFrom from a wallet, the router as the swap's
// sender) is caught where the contract path (V4Simulator) passes. One
// eth_simulateV1 per pool, in round trip 2 beside the contract path; a
// second block one DelayedSell later retries a refused sell (a cooldown is
// no honeypot).

// WalletRouterAddress is where V4WalletRouter's code is placed by state
// override (an address with no code on any chain).
var WalletRouterAddress = common.HexToAddress("0x00000000000000000000000000000000cafe0014")

// walletValue is the native value the wallet sends with its buy (the
// router spends DefaultBuyBps of the pool's quote side and refunds the
// rest); walletBalance is its balance by state override.
var (
	walletValue   = new(big.Int).Exp(big.NewInt(10), big.NewInt(29), nil)
	walletBalance = new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil)
)

const wholePPM = 1_000_000

// WalletRequest is the wallet path through one V4 pool.
type WalletRequest struct {
	Pool  Pool
	Token common.Address
	// Wrapped is the chain's wrapped native coin: a pool against it is
	// paid by depositing the wallet's value; a pool against another quote
	// is not traded (the wallet holds none).
	Wrapped common.Address
	// BlockTime is the latest block's time; with DelayedSell a second
	// block that much later retries a refused sell.
	BlockTime   uint64
	DelayedSell time.Duration
	StepGas     uint64
}

type walletCall struct {
	From  common.Address `json:"from"`
	To    common.Address `json:"to"`
	Gas   hexutil.Uint64 `json:"gas"`
	Value *hexutil.Big   `json:"value,omitempty"`
	Input hexutil.Bytes  `json:"input"`
}

type walletBlock struct {
	BlockOverrides map[string]any     `json:"blockOverrides,omitempty"`
	StateOverrides node.StateOverride `json:"stateOverrides,omitempty"`
	Calls          []walletCall       `json:"calls"`
}

type walletOpts struct {
	BlockStateCalls []walletBlock `json:"blockStateCalls"`
	Validation      bool          `json:"validation"`
}

// fill mirrors V4WalletRouter.Fill.
type fill struct {
	AmountIn *big.Int
	Paid     *big.Int
	Credit   *big.Int
	Received *big.Int
}

// Indexes of the wallet's calls in block 1.
const (
	walletBuy = iota
	walletApprove
	walletSell
)

func routerKey(k Key) simKey {
	return simKey{Currency0: k.Currency0, Currency1: k.Currency1, Fee: big.NewInt(int64(k.Fee)),
		TickSpacing: big.NewInt(int64(k.TickSpacing)), Hooks: k.Hooks}
}

func approveRouter() []byte {
	in := bytecode.SelectorOf("approve(address,uint256)").Bytes()
	in = append(in, common.LeftPadBytes(WalletRouterAddress.Bytes(), 32)...)
	return append(in, common.MaxHash.Bytes()...)
}

// sellInput is the router's sell of ppm millionths of the caller's holding.
func sellInput(parsed abi.ABI, p Pool, token common.Address, ppm int64) ([]byte, error) {
	in, err := parsed.Pack("sell", p.Manager, routerKey(p.Key), token, big.NewInt(ppm))
	if err != nil {
		return nil, fmt.Errorf("v4 wallet: pack sell: %w", err)
	}
	return in, nil
}

// WalletCall builds the wallet path's eth_simulateV1 (one batch element)
// and its decoder, valid after the batch ran: the wallet's simulation, or
// nil and why the path did not run (the node has no eth_simulateV1, the
// pool's quote is one the wallet cannot hold).
func WalletCall(req WalletRequest) ([]rpc.BatchElem, func() (*analysis.EVMSimulation, string), error) {
	router, err := contracts.Artifact("V4WalletRouter")
	if err != nil {
		return nil, nil, fmt.Errorf("v4 wallet: %w", err)
	}
	quote := req.Pool.Key.Other(req.Token)
	if quote != (common.Address{}) && quote != req.Wrapped {
		return nil, nil, errors.New("v4 wallet: the pool's quote is neither the native coin nor the wrapped native (the wallet holds none)")
	}
	stepGas := req.StepGas
	if stepGas == 0 {
		stepGas = DefaultStepGas
	}
	routeGas := hexutil.Uint64(4*stepGas + 500_000)
	buy, err := router.ABI.Pack("buy", req.Pool.Manager, routerKey(req.Pool.Key), req.Token, req.Wrapped, new(big.Int), big.NewInt(DefaultBuyBps))
	if err != nil {
		return nil, nil, fmt.Errorf("v4 wallet: pack buy: %w", err)
	}
	sell, err := sellInput(router.ABI, req.Pool, req.Token, wholePPM)
	if err != nil {
		return nil, nil, err
	}
	w := simulation.SimulationWallet
	blocks := []walletBlock{{
		StateOverrides: node.StateOverride{
			WalletRouterAddress: {Code: router.DeployedBytecode},
			w:                   {Balance: (*hexutil.Big)(walletBalance)},
		},
		Calls: []walletCall{
			walletBuy:     {From: w, To: WalletRouterAddress, Gas: routeGas, Value: (*hexutil.Big)(walletValue), Input: buy},
			walletApprove: {From: w, To: req.Token, Gas: hexutil.Uint64(stepGas), Input: approveRouter()},
			walletSell:    {From: w, To: WalletRouterAddress, Gas: routeGas, Input: sell},
		},
	}}
	if req.DelayedSell > 0 && req.BlockTime > 0 {
		at := req.BlockTime + uint64(req.DelayedSell.Seconds())
		blocks = append(blocks, walletBlock{
			BlockOverrides: map[string]any{"time": hexutil.Uint64(at)},
			Calls:          []walletCall{{From: w, To: WalletRouterAddress, Gas: routeGas, Input: sell}},
		})
	}
	var out []simulation.SimBlockResult
	elems := []rpc.BatchElem{{Method: "eth_simulateV1", Args: []any{walletOpts{BlockStateCalls: blocks}, "latest"}, Result: &out}}
	decode := func() (*analysis.EVMSimulation, string) {
		if elems[0].Error != nil {
			return nil, "the node did not run eth_simulateV1: " + node.SafeErr(elems[0].Error)
		}
		if len(out) != len(blocks) {
			return nil, fmt.Sprintf("eth_simulateV1 answered %d blocks for %d", len(out), len(blocks))
		}
		for i, b := range out {
			if len(b.Calls) != len(blocks[i].Calls) {
				return nil, fmt.Sprintf("eth_simulateV1 answered %d calls for %d", len(b.Calls), len(blocks[i].Calls))
			}
		}
		return decodeWallet(router.ABI, out), ""
	}
	return elems, decode, nil
}

// decodeWallet reads the wallet's buy and sells into a simulation.
func decodeWallet(parsed abi.ABI, out []simulation.SimBlockResult) *analysis.EVMSimulation {
	calls := out[0].Calls
	res := &analysis.EVMSimulation{}
	b, reason := routerFill(parsed, "buy", calls[walletBuy])
	res.CanBuy = boolPtr(b != nil)
	if b == nil {
		msg := "buy failed: " + reason
		res.Error = &msg
		return res
	}
	res.QuoteIn = b.AmountIn.String()
	res.BuyGas = u64Ptr(uint64(calls[walletBuy].GasUsed))
	res.BuyTax = simulation.LossPct(b.Received, b.Credit)
	s, reason := routerFill(parsed, "sell", calls[walletSell])
	if s != nil {
		res.CanSell, res.SellGas, res.SellTax = boolPtr(true), u64Ptr(uint64(calls[walletSell].GasUsed)), fillSellTax(s)
		if len(out) > 1 {
			res.Cooldown = boolPtr(false)
		}
		return res
	}
	if calls[walletApprove].Status != 1 {
		reason += " (the wallet's approve of the router failed: " + callReason(calls[walletApprove]) + ")"
	}
	res.CanSell = boolPtr(false)
	msg := "sell failed: " + reason
	if len(out) > 1 {
		later, laterReason := routerFill(parsed, "sell", out[1].Calls[0])
		if later != nil {
			res.CanSell, res.Cooldown = boolPtr(true), boolPtr(true)
			res.SellGas, res.SellTax = u64Ptr(uint64(out[1].Calls[0].GasUsed)), fillSellTax(later)
			msg = "cooldown: " + msg + "; the same sell succeeded later"
		} else {
			res.Cooldown = boolPtr(false)
			res.DelayedSellError = &laterReason
		}
	}
	res.Error = &msg
	return res
}

// routerFill decodes a router call's Fill, or nil and why it failed.
func routerFill(parsed abi.ABI, method string, c simulation.SimCallResult) (*fill, string) {
	if c.Status != 1 {
		return nil, callReason(c)
	}
	vals, err := parsed.Methods[method].Outputs.Unpack(c.ReturnData)
	if err != nil || len(vals) != 1 {
		return nil, fmt.Sprintf("the router's answer is unreadable: %v", err)
	}
	f, ok := abi.ConvertType(vals[0], new(fill)).(*fill)
	if !ok {
		return nil, "the router's answer has an unexpected shape"
	}
	return f, ""
}

// callReason renders a failed call's revert: a hook's revert names the
// hook (Reason).
func callReason(c simulation.SimCallResult) string {
	if len(c.ReturnData) > 0 {
		return Reason(c.ReturnData)
	}
	if c.Error != nil {
		if data, err := hexutil.Decode(c.Error.Data); err == nil && len(data) > 0 {
			return Reason(data)
		}
		if c.Error.Message != "" {
			return c.Error.Message
		}
	}
	return "reverted without a reason"
}

// fillSellTax is what the token withheld on a sell: of the tokens pulled,
// what the PoolManager did not count as paid, and of the quote credited,
// what did not arrive.
func fillSellTax(f *fill) *float64 {
	if f.AmountIn == nil || f.AmountIn.Sign() == 0 || f.Credit == nil || f.Credit.Sign() == 0 {
		return nil
	}
	tokenSide, _ := new(big.Rat).SetFrac(f.Paid, f.AmountIn).Float64()
	quoteSide, _ := new(big.Rat).SetFrac(f.Received, f.Credit).Float64()
	return simulation.Pct(1 - tokenSide*quoteSide)
}

// Combine decides between the V4 contract path (contract, V4Simulator)
// and the wallet path (wallet; nil when it did not run, note says why),
// as simulation.CombineSimulations does for V2/V3: the wallet decides
// can_buy, can_sell and the buy and sell taxes (it trades the way a user
// does); the contract path keeps the transfer tax and the hook's cut,
// fills what the wallet did not establish, and every disagreement is a
// note. The path stays "v4".
func Combine(contract, wallet *analysis.EVMSimulation, note string) *analysis.EVMSimulation {
	if wallet == nil {
		if note != "" {
			contract.Notes = append(contract.Notes, "the wallet path through the V4 pool did not run ("+note+"); the V4 simulator decided")
		}
		return contract
	}
	if contract.CanBuy == nil {
		// The contract call itself failed: the wallet alone decides.
		wallet.Path, wallet.Pool = PathV4, contract.Pool
		if contract.Error != nil {
			wallet.Notes = append(wallet.Notes, "the V4 simulator did not run ("+*contract.Error+")")
		}
		return wallet
	}
	res := *contract
	res.Notes = append([]string(nil), contract.Notes...)
	cErr := "no reason"
	if contract.Error != nil {
		cErr = *contract.Error
	}
	switch {
	case *wallet.CanBuy && !*contract.CanBuy:
		res.Notes = append(res.Notes, "a contract buyer was refused ("+cErr+") but a wallet's buy through a V4 router worked: the token or hook treats contracts differently, not a honeypot")
	case !*wallet.CanBuy && *contract.CanBuy:
		res.Notes = append(res.Notes, "a contract buyer could buy but a wallet's buy through a V4 router failed; the wallet decides")
	}
	res.CanBuy, res.BuyTax, res.BuyGas, res.QuoteIn = wallet.CanBuy, wallet.BuyTax, wallet.BuyGas, wallet.QuoteIn
	if !*wallet.CanBuy {
		res.CanSell, res.SellTax, res.SellGas, res.Cooldown, res.DelayedSellError = nil, nil, nil, nil, nil
		res.Error = wallet.Error
		return &res
	}
	if contract.CanSell != nil && wallet.CanSell != nil {
		switch {
		case *wallet.CanSell && !*contract.CanSell && (wallet.Cooldown == nil || !*wallet.Cooldown):
			res.Notes = append(res.Notes, "a contract seller was refused ("+cErr+") but a wallet's sell through a V4 router worked: the token or hook treats contracts differently, not a honeypot")
		case !*wallet.CanSell && *contract.CanSell:
			res.Notes = append(res.Notes, "a contract seller could sell but a wallet's sell through a V4 router (transferFrom during the settle) failed; the wallet decides")
		}
	}
	res.CanSell, res.SellTax, res.SellGas = wallet.CanSell, wallet.SellTax, wallet.SellGas
	res.Cooldown, res.DelayedSellError = wallet.Cooldown, wallet.DelayedSellError
	// The contract path's transfer test stands (the wallet tries none).
	var errs []string
	if contract.Error != nil && strings.HasPrefix(*contract.Error, "transfer failed") {
		errs = append(errs, strings.SplitN(*contract.Error, "; sell failed", 2)[0])
	}
	if wallet.Error != nil {
		errs = append(errs, *wallet.Error)
	}
	res.Error = nil
	if len(errs) > 0 {
		msg := strings.Join(errs, "; ")
		res.Error = &msg
	}
	return &res
}
