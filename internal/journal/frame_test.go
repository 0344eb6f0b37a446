package journal

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// segmentBytes is a segment holding es, each base once, as appends write
// it.
func segmentBytes(es []store.Entry) []byte {
	b := []byte(magic)
	seen := map[[32]byte]bool{}
	for _, e := range es {
		if base := e.Scan.Base; base != nil && !seen[base.Digest] {
			seen[base.Digest] = true
			b = appendFrame(b, appendBase(nil, base))
		}
		b = appendFrame(b, appendEntry(nil, e))
	}
	return b
}

// Every field of an entry, on a base or not, survives the journal.
func TestEntriesRoundTrip(t *testing.T) {
	es := entries("k1", 0, 6)
	es[3].Day = "" // a scan saved without a charge
	es[4].Scan.Edits = nil
	es[2].Scan.Edits = append(es[2].Scan.Edits, store.Edit{From: 30, To: 31, With: []byte("9")}) // two edits
	got, good, cut := readSegment(segmentBytes(es))
	if cut != nil || good != len(segmentBytes(es)) {
		t.Fatalf("read %d bytes: %v", good, cut)
	}
	for i := range es {
		want := es[i]
		if want.Scan.Base != nil && want.Scan.Edits == nil {
			want.Scan.Edits = []store.Edit{}
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Fatalf("entry %d:\n got %+v\nwant %+v", i, got[i], want)
		}
	}
}

// A damaged frame ends the segment there, whatever byte is hit.
func TestDamageEndsTheSegment(t *testing.T) {
	b := segmentBytes(entries("k1", 0, 3))
	for i := len(magic); i < len(b); i++ {
		bad := bytes.Clone(b)
		bad[i] ^= 0x40
		got, good, cut := readSegment(bad)
		if cut == nil {
			t.Fatalf("byte %d flipped: no damage seen", i)
		}
		if good > i || len(got) > 3 {
			t.Fatalf("byte %d flipped: %d good bytes, %d entries", i, good, len(got))
		}
	}
}

// FuzzReadSegment: whatever a segment file holds, reading it returns
// whole entries and the length of the frames they came from, never
// panics, and an entry read back encodes to the bytes it came from.
func FuzzReadSegment(f *testing.F) {
	f.Add(segmentBytes(entries("k1", 0, 3)))
	f.Add(segmentBytes(entries("k2", 1, 1)))
	f.Add([]byte(magic))
	f.Add(append([]byte(magic), appendFrame(nil, []byte{kindEntry, 1, 2, 3})...))
	f.Add(append([]byte(magic), appendFrame(nil, []byte{'Z'})...))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, good, cut := readSegment(b)
		if good < 0 || good > len(b) || (cut == nil && good != len(b)) {
			t.Fatalf("good %d of %d bytes, cut %v", good, len(b), cut)
		}
		if len(got) == 0 {
			return
		}
		// The entries re-encode to a segment that reads back the same.
		again, _, cut2 := readSegment(segmentBytes(got))
		if cut2 != nil || !reflect.DeepEqual(normal(again), normal(got)) {
			t.Fatalf("re-encoded entries differ: %v", cut2)
		}
	})
}

// normal makes empty and nil slices alike for comparison.
func normal(es []store.Entry) []store.Entry {
	out := make([]store.Entry, len(es))
	for i, e := range es {
		if len(e.Scan.Report) == 0 {
			e.Scan.Report = nil
		}
		if len(e.Scan.Edits) == 0 {
			e.Scan.Edits = nil
		}
		for k := range e.Scan.Edits {
			if len(e.Scan.Edits[k].With) == 0 {
				e.Scan.Edits[k].With = nil
			}
		}
		out[i] = e
	}
	return out
}
