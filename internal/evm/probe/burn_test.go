package probe

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// TestClassifyTinyBurn: a burn of one unit of the test wallet's tokens
// (all an owner's burnFrom let through) is below the rounding tolerance,
// yet the supply fell by exactly what the wallet lost: a seizure. A wallet
// one unit short with the supply unchanged (reflection rounding) is none.
func TestClassifyTinyBurn(t *testing.T) {
	owner := probeCaller{addr: common.HexToAddress("0xA11CE"), role: RoleOwner}
	supply, _ := new(big.Int).SetString("1000000000000000000000000000", 10)
	wallet, _ := new(big.Int).SetString("1000000000000000000000000", 10)
	base := proberMeasure{TotalSupply: supply, VictimBalance: wallet, WalletOk: true, SellOk: true, TinyOk: true,
		Balances: []*big.Int{wallet}, CallerBalance: big.NewInt(0), TokenBalance: big.NewInt(0)}
	sc := scene{watch: []common.Address{ProbeVictim}, holder: ProbeVictim}
	after := func(supplyDrop int64) proberMeasure {
		m := base
		m.TotalSupply = new(big.Int).Sub(supply, big.NewInt(supplyDrop))
		m.VictimBalance = new(big.Int).Sub(wallet, big.NewInt(1))
		m.Balances = []*big.Int{m.VictimBalance}
		return m
	}
	call := probeCall{label: "0x79cc6790 (address,uint256) victim, 1", victimArg: true}
	got := classify(call, base, after(1), owner, sc)
	if len(got) != 1 || got[0].capability != bytecode.CapSeize {
		t.Errorf("one unit burned from the wallet: effects %v, want seize", got)
	}
	if got := classify(call, base, after(0), owner, sc); len(got) != 0 {
		t.Errorf("one unit of rounding, supply unchanged: effects %v, want none", got)
	}
}
