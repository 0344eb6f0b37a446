package reputation_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/reputation"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// TestHarmOfScan: what a scan leaves on the record as its proven harm,
// including the Solana token program's rules and a rugged pool (pools
// found, holding next to nothing).
func TestHarmOfScan(t *testing.T) {
	noPools := risk.NewFlag(risk.NoLiquidity, "", "").WithValue(0)
	low := func(usd float64) risk.Flag { return risk.NewFlag(risk.LowLiquidity, "", "").WithValue(usd) }
	for _, tc := range []struct {
		name  string
		flags []risk.Flag
		pools int
		want  string
	}{
		{"non-transferable mint", []risk.Flag{risk.NewFlag(risk.NonTransferable, "", "")}, 1, reputation.HarmHoneypot},
		{"permanent delegate", []risk.Flag{risk.NewFlag(risk.PermanentDelegate, "", "")}, 1, reputation.HarmSeizure},
		{"pools found, no reserves", []risk.Flag{noPools}, 2, reputation.HarmRugged},
		{"pools found, dust left", []risk.Flag{low(0.004)}, 1, reputation.HarmRugged},
		{"no pool found: not launched, not rugged", []risk.Flag{noPools}, 0, ""},
		{"low but real liquidity", []risk.Flag{low(850)}, 1, ""},
		{"low liquidity of unknown value", []risk.Flag{risk.NewFlag(risk.LowLiquidity, "", "")}, 1, ""},
		{"a honeypot whose pool is empty stays a honeypot", []risk.Flag{noPools, risk.NewFlag(risk.HoneypotCannotSell, "", "")}, 1, reputation.HarmHoneypot},
		{"sells refused beside a V4 hook that refuses them: the hook's trap", []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "", ""), risk.NewFlag(risk.HookCanBlockSells, "", "")}, 1, reputation.HarmHookTrap},
		{"the hook's trap and the token's own seizure: the token's", []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "", ""), risk.NewFlag(risk.HookCanBlockSells, "", ""), risk.NewFlag(risk.OwnerCanSeize, "", "")}, 1, reputation.HarmSeizure},
		{"an owner call that stops sells is the token's, hook or not", []risk.Flag{risk.NewFlag(risk.OwnerCanBlockSells, "", ""), risk.NewFlag(risk.HookCanBlockSells, "", "")}, 1, reputation.HarmHoneypot},
		{"a freeze authority is a power, not a harm", []risk.Flag{risk.NewFlag(risk.FreezeAuthorityEnabled, "", "")}, 1, ""},
	} {
		if got := reputation.HarmOfScan(tc.flags, tc.pools); got != tc.want {
			t.Errorf("%s: HarmOfScan = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCreatorScamHistorySeverity: CREATOR_SCAM_HISTORY is critical when
// a creator-mate was a proven honeypot, seizure or hidden mint, high
// when the worst was a rugged pool, absent when none was harmful; the
// flag names the worst mate's scan.
func TestCreatorScamHistorySeverity(t *testing.T) {
	ctx := context.Background()
	reg, err := chains.Parse(chains.Shipped())
	if err != nil {
		t.Fatal(err)
	}
	rugged := []risk.Flag{risk.NewFlag(risk.NoLiquidity, "", "").WithValue(0)}
	for _, tc := range []struct {
		name string
		// mates are the creator's earlier tokens: their flags and pools.
		mates      [][]risk.Flag
		pools      int
		want       risk.Severity // "" for no flag
		wantSource int           // index of the mate whose scan the flag names
	}{
		{"honeypot", [][]risk.Flag{{risk.NewFlag(risk.HoneypotCannotSell, "", "")}}, 1, risk.Critical, 0},
		{"seizure", [][]risk.Flag{{risk.NewFlag(risk.OwnerCanSeize, "", "").WithEvidence(risk.EvidenceProbe, "x")}}, 1, risk.Critical, 0},
		{"hidden mint", [][]risk.Flag{{risk.NewFlag(risk.OwnerCanMint, "", "").WithSeverity(risk.Critical)}}, 1, risk.Critical, 0},
		{"rugged pool", [][]risk.Flag{rugged}, 1, risk.High, 0},
		{"rugged, then a honeypot: critical, naming the honeypot", [][]risk.Flag{rugged, {risk.NewFlag(risk.HoneypotCannotSell, "", "")}}, 1, risk.Critical, 1},
		{"empty pools of a token never launched", [][]risk.Flag{rugged}, 0, "", 0},
		{"clean", [][]risk.Flag{{risk.NewFlag(risk.NewPool, "", "")}}, 1, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			c := reputation.New(reg, st)
			const creator = "0x00000000000000000000000000000000000000C1"
			at := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
			for i, flags := range tc.mates {
				o := reputation.Outcome{
					Facts:  reputation.Facts{Chain: "ethereum", Address: addrN(i + 1), Creator: creator},
					ScanID: "scn_" + string(rune('a'+i)), Level: "high", Flags: flags, ScannedAt: at.Add(time.Duration(i) * time.Minute), Pools: tc.pools,
				}
				if _, err := c.Record(ctx, o); err != nil {
					t.Fatal(err)
				}
			}
			v := c.Judge(ctx, reputation.Facts{Chain: "ethereum", Address: addrN(99), Creator: creator})
			if len(v.CreatorTokens) != len(tc.mates) {
				t.Fatalf("creator_tokens %+v, want %d", v.CreatorTokens, len(tc.mates))
			}
			if tc.want == "" {
				if len(v.Flags) != 0 {
					t.Fatalf("flags %+v, want none", v.Flags)
				}
				return
			}
			if len(v.Flags) != 1 || v.Flags[0].Code != risk.CreatorScamHistory || v.Flags[0].Severity != tc.want {
				t.Fatalf("flags %+v, want CREATOR_SCAM_HISTORY %s", v.Flags, tc.want)
			}
			if want := "scn_" + string(rune('a'+tc.wantSource)); v.Flags[0].Source != want {
				t.Errorf("the flag names scan %s, want %s (the worst mate)", v.Flags[0].Source, want)
			}
		})
	}
}

func addrN(i int) string {
	const hex = "0123456789abcdef"
	b := []byte("0x0000000000000000000000000000000000000000")
	for p := len(b) - 1; i > 0; p-- {
		b[p] = hex[i%16]
		i /= 16
	}
	return string(b)
}
