package evm

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
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
	return abi.Arguments{{Type: mustType(typ)}}.Pack(v)
}

// newSimulationFor runs fillSimulation on a fresh result.
func newSimulationFor(r *simResult) *analysis.EVMSimulation {
	res := &analysis.EVMSimulation{}
	fillSimulation(res, r, true)
	return res
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
