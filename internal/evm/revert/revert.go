package revert

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// callFailure describes a failed eth_call without leaking anything but the
// node's message and a revert reason.
func CallFailure(err error) string {
	if data, ok := node.RevertData(err); ok {
		return RevertReason(data)
	}
	return err.Error()
}

// Standard revert payload selectors.
var (
	SelErrorString = bytecode.SelectorOf("Error(string)")
	selPanic       = bytecode.SelectorOf("Panic(uint256)")
)

// RevertReason renders revert data: Error(string) as its text, Panic as
// its code, a custom error as its selector, raw text as text.
func RevertReason(data []byte) string {
	if s := revertText(data); s != "" {
		return s
	}
	return "reverted with an empty reason"
}

func revertText(data []byte) string {
	switch {
	case len(data) == 0:
		return "reverted without a reason"
	case len(data) >= 4 && bytecode.Selector(data[:4]) == SelErrorString:
		vals, err := abi.Arguments{{Type: MustType("string")}}.Unpack(data[4:])
		if err == nil && len(vals) == 1 {
			return SanitiseReason(vals[0].(string))
		}
	case len(data) == 36 && bytecode.Selector(data[:4]) == selPanic:
		return fmt.Sprintf("panic 0x%x", new(big.Int).SetBytes(data[4:]))
	}
	if utf8.Valid(data) && isPrintable(string(data)) {
		return SanitiseReason(string(data))
	}
	if len(data) >= 4 {
		return "custom error " + bytecode.Selector(data[:4]).String()
	}
	return "reverted with 0x" + common.Bytes2Hex(data)
}

// SanitiseReason bounds a revert reason to printable UTF-8 of at most 200
// characters.
func SanitiseReason(s string) string {
	s = strings.ToValidUTF8(s, "?")
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 200 {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' {
			return false
		}
	}
	return s != ""
}

func MustType(t string) abi.Type {
	typ, err := abi.NewType(t, "", nil)
	if err != nil {
		panic(err) // a literal type name: a programming error
	}
	return typ
}

// safeConvert copies an ABI-decoded struct into dst (abi.ConvertType
// panics on a shape mismatch, which would be a bug, never the chain's).
func SafeConvert(v any, dst any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("abi convert: %v", p)
		}
	}()
	abi.ConvertType(v, dst)
	return nil
}
