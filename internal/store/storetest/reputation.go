package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

func reputationStore(t *testing.T, s store.Store) store.Reputation {
	t.Helper()
	r, ok := s.(store.Reputation)
	if !ok {
		t.Skipf("%T keeps no reputation", s)
	}
	return r
}

func addresses(ts []store.Token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Address
	}
	return out
}

// testReputation: a creator's other tokens and a code's twins come back
// the worst first, never the token itself, and a re-scan replaces a
// token's verdict (an older scan arriving late does not).
func testReputation(t *testing.T, s store.Store) {
	ctx := context.Background()
	r := reputationStore(t, s)
	rec := func(tok store.Token) {
		t.Helper()
		if err := r.RecordToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	rec(store.Token{Chain: "ethereum", Address: "0xA1", Creator: "0xC", Code: "f1", ScanID: "scn_1", Level: "critical", Harm: "honeypot", Flags: []string{"HONEYPOT_CANNOT_SELL"}, ScannedAt: at(1)})
	rec(store.Token{Chain: "ethereum", Address: "0xA2", Creator: "0xC", Code: "f2", ScanID: "scn_2", Level: "low", ScannedAt: at(2)})
	rec(store.Token{Chain: "ethereum", Address: "0xA3", Creator: "0xD", Code: "f1", ScanID: "scn_3", Level: "medium", ScannedAt: at(3)})
	rec(store.Token{Chain: "bsc", Address: "0xA4", Creator: "0xC", Code: "f1", ScanID: "scn_4", Level: "low", ScannedAt: at(4)})

	got, err := r.RelatedTokens(ctx, "ethereum", "0xA9", "0xC", "f1", 10)
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); !slices.Equal(a, []string{"0xA1", "0xA2"}) {
		t.Errorf("by creator %v, want the honeypot then the newer (same chain only)", a)
	}
	if a := addresses(got.ByCode); !slices.Equal(a, []string{"0xA1", "0xA4", "0xA3"}) {
		t.Errorf("by code %v, want the honeypot first then the newest, across chains", a)
	}
	first := got.ByCreator[0]
	if first.ScanID != "scn_1" || first.Level != "critical" || first.Harm != "honeypot" || !slices.Equal(first.Flags, []string{"HONEYPOT_CANNOT_SELL"}) || !first.ScannedAt.Equal(at(1)) {
		t.Errorf("row read back as %+v", first)
	}

	// The token itself is never its own mate or twin; limit holds.
	got, err = r.RelatedTokens(ctx, "ethereum", "0xA1", "0xC", "f1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); !slices.Equal(a, []string{"0xA2"}) {
		t.Errorf("by creator of 0xA1 %v, want [0xA2]", a)
	}
	if a := addresses(got.ByCode); !slices.Equal(a, []string{"0xA4"}) {
		t.Errorf("by code of 0xA1, limit 1: %v, want [0xA4]", a)
	}

	// A re-scan turns 0xA2 honeypot: its mates see it; a late older scan
	// does not undo it.
	rec(store.Token{Chain: "ethereum", Address: "0xA2", Creator: "0xC", Code: "f2", ScanID: "scn_5", Level: "critical", Harm: "seizure", ScannedAt: at(5)})
	rec(store.Token{Chain: "ethereum", Address: "0xA2", Creator: "0xC", Code: "f2", ScanID: "scn_0", Level: "low", ScannedAt: at(0)})
	got, err = r.RelatedTokens(ctx, "ethereum", "0xA1", "0xC", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.ByCreator) != 1 || got.ByCreator[0].ScanID != "scn_5" || got.ByCreator[0].Harm != "seizure" || len(got.ByCode) != 0 {
		t.Errorf("after the re-scan: %+v, want 0xA2 at scn_5 with its seizure and no code twins", got)
	}

	// Unknown creator and code read nothing.
	got, err = r.RelatedTokens(ctx, "ethereum", "0xA9", "", "", 10)
	if err != nil || len(got.ByCreator)+len(got.ByCode) != 0 {
		t.Errorf("unknown creator and code: %+v, %v", got, err)
	}
}
