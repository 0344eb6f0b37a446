package revert

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"

	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

func TestRevertReason(t *testing.T) {
	errString := func(s string) []byte {
		b, err := abiPack("string", s)
		if err != nil {
			t.Fatal(err)
		}
		sel := bytecode.SelectorOf("Error(string)")
		return append(sel[:], b...)
	}
	panicData := append(bytecode.SelectorOf("Panic(uint256)").Bytes(), common.LeftPadBytes([]byte{0x11}, 32)...)
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
	f.Add(append(bytecode.SelectorOf("Error(string)").Bytes(), 0xff, 0xff))
	f.Add(append(bytecode.SelectorOf("Panic(uint256)").Bytes(), make([]byte, 32)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := RevertReason(data)
		if s == "" || len([]rune(s)) > 2*len(data)+64 && len([]rune(s)) > 202 {
			t.Fatalf("reason %q for %x", s, data)
		}
	})
}

func abiPack(typ string, v any) ([]byte, error) {
	return abi.Arguments{{Type: MustType(typ)}}.Pack(v)
}
