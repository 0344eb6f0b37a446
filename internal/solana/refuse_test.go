package solana_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
)

// TestRefuseForeignAccounts: a pool, a vault or a curve decoded from
// bytes the node returned under another owner (or of the wrong size) is
// refused with a warning and never valued. The accounts are the real
// CPMM pool of the pump mint, its real token vault and the real pump.fun
// curve of the mint; the node reports them under another program.
func TestRefuseForeignAccounts(t *testing.T) {
	stranger := syntheticKey("another program")
	for _, tt := range []struct {
		name, account, warns string
		truncate             bool
	}{
		{"pool under another owner", cpmmPool, "pool " + cpmmPool + " refused: it is owned by " + stranger, false},
		{"vault under another owner", "5Ap19VZWbmP9NnvFabeyGzWjTqXFcFLPcuFDsNyAB9Sg", "vault refused (owned by " + stranger, false},
		{"curve under another owner", pumpCurve, "bonding curve account " + pumpCurve + " is owned by " + stranger, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			addLPHolders(t, srv, []lpHolding{{raydiumLockAuthority, cpmmLPSupply}})
			srv.MisreportOwner(tt.account, stranger)
			got, _ := report(t, srv, solana.Options{}, pumpMint)
			a := got.LiquidityAnalysis.Evidence.(analysis.SolanaLiquidityEvidence)
			said := slices.ContainsFunc(got.Warnings, func(w string) bool { return strings.Contains(w, tt.warns) })
			if !said {
				t.Errorf("no warning %q in %v", tt.warns, got.Warnings)
			}
			for _, p := range a.Pools {
				if p.LiquidityUSD != nil && tt.account != pumpCurve {
					t.Errorf("pool %s valued at %v from refused bytes", p.Address, *p.LiquidityUSD)
				}
			}
			if got.Completeness != scan.Degraded || !slices.Contains(got.Unchecked, risk.CheckPools) || got.HasFlag(risk.NoLiquidity) {
				t.Errorf("%s unchecked %v flags %v: a refused account leaves the pools unknown", got.Completeness, got.Unchecked, got.RiskFlags)
			}
		})
	}
}

// TestRefuseWrongSizePool: the pool index names the real CPMM pool, but
// the node returns its bytes one short: refused by size, never valued.
func TestRefuseWrongSizePool(t *testing.T) {
	srv := newServer(t)
	acc, _ := srv.Account(cpmmPool)
	acc.Data = acc.Data[:len(acc.Data)-1]
	srv.SetAccount(cpmmPool, acc)
	idx := fakeIndex(t, http.StatusOK, map[string][]string{pumpMint: {cpmmPool}})
	got, err := report(t, srv, solana.Options{PoolIndex: idx}, pumpMint)
	if err != nil {
		t.Fatal(err)
	}
	a := got.LiquidityAnalysis.Evidence.(analysis.SolanaLiquidityEvidence)
	want := "the pool index named " + cpmmPool + ", which has 636 bytes, not the 637 of a raydium_cpmm pool"
	if len(a.Pools) != 0 || !slices.ContainsFunc(got.Warnings, func(w string) bool { return strings.Contains(w, want) }) || got.HasFlag(risk.NoLiquidity) {
		t.Errorf("pools %+v warnings %v flags %v", a.Pools, got.Warnings, got.RiskFlags)
	}
}
