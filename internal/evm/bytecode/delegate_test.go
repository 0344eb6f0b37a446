package bytecode_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

func TestDelegateSlot(t *testing.T) {
	artifact := func(name string) []byte {
		t.Helper()
		c, err := contracts.Artifact(name)
		if err != nil {
			t.Fatal(err)
		}
		return c.DeployedBytecode
	}
	eip1967 := common.HexToHash("0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc")
	tests := []struct {
		name string
		code []byte
		want *common.Hash // nil: no delegation to a stored address
	}{
		{name: "a slot of its own (VaultRouterProxy)", code: artifact("VaultRouterProxy"),
			want: ptr(crypto.Keccak256Hash([]byte("vault.router.logic")))},
		{name: "EIP-1967 transparent proxy", code: artifact("TransparentProxy"), want: &eip1967},
		// The beacon proxy delegates to what the beacon's implementation()
		// answers: a call's result, not a slot.
		{name: "beacon proxy", code: artifact("BeaconTokenProxy")},
		{name: "a token without a fallback", code: artifact("UpgradeableToken")},
		{name: "a plain token", code: artifact("ShadowToken")},
		// CALLDATACOPY, then delegatecall(gas, sload(0), 0, size, 0, 0).
		{name: "fallback only, slot 0 (no dispatcher)", code: hexutil.MustDecode("0x365f5f37" + "5f5f365f600054" + "5af400"),
			want: ptr(common.Hash{})},
		{name: "a library at a constant address", code: hexutil.MustDecode("0x365f5f37" + "5f5f365f" +
			"73" + "1111111111111111111111111111111111111111" + "5af400")},
		// selector 0xaabbccdd jumps to a body that delegates to sload(0);
		// a call with any other selector stops: a function, not a proxy.
		{name: "delegation inside a function", code: hexutil.MustDecode("0x5f3560e01c" + "63aabbccdd14600f57" + "00" +
			"5b" + "5f5f365f600054" + "5af400")},
		// the same dispatcher, the delegation on the no-match path.
		{name: "delegation in the fallback", code: hexutil.MustDecode("0x5f3560e01c" + "63aabbccdd14601857" +
			"5f5f365f600054" + "5af400" + "5b00"), want: ptr(common.Hash{})},
		{name: "EIP-1167 clone", code: hexutil.MustDecode("0x363d3d373d3d3d363d73bebebebebebebebebebebebebebebebebebebebe5af43d82803e903d91602b57fd5bf3")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := bytecode.DelegateSlot(tt.code)
			switch {
			case tt.want == nil && ok:
				t.Errorf("DelegateSlot = %s, want none", got.Hex())
			case tt.want != nil && !ok:
				t.Errorf("DelegateSlot: none, want %s", tt.want.Hex())
			case tt.want != nil && got != *tt.want:
				t.Errorf("DelegateSlot = %s, want %s", got.Hex(), tt.want.Hex())
			}
		})
	}
}

func ptr(h common.Hash) *common.Hash { return &h }

func TestWritesSlot(t *testing.T) {
	code := func(name string) []byte {
		t.Helper()
		c, err := contracts.Artifact(name)
		if err != nil {
			t.Fatal(err)
		}
		return c.DeployedBytecode
	}
	slot := func(n int64) common.Hash { return common.BigToHash(big.NewInt(n)) }
	tests := []struct {
		name string
		code []byte
		slot common.Hash
		want bool
	}{
		// migrateLogic(address) in the fallback repoints the logic slot.
		{"VaultRouterProxy's logic slot", code("VaultRouterProxy"), crypto.Keccak256Hash([]byte("vault.router.logic")), true},
		// ShadowToken: _owner (slot 4) is written by renounceOwnership and
		// unlock(); _previousOwner (slot 5) only by the constructor; the
		// balances' mapping writes are hashed slots, never slot 5.
		{"ShadowToken's owner", code("ShadowToken"), slot(4), true},
		{"ShadowToken's previous owner", code("ShadowToken"), slot(5), false},
		{"a fallback that only reads slot 0", hexutil.MustDecode("0x365f5f37" + "5f5f365f600054" + "5af400"), slot(0), false},
	}
	for _, tt := range tests {
		if got := bytecode.WritesSlot(tt.code, tt.slot); got != tt.want {
			t.Errorf("%s: WritesSlot = %v, want %v", tt.name, got, tt.want)
		}
	}
}
