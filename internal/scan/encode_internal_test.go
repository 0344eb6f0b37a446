package scan

import "testing"

// A stored report whose per-answer fields cannot all be found is encoded
// afresh rather than patched in the wrong place.
func TestNewStoredNeedsEveryField(t *testing.T) {
	for name, raw := range map[string]string{
		"no cached":        `{"scan_id":"a","duration_ms":1}`,
		"nested only":      `{"scan_id":"a","x":{"duration_ms":1,"cached":true}}`,
		"not an object":    `["scan_id","duration_ms","cached"]`,
		"unterminated":     `{"scan_id":"a","duration_ms":1,"cached":true`,
		"string unclosed":  `{"scan_id":"a,"duration_ms":1,"cached":true}`,
		"trailing garbage": `{"scan_id":"a","duration_ms":1,"cached":true}x`,
	} {
		if s := newStored([]byte(raw)); s != nil {
			t.Errorf("%s: located fields in %s: %+v", name, raw, s.spans)
		}
	}
	s := newStored([]byte(`{"x":{"cached":false},"cached":false,"scan_id":"old","y":"\"duration_ms\":","duration_ms":12}`))
	if s == nil {
		t.Fatal("fields in another order not located")
	}
	b, splices := s.encode(&Report{ScanID: "new", DurationMS: 3, Cached: true})
	want := `{"x":{"cached":false},"cached":true,"scan_id":"new","y":"\"duration_ms\":","duration_ms":3}`
	if string(b) != want {
		t.Errorf("encode\n got %s\nwant %s", b, want)
	}
	// The splices rebuild the same bytes from the stored ones.
	var rebuilt []byte
	at := 0
	for _, sp := range splices {
		rebuilt = append(append(rebuilt, s.raw[at:sp.From]...), sp.With...)
		at = sp.To
	}
	if rebuilt = append(rebuilt, s.raw[at:]...); string(rebuilt) != want {
		t.Errorf("stored bytes with the splices\n got %s\nwant %s", rebuilt, want)
	}
}
