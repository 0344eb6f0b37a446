package probe

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// A transfer written with -= for the recipient too (no checks, no safe
// math) leaves a fresh recipient holding 2^256 minus what was sent: read
// as an unsigned number its balance rose by nearly 2^256, but it was
// debited. That is no mint, whoever sends; a transfer that really
// credits without a debit still is one.
func TestTransferWrapIsNoMint(t *testing.T) {
	marketing := common.HexToAddress("0x3A3A")
	sc := scene{watch: []common.Address{ProbeVictim}, holder: ProbeVictim}
	call := transferCalls(bytecode.CodeReport{Selectors: []bytecode.Selector{bytecode.SelTransfer}}, sc)
	if len(call) != 1 {
		t.Fatalf("%d transfer calls, want 1", len(call))
	}
	supply := big.NewInt(1_000_000)
	sent := big.NewInt(100_000)
	wrapped := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), sent) // 0 - sent, unchecked
	tests := []struct {
		name                      string
		role                      string
		callerBefore, callerAfter *big.Int
		victimAfter               *big.Int
		mint                      bool
	}{
		{"recipient debited too (owner sends)", RoleOwner, big.NewInt(500_000), big.NewInt(400_000), wrapped, false},
		{"both wrap (a caller holding nothing sends)", RoleAnyone, big.NewInt(0), wrapped, wrapped, false},
		{"credited without a debit", RoleStored, big.NewInt(500_000), big.NewInt(500_000), sent, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			caller := probeCaller{addr: marketing, role: tt.role}
			base := proberMeasure{TotalSupply: supply, CallerBalance: tt.callerBefore, Balances: []*big.Int{big.NewInt(0)}, VictimBalance: big.NewInt(0), WalletOk: true}
			m := proberMeasure{TotalSupply: supply, CallerBalance: tt.callerAfter, Balances: []*big.Int{tt.victimAfter}, VictimBalance: tt.victimAfter, WalletOk: true}
			v := newVerdicts(nil, sc)
			v.observe(caller, call[0], base, proberOutcome{Complete: true, Ok: true, M: m})
			minted := false
			for _, c := range v.capabilities() {
				minted = minted || c.Name == bytecode.CapMint
			}
			if minted != tt.mint {
				t.Errorf("mint proven = %v, want %v (%+v)", minted, tt.mint, v.capabilities())
			}
		})
	}
}
