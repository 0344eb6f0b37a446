package solana_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// addManyPumpHolders adds 30 SYNTHETIC holders of the pump mint beside
// its real CPMM vault (the rest of the supply, in equal parts, with a
// remainder to the first) and one emptied account: more than the 20
// accounts getTokenLargestAccounts lists.
func addManyPumpHolders(tb testing.TB, srv *solanatest.Server) {
	tb.Helper()
	rest := uint64(pumpSupply - pumpVaultAmount)
	const n = 30
	for i := range n {
		amt := rest / n
		if i == 0 {
			amt += rest % n
		}
		owner := syntheticKey(fmt.Sprint("many-owner-", i))
		if err := srv.AddTokenAccount(syntheticKey(fmt.Sprint("many-holder-", i)), pumpMint, owner, amt, solanatest.Token2022Program); err != nil {
			tb.Fatal(err)
		}
	}
	if err := srv.AddTokenAccount(syntheticKey("emptied"), pumpMint, whale, 0, solanatest.Token2022Program); err != nil {
		tb.Fatal(err)
	}
}

// TestAssessHolderCount: past the 20 largest accounts, the holder count
// comes from counting the mint's token accounts with a balance (the real
// pool vault and 30 holders; the emptied account is not a holder, the
// pool is not counted); when the node refuses the count it is a lower
// bound with a warning, never null.
func TestAssessHolderCount(t *testing.T) {
	for _, tt := range []struct {
		name    string
		refuse  bool
		count   int
		exact   bool
		warning string
	}{
		{"counted", false, 30, true, ""},
		{"count refused", true, 19, false, "holder_count 19 is a lower bound: the node listed 20 token accounts and would not count the rest"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			addManyPumpHolders(t, srv)
			if tt.refuse {
				srv.RefuseProgram(solanatest.Token2022Program, "excluded from account secondary indexes; this RPC method unavailable for key")
			}
			got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, pumpMint))
			if err != nil {
				t.Fatal(err)
			}
			h := got.Holder.Evidence.(analysis.SolanaHolderEvidence)
			if h.HolderCount == nil || h.HolderCountExact == nil {
				t.Fatalf("holder count %v exact %v: never null past 20 holders", h.HolderCount, h.HolderCountExact)
			}
			if *h.HolderCount != tt.count || *h.HolderCountExact != tt.exact {
				t.Errorf("holder count %d exact %v, want %d exact %v", *h.HolderCount, *h.HolderCountExact, tt.count, tt.exact)
			}
			if hasFlag(got.Holder.Flags, risk.FewHolders) != tt.exact {
				t.Errorf("flags %+v: 30 holders counted are few (under %d); a bound is not", got.Holder.Flags, risk.FewHoldersCount)
			}
			if tt.warning != "" && !slices.ContainsFunc(got.Warnings, func(w string) bool { return strings.Contains(w, tt.warning) }) {
				t.Errorf("no warning %q in %v", tt.warning, got.Warnings)
			}
		})
	}
}
