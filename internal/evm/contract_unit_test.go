package evm

import (
	"bytes"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

func TestAddressesInWords(t *testing.T) {
	addr := common.HexToAddress("0x3bEf63F2d529318533fdf0445f3633E098740c5A")
	word := func(parts ...[]byte) []byte {
		w := make([]byte, 32)
		for _, p := range parts {
			for i := range p {
				if p[i] != 0 {
					w[i] = p[i]
				}
			}
		}
		return w
	}
	at := func(offset int, b []byte) []byte { // b placed so it ends offset bytes before the word's end
		w := make([]byte, 32)
		copy(w[32-offset-len(b):], b)
		return w
	}
	tests := []struct {
		name  string
		words [][]byte
		want  []common.Address
	}{
		{"plain address slot", [][]byte{common.LeftPadBytes(addr.Bytes(), 32)}, []common.Address{addr}},
		{"short node answer is left-padded", [][]byte{addr.Bytes()}, []common.Address{addr}},
		{"address after a packed bool", [][]byte{word(at(1, addr.Bytes()), at(0, []byte{1}))}, []common.Address{addr}},
		{"address packed under a flag above it", [][]byte{word(at(0, addr.Bytes()), at(20, []byte{1}))}, []common.Address{addr}},
		{"small number", [][]byte{common.LeftPadBytes(big.NewInt(1_000_000).Bytes(), 32)}, nil},
		{"total supply sized number", [][]byte{common.LeftPadBytes(new(big.Int).Exp(big.NewInt(10), big.NewInt(27), nil).Bytes(), 32)}, nil},
		{"short string", [][]byte{append([]byte("Shadow Finance"), append(make([]byte, 17), 28)...)}, nil},
		{"duplicates once", [][]byte{common.LeftPadBytes(addr.Bytes(), 32), common.LeftPadBytes(addr.Bytes(), 32)}, []common.Address{addr}},
		{"zero and oversize words", [][]byte{make([]byte, 32), make([]byte, 40)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AddressesInWords(tt.words)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("got %s, want %s", got[i].Hex(), tt.want[i].Hex())
				}
			}
		})
	}
}

func FuzzAddressesInWords(f *testing.F) {
	f.Add([]byte{}, []byte{1, 2, 3})
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xab}, 20))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		got := AddressesInWords([][]byte{a, b})
		if len(got) > 2 {
			t.Fatalf("%d addresses from 2 words", len(got))
		}
	})
}

func TestRevertReason(t *testing.T) {
	errString := func(s string) []byte {
		b, err := abiPack("string", s)
		if err != nil {
			t.Fatal(err)
		}
		sel := SelectorOf("Error(string)")
		return append(sel[:], b...)
	}
	panicData := append(SelectorOf("Panic(uint256)").bytes(), common.LeftPadBytes([]byte{0x11}, 32)...)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "reverted without a reason"},
		{"Error(string)", errString("Trading is not active."), "Trading is not active."},
		{"control characters replaced", errString("bad\x00\x07reason"), "bad  reason"},
		{"long reason bounded", errString(strings.Repeat("x", 500)), strings.Repeat("x", 200) + "…"},
		{"panic", panicData, "panic 0x11"},
		{"custom error", []byte{0xde, 0xad, 0xbe, 0xef, 0x01}, "custom error 0xdeadbeef"},
		{"raw text", []byte("simulator: nothing to sell"), "simulator: nothing to sell"},
		{"truncated Error(string)", errString("x")[:10], "custom error 0x08c379a0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RevertReason(tt.data); got != tt.want {
				t.Errorf("RevertReason = %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzRevertReason(f *testing.F) {
	f.Add([]byte{})
	f.Add(append(SelectorOf("Error(string)").bytes(), 0xff, 0xff))
	f.Add(append(SelectorOf("Panic(uint256)").bytes(), make([]byte, 32)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := RevertReason(data)
		if s == "" || len([]rune(s)) > 2*len(data)+64 && len([]rune(s)) > 202 {
			t.Fatalf("reason %q for %x", s, data)
		}
	})
}

func FuzzDecodeSimulatorAndProber(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 32*20))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	sim, err := simulatorContract()
	if err != nil {
		f.Fatal(err)
	}
	prober, err := proberContract()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = decodeSimResult(sim.ABI, data)
		_, _, _, _ = decodeProberRun(prober.ABI, data)
	})
}

func TestLossPct(t *testing.T) {
	tests := []struct {
		got, want int64
		pct       *float64
	}{
		{95, 100, refOf(5.0)},
		{100, 100, refOf(0.0)},
		{110, 100, refOf(0.0)}, // a reflection bonus is no negative tax
		{0, 100, refOf(100.0)},
		{1, 3, refOf(66.67)},
		{5, 0, nil},
	}
	for _, tt := range tests {
		got := lossPct(big.NewInt(tt.got), big.NewInt(tt.want))
		if fmtPtr(got) != fmtPtr(tt.pct) {
			t.Errorf("lossPct(%d, %d) = %s, want %s", tt.got, tt.want, fmtPtr(got), fmtPtr(tt.pct))
		}
	}
}

func TestFillSimulationNeverInventsAPass(t *testing.T) {
	zero := big.NewInt(0)
	r := &simResult{BuyOk: true, BuyGas: big.NewInt(90_000), BuyExpected: big.NewInt(1000), BuyReceived: big.NewInt(950),
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

func TestClassify(t *testing.T) {
	owner := probeCaller{addr: common.HexToAddress("0xA11CE"), role: RoleOwner}
	stored := probeCaller{addr: common.HexToAddress("0xB0B"), role: RoleStored}
	n := big.NewInt
	base := proberMeasure{TotalSupply: n(1000), VictimBalance: n(100), OwnerOk: true, Owner: owner.addr,
		WalletOk: true, WalletSent: n(25), WalletReceived: n(25), SellOk: true, SellSent: n(25), SellReceived: n(25), TinyOk: true, Hits: n(0),
		CallerBalance: n(500), TokenBalance: n(50)}
	base.Balances = []*big.Int{base.VictimBalance, n(300)}
	holder := common.HexToAddress("0x401DE2")
	sc := scene{watch: []common.Address{ProbeVictim, holder}, holder: holder}
	with := func(mod func(m *proberMeasure)) proberMeasure {
		m := base
		m.Balances = append([]*big.Int(nil), base.Balances...)
		mod(&m)
		m.Balances[0] = m.VictimBalance
		return m
	}
	unknown := func(victimArg bool) probeCall { return probeCall{label: "0x12345678", victimArg: victimArg} }
	tests := []struct {
		name   string
		call   probeCall
		caller probeCaller
		after  proberMeasure
		want   []string
	}{
		{"nothing changed", unknown(true), owner, base, nil},
		{"supply rose", unknown(true), owner, with(func(m *proberMeasure) { m.TotalSupply = n(1001); m.VictimBalance = n(101) }), []string{CapMint}},
		{"balance set to 1 without supply is a seizure", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(1) }), []string{CapSeize}},
		{"balance credited from nowhere is a hidden mint", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(150) }), []string{CapMint}},
		{"a holder zeroed", unknown(true), owner, with(func(m *proberMeasure) { m.Balances[1] = n(0) }), []string{CapSeize}},
		{"a holder's tokens moved to the caller", unknown(true), owner, with(func(m *proberMeasure) { m.Balances[1] = n(0); m.CallerBalance = n(800) }), []string{CapSeize}},
		{"the caller's own balance is not a third party's", unknown(true), probeCaller{addr: holder, role: RoleOwner}, with(func(m *proberMeasure) { m.Balances[1] = n(0); m.CallerBalance = n(200) }), nil},
		{"airdrop from the caller is a transfer", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(150); m.CallerBalance = n(450) }), nil},
		{"distribution from the contract is a transfer", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(150); m.TokenBalance = n(0) }), nil},
		{"victim blocked by an address call", unknown(true), owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk, m.TinyOk = false, false, false }), []string{CapBlacklist}},
		{"everyone blocked by a flag", unknown(false), owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk, m.TinyOk = false, false, false }), []string{CapPause}},
		{"only sells blocked", unknown(false), owner, with(func(m *proberMeasure) { m.SellOk, m.TinyOk = false, false }), []string{CapTradingSwitch}},
		{"big transfers blocked, tiny ones not", unknown(false), owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk = false, false }), []string{CapLimitTx}},
		{"named fee setter blocking transfers is a fee change", probeCall{capability: CapFeeChange, victimArg: true}, owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk, m.TinyOk = false, false, false }), []string{CapFeeChange}},
		{"sell tax moved", unknown(false), owner, with(func(m *proberMeasure) { m.SellReceived = n(20) }), []string{CapFeeChange}},
		{"target called back", unknown(true), owner, with(func(m *proberMeasure) { m.Hits = n(2) }), []string{CapExternalTarget}},
		{"owner reclaimed by a stored address", unknown(false), stored, with(func(m *proberMeasure) { m.Owner = stored.addr }), []string{CapOwnershipReclaim}},
		{"owner handing ownership to the victim proves nothing", unknown(true), owner, with(func(m *proberMeasure) { m.Owner = ProbeVictim; m.SellReceived = n(20) }), nil},
		{"blocked trading opened", probeCall{capability: ""}, owner, with(func(m *proberMeasure) {}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range classify(tt.call, base, tt.after, tt.caller, sc) {
				got = append(got, e.capability)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("effects = %v, want %v", got, tt.want)
			}
		})
	}
	closed := with(func(m *proberMeasure) { m.SellOk = false; m.WalletOk = false })
	opened := with(func(m *proberMeasure) {})
	if got := classify(unknown(false), closed, opened, owner, sc); len(got) != 1 || got[0].capability != CapTradingSwitch {
		t.Errorf("opening trading: effects = %v, want trading_switch", got)
	}
}

func TestTailoredCall(t *testing.T) {
	victimWord := common.LeftPadBytes(ProbeVictim.Bytes(), 32)
	tests := []struct {
		sig, capability string
		ok, victim      bool
		wantWords       [][]byte
	}{
		{"mint(address,uint256)", CapMint, true, true, [][]byte{victimWord, common.LeftPadBytes(new(big.Int).Exp(big.NewInt(10), big.NewInt(24), nil).Bytes(), 32)}},
		{"setFees(uint256,uint256,uint256)", CapFeeChange, true, false, [][]byte{common.LeftPadBytes([]byte{25}, 32), common.LeftPadBytes([]byte{25}, 32), common.LeftPadBytes([]byte{25}, 32)}},
		{"pause()", CapPause, true, false, nil},
		{"setTradingEnabled(bool)", CapTradingSwitch, true, false, [][]byte{common.LeftPadBytes([]byte{1}, 32)}},
		{"odd(uint8)", CapPause, false, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.sig, func(t *testing.T) {
			data, victim, ok := tailoredCall(Privileged{Signature: tt.sig, Capability: tt.capability})
			if ok != tt.ok || victim != tt.victim {
				t.Fatalf("ok, victim = %v, %v; want %v, %v", ok, victim, tt.ok, tt.victim)
			}
			if !ok {
				return
			}
			want := SelectorOf(tt.sig).bytes()
			for _, w := range tt.wantWords {
				want = append(want, w...)
			}
			if !bytes.Equal(data, want) {
				t.Errorf("call data = %x, want %x", data, want)
			}
		})
	}
}

func TestBuildProbeCalls(t *testing.T) {
	mint, unknown := SelectorOf("mint(address,uint256)"), Selector{0x12, 0x34, 0x56, 0x78}
	r := CodeReport{Selectors: []Selector{unknown, SelTransfer, SelBalanceOf, mint, SelOwner}}
	sc := scene{watch: []common.Address{ProbeVictim}, holder: ProbeVictim}
	calls := buildProbeCalls(r, 10, sc)
	if len(calls) != 1+4+4 { // no typed methods: mint: tailored + 4 generic; unknown: 4 generic
		t.Fatalf("%d calls, want 9", len(calls))
	}
	if calls[0].sel != mint || calls[0].capability != CapMint {
		t.Errorf("first call %s (%s), want the catalogue's mint first", calls[0].label, calls[0].capability)
	}
	for _, c := range calls {
		if IsStandard(c.sel) {
			t.Errorf("standard selector %s probed", c.sel)
		}
	}
	if got := buildProbeCalls(r, 1, sc); len(got) != 5 {
		t.Errorf("with one selector allowed: %d calls, want 5", len(got))
	}
}

func TestVerdictsIgnoreIncompleteProbes(t *testing.T) {
	owner := common.HexToAddress("0xA11CE")
	caller := probeCaller{addr: owner, role: RoleOwner}
	mint := probeCall{sel: SelectorOf("mint(address,uint256)"), label: "mint(address,uint256)", capability: CapMint, victimArg: true}
	tests := []struct {
		name     string
		outcomes []proberOutcome
		want     string // the mint verdict: "", "false", "null"
	}{
		{"out of gas proves nothing", []proberOutcome{{Complete: false}}, ""},
		{"reverted for the owner", []proberOutcome{{Complete: true, Ok: false}}, "false"},
		{"went through with no visible effect", []proberOutcome{{Complete: true, Ok: true}}, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newVerdicts(&owner, scene{})
			for _, o := range tt.outcomes {
				v.observe(caller, mint, proberMeasure{}, o)
			}
			got := ""
			for _, c := range v.capabilities() {
				if c.Name == CapMint {
					got = fmtPtr(c.Proven)
				}
			}
			if got != tt.want {
				t.Errorf("mint verdict = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestProbeCallsReportFailedCallers(t *testing.T) {
	owner := common.HexToAddress("0xA11CE00000000000000000000000000000000001")
	code := CodeReport{Selectors: []Selector{{0x12, 0x34, 0x56, 0x78}}}
	elems, decode, err := ProbeCalls(ProbeRequest{Token: common.HexToAddress("0x70"), Code: code, Owner: &owner})
	if err != nil {
		t.Fatal(err)
	}
	if len(elems) != 2 { // the owner and the control caller
		t.Fatalf("%d elements, want 2", len(elems))
	}
	for i := range elems {
		elems[i].Error = errors.New("execution timeout")
	}
	facts, err := decode()
	if err == nil {
		t.Error("decode error = nil, want no caller probed")
	}
	if facts == nil || facts.Complete || len(facts.Callers) != 2 || facts.Callers[0].Ran || facts.Callers[1].Role != RoleAnyone {
		t.Fatalf("facts = %+v, want the owner and the control reported as not probed", facts)
	}
	if !strings.Contains(facts.Callers[0].Error, "execution timeout") {
		t.Errorf("caller error = %q, want the node's message", facts.Callers[0].Error)
	}
}

func TestApplyDelayedSell(t *testing.T) {
	sim, err := simulatorContract()
	if err != nil {
		t.Fatal(err)
	}
	n := big.NewInt
	result := func(buyOk, sellOk bool, sellErr string) []byte {
		r := simResult{BuyOk: buyOk, BuyGas: n(1), BuyExpected: n(100), BuyReceived: n(100), QuoteSpent: n(1),
			TransferSent: n(0), TransferReceived: n(0), SellOk: sellOk, SellError: []byte(sellErr), SellGas: n(50_000),
			SellSent: n(100), SellPoolReceived: n(90), SellExpected: n(10), SellReceived: n(10), BuyError: []byte{}, TransferError: []byte{},
			BuyFull: n(100), BuyRefused: n(0), SellRefused: n(0), XferDropPpm: n(0), SellDropPpm: n(0)}
		out, err := sim.ABI.Methods["simulate"].Outputs.Pack(r)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	blocks := func(buy, sell []byte) []simBlockResult {
		return []simBlockResult{{Calls: []simCallResult{{ReturnData: buy, Status: 1}}}, {Calls: []simCallResult{{ReturnData: sell, Status: 1}}}}
	}
	tests := []struct {
		name           string
		immediateSell  bool
		blocks         []simBlockResult
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
			res := &analysis.EVMSimulation{CanBuy: refOf(true), CanSell: refOf(tt.immediateSell)}
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
