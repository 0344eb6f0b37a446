package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// testRecordedHarm: RecordToken says what the row held before it wrote,
// so a harm newly found is told apart from one recorded already; an
// older scan arriving late is not kept and changes nothing.
func testRecordedHarm(t *testing.T, s store.Store) {
	ctx := context.Background()
	r := reputationStore(t, s)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	tok := store.Token{Chain: "ethereum", Address: "0xB1", Creator: "0xC", Code: "f1", Level: "low"}
	for i, c := range []struct {
		minute   int
		harm     string
		want     store.Recorded
		wantHarm string
	}{
		{1, "", store.Recorded{Kept: true}, ""},
		{2, "honeypot", store.Recorded{Kept: true}, "honeypot"},
		{3, "honeypot", store.Recorded{Kept: true, PreviousHarm: "honeypot"}, "honeypot"},
		{0, "", store.Recorded{Kept: false, PreviousHarm: "honeypot"}, "honeypot"},
		{4, "", store.Recorded{Kept: true, PreviousHarm: "honeypot"}, ""},
	} {
		tok.ScanID, tok.Harm, tok.ScannedAt = fmt.Sprintf("scn_%d", i), c.harm, at(c.minute)
		got, err := r.RecordToken(ctx, tok)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("record %d (minute %d, harm %q): %+v, want %+v", i, c.minute, c.harm, got, c.want)
		}
		rel, err := r.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: "0xB9", Creator: "0xC", Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(rel.ByCreator) != 1 || rel.ByCreator[0].Harm != c.wantHarm {
			t.Errorf("after record %d: %+v, want the harm %q", i, rel.ByCreator, c.wantHarm)
		}
	}
}

// testRecordedHarmUnderConcurrency: scans of one token recording the
// same harm at once (instances sharing the store) see it newly found
// exactly once.
func testRecordedHarmUnderConcurrency(t *testing.T, s store.Store) {
	ctx := context.Background()
	r := reputationStore(t, s)
	for round := range 3 {
		addr := fmt.Sprintf("0xR%d", round)
		if round > 0 {
			// A row recorded clean first: the update path.
			if _, err := r.RecordToken(ctx, store.Token{Chain: "ethereum", Address: addr, ScanID: "scn_first", Level: "low", ScannedAt: t0}); err != nil {
				t.Fatal(err)
			}
		}
		const n = 8
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			fresh int
		)
		for i := range n {
			wg.Go(func() {
				got, err := r.RecordToken(ctx, store.Token{Chain: "ethereum", Address: addr, Creator: "0xC", ScanID: fmt.Sprintf("scn_%d", i),
					Level: "critical", Harm: "honeypot", ScannedAt: t0.Add(time.Duration(i+1) * time.Second)})
				if err != nil {
					t.Error(err)
					return
				}
				if got.PreviousHarm == "" {
					mu.Lock()
					fresh++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if fresh != 1 {
			t.Errorf("round %d: %d of %d concurrent records saw no harm before, want exactly 1", round, fresh, n)
		}
	}
}

// testLinkedWatches: the entries watching a token's creator-mates (same
// chain) and code twins (any chain) are found, by creator first, never
// the entries on the token itself; a pool's creator links one way only.
func testLinkedWatches(t *testing.T, s store.Store) {
	ctx := context.Background()
	r := reputationStore(t, s)
	wl := watchlist(t, s)
	lw, ok := s.(store.ReputationWatches)
	if !ok {
		t.Skipf("%T finds no linked watches", s)
	}
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	for i, tok := range []store.Token{
		{Chain: "ethereum", Address: "0xBAD", Creator: "0xC", PoolCreator: "0xP", Code: "f1"}, // the token found harmful
		{Chain: "ethereum", Address: "0xM1", Creator: "0xC", Code: "f2"},                      // creator-mate
		{Chain: "bsc", Address: "0xM2", Creator: "0xC", Code: "f3"},                           // same creator, other chain: not linked
		{Chain: "bsc", Address: "0xT1", Creator: "0xE", Code: "f1"},                           // code twin on another chain
		{Chain: "ethereum", Address: "0xT2", Creator: "0xC", Code: "f1"},                      // creator-mate and twin
		{Chain: "ethereum", Address: "0xQ1", Creator: "0xF", PoolCreator: "0xC", Code: "f4"},  // its pool made by 0xC
		{Chain: "ethereum", Address: "0xQ2", Creator: "0xP", Code: "f5"},                      // made by the bad token's pool creator
		{Chain: "ethereum", Address: "0xQ3", Creator: "0xG", PoolCreator: "0xP", Code: "f6"},  // shares only a pool creator: not linked
		{Chain: "ethereum", Address: "0xU1", Creator: "0xH", Code: "f7"},                      // unrelated
	} {
		tok.ScanID, tok.Level, tok.ScannedAt = fmt.Sprintf("scn_l%d", i), "low", at(i)
		if _, err := r.RecordToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	for i, w := range []struct{ key, chain, addr string }{
		{"key_a", "ethereum", "0xBAD"}, {"key_a", "bsc", "0xT1"}, {"key_a", "ethereum", "0xM1"}, {"key_b", "ethereum", "0xT2"},
		{"key_b", "bsc", "0xM2"}, {"key_b", "ethereum", "0xQ1"}, {"key_c", "ethereum", "0xQ2"}, {"key_c", "ethereum", "0xQ3"},
		{"key_c", "ethereum", "0xU1"}, {"key_d", "bsc", "0xT1"},
	} {
		if _, _, err := wl.CreateWatch(ctx, store.Watch{ID: fmt.Sprintf("wat_%02d", i), KeyID: w.key, Address: w.addr, Chain: w.chain,
			CreatedAt: at(10 + i), BaselineScanID: "scn_x", BaselineLevel: "low"}, 100); err != nil {
			t.Fatal(err)
		}
	}
	q := store.LinkedQuery{Chain: "ethereum", Address: "0xBAD", Creator: "0xC", PoolCreator: "0xP", Code: "f1", Limit: 100}
	got, err := lw.LinkedWatches(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, g := range got {
		rows = append(rows, fmt.Sprintf("%s %s %s %s %s", g.Watch.ID, g.Watch.KeyID, g.Watch.Address, g.Link, g.Via))
	}
	want := []string{
		"wat_02 key_a 0xM1 creator 0xC",
		"wat_03 key_b 0xT2 creator 0xC",
		"wat_05 key_b 0xQ1 pool_creator 0xC",
		"wat_06 key_c 0xQ2 pool_creator 0xP",
		"wat_01 key_a 0xT1 code f1",
		"wat_03 key_b 0xT2 code f1",
		"wat_09 key_d 0xT1 code f1",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("linked watches:\n got %q\nwant %q", rows, want)
	}
	// Links not asked for are not followed; the limit holds.
	q.Creator, q.PoolCreator, q.Limit = "", "", 2
	if got, err = lw.LinkedWatches(ctx, q); err != nil || len(got) != 2 || got[0].Link != store.LinkCode || got[0].Watch.ID != "wat_01" {
		t.Errorf("code only, limit 2: %+v %v, want wat_01 and wat_03 by code", got, err)
	}
	if got, err = lw.LinkedWatches(ctx, store.LinkedQuery{Chain: "ethereum", Address: "0xBAD", Limit: 100}); err != nil || len(got) != 0 {
		t.Errorf("no key: %+v %v, want nothing", got, err)
	}
}
