package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateREADME = flag.Bool("update-readme", false, "write the README's example excerpt from this run")

const (
	exampleBegin = "<!-- example:begin -->\n"
	exampleEnd   = "<!-- example:end -->\n"
)

// TestREADMEExample runs the README's example (a pro key, a scan of the
// dev chain's tax_sell_high token through the API) and checks that the
// README's excerpt is this answer's; -update-readme writes it.
func TestREADMEExample(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":        filepath.Join(dir, "readme.db"),
		"TOKENRISK_LOG_LEVEL": "warn",
	}
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	tok, ok := readManifest(t, manifestPath).Token("tax_sell_high")
	if !ok {
		t.Fatal("manifest has no tax_sell_high token")
	}
	r := s.scan(t, s.key(t, "pro"), tok.Address)
	if r.status != 200 {
		t.Fatalf("scan: %d %s", r.status, r.body)
	}
	excerpt, err := readmeExcerpt(r.body)
	if err != nil {
		t.Fatal(err)
	}
	want := exampleBegin + "```json\n" + excerpt + "```\n" + exampleEnd
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	from, to := bytes.Index(b, []byte(exampleBegin)), bytes.Index(b, []byte(exampleEnd))
	if from < 0 || to < from {
		t.Fatal("README has no example markers")
	}
	got := string(b[from : to+len(exampleEnd)])
	if got == want {
		return
	}
	if *updateREADME {
		out := append(append(append([]byte{}, b[:from]...), want...), b[to+len(exampleEnd):]...)
		if err := os.WriteFile("../../README.md", out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the README's example excerpt is not this run's answer; run\n\tgo test ./cmd/tokenrisk -run TestREADMEExample -update-readme\nREADME:\n%s\nthis run:\n%s", got, want)
}

// readmeExcerpt is the part of a report the README shows, in a fixed
// layout; what differs from run to run (ids, durations, times) is left
// out.
func readmeExcerpt(report []byte) (string, error) {
	var r map[string]json.RawMessage
	if err := json.Unmarshal(report, &r); err != nil {
		return "", err
	}
	var liq, states map[string]json.RawMessage
	var sim map[string]json.RawMessage
	var flags []struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(r["liquidity_analysis"], &liq) != nil || json.Unmarshal(liq["simulation"], &sim) != nil ||
		json.Unmarshal(r["safety_checklist_states"], &states) != nil || json.Unmarshal(r["risk_flags"], &flags) != nil {
		return "", fmt.Errorf("report lacks a part the excerpt shows: %.300s", report)
	}
	var codes []string
	for _, f := range flags {
		codes = append(codes, fmt.Sprintf(`{"code": %q, "…": "…"}`, f.Code))
	}
	pick := func(m map[string]json.RawMessage, keys ...string) string {
		var parts []string
		for _, k := range keys {
			var c bytes.Buffer
			if json.Compact(&c, m[k]) != nil {
				c.WriteString("null")
			}
			parts = append(parts, fmt.Sprintf("%q: %s", k, spaced(c.Bytes())))
		}
		return strings.Join(parts, ", ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{\"scan_id\": \"scn_…\", \"address\": %s, %s,\n", r["address"], pick(r, "chain", "chain_id", "token_symbol"))
	fmt.Fprintf(&b, " %s,\n", pick(r, "overall_risk_score", "risk_level"))
	fmt.Fprintf(&b, " %s,\n", pick(r, "completeness", "unchecked", "not_configured"))
	fmt.Fprintf(&b, " \"liquidity_analysis\": {%s,\n", pick(liq, "score", "status"))
	fmt.Fprintf(&b, "   \"simulation\": {%s,\n", pick(sim, "can_buy", "can_sell", "buy_tax", "sell_tax", "transfer_tax"))
	fmt.Fprintf(&b, "                  %s, \"…\": \"…\"}, \"…\": \"…\"},\n", pick(sim, "error"))
	fmt.Fprintf(&b, " \"safety_checklist_states\": {%s,\n", pick(states, "not_honeypot", "ownership_renounced"))
	fmt.Fprintf(&b, "                            %s, \"…\": \"…\"},\n", pick(states, "verified"))
	fmt.Fprintf(&b, " \"risk_flags\": [%s],\n", strings.Join(codes, ", "))
	fmt.Fprintf(&b, " %s}\n", pick(r, "disclaimer"))
	return b.String(), nil
}

// spaced writes compact JSON with a space after each colon and comma
// outside strings, as the README's excerpts read.
func spaced(b []byte) string {
	var out strings.Builder
	in, esc := false, false
	for _, c := range string(b) {
		out.WriteRune(c)
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			out.WriteByte(' ')
		}
	}
	return out.String()
}
