package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReputationEndToEnd: through POST /api/v1/scan/ on the devnet, the
// honeypot's creator launches a token named like the devnet's USDC
// (`devnet act impersonate USDC`): its scan is FAKE_TOKEN naming the
// real USDC and CREATOR_SCAM_HISTORY naming the honeypot's scan. After a
// restart on the same database (a fresh chain, the same launch again),
// the record is still there.
func TestReputationEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{"TOKENRISK_DB": filepath.Join(dir, "rep.db"), "TOKENRISK_SOURCIFY_URL": "none"}

	launch := func(s *server, key string) (string, map[string]json.RawMessage) {
		t.Helper()
		m := readManifest(t, manifestPath)
		hp, ok := m.Token("honeypot_sell_blocked")
		if !ok {
			t.Fatal("manifest has no honeypot_sell_blocked token")
		}
		var out bytes.Buffer
		if err := run(context.Background(), []string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", hp.Address, "impersonate", "USDC"},
			func(string) string { return "" }, strings.NewReader(""), &out, &bytes.Buffer{}); err != nil {
			t.Fatalf("devnet act impersonate: %v", err)
		}
		dep := regexp.MustCompile(`deployed (0x[0-9a-fA-F]{40})`).FindStringSubmatch(out.String())
		if dep == nil {
			t.Fatalf("devnet act output %q names no deployed token", out.String())
		}
		r := s.scan(t, key, dep[1])
		if r.status != 200 {
			t.Fatalf("scan of the copy: %d %s", r.status, r.body)
		}
		var rep map[string]json.RawMessage
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		return hp.Address, rep
	}
	check := func(rep map[string]json.RawMessage, usdc, honeypot, honeypotScan string) {
		t.Helper()
		var r struct {
			Level    string                  `json:"risk_level"`
			Flags    []struct{ Code string } `json:"risk_flags"`
			Contract struct {
				Impersonates struct{ Address string } `json:"impersonates"`
			} `json:"contract_analysis"`
			Deployer struct {
				CreatorTokens []struct {
					Address string
					ScanID  string `json:"scan_id"`
					Harm    *string
				} `json:"creator_tokens"`
			} `json:"deployer_analysis"`
		}
		raw, _ := json.Marshal(rep)
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		codes := map[string]bool{}
		for _, f := range r.Flags {
			codes[f.Code] = true
		}
		if r.Level != "critical" || !codes["FAKE_TOKEN"] || !codes["CREATOR_SCAM_HISTORY"] {
			t.Errorf("the copy: level %s flags %v, want critical with FAKE_TOKEN and CREATOR_SCAM_HISTORY", r.Level, codes)
		}
		if !strings.EqualFold(r.Contract.Impersonates.Address, usdc) {
			t.Errorf("impersonates %s, want the devnet's USDC %s", r.Contract.Impersonates.Address, usdc)
		}
		ct := r.Deployer.CreatorTokens
		if len(ct) != 1 || !strings.EqualFold(ct[0].Address, honeypot) || ct[0].Harm == nil || *ct[0].Harm != "honeypot" ||
			(honeypotScan != "" && ct[0].ScanID != honeypotScan) {
			t.Errorf("creator_tokens %+v, want the honeypot %s (scan %s)", ct, honeypot, honeypotScan)
		}
	}

	s := startServer(t, env, "--devnet-manifest", manifestPath)
	key := s.key(t, "premium")
	m := readManifest(t, manifestPath)
	hp, _ := m.Token("honeypot_sell_blocked")
	first := s.scan(t, key, hp.Address)
	var hpRep struct {
		ScanID string `json:"scan_id"`
		Level  string `json:"risk_level"`
	}
	if err := json.Unmarshal(first.body, &hpRep); err != nil || hpRep.Level != "critical" {
		t.Fatalf("the honeypot: %d %s", first.status, first.body)
	}
	honeypot, rep := launch(s, key)
	check(rep, m.USDC, honeypot, hpRep.ScanID)
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}

	// A restart: a fresh devnet, the same database. The creator's
	// honeypot is remembered without scanning it again.
	s = startServer(t, env, "--devnet-manifest", manifestPath)
	m = readManifest(t, manifestPath)
	honeypot, rep = launch(s, key)
	check(rep, m.USDC, honeypot, hpRep.ScanID)
}
