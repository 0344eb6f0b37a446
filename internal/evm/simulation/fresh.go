package simulation

import (
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"
)

// The fresh wallet's other paths (issue 18): more elements of the
// simulation's batch, never more round trips.
//
//   - the router sell: the wallet buys, approves the simulator and sells
//     the way a DEX router does (transferFrom into the pool, then the
//     swap): first the whole holding, exactly, then 99.9% of it; the
//     same two one DelayedSell later when neither worked (a cooldown).
//     It decides the router path's can_sell and cannot_sell_all.
//   - the second buy: the wallet buys, then buys again in the same
//     block, the next block (12 s later), a minute, five minutes and an
//     hour later; the first that works bounds the wait.
//   - the later trade: the contract simulator's buy, transfer and sell
//     as an eth_call whose block overrides put it LaterTrade ahead in
//     time and block number: sells that stop past a time or a block fail
//     there while they work now.
const (
	// wholePPM and partPPM are the router sells' shares of the holding.
	wholePPM = 1_000_000
	partPPM  = 999_000
	// LaterTrade is how far ahead the later trade runs; at 12 s a block
	// it is laterTradeBlocks blocks ahead.
	LaterTrade       = 72 * time.Hour
	laterTradeBlocks = uint64(LaterTrade / (12 * time.Second))
)

// cooldownWaits are the second buys' delays after the first, in seconds:
// the same block, the next block, then a minute, five and an hour.
var cooldownWaits = []uint64{0, 12, 60, 300, 3600}

// freshPlan is the three elements; each decoder reads its own answer.
type freshPlan struct {
	parsed                 abi.ABI
	routerBlocks, buyBlock int // blocks asked (the answer must match)
	routerOut, buysOut     []SimBlockResult
	laterOut               hexutil.Bytes
	elems                  []rpc.BatchElem // router, then (with a head block) buys and later, then the real router's
	// real is the sell through the DEX's own router (router.go), the
	// last element; nil when the chain names none.
	real *realRouterPlan
}

// routeSellFromInput packs Simulator.routeSellFrom.
func routeSellFromInput(parsed abi.ABI, p simParams, ppm int64, exact bool) ([]byte, error) {
	in, err := parsed.Pack("routeSellFrom", p, big.NewInt(ppm), exact)
	if err != nil {
		return nil, fmt.Errorf("simulation: pack: %w", err)
	}
	return in, nil
}

// approveInput is approve(spender, max).
func approveInput(spender common.Address) []byte {
	out := bytecode.SelectorOf("approve(address,uint256)").Bytes()
	out = append(out, common.LeftPadBytes(spender.Bytes(), 32)...)
	return append(out, common.MaxHash.Bytes()...)
}

// newFreshPlan builds the elements. later is the contract simulator's
// full trade (simulate with every step); overrides place the simulator.
// Without the head block's time and number only the router sell runs.
func newFreshPlan(parsed abi.ABI, req SimulationRequest, p simParams, amount *big.Int, stepGas uint64, overrides node.StateOverride, buyInput, later []byte) (*freshPlan, error) {
	whole, err := routeSellFromInput(parsed, p, wholePPM, true)
	if err != nil {
		return nil, err
	}
	part, err := routeSellFromInput(parsed, p, partPPM, false)
	if err != nil {
		return nil, err
	}
	routeGas := stepGas*4 + 500_000
	fp := &freshPlan{parsed: parsed}
	// The simulator pays for every buy of the ladder.
	sim := overrides[SimulatorAddress]
	funds := new(big.Int).Add(new(big.Int).Mul(amount, big.NewInt(int64(len(cooldownWaits)+2))), big.NewInt(1e18))
	if sim.Balance != nil && (*big.Int)(sim.Balance).Cmp(funds) > 0 {
		funds = (*big.Int)(sim.Balance)
	}
	sim.Balance = (*hexutil.Big)(funds)
	ov := node.StateOverride{SimulatorAddress: sim, SimulationWallet: {Balance: (*hexutil.Big)(big.NewInt(1e18))}}

	var b1 walletBlock
	b1.add(SimulatorAddress, routeGas, buyInput)
	b1.add(req.Token, stepGas, approveInput(SimulatorAddress))
	b1.add(SimulatorAddress, routeGas, whole)
	b1.add(SimulatorAddress, routeGas, part)
	router := []simBlock{{StateOverrides: ov, Calls: b1.calls}}
	if req.DelayedSell > 0 && req.BlockTime > 0 {
		var b2 walletBlock
		b2.add(SimulatorAddress, routeGas, whole)
		b2.add(SimulatorAddress, routeGas, part)
		at := req.BlockTime + uint64(req.DelayedSell.Seconds())
		router = append(router, simBlock{BlockOverrides: map[string]any{"time": hexutil.Uint64(at)}, Calls: b2.calls})
	}
	fp.routerBlocks = len(router)
	fp.elems = append(fp.elems, rpc.BatchElem{Method: "eth_simulateV1", Args: []any{simOpts{BlockStateCalls: router}, "latest"}, Result: &fp.routerOut})
	fp.real = newRealRouterPlan(parsed, req, amount, stepGas, ov, buyInput)
	if req.BlockTime == 0 || req.BlockNumber == 0 {
		fp.addReal()
		return fp, nil
	}

	first := req.BlockTime + 12
	var buys []simBlock
	for i, wait := range cooldownWaits {
		var b walletBlock
		if i == 0 {
			b.add(SimulatorAddress, routeGas, buyInput) // the first buy; the second follows in the same block
		}
		b.add(SimulatorAddress, routeGas, buyInput)
		blk := simBlock{BlockOverrides: map[string]any{"time": hexutil.Uint64(first + wait)}, Calls: b.calls}
		if i == 0 {
			blk.StateOverrides = ov
		}
		buys = append(buys, blk)
	}
	fp.buyBlock = len(buys)
	fp.elems = append(fp.elems, rpc.BatchElem{Method: "eth_simulateV1", Args: []any{simOpts{BlockStateCalls: buys}, "latest"}, Result: &fp.buysOut})

	from := SimulatorAddress
	msg := node.CallMsg{From: &from, To: SimulatorAddress, Gas: hexutil.Uint64(stepGas*8 + 1_000_000), Data: later}
	blockOv := map[string]any{
		"time":   hexutil.Uint64(req.BlockTime + uint64(LaterTrade.Seconds())),
		"number": hexutil.Uint64(req.BlockNumber + laterTradeBlocks),
	}
	fp.elems = append(fp.elems, rpc.BatchElem{Method: "eth_call", Args: []any{msg, node.Latest, overrides, blockOv}, Result: &fp.laterOut})
	fp.addReal()
	return fp, nil
}

// addReal appends the real router's element last.
func (fp *freshPlan) addReal() {
	if fp.real != nil {
		fp.elems = append(fp.elems, fp.real.elem)
	}
}

// routeSellFromResult decodes a routeSellFrom call: the sell and the
// holding before it.
func routeSellFromResult(parsed abi.ABI, c SimCallResult) (*SimResult, *big.Int, error) {
	if c.Status != 1 {
		return nil, nil, fmt.Errorf("the router call failed (%s)", callFailed(c))
	}
	vals, err := parsed.Methods["routeSellFrom"].Outputs.Unpack(c.ReturnData)
	if err != nil || len(vals) != 2 {
		return nil, nil, fmt.Errorf("routeSellFrom answer unreadable (%v)", err)
	}
	r := new(SimResult)
	if err := revert.SafeConvert(vals[0], r); err != nil {
		return nil, nil, err
	}
	held, ok := vals[1].(*big.Int)
	if !ok {
		return nil, nil, errors.New("routeSellFrom answer unreadable (holding)")
	}
	return r, held, nil
}

// simulated checks an eth_simulateV1 answer's shape: blocks answered as
// asked (the node may append none), each call answered.
func simulated(el rpc.BatchElem, out []SimBlockResult, blocks int) error {
	if el.Error != nil {
		return fmt.Errorf("the node did not run eth_simulateV1: %s", node.SafeErr(el.Error))
	}
	if len(out) != blocks {
		return fmt.Errorf("eth_simulateV1 answered %d blocks for %d", len(out), blocks)
	}
	return nil
}

// decodeRouter reads the router sell: its can_sell and tax, and the
// whole holding against 99.9% of it.
func (fp *freshPlan) decodeRouter() (*analysis.EVMRouterSell, *analysis.EVMSellAll) {
	rs := &analysis.EVMRouterSell{Router: SimulatorAddress.Hex()}
	fail := func(msg string) (*analysis.EVMRouterSell, *analysis.EVMSellAll) {
		rs.Error = &msg
		return rs, nil
	}
	if err := simulated(fp.elems[0], fp.routerOut, fp.routerBlocks); err != nil {
		return fail(err.Error())
	}
	b1 := fp.routerOut[0].Calls
	if len(b1) != 4 {
		return fail(fmt.Sprintf("eth_simulateV1 answered %d calls for 4", len(b1)))
	}
	buy, err := routeResult(fp.parsed, b1[0])
	if err != nil {
		return fail("the router sell's buy: " + err.Error())
	}
	if !buy.BuyOk {
		return fail("the router sell's buy failed: " + revert.RevertReason(buy.BuyError))
	}
	var reason string
	for blk := range fp.routerOut {
		calls := fp.routerOut[blk].Calls
		at := 2 // block 1: buy, approve, whole, part; block 2: whole, part
		if blk > 0 {
			at = 0
		}
		if len(calls) != at+2 {
			return fail(fmt.Sprintf("eth_simulateV1 answered %d calls for %d", len(calls), at+2))
		}
		whole, _, err1 := routeSellFromResult(fp.parsed, calls[at])
		part, _, err2 := routeSellFromResult(fp.parsed, calls[at+1])
		if err1 != nil || err2 != nil {
			return fail("the router sell: " + errors.Join(err1, err2).Error())
		}
		switch {
		case whole.SellOk:
			rs.CanSell, rs.SellTax = new(true), sellTax(whole)
			return rs, &analysis.EVMSellAll{Whole: new(true)}
		case part.SellOk:
			rs.CanSell, rs.SellTax = new(true), sellTax(part)
			all := &analysis.EVMSellAll{Whole: new(false), Part: new(part.SellRefused == nil || part.SellRefused.Sign() == 0)}
			msg := "the whole holding: " + revert.RevertReason(whole.SellError)
			all.Error = &msg
			return rs, all
		}
		if reason == "" {
			reason = revert.RevertReason(part.SellError)
		}
	}
	rs.CanSell = new(false)
	msg := "sell failed: " + reason
	if fp.routerBlocks > 1 {
		msg += ", also when retried later in time"
	}
	rs.Error = &msg
	return rs, nil
}

// decodeBuys reads the second buys: whether the same block's and the
// next block's worked, and the first wait that did.
func (fp *freshPlan) decodeBuys() *analysis.EVMBuyCooldown {
	if fp.buyBlock == 0 {
		return nil
	}
	bc := &analysis.EVMBuyCooldown{}
	fail := func(msg string) *analysis.EVMBuyCooldown {
		bc.Error = &msg
		return bc
	}
	if err := simulated(fp.elems[1], fp.buysOut, fp.buyBlock); err != nil {
		return fail(err.Error())
	}
	ok := make([]*bool, len(cooldownWaits))
	for i, b := range fp.buysOut {
		want := 1
		if i == 0 {
			want = 2
		}
		if len(b.Calls) != want {
			return fail(fmt.Sprintf("eth_simulateV1 answered %d calls for %d", len(b.Calls), want))
		}
		r, err := routeResult(fp.parsed, b.Calls[want-1])
		if err != nil {
			return fail("the second buy: " + err.Error())
		}
		if i == 0 {
			first, err := routeResult(fp.parsed, b.Calls[0])
			if err != nil || !first.BuyOk {
				return fail("the first buy failed")
			}
		}
		ok[i] = new(r.BuyOk)
	}
	bc.SameBlock, bc.NextBlock = ok[0], ok[1]
	if *ok[0] && *ok[1] {
		return bc
	}
	for i, v := range ok {
		if *v {
			bc.WaitSeconds = new(cooldownWaits[i])
			break
		}
	}
	return bc
}

// decodeLater compares the later trade with the contract simulator's
// immediate trade (nowSell: its sell right after the buy worked): a sell
// that works now and fails LaterTrade ahead is a threshold condition.
// nil when not established (no later trade, or nothing to compare),
// empty when tried and the later sell worked.
func (fp *freshPlan) decodeLater(nowSell *bool) []analysis.EVMSellBlock {
	if fp.buyBlock == 0 || fp.elems[2].Error != nil || nowSell == nil || !*nowSell {
		return nil
	}
	r, err := decodeSimResult(fp.parsed, fp.laterOut)
	if err != nil || !r.BuyOk {
		return nil
	}
	if r.SellOk {
		return []analysis.EVMSellBlock{}
	}
	return []analysis.EVMSellBlock{{
		Condition: fmt.Sprintf("%d hours (%d blocks) ahead", int(LaterTrade.Hours()), laterTradeBlocks),
		Error:     revert.RevertReason(r.SellError),
	}}
}

// apply fills sim's router sell, whole-holding, second-buy and threshold
// proofs; contractSold is the contract simulator's immediate sell (the
// later trade's comparison). Nothing is filled for a buy that failed.
func (fp *freshPlan) apply(sim *analysis.EVMSimulation, contractSold *bool) {
	if sim == nil || sim.CanBuy == nil || !*sim.CanBuy {
		return
	}
	sim.RouterSell, sim.SellAll = fp.decodeRouter()
	fp.applyReal(sim)
	sim.BuyCooldown = fp.decodeBuys()
	sim.SellBlocks = fp.decodeLater(contractSold)
	if r := sim.RouterSell; r != nil && r.CanSell != nil && !*r.CanSell && sim.CanSell != nil && *sim.CanSell {
		sim.Notes = append(sim.Notes, "the direct sell worked but the sell through a router (approve, then transferFrom) was refused: every DEX user is trapped")
	}
}

// applyReal lets the sell through the DEX's own router decide the router
// path where it was established (it is the users' path); the simulator
// acting as the router stays the fallback. A disagreement is noted.
func (fp *freshPlan) applyReal(sim *analysis.EVMSimulation) {
	if fp.real == nil {
		return
	}
	real, why := fp.real.decode(fp.elems[len(fp.elems)-1])
	if real == nil {
		sim.Notes = append(sim.Notes, "the sell through the DEX's router was not established ("+why+"); the simulator acting as the router decided")
		return
	}
	if ours := sim.RouterSell; ours != nil && ours.CanSell != nil && *ours.CanSell != *real.CanSell {
		verb := map[bool]string{true: "sold", false: "was refused"}
		sim.Notes = append(sim.Notes, fmt.Sprintf("the sell through the DEX's router %s %s while the simulator acting as the router %s; the DEX's router decides",
			real.Router, verb[*real.CanSell], verb[*ours.CanSell]))
	}
	sim.RouterSell = real
}
