package watch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/reputation"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/watch"
)

// recordingPublisher keeps every event published, by id (the outbox
// stores an id once).
type recordingPublisher struct {
	mu     sync.Mutex
	events map[string]watch.Event
	keys   map[string]string
}

func (p *recordingPublisher) Publish(_ context.Context, keyID string, ev watch.Event) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.events == nil {
		p.events, p.keys = map[string]watch.Event{}, map[string]string{}
	}
	p.events[ev.ID], p.keys[ev.ID] = ev, keyID
	return nil
}

// TestReputationAlertsFanOut: a template's new harmful twin alerts each
// key about at most ReputationPerKey of its watched twins, each event
// counting the key's others; a creator-mate comes first; a rugged pool
// does not condemn the code's twins; publishing the finding again sends
// the same ids.
func TestReputationAlertsFanOut(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "w.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	rec := func(chain, addr, creator, code string) {
		t.Helper()
		if _, err := st.RecordToken(ctx, store.Token{Chain: chain, Address: addr, Creator: creator, Code: code, ScanID: "scn_" + addr, Level: "low", ScannedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	watchOn := func(key, chain, addr string, i int) {
		t.Helper()
		if _, _, err := st.CreateWatch(ctx, store.Watch{ID: fmt.Sprintf("wat_%s_%03d", key, i), KeyID: key, Address: addr, Chain: chain,
			CreatedAt: at.Add(time.Duration(i) * time.Second), BaselineScanID: "scn_x", BaselineLevel: "low"}, 1000); err != nil {
			t.Fatal(err)
		}
	}
	// A template with 1,000 scanned twins: key_a watches 40 of them and a
	// token of the bad token's creator (watched last), key_b watches 2.
	for i := range 1000 {
		rec("ethereum", fmt.Sprintf("0xT%04d", i), fmt.Sprintf("0xC%04d", i), "cp1_template")
	}
	for i := range 40 {
		watchOn("key_a", "ethereum", fmt.Sprintf("0xT%04d", i), i)
	}
	rec("ethereum", "0xMATE", "0xBADC", "cp1_other")
	watchOn("key_a", "ethereum", "0xMATE", 99)
	watchOn("key_b", "ethereum", "0xT0500", 0)
	watchOn("key_b", "ethereum", "0xT0501", 1)

	bad := store.Token{Chain: "ethereum", Address: "0xBAD", Creator: "0xBADC", Code: "cp1_template", ScanID: "scn_bad", Level: "critical",
		Harm: reputation.HarmHoneypot, Flags: []string{"HONEYPOT_CANNOT_SELL"}, ScannedAt: at}
	pub := &recordingPublisher{}
	a := &watch.ReputationAlerts{Store: st, Publisher: pub, Now: func() time.Time { return at }}
	if err := a.Condemned(ctx, reputation.Finding{Token: bad, Creator: true, Code: true}); err != nil {
		t.Fatal(err)
	}
	perKey := map[string][]watch.ReputationChangedData{}
	for id, ev := range pub.events {
		var d watch.ReputationChangedData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		if ev.Type != watch.ReputationChanged || d.Token.Address != "0xBAD" || d.Token.Harm != reputation.HarmHoneypot || *d.ScanID != "scn_bad" {
			t.Errorf("event %s: %s %s", id, ev.Type, ev.Data)
		}
		perKey[pub.keys[id]] = append(perKey[pub.keys[id]], d)
	}
	if n := len(perKey["key_a"]); n != watch.ReputationPerKey {
		t.Errorf("key_a got %d events, want %d", n, watch.ReputationPerKey)
	}
	mate := false
	for _, d := range perKey["key_a"] {
		if d.MoreWatched != 41-watch.ReputationPerKey || d.MoreCapped {
			t.Errorf("key_a event on %s: more_watched %d (capped %v), want %d", d.Address, d.MoreWatched, d.MoreCapped, 41-watch.ReputationPerKey)
		}
		mate = mate || (d.Address == "0xMATE" && d.Link == store.LinkCreator && d.Via == "0xBADC")
	}
	if !mate {
		t.Errorf("key_a's events %+v, want the creator's token among them, linked by creator", perKey["key_a"])
	}
	if b := perKey["key_b"]; len(b) != 2 || b[0].MoreWatched != 0 || b[0].Link != store.LinkCode || b[0].Via != "cp1_template" {
		t.Errorf("key_b's events %+v, want its 2 twins by code, none more", b)
	}

	// The same finding again (a retry): the same ids, nothing new.
	n := len(pub.events)
	if err := a.Condemned(ctx, reputation.Finding{Token: bad, Creator: true, Code: true}); err != nil || len(pub.events) != n {
		t.Errorf("the finding again: %d events, want %d (%v)", len(pub.events), n, err)
	}

	// A rugged pool condemns the creator's tokens, not the code's twins.
	rugged := bad
	rugged.Address, rugged.ScanID, rugged.Harm = "0xRUG", "scn_rug", reputation.HarmRugged
	pub2 := &recordingPublisher{}
	a.Publisher = pub2
	if err := a.Condemned(ctx, reputation.Finding{Token: rugged, Creator: true}); err != nil {
		t.Fatal(err)
	}
	if len(pub2.events) != 1 {
		t.Errorf("a rugged pool sent %d events, want 1 (the creator's token)", len(pub2.events))
	}
}
