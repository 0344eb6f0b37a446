package scan_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// A report recorded before reports said their completeness (real bytes
// of such a row) is answered with completeness, unchecked and
// not_configured null and a note among its warnings, never complete;
// everything else it said is kept, in its order.
func TestHistoricalReportBeforeCompleteness(t *testing.T) {
	old, err := os.ReadFile("testdata/report_before_completeness.json")
	if err != nil {
		t.Fatal(err)
	}
	got := scan.Historical(old)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	for _, k := range []string{"completeness", "unchecked", "not_configured"} {
		if v, ok := m[k]; !ok || string(v) != "null" {
			t.Errorf("%s = %s (present %v), want null", k, v, ok)
		}
	}
	var warnings []string
	if err := json.Unmarshal(m["warnings"], &warnings); err != nil {
		t.Fatal(err)
	}
	var before map[string]json.RawMessage
	if err := json.Unmarshal(old, &before); err != nil {
		t.Fatal(err)
	}
	var oldWarnings []string
	_ = json.Unmarshal(before["warnings"], &oldWarnings)
	if len(warnings) != len(oldWarnings)+1 || warnings[len(warnings)-1] != scan.HistoricalNote || !slices.Equal(warnings[:len(oldWarnings)], oldWarnings) {
		t.Errorf("warnings %q, want the stored ones and the note", warnings)
	}
	for k, v := range before {
		if k == "warnings" {
			continue
		}
		var a, b any
		_ = json.Unmarshal(v, &a)
		_ = json.Unmarshal(m[k], &b)
		if ja, _ := json.Marshal(a); !bytes.Equal(ja, mustJSON(t, b)) {
			t.Errorf("%s changed: %s → %s", k, v, m[k])
		}
	}
	// Order: completeness follows risk_level, as in today's reports.
	if i, j := bytes.Index(got, []byte(`"risk_level"`)), bytes.Index(got, []byte(`"completeness"`)); i < 0 || j < i || bytes.Index(got, []byte(`"contract_analysis"`)) < j {
		t.Errorf("completeness not between risk_level and contract_analysis:\n%.400s", got)
	}
	// What a client decodes: not complete.
	var r scan.Report
	if err := json.Unmarshal(got, &r); err != nil {
		t.Fatal(err)
	}
	if r.Completeness == scan.AllChecked {
		t.Error("an old report reads complete")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Today's reports, and bytes that are not a report object, are answered
// as stored; an old report without warnings gets the note as its only
// warning, and one without risk_level still gets the null members.
func TestHistoricalLeavesOthersAlone(t *testing.T) {
	cur := []byte(`{"scan_id":"scn_1","risk_level":"low","completeness":"complete","unchecked":[],"not_configured":[],"warnings":[]}`)
	if got := scan.Historical(cur); !bytes.Equal(got, cur) {
		t.Errorf("a current report changed:\n%s", got)
	}
	for _, b := range [][]byte{[]byte(`[1,2]`), []byte(`{"scan_id":`), []byte(`null`), nil} {
		if got := scan.Historical(b); !bytes.Equal(got, b) {
			t.Errorf("%q answered as %q", b, got)
		}
	}
	got := scan.Historical([]byte(`{"scan_id":"scn_2"}`))
	want := `{"scan_id":"scn_2","completeness":null,"unchecked":null,"not_configured":null,"warnings":["` + scan.HistoricalNote + `"]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func FuzzHistorical(f *testing.F) {
	old, err := os.ReadFile("testdata/report_before_completeness.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(old)
	f.Add([]byte(`{"warnings":null}`))
	f.Add([]byte(`{"risk_level":"high","warnings":["a"]}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		got := scan.Historical(b)
		if bytes.Equal(got, b) {
			return
		}
		// Rewritten: valid JSON whose completeness is null, never complete.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(got, &m); err != nil {
			t.Fatalf("rewrote %q into invalid JSON %q: %v", b, got, err)
		}
		if string(m["completeness"]) != "null" {
			t.Fatalf("rewrote %q with completeness %s", b, m["completeness"])
		}
	})
}
