package storetest

import (
	"context"
	"fmt"
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
		if _, err := r.RecordToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	rec(store.Token{Chain: "ethereum", Address: "0xA1", Creator: "0xC", Code: "f1", ScanID: "scn_1", Level: "critical", Harm: "honeypot", Flags: []string{"HONEYPOT_CANNOT_SELL"}, ScannedAt: at(1)})
	rec(store.Token{Chain: "ethereum", Address: "0xA2", Creator: "0xC", Code: "f2", ScanID: "scn_2", Level: "low", ScannedAt: at(2)})
	rec(store.Token{Chain: "ethereum", Address: "0xA3", Creator: "0xD", Code: "f1", ScanID: "scn_3", Level: "medium", ScannedAt: at(3)})
	rec(store.Token{Chain: "bsc", Address: "0xA4", Creator: "0xC", Code: "f1", ScanID: "scn_4", Level: "low", ScannedAt: at(4)})

	got, err := r.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: "0xA9", Creator: "0xC", Code: "f1", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); !slices.Equal(a, []string{"0xA1", "0xA2"}) {
		t.Errorf("by creator %v, want the honeypot then the newer (same chain only)", a)
	}
	if a := addresses(got.ByCode); !slices.Equal(a, []string{"0xA1", "0xA4", "0xA3"}) {
		t.Errorf("by code %v, want the honeypot first then the newest, across chains", a)
	}
	if tl := got.CodeTally; tl.Twins != 3 || tl.Critical != 1 || tl.Harms["honeypot"] != 1 || len(tl.Harms) != 1 || tl.Capped {
		t.Errorf("code tally %+v, want 3 twins, 1 critical, 1 honeypot", tl)
	}
	first := got.ByCreator[0]
	if first.ScanID != "scn_1" || first.Level != "critical" || first.Harm != "honeypot" || !slices.Equal(first.Flags, []string{"HONEYPOT_CANNOT_SELL"}) || !first.ScannedAt.Equal(at(1)) {
		t.Errorf("row read back as %+v", first)
	}

	// The token itself is never its own mate or twin; limit holds.
	got, err = r.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: "0xA1", Creator: "0xC", Code: "f1", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); !slices.Equal(a, []string{"0xA2"}) {
		t.Errorf("by creator of 0xA1 %v, want [0xA2]", a)
	}
	if a := addresses(got.ByCode); !slices.Equal(a, []string{"0xA4"}) {
		t.Errorf("by code of 0xA1, limit 1: %v, want [0xA4]", a)
	}
	// The tally counts every twin, past the limit, never the token.
	if tl := got.CodeTally; tl.Twins != 2 || tl.Critical != 0 || len(tl.Harms) != 0 {
		t.Errorf("code tally of 0xA1 %+v, want 2 twins, none critical or harmful", tl)
	}

	// A re-scan turns 0xA2 honeypot: its mates see it; a late older scan
	// does not undo it.
	rec(store.Token{Chain: "ethereum", Address: "0xA2", Creator: "0xC", Code: "f2", ScanID: "scn_5", Level: "critical", Harm: "seizure", ScannedAt: at(5)})
	rec(store.Token{Chain: "ethereum", Address: "0xA2", Creator: "0xC", Code: "f2", ScanID: "scn_0", Level: "low", ScannedAt: at(0)})
	got, err = r.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: "0xA1", Creator: "0xC", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.ByCreator) != 1 || got.ByCreator[0].ScanID != "scn_5" || got.ByCreator[0].Harm != "seizure" || len(got.ByCode) != 0 {
		t.Errorf("after the re-scan: %+v, want 0xA2 at scn_5 with its seizure and no code twins", got)
	}

	// Unknown creator and code read nothing.
	got, err = r.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: "0xA9", Limit: 10})
	if err != nil || len(got.ByCreator)+len(got.ByCode)+got.CodeTally.Twins != 0 {
		t.Errorf("unknown creator and code: %+v, %v", got, err)
	}
}

// testReputationPoolCreator: a pool's creator links two tokens one way
// only: the token whose pool a creator made is among that creator's
// tokens (and the reverse), a rugged pool ranks after a honeypot, and
// two tokens whose pools share a creator are not linked.
func testReputationPoolCreator(t *testing.T, s store.Store) {
	ctx := context.Background()
	r := reputationStore(t, s)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	for _, tok := range []store.Token{
		// S1, made by C, is rugged; its pool was made by M (a launchpad).
		{Chain: "solana", Address: "S1", Creator: "C", PoolCreator: "M", ScanID: "scn_1", Level: "high", Harm: "rugged", Flags: []string{"NO_LIQUIDITY"}, ScannedAt: at(3)},
		// S2, made by D, has its pool made by C.
		{Chain: "solana", Address: "S2", Creator: "D", PoolCreator: "C", ScanID: "scn_2", Level: "critical", Harm: "honeypot", ScannedAt: at(1)},
		// S3 shares only the launchpad M as its pool's creator with S1.
		{Chain: "solana", Address: "S3", Creator: "E", PoolCreator: "M", ScanID: "scn_3", Level: "low", ScannedAt: at(2)},
		// S4's creator is the pool creator of nothing; made by C too.
		{Chain: "solana", Address: "S4", Creator: "C", ScanID: "scn_4", Level: "low", ScannedAt: at(4)},
	} {
		if _, err := r.RecordToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	// A new token made by C: its creator's own tokens and the token whose
	// pool C made, the honeypot first, the rugged pool next.
	got, err := r.RelatedTokens(ctx, store.RelatedQuery{Chain: "solana", Address: "S9", Creator: "C", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); !slices.Equal(a, []string{"S2", "S1", "S4"}) {
		t.Errorf("by creator C: %v, want [S2 S1 S4] (honeypot, rugged, then none)", a)
	}
	if len(got.ByCreator) == 3 && (got.ByCreator[0].Via != "C" || !got.ByCreator[0].ViaPool || got.ByCreator[1].ViaPool) {
		t.Errorf("via: %+v", got.ByCreator)
	}
	// A token whose pool M made: S3 and S1 share nothing else with it.
	got, err = r.RelatedTokens(ctx, store.RelatedQuery{Chain: "solana", Address: "S8", Creator: "F", PoolCreator: "M", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); len(a) != 0 {
		t.Errorf("pools sharing a creator linked %v", a)
	}
	// A token whose pool D made: D's token S2 is its creator-mate.
	got, err = r.RelatedTokens(ctx, store.RelatedQuery{Chain: "solana", Address: "S7", Creator: "G", PoolCreator: "D", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); !slices.Equal(a, []string{"S2"}) {
		t.Errorf("by pool creator D: %v, want [S2]", a)
	}
	// The same token through two keys is listed once; limit holds.
	got, err = r.RelatedTokens(ctx, store.RelatedQuery{Chain: "solana", Address: "S9", Creator: "C", PoolCreator: "C", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if a := addresses(got.ByCreator); !slices.Equal(a, []string{"S2", "S1"}) {
		t.Errorf("creator and pool creator C, limit 2: %v, want [S2 S1]", a)
	}
}

// testReputationDispatcher: the tokens with the same dispatcher and other
// code are counted, on any chain; the code's own twins and the token
// itself are not.
func testReputationDispatcher(t *testing.T, s store.Store) {
	ctx := context.Background()
	r := reputationStore(t, s)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	for i, tok := range []store.Token{
		{Chain: "ethereum", Address: "0xD1", Code: "cp_a", Dispatcher: "ds_x"},
		{Chain: "ethereum", Address: "0xD2", Code: "cp_a", Dispatcher: "ds_x"}, // a twin, not counted
		{Chain: "ethereum", Address: "0xD3", Code: "cp_b", Dispatcher: "ds_x"},
		{Chain: "bsc", Address: "0xD4", Code: "cp_0", Dispatcher: "ds_x"},
		{Chain: "ethereum", Address: "0xD5", Code: "cp_c", Dispatcher: "ds_y"},
		{Chain: "ethereum", Address: "0xD6", Code: "cp_d"},
	} {
		tok.ScanID, tok.Level, tok.ScannedAt = fmt.Sprintf("scn_d%d", i), "low", at(i)
		if _, err := r.RecordToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		q    store.RelatedQuery
		want int
	}{
		{"a new token of the code", store.RelatedQuery{Chain: "ethereum", Address: "0xD9", Code: "cp_a", Dispatcher: "ds_x", Limit: 5}, 2},
		{"a recorded token", store.RelatedQuery{Chain: "ethereum", Address: "0xD3", Code: "cp_b", Dispatcher: "ds_x", Limit: 5}, 3},
		{"another selector set", store.RelatedQuery{Chain: "ethereum", Address: "0xD9", Code: "cp_a", Dispatcher: "ds_z", Limit: 5}, 0},
		{"no dispatcher", store.RelatedQuery{Chain: "ethereum", Address: "0xD9", Code: "cp_a", Limit: 5}, 0},
	} {
		got, err := r.RelatedTokens(ctx, c.q)
		if err != nil {
			t.Fatal(err)
		}
		if got.SameDispatcher != c.want || got.SameDispatcherCapped {
			t.Errorf("%s: same dispatcher %d (capped %v), want %d", c.name, got.SameDispatcher, got.SameDispatcherCapped, c.want)
		}
	}
}
