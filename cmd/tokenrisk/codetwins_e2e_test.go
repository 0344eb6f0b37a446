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

// TestCodeTwinsEndToEnd: through POST /api/v1/scan/ on the devnet, the
// honeypot's code deployed again (`devnet act clone`: its creation
// transaction sent once more) by a new creator reads critical with
// KNOWN_SCAM_CODE naming the honeypot's scan; by the same creator it
// reads KNOWN_SCAM_CODE and CREATOR_SCAM_HISTORY. The clean token's
// clone counts the clean token as its twin and gets no critical flag.
func TestCodeTwinsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{"TOKENRISK_DB": filepath.Join(dir, "twins.db"), "TOKENRISK_SOURCIFY_URL": "none"}
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	key := s.key(t, "premium")
	m := readManifest(t, manifestPath)

	type report struct {
		ScanID string `json:"scan_id"`
		Level  string `json:"risk_level"`
		Flags  []struct {
			Code, Severity, Detail, Source string
		} `json:"risk_flags"`
		Contract struct {
			Twins *struct {
				Fingerprint    string
				Dispatcher     *string
				SameDispatcher *int `json:"same_dispatcher"`
				Count          int
				Critical       int
				Harms          map[string]int
				Record         string
				Examples       []struct {
					Address string
					ScanID  string `json:"scan_id"`
				}
			} `json:"code_twins"`
		} `json:"contract_analysis"`
	}
	scan := func(address string) report {
		t.Helper()
		r := s.scan(t, key, address)
		if r.status != 200 {
			t.Fatalf("scan %s: %d %s", address, r.status, r.body)
		}
		var rep report
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Contract.Twins == nil || !strings.HasPrefix(rep.Contract.Twins.Fingerprint, "cp1_") {
			t.Fatalf("scan %s: code_twins %+v, want the code's fingerprint", address, rep.Contract.Twins)
		}
		// The dispatcher is read from the record too: a count, never null
		// beside a dispatcher fingerprint.
		if tw := rep.Contract.Twins; tw.Dispatcher == nil || tw.SameDispatcher == nil {
			t.Fatalf("scan %s: dispatcher %v same_dispatcher %v, want both", address, tw.Dispatcher, tw.SameDispatcher)
		}
		return rep
	}
	flag := func(rep report, code string) (string, string, string, bool) {
		for _, f := range rep.Flags {
			if f.Code == code {
				return f.Severity, f.Detail, f.Source, true
			}
		}
		return "", "", "", false
	}
	clone := func(token string) (same, other string) {
		t.Helper()
		var out bytes.Buffer
		if err := run(context.Background(), []string{"devnet", "act", "--rpc", m.RPCURL, "--manifest", manifestPath, "--token", token, "clone"},
			func(string) string { return "" }, strings.NewReader(""), &out, &bytes.Buffer{}); err != nil {
			t.Fatalf("devnet act clone: %v", err)
		}
		re := regexp.MustCompile(`deployed (0x[0-9a-fA-F]{40}) by (the same|a new) creator (0x[0-9a-fA-F]{40})`)
		for _, d := range re.FindAllStringSubmatch(out.String(), -1) {
			if d[2] == "the same" {
				same = d[1]
			} else {
				other = d[1]
			}
		}
		if same == "" || other == "" {
			t.Fatalf("devnet act clone printed %q, want two deployed copies", out.String())
		}
		return same, other
	}

	hp, _ := m.Token("honeypot_sell_blocked")
	honeypot := scan(hp.Address)
	if honeypot.Level != "critical" || honeypot.Contract.Twins.Record != "no earlier scans" {
		t.Fatalf("the honeypot: level %s, code_twins %+v, want critical and no earlier scans", honeypot.Level, honeypot.Contract.Twins)
	}
	same, other := clone(hp.Address)

	rep := scan(other)
	sev, detail, source, ok := flag(rep, "KNOWN_SCAM_CODE")
	if rep.Level != "critical" || !ok || sev != "critical" || source != honeypot.ScanID || !strings.Contains(detail, honeypot.ScanID) {
		t.Errorf("the new creator's clone: level %s, KNOWN_SCAM_CODE %v %s %q (source %s), want critical naming the honeypot's scan %s",
			rep.Level, ok, sev, detail, source, honeypot.ScanID)
	}
	if _, _, _, ok := flag(rep, "CREATOR_SCAM_HISTORY"); ok {
		t.Errorf("the new creator's clone reads CREATOR_SCAM_HISTORY: the creator launched nothing before")
	}
	tw := rep.Contract.Twins
	if tw.Fingerprint != honeypot.Contract.Twins.Fingerprint || tw.Count != 1 || tw.Critical != 1 || tw.Harms["honeypot"] != 1 ||
		len(tw.Examples) != 1 || !strings.EqualFold(tw.Examples[0].Address, hp.Address) || tw.Examples[0].ScanID != honeypot.ScanID {
		t.Errorf("the new creator's clone: code_twins %+v, want the honeypot (scan %s) as its one twin", tw, honeypot.ScanID)
	}

	rep = scan(same)
	_, _, _, scam := flag(rep, "KNOWN_SCAM_CODE")
	_, _, _, history := flag(rep, "CREATOR_SCAM_HISTORY")
	if rep.Level != "critical" || !scam || !history || rep.Contract.Twins.Harms["honeypot"] != 1 || rep.Contract.Twins.Count != 2 {
		t.Errorf("the creator's own clone: level %s, KNOWN_SCAM_CODE %v, CREATOR_SCAM_HISTORY %v, code_twins %+v; want both, critical, 2 twins of which 1 honeypot",
			rep.Level, scam, history, rep.Contract.Twins)
	}

	clean, _ := m.Token("clean")
	first := scan(clean.Address)
	_, benign := clone(clean.Address)
	rep = scan(benign)
	if _, _, _, ok := flag(rep, "KNOWN_SCAM_CODE"); ok || rep.Level == "critical" {
		t.Errorf("the clean token's clone: level %s flags %+v, want no KNOWN_SCAM_CODE", rep.Level, rep.Flags)
	}
	tw = rep.Contract.Twins
	if tw.Fingerprint != first.Contract.Twins.Fingerprint || tw.Fingerprint == honeypot.Contract.Twins.Fingerprint || tw.Count < 1 || tw.Critical != 0 || len(tw.Harms) != 0 {
		t.Errorf("the clean token's clone: code_twins %+v, want the clean token's code, twins none critical", tw)
	}
}
