package simulation

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

func TestLossPct(t *testing.T) {
	tests := []struct {
		got, want int64
		pct       *float64
	}{
		{95, 100, new(5.0)},
		{100, 100, new(0.0)},
		{110, 100, new(0.0)}, // a reflection bonus is no negative tax
		{0, 100, new(100.0)},
		{1, 3, new(66.67)},
		{5, 0, nil},
	}
	for _, tt := range tests {
		got := LossPct(big.NewInt(tt.got), big.NewInt(tt.want))
		if fmtPtr(got) != fmtPtr(tt.pct) {
			t.Errorf("lossPct(%d, %d) = %s, want %s", tt.got, tt.want, fmtPtr(got), fmtPtr(tt.pct))
		}
	}
}

func TestFillSimulationNeverInventsAPass(t *testing.T) {
	zero := big.NewInt(0)
	r := &SimResult{BuyOk: true, BuyGas: big.NewInt(90_000), BuyExpected: big.NewInt(1000), BuyReceived: big.NewInt(950),
		TransferOk: false, TransferError: []byte("blocked"), TransferSent: big.NewInt(95), TransferReceived: zero,
		SellOk: false, SellError: nil, SellGas: zero, SellSent: big.NewInt(855), SellPoolReceived: zero, SellExpected: zero, SellReceived: zero}
	res := newSimulationFor(r)
	if res.CanBuy == nil || !*res.CanBuy || res.CanSell == nil || *res.CanSell {
		t.Fatalf("can_buy/can_sell = %s/%s, want true/false", fmtPtr(res.CanBuy), fmtPtr(res.CanSell))
	}
	if res.BuyTax == nil || *res.BuyTax != 5 {
		t.Errorf("buy_tax = %s, want 5", fmtPtr(res.BuyTax))
	}
	if res.SellTax != nil || res.TransferTax != nil || res.SellGas != nil {
		t.Errorf("unknowns must stay null: sell_tax=%s transfer_tax=%s sell_gas=%s", fmtPtr(res.SellTax), fmtPtr(res.TransferTax), fmtPtr(res.SellGas))
	}
	if res.Error == nil || !strings.Contains(*res.Error, "transfer failed: blocked") || !strings.Contains(*res.Error, "sell failed") {
		t.Errorf("error = %s, want both failures named", fmtPtr(res.Error))
	}
}

func TestSimulationCallRejectsWhatItCannotSimulate(t *testing.T) {
	weth := common.HexToAddress("0x01")
	usdc := common.HexToAddress("0x02")
	tests := []struct {
		name string
		req  SimulationRequest
		want string
	}{
		{"unknown pool kind", SimulationRequest{PoolKind: "curve", Quote: weth, Wrapped: weth, QuoteReserve: big.NewInt(1e18)}, "unsupported pool kind"},
		{"no reserve", SimulationRequest{PoolKind: "v2", Quote: weth, Wrapped: weth}, "no quote reserve"},
		{"stable quote without a funding pool", SimulationRequest{PoolKind: "v2", Quote: usdc, Wrapped: weth, QuoteReserve: big.NewInt(1e18)}, "no funding pool"},
		{"dust reserve", SimulationRequest{PoolKind: "v2", Quote: weth, Wrapped: weth, QuoteReserve: big.NewInt(10)}, "rounds to zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := SimulationCall(tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	elems, _, err := SimulationCall(SimulationRequest{PoolKind: "v2", Quote: weth, Wrapped: weth, QuoteReserve: big.NewInt(1e18), BlockTime: 1000, DelayedSell: DefaultDelayedSell})
	if err != nil || len(elems) != 2 || elems[0].Method != "eth_call" || elems[1].Method != "eth_simulateV1" {
		t.Errorf("elements = %d (%v), want eth_call + eth_simulateV1", len(elems), err)
	}
}

func TestApplyDelayedSell(t *testing.T) {
	sim, err := SimulatorContract()
	if err != nil {
		t.Fatal(err)
	}
	n := big.NewInt
	result := func(buyOk, sellOk bool, sellErr string) []byte {
		r := SimResult{BuyOk: buyOk, BuyGas: n(1), BuyExpected: n(100), BuyReceived: n(100), QuoteSpent: n(1),
			TransferSent: n(0), TransferReceived: n(0), SellOk: sellOk, SellError: []byte(sellErr), SellGas: n(50_000),
			SellSent: n(100), SellPoolReceived: n(90), SellExpected: n(10), SellReceived: n(10), BuyError: []byte{}, TransferError: []byte{},
			BuyFull: n(100), BuyRefused: n(0), SellRefused: n(0), XferDropPpm: n(0), SellDropPpm: n(0)}
		out, err := sim.ABI.Methods["simulate"].Outputs.Pack(r)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	blocks := func(buy, sell []byte) []SimBlockResult {
		return []SimBlockResult{{Calls: []SimCallResult{{ReturnData: buy, Status: 1}}}, {Calls: []SimCallResult{{ReturnData: sell, Status: 1}}}}
	}
	tests := []struct {
		name           string
		immediateSell  bool
		blocks         []SimBlockResult
		nodeErr        error
		wantSell       string
		wantCooldown   string
		wantSellTax    string
		wantDelayedErr bool
	}{
		{"immediate sell worked", true, blocks(result(true, false, ""), result(false, true, "")), nil, "true", "false", "null", false},
		{"cooldown: later sell works", false, blocks(result(true, false, ""), result(false, true, "")), nil, "true", "true", "10", false},
		{"honeypot: later sell fails too", false, blocks(result(true, false, ""), result(false, false, "no")), nil, "false", "false", "null", true},
		{"node cannot simulate blocks", false, nil, errors.New("the method eth_simulateV1 does not exist"), "false", "null", "null", false},
		{"garbage answer", false, blocks([]byte{1, 2}, []byte{3}), nil, "false", "null", "null", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &analysis.EVMSimulation{CanBuy: new(true), CanSell: new(tt.immediateSell)}
			applyDelayedSell(sim.ABI, res, rpc.BatchElem{Error: tt.nodeErr}, tt.blocks, true)
			if got := fmtPtr(res.CanSell); got != tt.wantSell {
				t.Errorf("can_sell = %s, want %s", got, tt.wantSell)
			}
			if got := fmtPtr(res.Cooldown); got != tt.wantCooldown {
				t.Errorf("cooldown = %s, want %s", got, tt.wantCooldown)
			}
			if got := fmtPtr(res.SellTax); got != tt.wantSellTax {
				t.Errorf("sell_tax = %s, want %s", got, tt.wantSellTax)
			}
			if (res.DelayedSellError != nil) != tt.wantDelayedErr {
				t.Errorf("delayed_sell_error = %s", fmtPtr(res.DelayedSellError))
			}
		})
	}
}

func FuzzDecodeSimulator(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 32*20))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	sim, err := SimulatorContract()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = decodeSimResult(sim.ABI, data)
	})
}

func fmtPtr[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// newSimulationFor runs fillSimulation on a fresh result.
func newSimulationFor(r *SimResult) *analysis.EVMSimulation {
	res := &analysis.EVMSimulation{}
	fillSimulation(res, r, true)
	return res
}
