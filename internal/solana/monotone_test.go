package solana_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// fixtureScan is one scan of real account bytes the property tests run.
type fixtureScan struct {
	name  string
	mint  string
	setup func(*testing.T) (*solanatest.Server, solana.Options)
}

// fixtureScans are the Solana fixtures as a user would scan them: the
// developer set's mints, the pump mint with its holders (and with its LP
// locked), and mSOL on its real DAMM v1 pool.
func fixtureScans() []fixtureScan {
	now := func() time.Time { return time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC) }
	plain := func(t *testing.T) (*solanatest.Server, solana.Options) { return newServer(t), solana.Options{} }
	return []fixtureScan{
		{"pump mint", pumpMint, plain},
		{"pump mint with holders", pumpMint, func(t *testing.T) (*solanatest.Server, solana.Options) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			return srv, solana.Options{}
		}},
		{"pump mint with holders and LP locked", pumpMint, func(t *testing.T) (*solanatest.Server, solana.Options) {
			srv := newServer(t)
			addPumpHolders(t, srv)
			addLPHolders(t, srv, []lpHolding{{raydiumLockAuthority, cpmmLPSupply}})
			return srv, solana.Options{}
		}},
		{"mayhem mint", mayhemMint, plain},
		{"scnSOL", scnSOL, plain},
		{"JitoSOL", jitoSOL, plain},
		{"mSOL", msolMint, plain},
		{"pwrSOL", "pWrSoLAhue6jUxUkbWgmEy5rD9VJzkFmvfTDV5KgNuu", plain},
		{"mega token", megaMint, plain},
		{"mega token group member", memberMint, plain},
		{"USDC (trusted)", usdcMint, plain},
		{"wSOL (trusted)", wsolMint, plain},
		{"SAMO", "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU", plain},
		{"ORCA", "orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE", plain},
		{"DLMM token X", "FQuMNJ6UcrkA3xMLsmmLL8sk47RkZYod57mX3a8w1brg", plain},
		{"mayhem on DAMM v2, second position's NFT in a wallet", mayhemMint, func(t *testing.T) (*solanatest.Server, solana.Options) {
			return dammV2PositionsServer(t, "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU", 1), solana.Options{}
		}},
		{"mayhem on DAMM v2, second position's NFT burned", mayhemMint, func(t *testing.T) (*solanatest.Server, solana.Options) {
			return dammV2PositionsServer(t, "", 1), solana.Options{}
		}},
		{"mayhem on DAMM v2, second position's NFT locked", mayhemMint, func(t *testing.T) (*solanatest.Server, solana.Options) {
			return dammV2PositionsServer(t, raydiumLockAuthority, 1), solana.Options{}
		}},
		{"mSOL on DAMM v1", msolMint, func(t *testing.T) (*solanatest.Server, solana.Options) {
			return dammV1Server(t), solana.Options{Now: now}
		}},
	}
}

// report scans mint and scores it as the engine does.
func report(t *testing.T, srv *solanatest.Server, opts solana.Options, mint string) (*scan.Report, error) {
	t.Helper()
	req := request(t, mint)
	a, err := newAdapter(t, opts, srv.URL()).Assess(context.Background(), req)
	if err != nil {
		return nil, err
	}
	return scan.Build(risk.NewCatalogue(), req.Address, a), nil
}

var levelOrder = []risk.Level{risk.Minimal, risk.LevelLow, risk.LevelMedium, risk.LevelHigh, risk.LevelCritical}

// TestKnowingLessNeverReadsSafer: for every Solana fixture, removing or
// corrupting any one account the node serves never lowers the level
// unless the report says degraded (knowing less must not read safer).
// Corrupting keeps the owner and halves the data, or keeps the data under
// another owner.
func TestKnowingLessNeverReadsSafer(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of scans")
	}
	stranger := syntheticKey("another program")
	mutations := []struct {
		name  string
		apply func(*solanatest.Server, string)
	}{
		{"removed", func(s *solanatest.Server, k string) { s.DeleteAccount(k) }},
		{"truncated", func(s *solanatest.Server, k string) {
			a, _ := s.Account(k)
			a.Data = a.Data[:len(a.Data)/2]
			s.SetAccount(k, a)
		}},
		{"owned by another program", func(s *solanatest.Server, k string) {
			a, _ := s.Account(k)
			a.Owner = stranger
			s.SetAccount(k, a)
		}},
	}
	for _, fx := range fixtureScans() {
		t.Run(fx.name, func(t *testing.T) {
			srv, opts := fx.setup(t)
			base, err := report(t, srv, opts, fx.mint)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("base: %s %.1f %s unchecked %v", base.RiskLevel, base.OverallRiskScore, base.Completeness, base.Unchecked)
			t.Logf("LEVEL|%s|%s|%.1f|%s|%v", fx.name, base.RiskLevel, base.OverallRiskScore, base.Completeness, base.Unchecked)
			scans := 0
			for _, k := range srv.Keys() {
				if k == fx.mint {
					continue // no mint is a 404 or a 422, not a report
				}
				for _, m := range mutations {
					srv, opts := fx.setup(t)
					m.apply(srv, k)
					got, err := report(t, srv, opts, fx.mint)
					if err != nil {
						t.Errorf("%s %s: %v", k, m.name, err)
						continue
					}
					scans++
					if got.Completeness != scan.Degraded && slices.Index(levelOrder, got.RiskLevel) < slices.Index(levelOrder, base.RiskLevel) {
						t.Errorf("%s %s: %s %.1f (%s, unchecked %v), lower than %s %.1f without the change",
							k, m.name, got.RiskLevel, got.OverallRiskScore, got.Completeness, got.Unchecked, base.RiskLevel, base.OverallRiskScore)
					}
				}
			}
			t.Log(fmt.Sprintf("%d mutated scans", scans))
		})
	}
}
