package solana_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// TestScanBudget states what one Solana scan costs upstream, in HTTP
// requests (one JSON-RPC batch each) and JSON-RPC calls, with the ten
// DEXes configured: a scan grows by a request only for a pool kind that
// needs accounts only round trip 3 names (DAMM v1 vault LP mints, position
// NFTs), and a pool index replaces the DEX searches. The insider check
// comes after round trip 3: for the pump.fun mint 4 requests and 7 calls
// (A: the whale's wallet and token account, the curve's and the pool's
// histories; B: the whale's first transaction; C and D: its funder's
// history and first transaction), so 3+4 requests and 27+7 calls. The
// holder count (getProgramAccounts on the mint's token program, each
// account sliced to its amount) is one more request and call beside round
// trips 2 and 3, never a round trip: before it, the three scans cost
// 7/35, 4/28 and 4/11 requests/calls. mSOL's mint authority is off the
// curve: one more call in round trip 2 asks the SPL stake pool program for
// the pool it may belong to.
func TestScanBudget(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		name            string
		setup           func(*testing.T) (*solanatest.Server, solana.Options)
		mint            string
		requests, calls int
		searches        int // getProgramAccounts
	}{
		{"pump.fun mint with a CPMM pool", func(t *testing.T) (*solanatest.Server, solana.Options) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			return srv, solana.Options{}
		}, pumpMint, 3 + 1 + 4, 29 + 7, 23},
		{"mint on a DAMM v1 pool", func(t *testing.T) (*solanatest.Server, solana.Options) {
			return dammV1Server(t), solana.Options{Now: now}
		}, msolMint, 4 + 1, 29 + stakePoolSearch, 23 + stakePoolSearch},
		{"mint on a DAMM v1 pool, pools from the index", func(t *testing.T) (*solanatest.Server, solana.Options) {
			idx := fakeIndex(t, http.StatusOK, map[string][]string{msolMint: {dammV1Pool}})
			return dammV1Server(t), solana.Options{Now: now, PoolIndex: idx}
		}, msolMint, 4 + 1, 12 + stakePoolSearch, 5 + stakePoolSearch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, opts := tt.setup(t)
			var mu sync.Mutex
			counts := map[string]int{}
			opts.Upstream = func(_, method string) {
				mu.Lock()
				counts[method]++
				mu.Unlock()
			}
			if _, err := newAdapter(t, opts, srv.URL()).Assess(context.Background(), request(t, tt.mint)); err != nil {
				t.Fatal(err)
			}
			calls := 0
			for _, n := range counts {
				calls += n
			}
			t.Logf("%s: %d requests, %d calls (getProgramAccounts %d): %v", tt.name, srv.Requests(), calls, counts["getProgramAccounts"], counts)
			if srv.Requests() != int64(tt.requests) || calls != tt.calls || counts["getProgramAccounts"] != tt.searches {
				t.Errorf("requests %d calls %d (getProgramAccounts %d), want %d / %d / %d: %v", srv.Requests(), calls, counts["getProgramAccounts"], tt.requests, tt.calls, tt.searches, counts)
			}
		})
	}
}
