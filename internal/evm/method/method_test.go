package method_test

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

func sel(sig string) [4]byte {
	var s [4]byte
	copy(s[:], crypto.Keccak256([]byte(sig))[:4])
	return s
}

func kinds(args []method.Arg) string {
	var out []string
	for _, a := range args {
		out = append(out, a.Kind.String())
	}
	return strings.Join(out, ",")
}

func artifact(t *testing.T, name string) []byte {
	t.Helper()
	c, err := contracts.Artifact(name)
	if err != nil {
		t.Fatal(err)
	}
	return c.DeployedBytecode
}

// TestArgumentsAndPowersOfZooTokens: argument types and balance powers
// read from solc 0.8 bytecode (PUSH0, checked arithmetic, via the
// dispatcher's binary search).
func TestArgumentsAndPowersOfZooTokens(t *testing.T) {
	tests := []struct {
		artifact, sig, args string
		credit, debit       bool
	}{
		{"MintableToken", "mint(address,uint256)", "address,uint256", true, false},
		{"MintableToken", "transfer(address,uint256)", "address,uint256", false, false},
		{"MintableToken", "transferFrom(address,address,uint256)", "address,address,uint256", false, false},
		{"LimitedToken", "setMaxTxPercent(uint256)", "uint256", false, false},
		{"AdjustableFeeToken", "updateFees(uint256,uint256)", "uint256,uint256", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.artifact+"."+tt.sig, func(t *testing.T) {
			r := method.Analyse(artifact(t, tt.artifact), [][4]byte{sel(tt.sig)})
			m, ok := r.Lookup(sel(tt.sig))
			if !ok || !m.Complete || !m.Reaches {
				t.Fatalf("method %+v (found %v)", m, ok)
			}
			if got := kinds(m.Args); got != tt.args {
				t.Errorf("args = %s, want %s", got, tt.args)
			}
			if m.GuardedCredit != tt.credit || m.GuardedDebit != tt.debit {
				t.Errorf("guarded credit/debit = %v/%v, want %v/%v", m.GuardedCredit, m.GuardedDebit, tt.credit, tt.debit)
			}
			if len(r.BalanceSlots) != 1 || len(r.SupplySlots) == 0 {
				t.Errorf("balance slots %v, supply slots %v", r.BalanceSlots, r.SupplySlots)
			}
		})
	}
}

// TestPowersOfARealToken: a real token from an old compiler (DIV-based
// dispatcher, SafeMath) whose owner-only function credits an address.
func TestPowersOfARealToken(t *testing.T) {
	raw, err := os.ReadFile("testdata/corpus-mint.hex")
	if err != nil {
		t.Fatal(err)
	}
	code, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
	if err != nil {
		t.Fatal(err)
	}
	credit := [4]byte{0x79, 0xc6, 0x50, 0x68}
	r := method.Analyse(code, [][4]byte{credit, sel("transfer(address,uint256)")})
	m, _ := r.Lookup(credit)
	if !m.GuardedCredit || kinds(m.Args) != "address,uint256" {
		t.Errorf("0x79c65068: %+v, want a guarded credit taking (address,uint256)", m)
	}
	tr, _ := r.Lookup(sel("transfer(address,uint256)"))
	if tr.GuardedCredit || tr.Credit || tr.GuardedDebit {
		t.Errorf("transfer: %+v, want no power", tr)
	}
}

// TestPricedSaleOfARealToken: the same real token buys its tokens back
// (sell(uint256), 0xe4849b32) and sells the tokens it holds (buy(),
// 0xa6f2ae3a) at prices its owner sets (setPrices(uint256,uint256),
// 0x05fefda7): each is paired with the setter on its price's slot. The
// sale tests the seller's own balance and the payment's success, neither
// of which is an access check.
func TestPricedSaleOfARealToken(t *testing.T) {
	code := realToken(t)
	sale, buy, setter := sel("sell(uint256)"), sel("buy()"), sel("setPrices(uint256,uint256)")
	r := method.Analyse(code, [][4]byte{sale, setter, buy})
	var sold, bought bool
	for _, ps := range r.PricedSales {
		sold = sold || (ps.Sale == sale && ps.Setter == setter && !ps.Buy)
		bought = bought || (ps.Sale == buy && ps.Setter == setter && ps.Buy)
	}
	if !sold || !bought || len(r.PricedSales) != 2 {
		t.Fatalf("priced sales %+v, want sell(uint256) and buy() priced by setPrices(uint256,uint256)", r.PricedSales)
	}
	if m, _ := r.Lookup(sale); m.Guarded {
		t.Errorf("sell(uint256) reads as guarded: its balance and payment checks were taken for access checks")
	}
	if m, _ := r.Lookup(setter); !m.Guarded {
		t.Errorf("setPrices(uint256,uint256) does not read as guarded")
	}
}

func realToken(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/corpus-mint.hex")
	if err != nil {
		t.Fatal(err)
	}
	code, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// FuzzAnalyse: any bytes are analysed within bounds, without panic.
func FuzzAnalyse(f *testing.F) {
	f.Add([]byte{0x60, 0x00, 0x35, 0x60, 0xe0, 0x1c, 0x80, 0x63, 0x70, 0xa0, 0x82, 0x31, 0x14, 0x60, 0x10, 0x57, 0x00, 0x5b, 0x60, 0x04, 0x35, 0x54, 0x00})
	f.Add([]byte{0x5b, 0x60, 0x00, 0x56})
	f.Add([]byte{0x7f})
	f.Fuzz(func(t *testing.T, code []byte) {
		method.Analyse(code, [][4]byte{sel("balanceOf(address)"), {0x70, 0xa0, 0x82, 0x31}})
	})
}

// TestReadOnlyFunctions: a getter writes nothing on any path (the probes
// skip it); a setter does.
func TestReadOnlyFunctions(t *testing.T) {
	getter, setter := sel("maxTxAmount()"), sel("setMaxTxPercent(uint256)")
	r := method.Analyse(artifact(t, "LimitedToken"), [][4]byte{getter, setter})
	if m, _ := r.Lookup(getter); !m.Complete || m.Mutates {
		t.Errorf("maxTxAmount(): %+v, want complete and read-only", m)
	}
	if m, _ := r.Lookup(setter); !m.Mutates {
		t.Errorf("setMaxTxPercent(uint256): %+v, want mutating", m)
	}
}

// TestTransferCalls: the contracts a transfer calls, by where their
// address comes from: a storage slot (the guard, the ledger, the hook)
// or none at all (a plain token).
func TestTransferCalls(t *testing.T) {
	for _, tc := range []struct {
		name  string
		slots string
	}{
		{"GuardedHookToken", "7"}, // after Ownable's owner and routerAddress
		{"DelegatedLedgerToken", "1"},
		{"HookedToken", "6"},
		{"CleanToken", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := method.Analyse(artifact(t, tc.name), nil)
			var slots []string
			for _, c := range r.TransferCalls {
				if c.Slot != nil {
					slots = append(slots, c.Slot.Dec())
				}
			}
			if got := strings.Join(slots, ","); got != tc.slots {
				t.Errorf("calls from storage slots: got %q, want %q", got, tc.slots)
			}
		})
	}
}

// TestOldSolcAddressCleanup: solc before 0.4 cleans an address argument
// it packs into storage by shifting it up 96 bits and back down
// (x * 2**96 / 2**96), not by a 160-bit mask; that use types it as an
// address, so the probes pass it a contract (MiniMe's
// changeController(address), 0xf19c536a…, read as a number until then:
// no probe pointed its transfers at a contract). The code is the
// setter's shape as that compiler emits it: a caller check on slot 0,
// then slot 0's low 20 bytes replaced by the argument.
func TestOldSolcAddressCleanup(t *testing.T) {
	setter := sel("changeController(address)")
	code := []byte{
		0x60, 0x00, 0x35, // PUSH1 0 CALLDATALOAD
		0x7c, 0x01, // PUSH29 2**224
	}
	code = append(code, make([]byte, 28)...)
	code = append(code,
		0x90, 0x04, // SWAP1 DIV: the selector
		0x63, setter[0], setter[1], setter[2], setter[3], // PUSH4 selector
		0x14, 0x60, 0x00, 0x57, // EQ PUSH1 <dest> JUMPI (dest patched below)
		0x00, // STOP
	)
	dest := len(code)
	code[dest-3] = byte(dest)
	code = append(code,
		0x5b,             // JUMPDEST
		0x60, 0x00, 0x54, // PUSH1 0 SLOAD: the controller
		0x33, 0x14, // CALLER EQ
		0x60, 0x00, 0x57, // PUSH1 <ok> JUMPI (patched below)
		0x60, 0x00, 0x80, 0xfd, // PUSH1 0 DUP1 REVERT
	)
	ok := len(code)
	code[ok-6] = byte(ok)
	code = append(code,
		0x5b,             // JUMPDEST
		0x60, 0x04, 0x35, // PUSH1 4 CALLDATALOAD: the argument
		0x60, 0x00, 0x80, 0x54, // PUSH1 0 DUP1 SLOAD
		0x73, // PUSH20 0xff…ff
	)
	for range 20 {
		code = append(code, 0xff)
	}
	code = append(code,
		0x19, 0x16, // NOT AND: the slot without its low 20 bytes
		0x6c, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // PUSH13 2**96
		0x83, 0x81, 0x02, 0x04, // DUP4 DUP2 MUL DIV: the argument, cleaned
		0x17, 0x90, 0x55, 0x00, // OR SWAP1 SSTORE STOP
	)
	r := method.Analyse(code, [][4]byte{setter})
	m, found := r.Lookup(setter)
	if !found || !m.Complete || !m.Reaches || !m.Guarded {
		t.Fatalf("method %+v (found %v), want a guarded setter that reaches success", m, found)
	}
	if got := kinds(m.Args); got != "address" {
		t.Errorf("args = %s, want address", got)
	}
	if len(m.SetSlots) != 1 || !m.SetSlots[0].IsZero() {
		t.Errorf("set slots = %v, want slot 0", m.SetSlots)
	}
}
