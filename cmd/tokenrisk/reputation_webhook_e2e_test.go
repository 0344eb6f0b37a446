package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// TestReputationWebhookEndToEnd: a premium key subscribed to
// token.reputation_changed watches, through the API, two copies of the
// zoo honeypot's code (`devnet act clone`): one by a new creator (A), one
// by the honeypot's own creator (C). The first scan of the honeypot (B)
// proves it a honeypot: the receiver gets exactly one signed
// token.reputation_changed per watched copy, naming it and B, linked by
// code for A and by creator for C (linked both ways, once), with B's
// level, harm, flags and scan. A re-scan of B (uncached: cache off)
// finds the same harm and sends nothing new.
func TestReputationWebhookEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "repalerts.db"),
		"TOKENRISK_SOURCIFY_URL": "none",
		"TOKENRISK_CACHE_TTL":    "0s",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath,
		"--webhook-allow-http", "--webhook-allow-private", "--webhook-secret-key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	m := readManifest(t, manifestPath)
	key := s.key(t, "premium")

	type hit struct {
		header http.Header
		body   []byte
	}
	var (
		mu   sync.Mutex
		hits []hit
		got  = make(chan struct{}, 16)
	)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hits = append(hits, hit{r.Header.Clone(), b})
		mu.Unlock()
		got <- struct{}{}
	}))
	defer rc.Close()
	r := s.do(t, "POST", "/api/v1/webhooks", key, `{"url":"`+rc.URL+`/alerts","events":["token.reputation_changed"]}`)
	if r.status != 201 {
		t.Fatalf("register for token.reputation_changed: %d %s", r.status, r.body)
	}
	var ep struct{ ID, Secret string }
	if err := json.Unmarshal(r.body, &ep); err != nil {
		t.Fatal(err)
	}

	hp, ok := m.Token("honeypot_sell_blocked")
	if !ok {
		t.Fatal("manifest has no honeypot_sell_blocked token")
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", hp.Address, "clone"},
		func(string) string { return "" }, strings.NewReader(""), &out, io.Discard); err != nil {
		t.Fatalf("devnet act clone: %v", err)
	}
	var same, other string
	for _, d := range regexp.MustCompile(`deployed (0x[0-9a-fA-F]{40}) by (the same|a new) creator`).FindAllStringSubmatch(out.String(), -1) {
		if d[2] == "the same" {
			same = d[1]
		} else {
			other = d[1]
		}
	}
	if same == "" || other == "" {
		t.Fatalf("devnet act clone printed %q, want two copies", out.String())
	}
	watchIDs := map[string]string{} // lower-case address → watch id
	for _, a := range []string{other, same} {
		r := s.do(t, "POST", "/api/v1/watchlist", key, `{"address":"`+a+`"}`)
		if r.status != 201 {
			t.Fatalf("watch %s: %d %s", a, r.status, r.body)
		}
		var w struct{ ID string }
		if err := json.Unmarshal(r.body, &w); err != nil || w.ID == "" {
			t.Fatalf("watch %s: %s", a, r.body)
		}
		watchIDs[strings.ToLower(a)] = w.ID
	}

	scanB := func() string {
		t.Helper()
		r := s.scan(t, key, hp.Address)
		if r.status != 200 {
			t.Fatalf("scan of the honeypot: %d %s", r.status, r.body)
		}
		var rep struct {
			ScanID string `json:"scan_id"`
			Level  string `json:"risk_level"`
			Cached bool
		}
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Level != "critical" || rep.Cached {
			t.Fatalf("the honeypot's scan: level %s cached %v, want critical, uncached", rep.Level, rep.Cached)
		}
		return rep.ScanID
	}
	scanID := scanB()
	for range 2 {
		select {
		case <-got:
		case <-time.After(2 * time.Minute):
			t.Fatalf("%d of 2 token.reputation_changed within two minutes of the honeypot's scan\n%s", len(hits), s.stderr.String())
		}
	}
	wh, err := standardwebhooks.NewWebhook(ep.Secret)
	if err != nil {
		t.Fatal(err)
	}
	type alert struct {
		Type string `json:"type"`
		Data struct {
			WatchID string `json:"watch_id"`
			Address string `json:"address"`
			ScanID  string `json:"scan_id"`
			Link    string `json:"link"`
			Via     string `json:"via"`
			Token   struct {
				Address, Level, Harm string
				Flags                []string
				ScanID               string `json:"scan_id"`
			} `json:"token"`
			MoreWatched int `json:"more_watched"`
		} `json:"data"`
	}
	links := map[string]string{}
	mu.Lock()
	received := append([]hit(nil), hits...)
	mu.Unlock()
	for _, h := range received {
		if err := wh.Verify(h.body, h.header); err != nil {
			t.Errorf("the reference library refuses the alert: %v", err)
		}
		validateSchema(t, "WatchEventReputationChanged", h.body)
		var a alert
		if err := json.Unmarshal(h.body, &a); err != nil {
			t.Fatal(err)
		}
		d := a.Data
		watched := strings.ToLower(d.Address)
		if a.Type != "token.reputation_changed" || d.WatchID != watchIDs[watched] || !strings.EqualFold(d.Token.Address, hp.Address) ||
			d.ScanID != scanID || d.Token.ScanID != scanID || d.Token.Level != "critical" || d.Token.Harm != "honeypot" ||
			len(d.Token.Flags) == 0 || d.MoreWatched != 0 {
			t.Errorf("alert %s, want token.reputation_changed for a watched copy naming the honeypot %s, scan %s", h.body, hp.Address, scanID)
		}
		if _, dup := links[watched]; dup {
			t.Errorf("two alerts for the watched %s", d.Address)
		}
		links[watched] = d.Link
	}
	if links[strings.ToLower(other)] != "code" || links[strings.ToLower(same)] != "creator" {
		t.Errorf("links %v, want the new creator's copy by code and the creator's own copy by creator", links)
	}

	// A re-scan proves the same harm again: nothing new. Alerts are
	// published before the scan answers, so the outbox already holds any.
	if again := scanB(); again == scanID {
		t.Fatalf("the re-scan has the first scan's id %s", again)
	}
	r = s.do(t, "GET", "/api/v1/webhooks/"+ep.ID+"/deliveries", key, "")
	var list struct {
		Deliveries []struct {
			EventType string `json:"event_type"`
		}
	}
	if err := json.Unmarshal(r.body, &list); r.status != 200 || err != nil {
		t.Fatalf("deliveries: %d %s", r.status, r.body)
	}
	if len(list.Deliveries) != 2 {
		t.Errorf("%d deliveries after the re-scan, want the 2 of the first finding", len(list.Deliveries))
	}
}

// TestReputationWebhookAcrossInstances: two servers on one PostgreSQL
// (the second on the first's devnet node) scan the zoo honeypot at the
// same moment; the key watching its new creator's copy gets one
// token.reputation_changed, not one per instance: the record's read and
// write are one transaction, so only one scan finds the harm new.
func TestReputationWebhookAcrossInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet and two servers")
	}
	dsn := postgresDSN(t)
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_SOURCIFY_URL": "none", "TOKENRISK_CACHE_TTL": "0s", "TOKENRISK_LOG_LEVEL": "warn"}
	hooks := []string{"--webhook-allow-http", "--webhook-allow-private", "--webhook-secret-key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="}
	a := startServer(t, env, append([]string{"--devnet-manifest", manifestPath}, hooks...)...)
	m := readManifest(t, manifestPath)
	envB := map[string]string{"TOKENRISK_RPC_DEVNET": m.RPCURL}
	for k, v := range env {
		envB[k] = v
	}
	b := startServer(t, envB, append([]string{"--devnet-manifest", manifestPath}, hooks...)...)
	key := a.key(t, "premium")

	got := make(chan []byte, 16)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- body
	}))
	defer rc.Close()
	r := a.do(t, "POST", "/api/v1/webhooks", key, `{"url":"`+rc.URL+`","events":["token.reputation_changed"]}`)
	if r.status != 201 {
		t.Fatalf("register: %d %s", r.status, r.body)
	}
	var ep struct{ ID string }
	if err := json.Unmarshal(r.body, &ep); err != nil {
		t.Fatal(err)
	}
	hp, _ := m.Token("honeypot_sell_blocked")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", hp.Address, "clone"},
		func(string) string { return "" }, strings.NewReader(""), &out, io.Discard); err != nil {
		t.Fatalf("devnet act clone: %v", err)
	}
	dep := regexp.MustCompile(`deployed (0x[0-9a-fA-F]{40}) by a new creator`).FindStringSubmatch(out.String())
	if dep == nil {
		t.Fatalf("devnet act clone printed %q, want the new creator's copy", out.String())
	}
	if r := a.do(t, "POST", "/api/v1/watchlist", key, `{"address":"`+dep[1]+`"}`); r.status != 201 {
		t.Fatalf("watch: %d %s", r.status, r.body)
	}

	var wg sync.WaitGroup
	for _, s := range []*server{a, b} {
		wg.Go(func() {
			if r := s.scan(t, key, hp.Address); r.status != 200 {
				t.Errorf("scan of the honeypot: %d %s", r.status, r.body)
			}
		})
	}
	wg.Wait()
	select {
	case body := <-got:
		if !strings.Contains(string(body), `"token.reputation_changed"`) || !strings.Contains(strings.ToLower(string(body)), strings.ToLower(dep[1])) {
			t.Errorf("alert %s, want token.reputation_changed about %s", body, dep[1])
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("no token.reputation_changed within two minutes of the scans")
	}
	// Both scans have answered, so whatever they published is in the
	// shared outbox.
	r = b.do(t, "GET", "/api/v1/webhooks/"+ep.ID+"/deliveries", key, "")
	var list struct{ Deliveries []json.RawMessage }
	if err := json.Unmarshal(r.body, &list); r.status != 200 || err != nil {
		t.Fatalf("deliveries: %d %s", r.status, r.body)
	}
	if len(list.Deliveries) != 1 {
		t.Errorf("%d deliveries after two instances scanned the honeypot at once, want 1", len(list.Deliveries))
	}
}
