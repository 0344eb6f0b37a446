package probe

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestGuardAddress: the address in a slot the code compares msg.sender
// with, however it is stored beside other values.
func TestGuardAddress(t *testing.T) {
	a := common.HexToAddress("0x9B8488cA4318019534A16B6f589198A085f71f51")
	word := func(hex string) []byte { return common.FromHex(hex) }
	tests := []struct {
		name string
		w    []byte
		want common.Address
		ok   bool
	}{
		{"alone", a.Bytes(), a, true},
		{"above a packed bool", append(a.Bytes(), 1), a, true},
		{"below a packed uint96", append(word("0x0000000000000000000f4240"), a.Bytes()...), a, true},
		{"a number", word("0x3635c9adc5dea00000"), common.Address{}, false},
		{"zero (renounced)", make([]byte, 32), common.Address{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := guardAddress(tt.w)
			if ok != tt.ok || got != tt.want {
				t.Errorf("guardAddress = %s, %v; want %s, %v", got.Hex(), ok, tt.want.Hex(), tt.ok)
			}
		})
	}
}
