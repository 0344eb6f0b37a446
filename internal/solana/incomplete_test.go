package solana_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/solana"
)

// TestAssessIncompleteNode: a node whose token index lists accounts that
// do not hold the whole supply, and that keeps no transaction history,
// must not be read as "few holders" or "a new wallet".
func TestAssessIncompleteNode(t *testing.T) {
	tests := []struct {
		name string
		mint string
	}{
		{"pump mint: only its pool vault is listed", pumpMint},
		{"scnSOL: no account listed", "5oVNBeEEQvYi1cX3ir8Dx5n1P7pdxydbGF2X4TxVusJm"},
		{"mega token: update authority without history", megaMint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			a := newAdapter(t, solana.Options{}, srv.URL())
			got, err := a.Assess(context.Background(), request(t, tt.mint))
			if err != nil {
				t.Fatal(err)
			}
			h := got.Holder.Evidence.(analysis.SolanaHolderEvidence)
			supplyZero := *got.Token.TotalSupply == "0"
			if !supplyZero && (h.HolderCountExact == nil || *h.HolderCountExact || hasFlag(got.Holder.Flags, risk.FewHolders)) {
				t.Errorf("holder count %v (exact %v), flags %+v: the listed accounts do not hold the supply, so the count is a bound", h.HolderCount, h.HolderCountExact, got.Holder.Flags)
			}
			if !supplyZero && (h.Top10SharePct != nil || got.Checklist.HealthyHolders) {
				t.Errorf("top-10 share %v, healthy_holders %v: not established from a list with holes", h.Top10SharePct, got.Checklist.HealthyHolders)
			}
			d := got.Deployer.Evidence.(analysis.SolanaDeployerEvidence)
			if d.CreatorTxCount != nil || hasFlag(got.Deployer.Flags, risk.CreatorNewWallet) {
				t.Errorf("creator tx count %v, flags %+v: the node keeps no history", d.CreatorTxCount, got.Deployer.Flags)
			}
			warned := false
			for _, w := range got.Warnings {
				if strings.Contains(w, "history not kept") {
					warned = true
				}
			}
			if !warned {
				t.Errorf("no warning that the creator's history is unknown: %q", got.Warnings)
			}
		})
	}
}
