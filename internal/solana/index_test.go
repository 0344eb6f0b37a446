package solana_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/poolindex"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
)

// fakeIndex is an operator's pool index: it answers the pools listed for
// a mint (none for others), or fails with status when it is not 200.
func fakeIndex(t *testing.T, status int, pools map[string][]string) *poolindex.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status != http.StatusOK {
			http.Error(w, "index down", status)
			return
		}
		mint := r.URL.Query().Get("mint")
		list := pools[mint]
		if list == nil {
			list = []string{}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"mint": mint, "pools": list})
	}))
	t.Cleanup(srv.Close)
	c, err := poolindex.New(srv.URL, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// everyDEXProgram are the configured DEX programs (and the pump.fun
// program, read by its PDA, not searched).
var everyDEXProgram = []string{
	"675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8", "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
	"pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", clmmProgram, "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo",
	dammV2Program, "dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN", dammV1Program, launchLabProgram,
}

// TestAssessPoolIndex: with a pool index, a node that refuses every DEX
// search still finds the mint's pool: the index names it, the scan reads
// it in round trip 2 and verifies it on-chain (a DAMM v1 pool of mSOL),
// sending no DEX search at all.
func TestAssessPoolIndex(t *testing.T) {
	srv := dammV1Server(t)
	for _, p := range everyDEXProgram {
		srv.RefuseProgram(p, "excluded from account secondary indexes; this RPC method unavailable for key")
	}
	idx := fakeIndex(t, http.StatusOK, map[string][]string{msolMint: {dammV1Pool}})
	now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	got, err := newAdapter(t, solana.Options{PoolIndex: idx, Now: func() time.Time { return now }}, srv.URL()).Assess(context.Background(), request(t, msolMint))
	if err != nil {
		t.Fatal(err)
	}
	l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
	if l.PoolsFrom != "pool_index" || len(l.Pools) != 1 || l.Pools[0].Address != dammV1Pool || l.Pools[0].LiquidityUSD == nil {
		t.Fatalf("pools from %s: %+v", l.PoolsFrom, l.Pools)
	}
	// Pools stay unchecked for another reason: nobody listed holds the
	// pool's LP, so who can withdraw it is unknown.
	if len(l.DEXesUnsearched) != 0 || len(l.DEXesSearched) != 10 || l.Pools[0].LPUnknownPct == nil || *l.Pools[0].LPUnknownPct < 99 {
		t.Errorf("searched %v unsearched %v unchecked %v warnings %v", l.DEXesSearched, l.DEXesUnsearched, got.Unchecked, got.Warnings)
	}
	// Only the SOL/USDC price pools are searched (the Whirlpool program is
	// not refused here: it is not a DEX of the mint's pool).
	if n := srv.Calls("getProgramAccounts"); n != 1+2+1+countRequest+stakePoolSearch {
		t.Errorf("getProgramAccounts = %d, want the price pools, the LP holders under both token programs, the LP's lock streams, the holder count and the stake pool search", n)
	}
	if n := srv.Requests(); n != 4+countRequest {
		t.Errorf("HTTP requests = %d, want 4 and the holder count's (the index costs none)", n)
	}
}

// TestAssessPoolIndexVerifies: the index is not trusted for facts. A
// pool that does not exist, an account of no configured DEX, and a real
// pool of other mints are each rejected with a warning, and a real pool
// of the mint is kept. An index that names only such accounts for a mint
// without pools does not make it NO_LIQUIDITY: the index was wrong, so
// its silence about other pools proves nothing.
func TestAssessPoolIndexVerifies(t *testing.T) {
	missing := syntheticKey("no-such-pool")
	for _, tt := range []struct {
		mint  string
		named []string
		pools int
	}{
		{msolMint, []string{missing, msolMint, clmmPool, dammV1Pool}, 1},
		{scnSOL, []string{missing, msolMint, clmmPool}, 0},
	} {
		srv := dammV1Server(t)
		idx := fakeIndex(t, http.StatusOK, map[string][]string{tt.mint: tt.named})
		got, err := newAdapter(t, solana.Options{PoolIndex: idx}, srv.URL()).Assess(context.Background(), request(t, tt.mint))
		if err != nil {
			t.Fatal(err)
		}
		l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
		if len(l.Pools) != tt.pools || tt.pools == 1 && l.Pools[0].Address != dammV1Pool {
			t.Fatalf("%s: pools = %+v", tt.mint, l.Pools)
		}
		for _, want := range []string{missing + ", which does not exist", msolMint + ", which is owned by TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", clmmPool + ", which is a raydium_clmm pool of other mints"} {
			said := false
			for _, w := range got.Warnings {
				said = said || strings.Contains(w, want)
			}
			if !said {
				t.Errorf("%s: no warning %q in %v", tt.mint, want, got.Warnings)
			}
		}
		if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) || got.Liquidity.Status == scan.Complete {
			t.Errorf("%s: flags %+v status %s after an index the chain refutes", tt.mint, got.Liquidity.Flags, got.Liquidity.Status)
		}
	}
}

// TestAssessPoolIndexFails: an index that fails or says nothing usable
// leaves the pools unchecked (every DEX unsearched, analysis partial,
// warning), never NO_LIQUIDITY; an index that answers "no pool" for a mint
// that has none is NO_LIQUIDITY as discovery would say.
func TestAssessPoolIndexFails(t *testing.T) {
	for _, tt := range []struct {
		name   string
		status int
		noLiq  bool
	}{{"index down", http.StatusServiceUnavailable, false}, {"index knows no pool", http.StatusOK, true}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			idx := fakeIndex(t, tt.status, nil)
			got, err := newAdapter(t, solana.Options{PoolIndex: idx}, srv.URL()).Assess(context.Background(), request(t, scnSOL))
			if err != nil {
				t.Fatal(err)
			}
			l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
			if hasFlag(got.Liquidity.Flags, risk.NoLiquidity) != tt.noLiq || slices.Contains(got.Unchecked, risk.CheckPools) == tt.noLiq {
				t.Errorf("NO_LIQUIDITY %v, unchecked %v", hasFlag(got.Liquidity.Flags, risk.NoLiquidity), got.Unchecked)
			}
			if tt.noLiq {
				return
			}
			said := false
			for _, w := range got.Warnings {
				said = said || strings.Contains(w, "pool index failed")
			}
			if len(l.DEXesUnsearched) != 10 || len(l.DEXesSearched) != 0 || got.Liquidity.Status == scan.Complete || !said {
				t.Errorf("searched %v unsearched %v status %s warnings %v", l.DEXesSearched, l.DEXesUnsearched, got.Liquidity.Status, got.Warnings)
			}
			if n := srv.Calls("getProgramAccounts"); n != 1+countRequest+stakePoolSearch {
				t.Errorf("getProgramAccounts = %d, want only the SOL price pools, the holder count and the stake pool search", n)
			}
		})
	}
}
