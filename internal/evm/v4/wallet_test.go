package v4

import (
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// The wallet path through a V4 router decides buying and selling; the
// contract path keeps the transfer tax and the hook's cut, and a
// disagreement is a note.
func TestCombine(t *testing.T) {
	yes, no := true, false
	zero, ten := 0.0, 10.0
	errMsg := "sell failed: TransferHelper: TRANSFER_FROM_FAILED"
	contractOK := func() *analysis.EVMSimulation {
		return &analysis.EVMSimulation{CanBuy: &yes, CanSell: &yes, BuyTax: &zero, SellTax: &zero, TransferTax: &zero, Path: PathV4,
			Hook: &analysis.EVMHookCut{Address: "0xhook", BuyFee: &ten, SellFee: &ten}}
	}
	tests := []struct {
		name     string
		contract *analysis.EVMSimulation
		wallet   *analysis.EVMSimulation
		note     string
		canSell  bool
		notes    string // a note that must be there ("" none)
	}{
		{"agree", contractOK(), &analysis.EVMSimulation{CanBuy: &yes, CanSell: &yes, BuyTax: &zero, SellTax: &zero}, "", true, ""},
		{"the wallet's sell is trapped", contractOK(), &analysis.EVMSimulation{CanBuy: &yes, CanSell: &no, BuyTax: &zero, Error: &errMsg}, "", false,
			"a contract seller could sell but a wallet's sell"},
		{"the wallet did not run", contractOK(), nil, "the node did not run eth_simulateV1", true, "the wallet path through the V4 pool did not run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Combine(tt.contract, tt.wallet, tt.note)
			if got.Path != PathV4 || got.CanSell == nil || *got.CanSell != tt.canSell {
				t.Fatalf("path %q can_sell %v, want v4 and %v", got.Path, got.CanSell, tt.canSell)
			}
			if got.TransferTax == nil || got.Hook == nil || got.Hook.BuyFee == nil {
				t.Errorf("transfer tax %v hook %+v: the contract path's measures are lost", got.TransferTax, got.Hook)
			}
			joined := strings.Join(got.Notes, "\n")
			if tt.notes == "" && joined != "" || !strings.Contains(joined, tt.notes) {
				t.Errorf("notes %q, want %q", joined, tt.notes)
			}
			if !tt.canSell && (got.Error == nil || *got.Error != errMsg) {
				t.Errorf("error %v, want the wallet's %q", got.Error, errMsg)
			}
		})
	}
}
