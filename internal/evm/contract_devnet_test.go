package evm

import (
	"context"
	"math/big"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// contractNet is one devnet shared by this file's tests (booting the zoo
// takes seconds).
var contractNet = struct {
	once sync.Once
	dn   *devnet.Devnet
	err  error
}{}

func startContractNet(t *testing.T) (*devnet.Devnet, *Client) {
	t.Helper()
	if testing.Short() {
		t.Skip("devnet tests are not short")
	}
	contractNet.once.Do(func() {
		contractNet.dn, contractNet.err = devnet.Start(context.Background(), devnet.Options{CommitInterval: -1})
	})
	if contractNet.err != nil {
		t.Fatalf("devnet: %v", contractNet.err)
	}
	return contractNet.dn, NewClient("devnet", []string{contractNet.dn.RPCURL()}, ClientOptions{})
}

func zooToken(t *testing.T, dn *devnet.Devnet, kind string) devnet.ManifestToken {
	t.Helper()
	tok, ok := dn.Manifest().Token(kind)
	if !ok {
		t.Fatalf("manifest has no %q token", kind)
	}
	return tok
}

// poolState reads a V2 pair's WETH reserve and the latest block time.
func poolState(t *testing.T, c *Client, pair, weth common.Address) (*big.Int, uint64) {
	t.Helper()
	ctx := context.Background()
	var t0, res hexutil.Bytes
	var head struct {
		Time hexutil.Uint64 `json:"timestamp"`
	}
	elems := []rpc.BatchElem{
		CallElem(CallMsg{To: pair, Data: SelectorOf("token0()").bytes()}, nil, &t0),
		CallElem(CallMsg{To: pair, Data: SelectorOf("getReserves()").bytes()}, nil, &res),
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
	}
	if err := c.Batch(ctx, elems); err != nil {
		t.Fatal(err)
	}
	for _, e := range elems {
		if e.Error != nil {
			t.Fatal(e.Error)
		}
	}
	r := res[32:64]
	if common.BytesToAddress(t0) == weth {
		r = res[:32]
	}
	return new(big.Int).SetBytes(r), uint64(head.Time)
}

func simulateZoo(t *testing.T, kind string) *analysis.EVMSimulation {
	t.Helper()
	dn, c := startContractNet(t)
	tok := zooToken(t, dn, kind)
	weth := common.HexToAddress(dn.Manifest().WETH)
	pair := common.HexToAddress(tok.Pair)
	reserve, now := poolState(t, c, pair, weth)
	elems, decode, err := SimulationCall(SimulationRequest{
		Token: common.HexToAddress(tok.Address), Pool: pair, PoolKind: "v2", Quote: weth, Wrapped: weth,
		FeeBps: 30, QuoteReserve: reserve, BlockTime: now, DelayedSell: DefaultDelayedSell,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatal(err)
	}
	sim, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

func TestSimulationOnDevnetZoo(t *testing.T) {
	tests := []struct {
		kind                     string
		canBuy, canSell          *bool
		buyTax, sellTax, xferTax *[2]float64 // [min, max]
		cooldown                 *bool
	}{
		{kind: "clean", canBuy: refOf(true), canSell: refOf(true), buyTax: &[2]float64{0, 1}, sellTax: &[2]float64{0, 1}, xferTax: &[2]float64{0, 1}, cooldown: refOf(false)},
		{kind: "tax_sell_high", canBuy: refOf(true), canSell: refOf(true), buyTax: &[2]float64{4, 6}, sellTax: &[2]float64{28, 32}},
		{kind: "tax_extreme", canBuy: refOf(true), canSell: refOf(true), sellTax: &[2]float64{50, 100}},
		{kind: "fee_on_transfer", canBuy: refOf(true), canSell: refOf(true), xferTax: &[2]float64{4, 6}, buyTax: &[2]float64{0, 1}},
		{kind: "honeypot_sell_blocked", canBuy: refOf(true), canSell: refOf(false)},
		{kind: "honeypot_blacklist_on_buy", canBuy: refOf(true), canSell: refOf(false)},
		{kind: "cooldown", canBuy: refOf(true), canSell: refOf(true), cooldown: refOf(true)},
		{kind: "trading_disabled", canBuy: refOf(false)},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			sim := simulateZoo(t, tt.kind)
			t.Logf("%s: %s", tt.kind, simString(sim))
			checkBool(t, "can_buy", sim.CanBuy, tt.canBuy)
			checkBool(t, "can_sell", sim.CanSell, tt.canSell)
			checkBool(t, "cooldown", sim.Cooldown, tt.cooldown)
			checkRange(t, "buy_tax", sim.BuyTax, tt.buyTax)
			checkRange(t, "sell_tax", sim.SellTax, tt.sellTax)
			checkRange(t, "transfer_tax", sim.TransferTax, tt.xferTax)
			if sim.CanBuy != nil && *sim.CanBuy && (sim.BuyGas == nil || *sim.BuyGas == 0) {
				t.Errorf("buy_gas = %v, want a measured gas", sim.BuyGas)
			}
			if tt.canSell != nil && !*tt.canSell && sim.Error == nil {
				t.Errorf("error = nil, want the sell's revert reason")
			}
		})
	}
}

func checkBool(t *testing.T, name string, got, want *bool) {
	t.Helper()
	if want == nil {
		return
	}
	if got == nil || *got != *want {
		t.Errorf("%s = %v, want %v", name, fmtPtr(got), *want)
	}
}

func checkRange(t *testing.T, name string, got *float64, want *[2]float64) {
	t.Helper()
	if want == nil {
		return
	}
	if got == nil || *got < want[0] || *got > want[1] {
		t.Errorf("%s = %v, want in [%v, %v]", name, fmtPtr(got), want[0], want[1])
	}
}
