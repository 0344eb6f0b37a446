package evm

import (
	"errors"
	"testing"
)

func TestWindowSpan(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		span uint64
		want uint64
	}{
		{"block range too large, max 2000", 1_000_000, 2000},
		{"exceed maximum block range: 50000", 1_000_000, 50000},
		{"You can make eth_getLogs requests with up to a 2K block range", 1_000_000, 2000},
		{"query returned more than 10000 results", 1_000_000, 10000},
		{"limit exceeded", 1_000_000, defaultV4Window},
		{"limit exceeded", 500, 500},
		{"block range too large, max 1", 30, 1},
	} {
		if got := windowSpan(errors.New(tt.msg), tt.span); got != tt.want {
			t.Errorf("windowSpan(%q, %d) = %d, want %d", tt.msg, tt.span, got, tt.want)
		}
	}
}
