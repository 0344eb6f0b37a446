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

// contractFacts collects, the way the adapter does, what the probes need:
// the code (the implementation's for a proxy), owner(), stored addresses.
type zooContract struct {
	token  common.Address
	pool   common.Address
	code   CodeReport
	proxy  *ProxyInfo
	owner  *common.Address
	stored []common.Address
}

func collectZooContract(t *testing.T, c *Client, tok devnet.ManifestToken) zooContract {
	t.Helper()
	ctx := context.Background()
	z := zooContract{token: common.HexToAddress(tok.Address), pool: common.HexToAddress(tok.Pair)}
	var code, owner hexutil.Bytes
	elems := []rpc.BatchElem{
		CodeElem(z.token, &code),
		CallElem(CallMsg{To: z.token, Data: SelOwner.bytes(), Gas: 100_000}, nil, &owner),
	}
	slotElems, slots := ProxySlotCalls(z.token)
	storeElems, stored := StorageCandidateCalls(z.token)
	elems = append(append(elems, slotElems...), storeElems...)
	if err := c.Batch(ctx, elems); err != nil {
		t.Fatal(err)
	}
	if elems[0].Error != nil {
		t.Fatal(elems[0].Error)
	}
	z.code = AnalyseCode(code)
	if elems[1].Error == nil && len(owner) >= 32 {
		if o := common.BytesToAddress(owner[:32]); !isBurn(o) {
			z.owner = &o
		}
	}
	ps, err := slots()
	if err != nil {
		t.Fatal(err)
	}
	z.stored = stored()
	if z.proxy = DetectProxy(z.code, ps); z.proxy != nil {
		more, decode := ProxyDetailCalls(z.proxy)
		if err := c.Batch(ctx, more); err != nil {
			t.Fatal(err)
		}
		impl, err := decode()
		if err != nil {
			t.Fatal(err)
		}
		z.code = AnalyseCode(impl)
	}
	return z
}

func probeZoo(t *testing.T, kind string) (*analysis.EVMProbeFacts, zooContract) {
	t.Helper()
	dn, c := startContractNet(t)
	tok := zooToken(t, dn, kind)
	z := collectZooContract(t, c, tok)
	creator := common.HexToAddress(tok.Creator)
	elems, decode, err := ProbeCalls(ProbeRequest{
		Token: z.token, Pool: z.pool, Code: z.code, Owner: z.owner, Stored: z.stored, Creator: &creator,
		Donors: []common.Address{creator}, Exclude: []common.Address{common.HexToAddress(dn.Manifest().WETH)},
		Wrapped: common.HexToAddress(dn.Manifest().WETH), FeeBps: 30,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(elems) > 0 {
		if err := c.Batch(context.Background(), elems); err != nil {
			t.Fatal(err)
		}
	}
	facts, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	return facts, z
}

func TestProbesOnDevnetZoo(t *testing.T) {
	tests := []struct {
		kind string
		// proven capabilities (any caller) and whether one must come from
		// an address that is not the owner.
		want       []string
		notProven  []string
		fromHidden bool
	}{
		{kind: "clean", notProven: []string{CapMint, CapBlacklist, CapPause, CapFeeChange, CapBalanceChange, CapLimitTx}},
		{kind: "clean_owned", notProven: []string{CapMint, CapBlacklist, CapPause, CapFeeChange, CapBalanceChange, CapLimitTx}},
		{kind: "mintable", want: []string{CapMint}},
		{kind: "hidden_mint", want: []string{CapMint}},
		{kind: "blacklist", want: []string{CapBlacklist}},
		{kind: "pausable", want: []string{CapPause}},
		{kind: "max_tx", want: []string{CapLimitTx}},
		{kind: "fee_modifiable", want: []string{CapFeeChange}},
		{kind: "balance_modifiable", want: []string{CapBalanceChange}},
		{kind: "external_call", want: []string{CapExternalTarget}},
		{kind: "trading_disabled", want: []string{CapTradingSwitch}},
		{kind: "hidden_owner", want: []string{CapOwnershipReclaim, CapFeeChange}, fromHidden: true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			facts, z := probeZoo(t, tt.kind)
			t.Logf("%s: owner=%v stored=%v callers=%s", tt.kind, z.owner, z.stored, simString(facts.Callers))
			proven := map[string]analysis.EVMCapability{}
			for _, c := range facts.Capabilities {
				t.Logf("  %s proven=%s caller=%s %s", c.Name, fmtPtr(c.Proven), c.Caller, c.Evidence)
				if c.Proven != nil && *c.Proven {
					if _, dup := proven[c.Name]; !dup || (z.owner == nil || c.Caller != z.owner.Hex()) {
						proven[c.Name] = c
					}
				}
			}
			for _, w := range tt.want {
				c, ok := proven[w]
				if !ok {
					t.Errorf("%s not proven", w)
					continue
				}
				if tt.fromHidden && z.owner != nil && c.Caller == z.owner.Hex() {
					t.Errorf("%s proven from the owner, want from a hidden caller", w)
				}
			}
			for _, n := range tt.notProven {
				if c, ok := proven[n]; ok {
					t.Errorf("%s proven (%s), want not", n, c.Evidence)
				}
			}
			if !facts.Funded {
				t.Errorf("victim not funded")
			}
		})
	}
}
