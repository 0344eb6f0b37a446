package method_test

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/holiman/uint256"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// TestCallerSlotsOfRealCode: the slots real contracts compare msg.sender
// with, wherever their compiler or author put them: an old solc token
// whose only guard is slot 14 (past the first slots a scan reads), and
// an upgradeability proxy keeping its owner at a hashed constant
// (keccak256("org.zeppelinos.proxy.owner")), written in assembly.
func TestCallerSlotsOfRealCode(t *testing.T) {
	tests := []struct {
		file string
		want string // the most used slot
		uses int
	}{
		{"corpus-high-guard.hex", "0xe", 5},
		{"corpus-proxy-owner.hex", "0x6279e8199720cf3557ecd8b58d667c8edc486bd1cf3ad59ea9ebdfcae0d0dfac", 2},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			code, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
			if err != nil {
				t.Fatal(err)
			}
			slots := bytecode.AnalyseCode(code).Methods.CallerSlots()
			if len(slots) == 0 {
				t.Fatal("no caller-check slot found")
			}
			want := uint256.MustFromHex(tt.want)
			if got := slots[0]; !got.Slot.Eq(want) || got.Uses != tt.uses {
				t.Errorf("most used caller-check slot = %s (%d uses), want %s (%d)", got.Slot.Hex(), got.Uses, tt.want, tt.uses)
			}
		})
	}
}

// TestOldSolcPayableCheck: solc before 0.4 refuses coin with a JUMPI to
// offset 0, not a jump destination; the branch taken fails, the one not
// taken goes on. A MiniMe fork compiled so reads as it runs: its
// controller-only functions reach success after a check of slot 0.
func TestOldSolcPayableCheck(t *testing.T) {
	raw, err := os.ReadFile("testdata/corpus-old-payable.hex")
	if err != nil {
		t.Fatal(err)
	}
	code, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
	if err != nil {
		t.Fatal(err)
	}
	r := bytecode.AnalyseCode(code)
	m, ok := r.Methods.Lookup(sel("enableTransfers(bool)"))
	if !ok || !m.Reaches || !m.Guarded || len(m.GuardSlots) != 1 || !m.GuardSlots[0].IsZero() {
		t.Errorf("enableTransfers(bool) = %+v, want a success after a check of slot 0", m)
	}
	if len(r.Methods.BalanceSlots) == 0 {
		t.Error("balanceOf reads no balance mapping")
	}
}
