package evm

import (
	"encoding/json"
	"fmt"
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
