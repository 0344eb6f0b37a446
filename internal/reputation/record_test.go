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

func TestHarmOf(t *testing.T) {
	mint := risk.NewFlag(risk.OwnerCanMint, "", "")
	for _, tc := range []struct {
		name  string
		flags []risk.Flag
		want  string
	}{
		{"honeypot", []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "", "")}, reputation.HarmHoneypot},
		{"sell switch proven", []risk.Flag{risk.NewFlag(risk.OwnerCanBlockSells, "", "").WithEvidence(risk.EvidenceProbe, "x")}, reputation.HarmHoneypot},
		{"seizure", []risk.Flag{risk.NewFlag(risk.OwnerCanSeize, "", "").WithEvidence(risk.EvidenceProbe, "x")}, reputation.HarmSeizure},
		{"seizure read from code only", []risk.Flag{risk.NewFlag(risk.OwnerCanSeize, "", "").WithEvidence(risk.EvidenceCode, "x")}, ""},
		{"hidden mint", []risk.Flag{mint.WithSeverity(risk.Critical)}, reputation.HarmHiddenMint},
		{"an owner's mint is no harm proven", []risk.Flag{mint}, ""},
		{"the honeypot outranks", []risk.Flag{mint.WithSeverity(risk.Critical), risk.NewFlag(risk.HoneypotCannotSell, "", "")}, reputation.HarmHoneypot},
		{"a creator's history is not the token's harm", []risk.Flag{risk.NewFlag(risk.CreatorScamHistory, "", "")}, ""},
	} {
		if got := reputation.HarmOf(tc.flags); got != tc.want {
			t.Errorf("%s: HarmOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCreatorRecord: a creator whose earlier token was a proven honeypot
// makes its next token critical, with the earlier scan as evidence, and
// the record survives the store's restart; another creator has no
// earlier scans, which is said as such.
func TestCreatorRecord(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := chains.Parse(chains.Shipped())
	if err != nil {
		t.Fatal(err)
	}
	c := reputation.New(reg, st)
	const creator, other = "0x00000000000000000000000000000000000000C1", "0x00000000000000000000000000000000000000C2"
	first := reputation.Facts{Chain: "ethereum", Address: "0x0000000000000000000000000000000000000A01", Name: "Moon", Symbol: "MOON", Creator: creator}
	v := c.Judge(ctx, first)
	if v.CreatorRecord != reputation.NoEarlierScans || v.CreatorTokens == nil || len(v.CreatorTokens) != 0 || len(v.Flags) != 0 {
		t.Fatalf("first launch: %+v, want an empty record saying %q", v, reputation.NoEarlierScans)
	}
	at := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
	if _, err := c.Record(ctx, reputation.Outcome{Facts: first, ScanID: "scn_first", Level: "critical", ScannedAt: at,
		Flags: []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "", ""), risk.NewFlag(risk.NewPool, "", "")}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c = reputation.New(reg, st)
	second := reputation.Facts{Chain: "ethereum", Address: "0x0000000000000000000000000000000000000A02", Name: "Moon 2", Symbol: "MOON2", Creator: creator}
	v = c.Judge(ctx, second)
	if len(v.Flags) != 1 || v.Flags[0].Code != risk.CreatorScamHistory || v.Flags[0].Severity != risk.Critical || v.Flags[0].Source != "scn_first" {
		t.Fatalf("second launch flags %+v, want CREATOR_SCAM_HISTORY naming scn_first", v.Flags)
	}
	if len(v.CreatorTokens) != 1 || v.CreatorTokens[0].Address != first.Address || v.CreatorTokens[0].Harm == nil || *v.CreatorTokens[0].Harm != reputation.HarmHoneypot ||
		len(v.CreatorTokens[0].Flags) != 1 || v.CreatorTokens[0].Flags[0] != risk.HoneypotCannotSell || v.CreatorTokens[0].ScannedAt == nil || !v.CreatorTokens[0].ScannedAt.Equal(at) {
		t.Fatalf("creator tokens %+v, want the first launch, its harm, the flag that made it and its time", v.CreatorTokens)
	}

	v = c.Judge(ctx, reputation.Facts{Chain: "ethereum", Address: second.Address, Creator: other})
	if len(v.Flags) != 0 || v.CreatorRecord != reputation.NoEarlierScans {
		t.Fatalf("another creator: %+v, want no flag and %q", v, reputation.NoEarlierScans)
	}
	// The same creator on another chain is another record.
	v = c.Judge(ctx, reputation.Facts{Chain: "bsc", Address: second.Address, Creator: creator})
	if len(v.Flags) != 0 {
		t.Fatalf("the creator's address on bsc: %+v, want no record", v.Flags)
	}
}
