package chains_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
)

func TestParseAddress(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		kind  chains.Kind
		canon string
		code  fault.Code
	}{
		{"eip55", "0x6982508145454Ce325dDbE47a25d4ec3d2311933", chains.EVM, "0x6982508145454Ce325dDbE47a25d4ec3d2311933", ""},
		{"all lower", "0x6982508145454ce325ddbe47a25d4ec3d2311933", chains.EVM, "0x6982508145454Ce325dDbE47a25d4ec3d2311933", ""},
		{"all upper", "0x6982508145454CE325DDBE47A25D4EC3D2311933", chains.EVM, "0x6982508145454Ce325dDbE47a25d4ec3d2311933", ""},
		{"digits only", "0x0000000000000000000000000000000000000001", chains.EVM, "0x0000000000000000000000000000000000000001", ""},
		{"whitespace trimmed", " \t0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2\n", chains.EVM, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", ""},
		{"bad checksum", "0x6982508145454ce325dDbE47a25d4ec3d2311933", "", "", fault.InvalidChecksum},
		{"one flipped case", "0xc02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "", "", fault.InvalidChecksum},
		{"upper X prefix", "0X6982508145454ce325ddbe47a25d4ec3d2311933", "", "", fault.InvalidAddress},
		{"39 hex", "0x6982508145454ce325ddbe47a25d4ec3d231193", "", "", fault.InvalidAddress},
		{"41 hex", "0x6982508145454ce325ddbe47a25d4ec3d23119333", "", "", fault.InvalidAddress},
		{"non hex", "0x6982508145454ce325ddbe47a25d4ec3d231193g", "", "", fault.InvalidAddress},
		{"no prefix hex", "6982508145454ce325ddbe47a25d4ec3d2311933", "", "", fault.InvalidAddress},
		{"inner space", "0x6982508145454ce325ddbe47 a25d4ec3d2311933", "", "", fault.InvalidAddress},
		{"empty", "", "", "", fault.InvalidAddress},
		{"blank", "   ", "", "", fault.InvalidAddress},
		{"solana mint", "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", chains.Solana, "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", ""},
		{"solana system program", "11111111111111111111111111111111", chains.Solana, "11111111111111111111111111111111", ""},
		{"wsol", "So11111111111111111111111111111111111111112", chains.Solana, "So11111111111111111111111111111111111111112", ""},
		{"base58 with 0", "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB260", "", "", fault.InvalidAddress},
		{"base58 with l", "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB26l", "", "", fault.InvalidAddress},
		{"31 bytes", base58.Encode(make31()), "", "", fault.InvalidAddress},
		{"33 bytes", base58.Encode(append(make31(), 1, 2)), "", "", fault.InvalidAddress},
		{"too long", strings.Repeat("1", 200), "", "", fault.InvalidAddress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := chains.ParseAddress(tt.in)
			if tt.code != "" {
				if fault.CodeOf(err) != tt.code {
					t.Fatalf("ParseAddress(%q) = %v, %v; want code %s", tt.in, got, err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseAddress(%q): %v", tt.in, err)
			}
			if got.Kind != tt.kind || got.Canonical != tt.canon {
				t.Errorf("ParseAddress(%q) = %+v, want %s %s", tt.in, got, tt.kind, tt.canon)
			}
		})
	}
}

func make31() []byte {
	b := make([]byte, 31)
	for i := range b {
		b[i] = byte(i + 1)
	}
	return b
}

// FuzzParseAddress: any input is either rejected with an address code or
// accepted as a canonical address that parses to itself.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"0x6982508145454Ce325dDbE47a25d4ec3d2311933", "0x6982508145454ce325ddbe47a25d4ec3d2311933",
		"DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", "1111111111111111111111111111111", "0x", "", " 0x1 ", "\x00", "0xZZ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := chains.ParseAddress(s)
		if want, ok := eip55Accepts(s); ok && (err == nil) != want {
			t.Fatalf("ParseAddress(%q): %v, want accepted %v (EIP-55)", s, err, want)
		}
		if err != nil {
			if c := fault.CodeOf(err); c != fault.InvalidAddress && c != fault.InvalidChecksum {
				t.Fatalf("ParseAddress(%q): code %s", s, c)
			}
			return
		}
		again, err := chains.ParseAddress(a.Canonical)
		if err != nil || again != a {
			t.Fatalf("canonical %q of %q does not round-trip: %+v %v", a.Canonical, s, again, err)
		}
		switch a.Kind {
		case chains.EVM:
			if !common.IsHexAddress(a.Canonical) || common.HexToAddress(a.Canonical).Hex() != a.Canonical {
				t.Fatalf("%q is not EIP-55", a.Canonical)
			}
		case chains.Solana:
			if b, err := base58.Decode(a.Canonical); err != nil || len(b) != 32 {
				t.Fatalf("%q does not decode to 32 bytes", a.Canonical)
			}
		default:
			t.Fatalf("kind %q", a.Kind)
		}
	})
}

// eip55Accepts is the EVM rule stated plainly (ok false: not an EVM
// form): 0x and 40 hex digits, all one case or the EIP-55 checksum.
func eip55Accepts(s string) (accepted, ok bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "0x") || len(s) > 128 {
		return false, false
	}
	body := s[2:]
	if len(body) != 40 {
		return false, true
	}
	if _, err := hex.DecodeString(body); err != nil {
		return false, true
	}
	if body == strings.ToLower(body) || body == strings.ToUpper(body) {
		return true, true
	}
	return common.HexToAddress(s).Hex() == s, true
}
