package solana_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// TestAssessLockers: the real CPMM pool of the pump mint with its LP half
// in Raydium Burn & Earn and half in a wallet (two providers; one lock,
// permanent, worth half the pool), and with 60% of its LP in a SYNTHETIC
// Streamflow stream's escrow locked for a year beside 40% burned (one
// provider; the lock's unlock time is the stream's end).
func TestAssessLockers(t *testing.T) {
	now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	end := uint64(now.Unix()) + 365*86400
	held := uint64(cpmmLPSupply / 10 * 6)
	for _, tt := range []struct {
		name      string
		setup     func(*testing.T, *solanatest.Server)
		providers int
		locker    string
		amount    uint64
		share     float64
		unlock    *int64
	}{
		{"Burn & Earn and a wallet", func(t *testing.T, srv *solanatest.Server) {
			addLPHolders(t, srv, []lpHolding{{raydiumLockAuthority, cpmmLPSupply / 2}, {whale, cpmmLPSupply - cpmmLPSupply/2}})
		}, 2, raydiumLockAuthority, cpmmLPSupply / 2, 50, nil},
		{"a Streamflow stream", func(t *testing.T, srv *solanatest.Server) {
			addLPHolders(t, srv, []lpHolding{{burnOwner, cpmmLPSupply - held}})
			escrow, escrowOwner := syntheticKey("lp-streamflow-escrow"), somePDA(t)
			if err := srv.AddTokenAccount(escrow, cpmmLPMint, escrowOwner, held, solanatest.TokenProgram); err != nil {
				t.Fatal(err)
			}
			st := streamflowStream{mint: cpmmLPMint, escrow: escrow, recipient: whale, deposited: held, cliff: end, cliffAmount: held, end: end}
			srv.SetAccount(syntheticKey("stream"), solanatest.Account{Lamports: 8_574_720, Owner: streamflowProgram, Data: st.bytes()})
		}, 1, somePDA(t), held, 60, ptr(int64(end))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			tt.setup(t, srv)
			got, err := newAdapter(t, solana.Options{Now: func() time.Time { return now }}, srv.URL()).Assess(context.Background(), request(t, pumpMint))
			if err != nil {
				t.Fatal(err)
			}
			l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
			p := l.Pools[0]
			if p.LPProviders == nil || *p.LPProviders != tt.providers {
				t.Errorf("LP providers %v, want %d", p.LPProviders, tt.providers)
			}
			if len(p.Lockers) != 1 {
				t.Fatalf("lockers %+v, want one", p.Lockers)
			}
			lk := p.Lockers[0]
			if lk.Kind != "locker" || lk.Locker != tt.locker || lk.Amount == nil || *lk.Amount != tt.amount || lk.SharePct != tt.share ||
				(lk.UnlockTime == nil) != (tt.unlock == nil) || tt.unlock != nil && *lk.UnlockTime != *tt.unlock {
				t.Errorf("lock %+v, want %s holding %d (%v%%) until %v", lk, tt.locker, tt.amount, tt.share, tt.unlock)
			}
			want := *p.LiquidityUSD * tt.share / 100
			if lk.USD == nil || math.Abs(*lk.USD-want) > 0.01 || p.LPLockedUSD == nil || math.Abs(*p.LPLockedUSD-want) > 0.01 || l.LPLockedUSD == nil || *l.LPLockedUSD != *p.LPLockedUSD {
				t.Errorf("lock USD %v, pool locked USD %v (evidence %v), want %.2f", lk.USD, p.LPLockedUSD, l.LPLockedUSD, want)
			}
		})
	}
}
