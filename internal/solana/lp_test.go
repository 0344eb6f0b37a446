package solana_test

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

const (
	cpmmLPMint   = "HBaEkQGJmCXAg97q8XRU6nFxDd5eCWNaqVB4xv7uvKhE"
	cpmmLPSupply = 6496152650376                                  // the LP mint's supply (lp_supply - 100)
	cpmmCreator  = "5Pq1gKWmrT5Z7QfUVj2keDAZhC2uTg7tCHBujnGq6aP6" // pool_creator of the CPMM pool
	// raydiumLockAuthority is the Raydium Burn & Earn program's CPMM
	// lock authority, PDA ["lock_cp_authority_seed"] of
	// LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE.
	raydiumLockAuthority = "3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH"
)

// lpHolding is a SYNTHETIC LP token account of the real CPMM pool.
type lpHolding struct {
	owner  string
	amount uint64
}

func addLPHolders(tb testing.TB, srv *solanatest.Server, hs []lpHolding) {
	tb.Helper()
	for i, h := range hs {
		if err := srv.AddTokenAccount(syntheticKey("lp-"+h.owner+string(rune('a'+i))), cpmmLPMint, h.owner, h.amount, solanatest.TokenProgram); err != nil {
			tb.Fatal(err)
		}
	}
}

func pctIs(p *float64, want float64) bool {
	return p != nil && *p > want-0.01 && *p < want+0.01
}

// TestAssessLPHolders checks the lock verdict of the pump mint's real
// CPMM pool against who holds its LP (synthetic LP token accounts; the
// fixture set has none).
func TestAssessLPHolders(t *testing.T) {
	pda := syntheticKey("some-program-pda")
	for _, k := range []string{pda} {
		if solana.IsOnCurve(solana.MustPublicKey(k)) {
			t.Skip("synthetic key happens to be on the curve")
		}
	}
	tests := []struct {
		name                              string
		holders                           []lpHolding
		burned, locked, unlocked, unknown float64
		flag, lockedOK                    bool
		status                            scan.Status
		label                             string
	}{
		{"none listed (the fixture alone)", nil, 0, 0, 0, 100, false, false, scan.Partial, ""},
		{"all in Raydium Burn & Earn", []lpHolding{{raydiumLockAuthority, cpmmLPSupply}}, 0, 100, 0, 0, false, true, scan.Complete, analysis.SolanaLPLocker},
		{"held by the pool creator", []lpHolding{{cpmmCreator, cpmmLPSupply}}, 0, 0, 100, 0, true, false, scan.Complete, analysis.SolanaLPCreator},
		{"95% at the incinerator, 5% a wallet", []lpHolding{{burnOwner, cpmmLPSupply / 100 * 95}, {whale, cpmmLPSupply - cpmmLPSupply/100*95}}, 95, 0, 5, 0, false, true, scan.Complete, analysis.SolanaLPBurn},
		{"half locked, half an unknown program", []lpHolding{{raydiumLockAuthority, cpmmLPSupply / 2}, {pda, cpmmLPSupply - cpmmLPSupply/2}}, 0, 50, 0, 50, false, false, scan.Partial, analysis.SolanaLPLocker},
		{"half locked, half a wallet", []lpHolding{{raydiumLockAuthority, cpmmLPSupply / 2}, {whale, cpmmLPSupply - cpmmLPSupply/2}}, 0, 50, 50, 0, true, false, scan.Complete, analysis.SolanaLPLocker},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			addLPHolders(t, srv, tt.holders)
			a := newAdapter(t, solana.Options{}, srv.URL())
			got, err := a.Assess(context.Background(), request(t, pumpMint))
			if err != nil {
				t.Fatal(err)
			}
			if n := srv.Requests(); n != 3+countRequest+insiderRequests(t, got.Holder.Evidence) {
				t.Errorf("HTTP requests = %d, want 3 and the insider check's: the LP holders ride in round trip 3", n)
			}
			l := got.Liquidity.Evidence.(analysis.SolanaLiquidityEvidence)
			p := l.Pools[0]
			if !pctIs(p.LPBurnedPct, tt.burned) || !pctIs(p.LPLockedPct, tt.locked) || !pctIs(p.LPUnlockedPct, tt.unlocked) || !pctIs(p.LPUnknownPct, tt.unknown) {
				t.Errorf("LP burned %v locked %v unlocked %v unknown %v; want %v %v %v %v", deref(p.LPBurnedPct), deref(p.LPLockedPct), deref(p.LPUnlockedPct), deref(p.LPUnknownPct), tt.burned, tt.locked, tt.unlocked, tt.unknown)
			}
			if hasFlag(got.Liquidity.Flags, risk.LPNotLocked) != tt.flag {
				t.Errorf("LP_NOT_LOCKED raised = %v, want %v (flags %+v)", !tt.flag, tt.flag, got.Liquidity.Flags)
			}
			if got.Checklist.LiquidityLocked != tt.lockedOK {
				t.Errorf("liquidity_locked = %v, want %v", got.Checklist.LiquidityLocked, tt.lockedOK)
			}
			if got.Liquidity.Status != tt.status {
				t.Errorf("liquidity status = %s, want %s (warnings %q)", got.Liquidity.Status, tt.status, got.Warnings)
			}
			if tt.label != "" && (len(p.LPHolders) == 0 || p.LPHolders[0].Label != tt.label) {
				t.Errorf("largest LP holder = %+v, want label %s", p.LPHolders, tt.label)
			}
			if p.Creator != cpmmCreator {
				t.Errorf("pool creator = %q", p.Creator)
			}
			unknownWarned := false
			for _, w := range got.Warnings {
				if strings.Contains(w, "lock state unknown") {
					unknownWarned = true
				}
			}
			if unknownWarned != (tt.status == scan.Partial) {
				t.Errorf("lock-state warning present = %v, want %v: %q", unknownWarned, tt.status == scan.Partial, got.Warnings)
			}
		})
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestCPMMCreatorFees: creator fees (since the 2025 CPMM upgrade, u64s
// at 397 and 405) sit in the vaults but are not liquidity.
func TestCPMMCreatorFees(t *testing.T) {
	data, _ := fixture(t, cpmmPool)
	binary.LittleEndian.PutUint64(data[397:], 1_000_000_000) // 1 SOL owed to the creator (token 0 = wSOL)
	binary.LittleEndian.PutUint64(data[405:], 5_000_000)     // 5 tokens (token 1)
	st, err := solana.DecodeRaydiumCPMM(data)
	if err != nil {
		t.Fatal(err)
	}
	// Protocol + fund fees from the real account, plus the creator fees.
	if st.OwedA != 8501600+42236834+1_000_000_000 || st.OwedB != 2629481698+8120109309+5_000_000 {
		t.Errorf("owed = %d / %d", st.OwedA, st.OwedB)
	}
	if st.Creator == nil || st.Creator.String() != cpmmCreator || st.LPNeverMinted != 100 {
		t.Errorf("creator %v, never minted %d", st.Creator, st.LPNeverMinted)
	}
}
