package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// A history row recorded before reports said their completeness is read
// back, one by one and exported, with completeness null and a note,
// never as complete.
func TestOldHistoryRowsAreNotComplete(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	secret, k, err := h.keys.Create(context.Background(), "premium", "old rows")
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("testdata/devnet_report.json") // a row's bytes from before completeness
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(old, []byte(`"completeness"`)) {
		t.Fatal("the fixture is meant to predate completeness")
	}
	if err := h.store.SaveScan(context.Background(), store.Scan{ID: "scn_old", KeyID: k.ID, Address: "0x7e84dc0b98c31ace4c61efa30c73c7dcadfdd4bd",
		Chain: "devnet", RiskLevel: "minimal", ScannedAt: h.clock(), Report: old}); err != nil {
		t.Fatal(err)
	}
	check := func(where string, b []byte) {
		t.Helper()
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v\n%s", where, err, b)
		}
		if string(m["completeness"]) != "null" || string(m["unchecked"]) != "null" {
			t.Errorf("%s: completeness %s unchecked %s, want null", where, m["completeness"], m["unchecked"])
		}
		if !bytes.Contains(m["warnings"], []byte("completeness is unknown")) {
			t.Errorf("%s: warnings %s lack the note", where, m["warnings"])
		}
	}
	res := h.request("GET", "/api/v1/scans/scn_old", secret, "")
	if res.StatusCode != 200 {
		t.Fatalf("GET: %d %s", res.StatusCode, res.body)
	}
	check("GET", res.body)
	exp := h.request("GET", "/api/v1/scans/export?format=ndjson", secret, "")
	lines := strings.Split(strings.TrimSpace(string(exp.body)), "\n")
	if exp.StatusCode != 200 || len(lines) != 1 {
		t.Fatalf("export: %d, %d lines", exp.StatusCode, len(lines))
	}
	check("export", []byte(lines[0]))
	// A row of today is answered as stored.
	r := h.scan(secret, pepe).report(t)
	if got := h.request("GET", "/api/v1/scans/"+r.ScanID, secret, ""); r.Completeness != scan.AllChecked || !bytes.Contains(got.body, []byte(`"completeness":"complete"`)) {
		t.Errorf("a new row: completeness %s, stored %.200s", r.Completeness, got.body)
	}
}
