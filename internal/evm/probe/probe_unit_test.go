package probe

import (
	"fmt"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"

	"bytes"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
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

func FuzzDecodeProber(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 32*20))
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	prober, err := proberContract()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _, _ = decodeProberRun(prober.ABI, data)
	})
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
		{"supply rose", unknown(true), owner, with(func(m *proberMeasure) { m.TotalSupply = n(1001); m.VictimBalance = n(101) }), []string{bytecode.CapMint}},
		{"balance set to 1 without supply is a seizure", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(1) }), []string{bytecode.CapSeize}},
		{"balance credited from nowhere is a hidden mint", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(150) }), []string{bytecode.CapMint}},
		{"a holder zeroed", unknown(true), owner, with(func(m *proberMeasure) { m.Balances[1] = n(0) }), []string{bytecode.CapSeize}},
		{"a holder's tokens moved to the caller", unknown(true), owner, with(func(m *proberMeasure) { m.Balances[1] = n(0); m.CallerBalance = n(800) }), []string{bytecode.CapSeize}},
		{"the caller's own balance is not a third party's", unknown(true), probeCaller{addr: holder, role: RoleOwner}, with(func(m *proberMeasure) { m.Balances[1] = n(0); m.CallerBalance = n(200) }), nil},
		{"airdrop from the caller is a transfer", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(150); m.CallerBalance = n(450) }), nil},
		{"distribution from the contract is a transfer", unknown(true), owner, with(func(m *proberMeasure) { m.VictimBalance = n(150); m.TokenBalance = n(0) }), nil},
		{"victim blocked by an address call", unknown(true), owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk, m.TinyOk = false, false, false }), []string{bytecode.CapBlacklist}},
		{"everyone blocked by a flag", unknown(false), owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk, m.TinyOk = false, false, false }), []string{bytecode.CapPause}},
		{"only sells blocked", unknown(false), owner, with(func(m *proberMeasure) { m.SellOk, m.TinyOk = false, false }), []string{bytecode.CapTradingSwitch}},
		{"big transfers blocked, tiny ones not", unknown(false), owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk = false, false }), []string{bytecode.CapLimitTx}},
		{"named fee setter blocking transfers is a fee change", probeCall{capability: bytecode.CapFeeChange, victimArg: true}, owner, with(func(m *proberMeasure) { m.WalletOk, m.SellOk, m.TinyOk = false, false, false }), []string{bytecode.CapFeeChange}},
		{"sell tax moved", unknown(false), owner, with(func(m *proberMeasure) { m.SellReceived = n(20) }), []string{bytecode.CapFeeChange}},
		{"target called back", unknown(true), owner, with(func(m *proberMeasure) { m.Hits = n(2) }), []string{bytecode.CapExternalTarget}},
		{"owner reclaimed by a stored address", unknown(false), stored, with(func(m *proberMeasure) { m.Owner = stored.addr }), []string{bytecode.CapOwnershipReclaim}},
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
	if got := classify(unknown(false), closed, opened, owner, sc); len(got) != 1 || got[0].capability != bytecode.CapTradingSwitch {
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
		{"mint(address,uint256)", bytecode.CapMint, true, true, [][]byte{victimWord, common.LeftPadBytes(new(big.Int).Exp(big.NewInt(10), big.NewInt(24), nil).Bytes(), 32)}},
		{"setFees(uint256,uint256,uint256)", bytecode.CapFeeChange, true, false, [][]byte{common.LeftPadBytes([]byte{25}, 32), common.LeftPadBytes([]byte{25}, 32), common.LeftPadBytes([]byte{25}, 32)}},
		{"pause()", bytecode.CapPause, true, false, nil},
		{"setTradingEnabled(bool)", bytecode.CapTradingSwitch, true, false, [][]byte{common.LeftPadBytes([]byte{1}, 32)}},
		{"odd(uint8)", bytecode.CapPause, false, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.sig, func(t *testing.T) {
			data, victim, ok := tailoredCall(bytecode.Privileged{Signature: tt.sig, Capability: tt.capability})
			if ok != tt.ok || victim != tt.victim {
				t.Fatalf("ok, victim = %v, %v; want %v, %v", ok, victim, tt.ok, tt.victim)
			}
			if !ok {
				return
			}
			want := bytecode.SelectorOf(tt.sig).Bytes()
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
	mint, unknown := bytecode.SelectorOf("mint(address,uint256)"), bytecode.Selector{0x12, 0x34, 0x56, 0x78}
	r := bytecode.CodeReport{Selectors: []bytecode.Selector{unknown, bytecode.SelTransfer, bytecode.SelBalanceOf, mint, bytecode.SelOwner}}
	sc := scene{watch: []common.Address{ProbeVictim}, holder: ProbeVictim}
	calls := BuildProbeCalls(r, 10, sc)
	// no typed methods: mint: tailored + 4 generic; unknown: 4 generic;
	// then the caller's own transfer (a mint hidden in transfer).
	if len(calls) != 1+4+4+1 {
		t.Fatalf("%d calls, want 10", len(calls))
	}
	if calls[0].sel != mint || calls[0].capability != bytecode.CapMint {
		t.Errorf("first call %s (%s), want the catalogue's mint first", calls[0].label, calls[0].capability)
	}
	for _, c := range calls {
		if bytecode.IsStandard(c.sel) && !(c.transfer && c.sel == bytecode.SelTransfer && !c.full) {
			t.Errorf("standard selector %s probed (not as the callers' own transfer)", c.sel)
		}
	}
	if got := BuildProbeCalls(r, 1, sc); len(got) != 5+1 {
		t.Errorf("with one selector allowed: %d calls, want 6", len(got))
	}
}

// A privileged caller's transfer that credits the victim without
// debiting the caller proves a mint; one that debits what it credits, or
// less (a fee), proves nothing, and nothing else a transfer changes counts.
func TestTransferProvesOnlyHiddenMint(t *testing.T) {
	marketing := common.HexToAddress("0x3A3A")
	caller := probeCaller{addr: marketing, role: RoleStored}
	sc := scene{watch: []common.Address{ProbeVictim}, holder: ProbeVictim}
	call := transferCalls(bytecode.CodeReport{Selectors: []bytecode.Selector{bytecode.SelTransfer}}, sc)
	if len(call) != 1 {
		t.Fatalf("%d transfer calls, want 1", len(call))
	}
	supply := big.NewInt(1_000_000)
	base := proberMeasure{TotalSupply: supply, CallerBalance: big.NewInt(500_000), Balances: []*big.Int{big.NewInt(0)}, WalletOk: true}
	tests := []struct {
		name           string
		callerAfter    int64
		victimAfter    int64
		walletOk, mint bool
	}{
		{"credited without a debit", 500_000, 100_000, true, true},
		{"debited what it credits", 400_000, 100_000, true, false},
		{"a fee: the recipient gets less", 400_000, 97_000, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newVerdicts(nil, sc)
			m := proberMeasure{TotalSupply: supply, CallerBalance: big.NewInt(tt.callerAfter), Balances: []*big.Int{big.NewInt(tt.victimAfter)}, WalletOk: tt.walletOk}
			v.observe(caller, call[0], base, proberOutcome{Complete: true, Ok: true, M: m})
			caps := v.capabilities()
			minted := false
			for _, c := range caps {
				if c.Name != bytecode.CapMint {
					t.Errorf("a transfer proved %s: %s", c.Name, c.Evidence)
				}
				minted = minted || c.Name == bytecode.CapMint
			}
			if minted != tt.mint {
				t.Errorf("mint proven = %v, want %v (%+v)", minted, tt.mint, caps)
			}
		})
	}
}

func TestVerdictsIgnoreIncompleteProbes(t *testing.T) {
	owner := common.HexToAddress("0xA11CE")
	caller := probeCaller{addr: owner, role: RoleOwner}
	mint := probeCall{sel: bytecode.SelectorOf("mint(address,uint256)"), label: "mint(address,uint256)", capability: bytecode.CapMint, victimArg: true}
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
				if c.Name == bytecode.CapMint {
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
	code := bytecode.CodeReport{Selectors: []bytecode.Selector{{0x12, 0x34, 0x56, 0x78}}}
	elems, decode, err := ProbeCalls(ProbeRequest{Token: common.HexToAddress("0x70"), Code: code, Owner: &owner})
	if err != nil {
		t.Fatal(err)
	}
	if len(elems) != 3 { // the owner, the control caller, the renounce replay
		t.Fatalf("%d elements, want 3", len(elems))
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

func fmtPtr[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// A catalogue blacklist setter the owner's call ran with the test wallet
// as its argument, after which the wallet still transferred to a wallet
// and to the pool, is refuted by that measurement (0x6e8b6f2d…'s
// freezeAccount writes a flag no transfer reads): false, or null without
// a power when only the wallet transfer was measured. A call that
// reverted, a victim that could not transfer before the call, or one
// with no tokens leaves the code's word as it was.
func TestVerdictsRefuteABlacklistByMeasurement(t *testing.T) {
	owner := common.HexToAddress("0xA11CE")
	caller := probeCaller{addr: owner, role: RoleOwner}
	freeze := bytecode.Privileged{Signature: "freezeAccount(address,bool)", Capability: bytecode.CapBlacklist}
	data, victimArg, ok := tailoredCall(freeze)
	if !ok {
		t.Fatal("no tailored call")
	}
	call := probeCall{sel: bytecode.SelectorOf(freeze.Signature), data: data, label: freeze.Signature, capability: freeze.Capability,
		victimArg: victimArg, tailored: true}
	unfreeze := call
	unfreeze.tailored, unfreeze.label = false, freeze.Signature+" (address,bool) victim, 0"
	n := big.NewInt
	measure := func(funded, wallet, sell bool) proberMeasure {
		m := proberMeasure{TotalSupply: n(1000), VictimBalance: n(100), WalletOk: wallet, WalletSent: n(25), WalletReceived: n(25),
			SellOk: sell, SellSent: n(25), SellReceived: n(25), TinyOk: wallet, Hits: n(0)}
		if !funded {
			m.VictimBalance, m.WalletSent, m.WalletReceived, m.SellSent, m.SellReceived = n(0), n(0), n(0), n(0), n(0)
		}
		if !wallet {
			m.WalletReceived = nil
		}
		if !sell {
			m.SellSent, m.SellReceived = nil, nil
		}
		return m
	}
	tests := []struct {
		name    string
		calls   []probeCall
		base    proberMeasure
		outcome proberOutcome
		want    string // the blacklist verdict: "true", "false", "null"
		refuted bool
	}{
		{"still transferring to a wallet and to the pool", []probeCall{call, unfreeze}, measure(true, true, true),
			proberOutcome{Complete: true, Ok: true, M: measure(true, true, true)}, "false", true},
		{"still transferring to a wallet, no pool measured", []probeCall{call}, measure(true, true, false),
			proberOutcome{Complete: true, Ok: true, M: measure(true, true, false)}, "null", true},
		{"the wallet blocked", []probeCall{call}, measure(true, true, true),
			proberOutcome{Complete: true, Ok: true, M: measure(true, false, false)}, "true", false},
		{"transfers off before the call", []probeCall{call}, measure(true, false, false),
			proberOutcome{Complete: true, Ok: true, M: measure(true, false, false)}, "null", false},
		{"no tokens to transfer", []probeCall{call}, measure(false, true, true),
			proberOutcome{Complete: true, Ok: true, M: measure(false, true, true)}, "null", false},
		{"only the untailored pattern ran", []probeCall{unfreeze}, measure(true, true, true),
			proberOutcome{Complete: true, Ok: true, M: measure(true, true, true)}, "null", false},
		{"reverted for the owner", []probeCall{call}, measure(true, true, true),
			proberOutcome{Complete: true, Ok: false}, "false", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newVerdicts(&owner, scene{watch: []common.Address{ProbeVictim}})
			for _, c := range tt.calls {
				v.observe(caller, c, tt.base, tt.outcome)
			}
			got, refuted := "", false
			for _, c := range v.capabilities() {
				if c.Name == bytecode.CapBlacklist {
					got, refuted = fmtPtr(c.Proven), c.Refuted
				}
			}
			if got != tt.want || refuted != tt.refuted {
				t.Errorf("blacklist verdict = %s (refuted %v), want %s (refuted %v)", got, refuted, tt.want, tt.refuted)
			}
		})
	}
}
