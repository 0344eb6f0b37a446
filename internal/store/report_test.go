package store_test

import (
	"bytes"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Edits survive their stored form, and a stored form or an edit list
// that cannot be right is an error, never a wrong report.
func TestEdits(t *testing.T) {
	body := []byte(`{"scan_id":"old","duration_ms":12,"cached":false}`)
	edits := []store.Edit{{From: 11, To: 16, With: []byte(`"scn_new"`)}, {From: 31, To: 33, With: []byte("0")}, {From: 43, To: 48, With: []byte("true")}}
	got, err := store.RebuildReport(nil, body, store.EncodeEdits(edits), true)
	if want := `{"scan_id":"scn_new","duration_ms":0,"cached":true}`; err != nil || string(got) != want {
		t.Fatalf("rebuilt %s (%v), want %s", got, err, want)
	}
	if got, err := store.RebuildReport([]byte("{}"), nil, nil, false); err != nil || string(got) != "{}" {
		t.Errorf("a row without a base: %s (%v)", got, err)
	}
	if _, err := store.RebuildReport([]byte{}, nil, store.EncodeEdits(edits), true); err == nil {
		t.Error("a row whose base is missing was rebuilt")
	}
	enc := store.EncodeEdits(edits)
	for name, b := range map[string][]byte{
		"truncated replacement": enc[:len(enc)-1],
		"truncated varint":      {0x80},
		"replacement too long":  {0, 0, 9, 'x'},
	} {
		if _, err := store.DecodeEdits(b); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	for name, es := range map[string][]store.Edit{
		"past the end":   {{From: 40, To: 60}},
		"out of order":   {{From: 20, To: 22}, {From: 10, To: 12}},
		"overlapping":    {{From: 10, To: 20}, {From: 15, To: 22}},
		"reversed range": {{From: 12, To: 10}},
	} {
		if got, err := store.ApplyEdits(body, es); err == nil {
			t.Errorf("%s: applied: %s", name, got)
		}
	}
	if got, err := store.ApplyEdits(body, nil); err != nil || !bytes.Equal(got, body) {
		t.Errorf("no edits: %s (%v)", got, err)
	}
}

// An edit may start at the base's first byte, end at its last, insert
// (replace nothing), touch the edit before it and bring a replacement
// far longer than what it replaces: each comes back as written.
func TestEditsAtTheEdges(t *testing.T) {
	body := []byte("abcdef")
	long := bytes.Repeat([]byte("x"), 100)
	edits := []store.Edit{{From: 0, To: 1, With: []byte("A")}, {From: 1, To: 1, With: []byte("+")}, {From: 1, To: 3, With: long}, {From: 3, To: 6, With: []byte("Z")}}
	want := "A+" + string(long) + "Z"
	got, err := store.RebuildReport(nil, body, store.EncodeEdits(edits), true)
	if err != nil || string(got) != want {
		t.Fatalf("rebuilt %q (%v), want %q", got, err, want)
	}
	if got, err := store.ApplyEdits(body, []store.Edit{{From: 6, To: 6, With: []byte("!")}}); err != nil || string(got) != "abcdef!" {
		t.Errorf("an insertion at the end: %q (%v)", got, err)
	}
}
