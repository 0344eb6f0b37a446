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

// TestRecordFinding: a verdict condemns the tokens linked to it only when
// its harm is new on the record: the creator's tokens by any harm
// outranking the one before, the code's twins by a honeypot, seizure or
// hidden mint where none was; the same harm found again condemns
// nothing new, and an older scan arriving late nothing at all.
func TestRecordFinding(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg, err := chains.Parse(chains.Shipped())
	if err != nil {
		t.Fatal(err)
	}
	c := reputation.New(reg, st)
	honeypot := []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "", "")}
	rugged := []risk.Flag{risk.NewFlag(risk.NoLiquidity, "", "")}
	at := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
	f := reputation.Facts{Chain: "ethereum", Address: "0x01", Creator: "0xc1", Code: "cp1_x"}
	for i, step := range []struct {
		name          string
		minute        int
		flags         []risk.Flag
		pools         int
		creator, code bool
	}{
		{"clean first scan", 1, nil, 1, false, false},
		{"rugged", 2, rugged, 1, true, false},
		{"rugged again", 3, rugged, 1, false, false},
		{"then a honeypot", 4, honeypot, 1, true, true},
		{"the honeypot again", 5, honeypot, 1, false, false},
		{"an older scan, clean", 0, nil, 1, false, false},
		{"clean again", 6, nil, 1, false, false},
		{"a honeypot once more", 7, honeypot, 1, true, true},
	} {
		got, err := c.Record(ctx, reputation.Outcome{Facts: f, ScanID: "scn_" + step.name, Level: "critical", Flags: step.flags, Pools: step.pools,
			ScannedAt: at.Add(time.Duration(step.minute) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		if got.Creator != step.creator || got.Code != step.code {
			t.Errorf("%d %s: creator %v code %v, want %v %v", i, step.name, got.Creator, got.Code, step.creator, step.code)
		}
		if got.Condemns() && got.Token.ScanID != "scn_"+step.name {
			t.Errorf("%d %s: finding names scan %s", i, step.name, got.Token.ScanID)
		}
	}
	// No creator known: a harm condemns the code's twins only.
	g, err := c.Record(ctx, reputation.Outcome{Facts: reputation.Facts{Chain: "ethereum", Address: "0x02", Code: "cp1_x"}, ScanID: "scn_2",
		Level: "critical", Flags: honeypot, ScannedAt: at})
	if err != nil || g.Creator || !g.Code {
		t.Errorf("no creator: %+v %v, want the code only", g, err)
	}
}
