package evm

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/explorer"
)

// fakeVerifier and fakeEtherscan are explorers made of function fields.
type fakeVerifier struct {
	verify func() (explorer.Verification, error)
}

func (f fakeVerifier) Verification(context.Context, int64, string) (explorer.Verification, error) {
	return f.verify()
}

type fakeCreationSource struct {
	fakeVerifier
	creation func() (explorer.Creation, bool, error)
	launches func() ([]string, error)
}

func (f fakeCreationSource) Creation(context.Context, int64, string) (explorer.Creation, bool, error) {
	return f.creation()
}

func (f fakeCreationSource) Launches(context.Context, int64, string, string, int) ([]string, error) {
	return f.launches()
}

var (
	_ Verifier       = fakeVerifier{}
	_ CreationSource = fakeCreationSource{}
)

func TestExploreCombinesExplorers(t *testing.T) {
	yes := func() (explorer.Verification, error) { return explorer.Verification{Verified: true}, nil }
	no := func() (explorer.Verification, error) { return explorer.Verification{}, nil }
	fail := func() (explorer.Verification, error) { return explorer.Verification{}, explorer.ErrRateLimited }
	es := func(v func() (explorer.Verification, error)) CreationSource {
		return fakeCreationSource{fakeVerifier: fakeVerifier{v},
			creation: func() (explorer.Creation, bool, error) {
				return explorer.Creation{Creator: "0xc0", TxHash: "0x1"}, true, nil
			},
			launches: func() ([]string, error) { return []string{}, nil }}
	}
	tests := []struct {
		name         string
		sourcify     Verifier
		etherscan    CreationSource
		wantVerified *bool
		wantCreator  bool
	}{
		{"sourcify has it", fakeVerifier{yes}, nil, new(true), false},
		{"sourcify alone says no", fakeVerifier{no}, nil, new(false), false},
		{"etherscan has what sourcify lacks", fakeVerifier{no}, es(yes), new(true), true},
		{"both say no", fakeVerifier{no}, es(no), new(false), true},
		{"sourcify down, etherscan no: unknown", fakeVerifier{fail}, es(no), nil, true},
		{"etherscan down, sourcify no: unknown", fakeVerifier{no}, es(fail), nil, true},
		{"nothing configured: unknown", nil, nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAdapter(nil, Options{Sourcify: tt.sourcify, Etherscan: tt.etherscan})
			f := a.explore(context.Background(), chains.Chain{ChainID: 1}, common.HexToAddress("0x01"))
			switch {
			case (f.verified == nil) != (tt.wantVerified == nil):
				t.Errorf("verified = %v, want %v", fmtPtr(f.verified), fmtPtr(tt.wantVerified))
			case f.verified != nil && *f.verified != *tt.wantVerified:
				t.Errorf("verified = %v, want %v", *f.verified, *tt.wantVerified)
			}
			if (f.creation != nil) != tt.wantCreator || (tt.wantCreator && !f.launchesKnown) {
				t.Errorf("creation %+v launches known %v", f.creation, f.launchesKnown)
			}
			if f.verified == nil && len(f.warnings) == 0 {
				t.Errorf("unknown verification without a warning")
			}
		})
	}
}
