package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"

	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

func fmtPtr[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func simString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func abiPack(typ string, v any) ([]byte, error) {
	return abi.Arguments{{Type: revert.MustType(typ)}}.Pack(v)
}

// hexBytes decodes a 0x-prefixed JSON string into a byte slice.
type hexBytes []byte

func (h *hexBytes) UnmarshalJSON(b []byte) error {
	var v hexutil.Bytes
	if err := v.UnmarshalJSON(b); err != nil {
		return err
	}
	*h = hexBytes(v)
	return nil
}
