package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"

	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func simFlagCodes(sim *analysis.EVMSimulation) []string {
	flags, _ := analysis.AnalyseEVMSimulation(sim, true)
	var codes []string
	for _, f := range flags {
		codes = append(codes, f.Code)
	}
	return codes
}

func hasCode(codes []string, code string) bool {
	for _, c := range codes {
		if c == code {
			return true
		}
	}
	return false
}

// contractOnly turns the wallet path off (the contract simulator decides,
// as on a node without eth_simulateV1).
func contractOnly(r *simulation.SimulationRequest) { r.TokenReserve = nil }

// TestWalletPathOnAntiBotTokens: tokens that refuse contracts as buyers or
// sellers trade normally for a wallet, so they are not honeypots, although
// the contract simulator alone reads them as honeypots; a honeypot that
// only traps wallets is caught although the contract simulator can sell.
func TestWalletPathOnAntiBotTokens(t *testing.T) {
	dn, c := startContractNet(t)
	tests := []struct {
		bin string
		// want are the honeypot flags of the combined verdict, contract
		// those of the contract simulator alone.
		want, contract []string
	}{
		{bin: "NoContractBuyer.bin", want: nil, contract: []string{risk.HoneypotCannotBuy}},
		{bin: "OriginOnlySeller.bin", want: nil, contract: []string{risk.HoneypotCannotSell}},
		{bin: "OriginGuardToken.bin", want: nil, contract: nil},
		{bin: "WalletTrap.bin", want: []string{risk.HoneypotCannotSell}, contract: nil},
	}
	honeypotFlags := func(codes []string) []string {
		var out []string
		for _, c := range codes {
			if strings.HasPrefix(c, "HONEYPOT_") || c == risk.SimulationFailed {
				out = append(out, c)
			}
		}
		return out
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.bin, ".bin"), func(t *testing.T) {
			token, pool := deployWithPool(t, dn, c, tt.bin)
			tok := devnet.ManifestToken{Address: token.Hex(), Pair: pool.Hex()}

			sim := simulateZoo(t, "", tok)
			t.Logf("combined: %s", simString(sim))
			if sim.Path != simulation.PathWallet {
				t.Errorf("path = %q, want %q", sim.Path, simulation.PathWallet)
			}
			if got := honeypotFlags(simFlagCodes(sim)); !equalCodes(got, tt.want) {
				t.Errorf("flags = %v, want %v", got, tt.want)
			}
			if tt.want == nil && !analysis.EVMNotHoneypot(sim) {
				t.Errorf("not_honeypot = false, want true")
			}
			if tt.want == nil && (sim.SellTax == nil || *sim.SellTax > 1 || sim.BuyTax == nil || *sim.BuyTax > 1) {
				t.Errorf("buy/sell tax = %s/%s, want both measured and under 1%%", fmtPtr(sim.BuyTax), fmtPtr(sim.SellTax))
			}

			alone := simulateZooWith(t, "", contractOnly, tok)
			t.Logf("contract alone: %s", simString(alone))
			if alone.Path != simulation.PathContract {
				t.Errorf("contract-only path = %q, want %q", alone.Path, simulation.PathContract)
			}
			if got := honeypotFlags(simFlagCodes(alone)); !equalCodes(got, tt.contract) {
				t.Errorf("contract-only flags = %v, want %v", got, tt.contract)
			}
		})
	}
}

func equalCodes(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestScanOfAntiBotTokens scans the anti-bot tokens through the adapter
// (pools found by the lens, simulation in round trip 2) and checks the
// report a user sees.
func TestScanOfAntiBotTokens(t *testing.T) {
	dn, c := startContractNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	for _, tt := range []struct {
		bin      string
		honeypot bool
	}{
		{"NoContractBuyer.bin", false},
		{"OriginOnlySeller.bin", false},
		{"WalletTrap.bin", true},
	} {
		t.Run(strings.TrimSuffix(tt.bin, ".bin"), func(t *testing.T) {
			token, _ := deployWithPool(t, dn, c, tt.bin)
			r, err := assess(t, ad, token.Hex())
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, f := range r.RiskFlags {
				codes = append(codes, f.Code)
			}
			t.Logf("level %s, flags %v", r.RiskLevel, codes)
			if got := r.SafetyChecklist.NotHoneypot; got == tt.honeypot {
				t.Errorf("not_honeypot = %v, want %v", got, !tt.honeypot)
			}
			if got := hasCode(codes, risk.HoneypotCannotSell); got != tt.honeypot {
				t.Errorf("HONEYPOT_CANNOT_SELL = %v, want %v", got, tt.honeypot)
			}
			if hasCode(codes, risk.HoneypotCannotBuy) || hasCode(codes, risk.SimulationFailed) {
				t.Errorf("flags %v: the buy works and the simulation ran", codes)
			}
			if tt.honeypot && r.RiskLevel != risk.LevelCritical {
				t.Errorf("level = %s, want critical", r.RiskLevel)
			}
		})
	}
}

// noSimulateV1 forwards JSON-RPC to target with eth_simulateV1 renamed,
// like a node that does not have it.
func noSimulateV1(t *testing.T, target string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = bytes.ReplaceAll(body, []byte(`"eth_simulateV1"`), []byte(`"eth_simulateV0"`))
		resp, err := http.Post(target, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestNodeWithoutSimulateV1: the contract simulator decides alone, says
// so, and still tells a clean token from a honeypot.
func TestNodeWithoutSimulateV1(t *testing.T) {
	dn, _ := startContractNet(t)
	ch := dn.Chain()
	ch.RPC = []string{noSimulateV1(t, dn.RPCURL())}
	ad := NewAdapter(devnetRegistry(t, ch), Options{})
	for _, tt := range []struct {
		kind     string
		honeypot bool
	}{{"clean", false}, {"honeypot_sell_blocked", true}} {
		t.Run(tt.kind, func(t *testing.T) {
			r, err := assess(t, ad, zooToken(t, dn, tt.kind).Address)
			if err != nil {
				t.Fatal(err)
			}
			if r.SafetyChecklist.NotHoneypot == tt.honeypot {
				t.Errorf("not_honeypot = %v, want %v", r.SafetyChecklist.NotHoneypot, !tt.honeypot)
			}
			ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
			sim, ok := ev.Simulation.(*analysis.EVMSimulation)
			if !ok || sim == nil {
				t.Fatalf("no simulation evidence in %T", r.LiquidityAnalysis.Evidence)
			}
			if sim.Path != simulation.PathContract || len(sim.Notes) == 0 {
				t.Errorf("path = %q, notes = %v; want the contract path and why", sim.Path, sim.Notes)
			}
			if !containsText(r.Warnings, "the wallet path did not run") {
				t.Errorf("warnings = %v, want one saying the wallet path did not run", r.Warnings)
			}
		})
	}
}

func containsText(list []string, s string) bool {
	for _, v := range list {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

func TestCombineSimulations(t *testing.T) {
	yes, no := new(true), new(false)
	tax := func(v float64) *float64 { return &v }
	reason := new("buy failed: anti-bot: no contracts")
	tests := []struct {
		name       string
		c, w       *analysis.EVMSimulation
		note       string
		canBuy     *bool
		canSell    *bool
		path       string
		notHoneypo bool
		noteHas    string
	}{
		{name: "wallet did not run: contract decides", c: &analysis.EVMSimulation{CanBuy: yes, CanSell: yes, BuyTax: tax(0), SellTax: tax(0)},
			note: "method not found", canBuy: yes, canSell: yes, path: simulation.PathContract, notHoneypo: true, noteHas: "method not found"},
		{name: "neither ran", c: &analysis.EVMSimulation{Error: new("simulation call failed")}, note: "timeout",
			path: simulation.PathContract, noteHas: "did not run"},
		{name: "contract refused as buyer, wallet trades", c: &analysis.EVMSimulation{CanBuy: no, Error: reason},
			w: &analysis.EVMSimulation{CanBuy: yes, CanSell: yes, BuyTax: tax(0), SellTax: tax(1)}, canBuy: yes, canSell: yes,
			path: simulation.PathWallet, notHoneypo: true, noteHas: "anti-bot"},
		{name: "wallet cannot sell although the contract can", c: &analysis.EVMSimulation{CanBuy: yes, CanSell: yes, BuyTax: tax(0), SellTax: tax(0)},
			w: &analysis.EVMSimulation{CanBuy: yes, CanSell: no, BuyTax: tax(0)}, canBuy: yes, canSell: no, path: simulation.PathWallet, noteHas: "wallet decides"},
		{name: "wallet cannot buy although the contract can", c: &analysis.EVMSimulation{CanBuy: yes, CanSell: yes},
			w: &analysis.EVMSimulation{CanBuy: no}, canBuy: no, path: simulation.PathWallet, noteHas: "wallet decides"},
		{name: "wallet sell untested: the contract's sell decides", c: &analysis.EVMSimulation{CanBuy: yes, CanSell: no, Error: new("sell failed")},
			w: &analysis.EVMSimulation{CanBuy: yes, BuyTax: tax(0)}, canBuy: yes, canSell: no, path: simulation.PathWallet, noteHas: "contract simulator's sell decided"},
		{name: "contract did not run, wallet did", c: &analysis.EVMSimulation{Error: new("simulation call failed: out of gas")},
			w: &analysis.EVMSimulation{CanBuy: yes, CanSell: yes, BuyTax: tax(0), SellTax: tax(0)}, canBuy: yes, canSell: yes,
			path: simulation.PathWallet, notHoneypo: true, noteHas: "out of gas"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := simulation.CombineSimulations(tt.c, tt.w, tt.note)
			checkNilBool(t, "can_buy", got.CanBuy, tt.canBuy)
			checkNilBool(t, "can_sell", got.CanSell, tt.canSell)
			if got.Path != tt.path {
				t.Errorf("path = %q, want %q", got.Path, tt.path)
			}
			if analysis.EVMNotHoneypot(got) != tt.notHoneypo {
				t.Errorf("not_honeypot = %v, want %v (%s)", !tt.notHoneypo, tt.notHoneypo, simString(got))
			}
			if !containsText(got.Notes, tt.noteHas) {
				t.Errorf("notes = %v, want one containing %q", got.Notes, tt.noteHas)
			}
			codes := simFlagCodes(got)
			if got.CanBuy == nil && !hasCode(codes, risk.SimulationFailed) {
				t.Errorf("flags = %v, want SIMULATION_FAILED when neither path ran", codes)
			}
		})
	}
}

func checkNilBool(t *testing.T, name string, got, want *bool) {
	t.Helper()
	if (got == nil) != (want == nil) || got != nil && *got != *want {
		t.Errorf("%s = %s, want %s", name, fmtPtr(got), fmtPtr(want))
	}
}

// fuzzWalletPlan is a wallet plan for a fixed request (a V2 pool, or a
// V3 pool when v3 is given and true), for decoding tests; its router calls
// carry their real inputs, so an answer can be built per call.
func fuzzWalletPlan(t testing.TB, v3 ...bool) *simulation.WalletPlan {
	t.Helper()
	sim, err := simulation.SimulatorContract()
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]byte{}
	for _, m := range []string{"routeBuy", "routeSell", "routeMark"} {
		inputs[m] = sim.ABI.Methods[m].ID
	}
	pl := simulation.NewWalletPlan(simulation.SimulationRequest{Token: common.HexToAddress("0x01"), Pool: common.HexToAddress("0x02"), FeeBps: 30,
		QuoteReserve: big.NewInt(1e18), TokenReserve: big.NewInt(1e18), BlockTime: 1, DelayedSell: simulation.DefaultDelayedSell},
		len(v3) > 0 && v3[0], big.NewInt(1e15), simulation.DefaultStepGas, node.StateOverride{simulation.SimulatorAddress: {Code: sim.DeployedBytecode}},
		inputs["routeBuy"], inputs["routeSell"], inputs["routeMark"])
	if pl == nil {
		t.Fatal("no wallet plan")
	}
	return pl
}

// fuzzAnswer builds an eth_simulateV1 answer shaped like pl's request from
// fuzz bytes: every call gets a status, gas and return data of its kind (a
// balance or transfer word, a routeMark drop, an ABI-encoded router
// Result whose fields are drawn near the plan's own amounts), so the
// decoder's logic runs rather than its shape checks; a few inputs break
// the shape on purpose.
type fuzzAnswer struct {
	data []byte
	pos  int
}

func (f *fuzzAnswer) byte() byte {
	if f.pos >= len(f.data) {
		f.pos++
		return byte(f.pos * 131) // past the input: a fixed stream, so short inputs still vary
	}
	f.pos++
	return f.data[f.pos-1]
}

// amount is a value near what the plan trades: zero, a ladder step (±1),
// the quoted buy, a small number, or raw bytes.
func (f *fuzzAnswer) amount(pl *simulation.WalletPlan) *big.Int {
	switch k := f.byte(); k % 6 {
	case 0:
		return new(big.Int)
	case 1, 2:
		if len(pl.SellLadder) == 0 {
			return big.NewInt(int64(k))
		}
		v := new(big.Int).Set(pl.SellLadder[int(f.byte())%len(pl.SellLadder)])
		return v.Add(v, big.NewInt(int64(f.byte()%3)-1))
	case 3:
		return new(big.Int).Mul(big.NewInt(int64(k%4)+1), pl.XferSmallest)
	case 4:
		return big.NewInt(int64(f.byte()))
	default:
		n := int(f.byte() % 33)
		b := make([]byte, n)
		for i := range b {
			b[i] = f.byte()
		}
		return new(big.Int).SetBytes(b)
	}
}

func (f *fuzzAnswer) result(pl *simulation.WalletPlan) simulation.SimResult {
	bit := func() bool { return f.byte()%2 == 1 }
	a := func() *big.Int { return f.amount(pl) }
	reason := func() []byte {
		switch f.byte() % 3 {
		case 0:
			return nil
		case 1:
			return []byte("max tx")
		}
		out, _ := abi.Arguments{{Type: revert.MustType("string")}}.Pack("blocked")
		return append(revert.SelErrorString.Bytes(), out...)
	}
	return simulation.SimResult{
		BuyOk: bit(), BuyError: reason(), BuyGas: a(), BuyExpected: a(), BuyReceived: a(), QuoteSpent: a(),
		TransferOk: bit(), TransferError: reason(), TransferSent: a(), TransferReceived: a(),
		SellOk: bit(), SellError: reason(), SellGas: a(), SellSent: a(), SellPoolReceived: a(), SellExpected: a(), SellReceived: a(),
		BuyFull: a(), BuyRefused: a(), SellRefused: a(), XferDropPpm: big.NewInt(int64(f.byte()) * 4000), SellDropPpm: a(),
	}
}

func (f *fuzzAnswer) build(t testing.TB, parsed abi.ABI, pl *simulation.WalletPlan) []simulation.SimBlockResult {
	t.Helper()
	out := make([]simulation.SimBlockResult, len(pl.Blocks))
	for b, blk := range pl.Blocks {
		for _, call := range blk.Calls {
			c := simulation.SimCallResult{Status: 1, GasUsed: hexutil.Uint64(f.byte()) * 1000}
			if f.byte()%5 == 0 {
				c.Status = 0
				c.Error = &struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
					Data    string `json:"data"`
				}{Code: 3, Message: "execution reverted", Data: hexutil.Encode(append(revert.SelErrorString.Bytes(), f.byte()))}
			}
			switch {
			case call.To != simulation.SimulatorAddress:
				c.ReturnData = common.LeftPadBytes(f.amount(pl).Bytes(), 32)
			case bytes.HasPrefix(call.Input, parsed.Methods["routeMark"].ID):
				c.ReturnData = common.LeftPadBytes(big.NewInt(int64(f.byte())*3000).Bytes(), 32)
			default:
				c.ReturnData = packSimResult(f.result(pl))
			}
			if f.byte() == 255 {
				c.ReturnData = c.ReturnData[:len(c.ReturnData)/2] // truncated
			}
			out[b].Calls = append(out[b].Calls, c)
		}
	}
	if k := f.byte(); k == 254 && len(out[0].Calls) > 0 {
		out[0].Calls = out[0].Calls[1:] // a node that answers fewer calls
	} else if k == 253 {
		out = out[:1]
	}
	return out
}

// packSimResult ABI-encodes r as the Simulator's simulate() returns it (one
// dynamic tuple: its offset, a head word per field in declaration order,
// then each bytes field's length and padded contents). The go-ethereum
// packer maps struct fields by name through reflection on every call,
// which cost the fuzzer four fifths of its time; TestPackSimResult checks
// the two encodings agree.
func packSimResult(r simulation.SimResult) []byte {
	v := reflect.ValueOf(r)
	n := v.NumField()
	word := func(b []byte) []byte { return common.LeftPadBytes(b, 32) }
	head := make([]byte, 0, 32*(n+1))
	var tail []byte
	head = append(head, word([]byte{0x20})...)
	for i := range n {
		switch x := v.Field(i).Interface().(type) {
		case bool:
			if x {
				head = append(head, word([]byte{1})...)
			} else {
				head = append(head, word(nil)...)
			}
		case *big.Int:
			if x == nil {
				x = new(big.Int)
			}
			head = append(head, word(x.Bytes())...)
		case []byte:
			head = append(head, word(big.NewInt(int64(32*n+len(tail))).Bytes())...)
			tail = append(tail, word(big.NewInt(int64(len(x))).Bytes())...)
			tail = append(tail, x...)
			if pad := len(x) % 32; pad != 0 {
				tail = append(tail, make([]byte, 32-pad)...)
			}
		}
	}
	return append(head, tail...)
}

// TestPackSimResult: the fuzzer's fast packer writes what go-ethereum's
// ABI packer writes for the Simulator's output.
func TestPackSimResult(t *testing.T) {
	sim, err := simulation.SimulatorContract()
	if err != nil {
		t.Fatal(err)
	}
	pl := fuzzWalletPlan(t)
	for _, seed := range [][]byte{nil, {1, 2, 3}, bytes.Repeat([]byte{5, 9, 200, 17, 3}, 40)} {
		r := (&fuzzAnswer{data: seed}).result(pl)
		want, err := sim.ABI.Methods["simulate"].Outputs.Pack(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := packSimResult(r); !bytes.Equal(got, want) {
			t.Fatalf("seed %x: packed %x, go-ethereum packs %x", seed, got, want)
		}
	}
}

// FuzzWalletDecode feeds the wallet path's decoder eth_simulateV1 answers
// of its own plan's shape, built from fuzz bytes (both pool kinds): it must
// not panic, never report a sell without a buy, and keep every percentage
// in [0, 100] and every trade limit's accepted size below the refused one.
func FuzzWalletDecode(f *testing.F) {
	sim, err := simulation.SimulatorContract()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(false, []byte(`[]`))
	f.Add(false, []byte{})
	f.Add(true, []byte{})
	f.Add(false, bytes.Repeat([]byte{1}, 64))
	f.Add(false, bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7}, 80))
	f.Add(true, bytes.Repeat([]byte{7, 1, 9}, 80))
	f.Add(false, []byte{254})
	f.Add(false, bytes.Repeat([]byte{0, 5, 11, 17}, 120))
	f.Add(false, []byte(`[{"calls":[{"status":"0x0","error":{"code":3,"message":"execution reverted","data":"0x08c379a0"}}]}]`))
	f.Fuzz(func(t *testing.T, v3 bool, data []byte) {
		pl := fuzzWalletPlan(t, v3)
		// Input that is JSON is a node's raw answer; any other input
		// builds an answer of the plan's shape.
		if json.Unmarshal(data, &pl.Out) != nil {
			pl.Out = (&fuzzAnswer{data: data}).build(t, sim.ABI, pl)
		}
		w, note := pl.Decode(sim.ABI, rpc.BatchElem{})
		if w == nil {
			if note == "" {
				t.Error("no result and no reason")
			}
			return
		}
		if w.CanBuy == nil {
			t.Errorf("a wallet result without can_buy: %s", simString(w))
		}
		if w.CanSell != nil && *w.CanSell && (w.CanBuy == nil || !*w.CanBuy) {
			t.Errorf("a sell without a buy: %s", simString(w))
		}
		for name, v := range map[string]*float64{"buy_tax": w.BuyTax, "sell_tax": w.SellTax, "transfer_tax": w.TransferTax, "self_dump": w.SelfDump} {
			if v != nil && (*v < 0 || *v > 100) {
				t.Errorf("%s = %v, outside [0, 100]", name, *v)
			}
		}
		if v3 && w.SelfDump != nil {
			t.Errorf("self_dump = %v on a V3 pool, want null", *w.SelfDump)
		}
		if w.SellLimit != nil && (w.CanSell == nil || !*w.CanSell) {
			t.Errorf("a sell limit without a sell: %s", simString(w))
		}
		if l := w.SellLimit; l != nil && !v3 {
			acc, _ := new(big.Int).SetString(l.Accepted, 10)
			ref, _ := new(big.Int).SetString(l.Refused, 10)
			if acc == nil || ref == nil || acc.Cmp(ref) >= 0 {
				t.Errorf("sell limit %+v: the accepted size must be below the refused one", *l)
			}
		}
	})
}

// TestWalletSellLadder: against a token that reverts a transfer above the
// holding, the ladder sells at least 65% of any holding from the smallest
// step up to the quoted buy (the first step that fits), never more than
// the holding.
func TestWalletSellLadder(t *testing.T) {
	pl := fuzzWalletPlan(t)
	ladder := pl.SellLadder
	smallest, largest := ladder[len(ladder)-1], ladder[0]
	frac := func(num, den int64) *big.Int {
		return new(big.Int).Div(new(big.Int).Mul(largest, big.NewInt(num)), big.NewInt(den))
	}
	tests := map[string]*big.Int{
		"the smallest step":               smallest,
		"just under a step":               new(big.Int).Sub(ladder[3], big.NewInt(1)),
		"exactly a step":                  ladder[5],
		"a 60% buy tax":                   frac(4, 10),
		"the whole quoted buy":            frac(1000, 999),
		"a twentieth of the buy, 90% tax": frac(1, 200),
		"a twentieth of the buy, 96% tax": frac(1, 500),
		"more than the quote (1.5x)":      frac(3, 2),
	}
	for name, holding := range tests {
		t.Run(name, func(t *testing.T) {
			left, sold, moves := new(big.Int).Set(holding), new(big.Int), 0
			for _, step := range ladder {
				if step.Cmp(left) <= 0 {
					left.Sub(left, step)
					sold.Add(sold, step)
					moves++
				}
			}
			if moves == 0 {
				t.Fatalf("no step fits a holding of %s (smallest step %s)", holding, smallest)
			}
			base := holding
			if base.Cmp(largest) > 0 {
				base = largest
			}
			if share, _ := new(big.Rat).SetFrac(sold, base).Float64(); share < 0.65 {
				t.Errorf("sold %.3f of the holding, want at least 0.65", share)
			}
		})
	}
}

// BenchmarkSimulationPaths measures the node's time for the simulation's
// batch (no added latency) with the wallet path and with the contract
// simulator alone, on the devnet's clean token.
func BenchmarkSimulationPaths(b *testing.B) {
	dn := startAdapterNet(b)
	c := node.NewClient("devnet", []string{dn.RPCURL()}, node.ClientOptions{})
	tok, _ := dn.Manifest().Token("clean")
	weth, pair := common.HexToAddress(dn.Manifest().WETH), common.HexToAddress(tok.Pair)
	var t0, res hexutil.Bytes
	var head struct {
		Time hexutil.Uint64 `json:"timestamp"`
	}
	elems := []rpc.BatchElem{
		node.CallElem(node.CallMsg{To: pair, Data: bytecode.SelectorOf("token0()").Bytes()}, nil, &t0),
		node.CallElem(node.CallMsg{To: pair, Data: bytecode.SelectorOf("getReserves()").Bytes()}, nil, &res),
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
	}
	if err := c.Batch(b.Context(), elems); err != nil || elems[1].Error != nil {
		b.Fatalf("reserves: %v %v", err, elems[1].Error)
	}
	quote, other := new(big.Int).SetBytes(res[32:64]), new(big.Int).SetBytes(res[:32])
	if common.BytesToAddress(t0) == weth {
		quote, other = other, quote
	}
	for _, tt := range []struct {
		name         string
		tokenReserve *big.Int
	}{{"wallet+contract", other}, {"contract_only", nil}} {
		b.Run(tt.name, func(b *testing.B) {
			for range b.N {
				elems, decode, err := simulation.SimulationCall(simulation.SimulationRequest{Token: common.HexToAddress(tok.Address), Pool: pair, PoolKind: "v2",
					Quote: weth, Wrapped: weth, FeeBps: 30, QuoteReserve: quote, TokenReserve: tt.tokenReserve, BlockTime: uint64(head.Time), DelayedSell: simulation.DefaultDelayedSell})
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Batch(b.Context(), elems); err != nil {
					b.Fatal(err)
				}
				sim, err := decode()
				if err != nil || !analysis.EVMNotHoneypot(sim) || sim.Cooldown == nil || (tt.tokenReserve != nil) != (sim.Path == simulation.PathWallet) {
					b.Fatalf("simulation %s: %v", simString(sim), err)
				}
			}
		})
	}
}
