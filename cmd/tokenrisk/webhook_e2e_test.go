package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// TestWebhookAlertEndToEnd: `serve` with the webhook flags; a premium key
// registers a real receiver and watches a token; the owner pauses it with
// `devnet act`; the receiver gets token.trading_changed, its signature
// (and timestamp) verified by the Standard Webhooks reference library,
// and the delivery log shows it. A free key gets 403 plan_forbidden.
func TestWebhookAlertEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "hooks.db"),
		"TOKENRISK_LOG_LEVEL":    "info",
		"TOKENRISK_SOURCIFY_URL": "none",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath, "--watch-interval", "1s",
		"--webhook-allow-http", "--webhook-allow-private", "--webhook-secret-key", "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	m := readManifest(t, manifestPath)
	tok, ok := m.Token("pausable")
	if !ok {
		t.Fatal("manifest has no pausable token")
	}
	premium, free := s.key(t, "premium"), s.key(t, "free")

	type hit struct {
		at     time.Time
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
		hits = append(hits, hit{time.Now(), r.Header.Clone(), b})
		mu.Unlock()
		got <- struct{}{}
	}))
	defer rc.Close()

	if r := s.do(t, "POST", "/api/v1/webhooks", free, `{"url":"`+rc.URL+`"}`); r.status != 403 || r.code() != "plan_forbidden" {
		t.Errorf("free key registering a webhook: %d %s, want 403 plan_forbidden", r.status, r.body)
	}
	r := s.do(t, "POST", "/api/v1/webhooks", premium, `{"url":"`+rc.URL+`/alerts","events":["token.trading_changed"]}`)
	if r.status != 201 {
		t.Fatalf("register: %d %s", r.status, r.body)
	}
	var ep struct{ ID, Secret string }
	if err := json.Unmarshal(r.body, &ep); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.stderr.String(), ep.Secret) {
		t.Error("the webhook secret is in the log")
	}
	fee, ok := m.Token("fee_modifiable")
	if !ok {
		t.Fatal("manifest has no fee_modifiable token")
	}
	for _, a := range []string{tok.Address, fee.Address} {
		if r := s.do(t, "POST", "/api/v1/watchlist", premium, `{"address":"`+a+`"}`); r.status != 201 {
			t.Fatalf("watch: %d %s", r.status, r.body)
		}
	}
	time.Sleep(1500 * time.Millisecond) // let a tick take the baseline's block as its start
	var out strings.Builder
	start := time.Now()
	if err := run(context.Background(), []string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", tok.Address, "pause"},
		func(string) string { return "" }, strings.NewReader(""), &out, io.Discard); err != nil {
		t.Fatalf("devnet act pause: %v", err)
	}
	select {
	case <-got:
	case <-time.After(2 * time.Minute):
		t.Fatalf("no alert within two minutes of the pause\n%s", s.stderr.String())
	}
	mu.Lock()
	h := hits[0]
	mu.Unlock()
	t.Logf("alert latency from the owner's transaction to delivery: %s", h.at.Sub(start).Round(time.Millisecond))
	wh, err := standardwebhooks.NewWebhook(ep.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(h.body, h.header); err != nil {
		t.Errorf("reference library refuses the alert: %v", err)
	}
	var body struct {
		Type string `json:"type"`
		Data struct {
			Address string   `json:"address"`
			Changes []string `json:"changes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(h.body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Type != "token.trading_changed" || !strings.EqualFold(body.Data.Address, tok.Address) {
		t.Errorf("alert %s, want token.trading_changed about %s", h.body, tok.Address)
	}
	// The attempt is recorded just after the receiver answers.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if r = s.do(t, "GET", "/api/v1/webhooks/"+ep.ID+"/deliveries", premium, ""); strings.Contains(string(r.body), `"state":"succeeded"`) {
			break
		}
	}
	if m := s.do(t, "GET", "/metrics", "", ""); !strings.Contains(string(m.body), `tokenrisk_webhook_attempt_duration_seconds_count{status="2xx"}`) {
		t.Error("/metrics does not count the delivery attempts")
	}
	if r.status != 200 || !strings.Contains(string(r.body), `"state":"succeeded"`) || !strings.Contains(string(r.body), h.header.Get("webhook-id")) {
		t.Errorf("delivery log: %d %s", r.status, r.body)
	}

	// The README's demo: a fee raised by the owner announces nothing in
	// the token's logs, but the owner's nonce moves in the tick's batch:
	// the alert arrives in seconds, not at the 10-minute re-scan.
	start = time.Now()
	if err := run(context.Background(), []string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", fee.Address, "set-fee", "40"},
		func(string) string { return "" }, strings.NewReader(""), &out, io.Discard); err != nil {
		t.Fatalf("devnet act set-fee: %v", err)
	}
	deadline := time.After(20 * time.Second)
	for {
		select {
		case <-got:
		case <-deadline:
			t.Fatalf("no fee alert within 20 s of the owner's set-fee\n%s", s.stderr.String())
		}
		// Every delivery since the set-fee counts: another alert (the
		// owner's nonce re-scans its other tokens too) may land right
		// after the fee alert, before this loop reads the channel.
		mu.Lock()
		var feeHit *hit
		for i := range hits {
			h := hits[i]
			if h.at.After(start) && strings.Contains(string(h.body), `"fee_changed"`) && strings.Contains(strings.ToLower(string(h.body)), strings.ToLower(fee.Address)) {
				feeHit = &h
				break
			}
		}
		mu.Unlock()
		if feeHit != nil {
			t.Logf("fee alert latency from the owner's transaction to delivery: %s", feeHit.at.Sub(start).Round(time.Millisecond))
			break
		}
	}
}
