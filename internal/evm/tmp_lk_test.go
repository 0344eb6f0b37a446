package evm

import (
	"testing"
	"time"
)

func TestTmpLKAssessTimes(t *testing.T) {
	dn := startAdapterNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	for _, tok := range dn.Manifest().Tokens {
		t0 := time.Now()
		_, err := assess(t, ad, tok.Address)
		t.Logf("%s %v err %v", tok.Kind, time.Since(t0), err)
	}
}
