package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

func watchlist(t *testing.T, s store.Store) store.Watchlist {
	t.Helper()
	wl, ok := s.(store.Watchlist)
	if !ok {
		// A wrapper such as the write-behind history queue carries scans
		// only; the server gives the watcher the backend itself.
		t.Skipf("%T has no watchlists", s)
	}
	return wl
}

func testWatchlist(t *testing.T, s store.Store) {
	ctx := context.Background()
	wl := watchlist(t, s)
	a := store.Watch{ID: "wat_a", KeyID: "key_1", Address: "0xAA", Chain: "ethereum", CreatedAt: t0,
		BaselineScanID: "scn_1", BaselineLevel: "high", BaselineScore: 71.5}
	got, created, err := wl.CreateWatch(ctx, a, 10)
	if err != nil || !created {
		t.Fatalf("CreateWatch: created=%v err=%v", created, err)
	}
	if got != a {
		t.Errorf("CreateWatch returned %+v, want %+v", got, a)
	}
	// The same key watching the same token again gets the first entry.
	again := a
	again.ID, again.BaselineScanID = "wat_dup", "scn_2"
	got, created, err = wl.CreateWatch(ctx, again, 10)
	if err != nil || created || got.ID != "wat_a" {
		t.Errorf("second CreateWatch: %+v created=%v err=%v, want the existing wat_a", got, created, err)
	}
	b := store.Watch{ID: "wat_b", KeyID: "key_1", Address: "0xBB", Chain: "bsc", CreatedAt: t0.Add(time.Second), BaselineLevel: "low"}
	other := store.Watch{ID: "wat_c", KeyID: "key_2", Address: "0xAA", Chain: "ethereum", CreatedAt: t0.Add(2 * time.Second), BaselineLevel: "high"}
	for _, w := range []store.Watch{b, other} {
		if _, _, err := wl.CreateWatch(ctx, w, 10); err != nil {
			t.Fatalf("CreateWatch(%s): %v", w.ID, err)
		}
	}
	list, err := wl.ListWatches(ctx, "key_1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0] != a || list[1] != b {
		t.Errorf("ListWatches(key_1) = %+v, want [wat_a wat_b]", list)
	}
	on, err := wl.WatchesOn(ctx, "ethereum")
	if err != nil {
		t.Fatal(err)
	}
	if len(on) != 2 || on[0].ID != "wat_a" || on[1].ID != "wat_c" {
		t.Errorf("WatchesOn(ethereum) = %+v, want wat_a and wat_c (every key)", on)
	}
	chains, err := wl.WatchedChains(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(chains) != "[bsc ethereum]" {
		t.Errorf("WatchedChains = %v, want [bsc ethereum]", chains)
	}
	// Another key cannot delete an entry it does not own.
	if err := wl.DeleteWatch(ctx, "key_2", "wat_a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteWatch by another key: %v, want ErrNotFound", err)
	}
	if err := wl.DeleteWatch(ctx, "key_1", "wat_a"); err != nil {
		t.Fatal(err)
	}
	if err := wl.DeleteWatch(ctx, "key_1", "wat_a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteWatch twice: %v, want ErrNotFound", err)
	}
	if list, _ := wl.ListWatches(ctx, "key_1"); len(list) != 1 || list[0].ID != "wat_b" {
		t.Errorf("after delete ListWatches(key_1) = %+v, want [wat_b]", list)
	}
	if list, _ := wl.ListWatches(ctx, "key_none"); list == nil || len(list) != 0 {
		t.Errorf("ListWatches(unknown key) = %#v, want an empty list", list)
	}
}

func testWatchLimit(t *testing.T, s store.Store) {
	ctx := context.Background()
	wl := watchlist(t, s)
	if _, _, err := wl.CreateWatch(ctx, store.Watch{ID: "wat_0", KeyID: "key_free", Address: "0x00", Chain: "ethereum", CreatedAt: t0}, 0); !errors.Is(err, store.ErrWatchLimit) {
		t.Errorf("CreateWatch with limit 0: %v, want ErrWatchLimit", err)
	}
	const limit, tries = 3, 12
	var wg sync.WaitGroup
	var mu sync.Mutex
	created, refused := 0, 0
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := store.Watch{ID: fmt.Sprintf("wat_%02d", i), KeyID: "key_1", Address: fmt.Sprintf("0x%02d", i), Chain: "ethereum", CreatedAt: t0}
			_, ok, err := wl.CreateWatch(ctx, w, limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, store.ErrWatchLimit):
				refused++
			case err != nil:
				t.Errorf("CreateWatch: %v", err)
			case ok:
				created++
			}
		}()
	}
	wg.Wait()
	if created != limit || refused != tries-limit {
		t.Errorf("%d concurrent entries with limit %d: %d created, %d refused; want %d and %d", tries, limit, created, refused, limit, tries-limit)
	}
}

func testWatchedTokens(t *testing.T, s store.Store) {
	ctx := context.Background()
	wl := watchlist(t, s)
	tok := store.WatchedToken{Chain: "ethereum", Address: "0xAA", ScanID: "scn_1", Report: []byte(`{"risk_level":"low"}`),
		Pool: "0xPP", QuoteReserve: "1000000000000000000000", ScannedAt: t0}
	if err := wl.SaveWatchedToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	tok.ScanID, tok.Report, tok.QuoteReserve, tok.ScannedAt = "scn_2", []byte(`{"risk_level":"high"}`), "7", t0.Add(time.Minute)
	if err := wl.SaveWatchedToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if err := wl.SaveWatchedToken(ctx, store.WatchedToken{Chain: "bsc", Address: "0xAA", ScanID: "scn_3", Report: []byte(`{}`), ScannedAt: t0}); err != nil {
		t.Fatal(err)
	}
	got, err := wl.WatchedTokens(ctx, "ethereum")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ScanID != "scn_2" || got[0].Report != nil ||
		got[0].QuoteReserve != "7" || got[0].Pool != "0xPP" || !got[0].ScannedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("WatchedTokens(ethereum) = %+v, want the second save only, without its report", got)
	}
	report, err := wl.WatchedReport(ctx, "ethereum", "0xAA")
	if err != nil || string(report) != `{"risk_level":"high"}` {
		t.Errorf("WatchedReport = %s, %v; want the second report", report, err)
	}
	if _, err := wl.WatchedReport(ctx, "ethereum", "0xBB"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("WatchedReport(unknown) = %v, want ErrNotFound", err)
	}
}

func testWatchLease(t *testing.T, s store.Store) {
	ctx := context.Background()
	wl := watchlist(t, s)
	until := t0.Add(30 * time.Second)
	held, cursor, err := wl.LeaseWatch(ctx, "ethereum", "inst_a", t0, until)
	if err != nil || !held || cursor != 0 {
		t.Fatalf("first lease: held=%v cursor=%d err=%v", held, cursor, err)
	}
	if held, _, err := wl.LeaseWatch(ctx, "ethereum", "inst_b", t0.Add(time.Second), t0.Add(31*time.Second)); err != nil || held {
		t.Errorf("second instance during the lease: held=%v err=%v, want refused", held, err)
	}
	if err := wl.AdvanceWatch(ctx, "ethereum", "inst_a", t0.Add(2*time.Second), 42); err != nil {
		t.Fatal(err)
	}
	if err := wl.AdvanceWatch(ctx, "ethereum", "inst_b", t0.Add(2*time.Second), 99); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("AdvanceWatch without the lease: %v, want ErrLeaseLost", err)
	}
	// Renewal keeps the cursor.
	if held, cursor, err := wl.LeaseWatch(ctx, "ethereum", "inst_a", t0.Add(10*time.Second), t0.Add(40*time.Second)); err != nil || !held || cursor != 42 {
		t.Errorf("renewal: held=%v cursor=%d err=%v, want held at 42", held, cursor, err)
	}
	// Another chain is leased on its own.
	if held, _, err := wl.LeaseWatch(ctx, "bsc", "inst_b", t0, until); err != nil || !held {
		t.Errorf("lease on another chain: held=%v err=%v", held, err)
	}
	// Once expired, another instance takes over where the first stopped.
	held, cursor, err = wl.LeaseWatch(ctx, "ethereum", "inst_b", t0.Add(41*time.Second), t0.Add(70*time.Second))
	if err != nil || !held || cursor != 42 {
		t.Errorf("takeover after expiry: held=%v cursor=%d err=%v, want held at 42", held, cursor, err)
	}
	if err := wl.AdvanceWatch(ctx, "ethereum", "inst_a", t0.Add(42*time.Second), 50); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("the old holder advancing: %v, want ErrLeaseLost", err)
	}
	if err := wl.ReleaseWatch(ctx, "ethereum", "inst_b"); err != nil {
		t.Fatal(err)
	}
	if held, _, err := wl.LeaseWatch(ctx, "ethereum", "inst_a", t0.Add(43*time.Second), t0.Add(80*time.Second)); err != nil || !held {
		t.Errorf("lease after release: held=%v err=%v", held, err)
	}
	// Concurrent takers: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	winners := 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			held, _, err := wl.LeaseWatch(ctx, "base", fmt.Sprintf("inst_%d", i), t0, until)
			if err != nil {
				t.Errorf("LeaseWatch: %v", err)
			}
			if held {
				mu.Lock()
				winners++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if winners != 1 {
		t.Errorf("%d instances leased one chain together, want exactly 1", winners)
	}
}
