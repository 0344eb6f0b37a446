package store

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Base is a report encoding that the reports of many scans share: every
// answer from one cached report is that report's stored bytes with its own
// scan_id, duration_ms and cached. A backend stores a base once, under its
// digest, and each scan row as the edits that turn the base into its
// report, so that a cached scan's row holds a few dozen bytes instead of
// the whole report.
type Base struct {
	// Digest is the SHA-256 of Body; whoever builds a Base computes it
	// (once per base, not once per scan).
	Digest [32]byte
	Body   []byte
}

// Edit replaces Body[From:To] of a base with With.
type Edit struct {
	From, To int
	With     []byte
}

// ApplyEdits returns body with edits applied; edits are in increasing
// order of offset and do not overlap.
func ApplyEdits(body []byte, edits []Edit) ([]byte, error) {
	n, at := len(body), 0
	for _, e := range edits {
		if e.From < at || e.To < e.From || e.To > len(body) {
			return nil, fmt.Errorf("store: edit [%d:%d] out of order or past the base's %d bytes", e.From, e.To, len(body))
		}
		n += len(e.With) - (e.To - e.From)
		at = e.To
	}
	out := make([]byte, 0, n)
	at = 0
	for _, e := range edits {
		out = append(out, body[at:e.From]...)
		out = append(out, e.With...)
		at = e.To
	}
	return append(out, body[at:]...), nil
}

// EncodeEdits is the compact form of edits a backend stores beside a
// scan's base digest: per edit, the offset, the length replaced and the
// replacement's length as uvarints, then the replacement.
func EncodeEdits(edits []Edit) []byte {
	n := 0
	for _, e := range edits {
		n += 3*binary.MaxVarintLen32 + len(e.With)
	}
	b := make([]byte, 0, n)
	for _, e := range edits {
		b = binary.AppendUvarint(b, uint64(e.From))
		b = binary.AppendUvarint(b, uint64(e.To-e.From))
		b = binary.AppendUvarint(b, uint64(len(e.With)))
		b = append(b, e.With...)
	}
	return b
}

// errEdits is a stored edit list that cannot be read.
var errEdits = errors.New("store: malformed report edits")

// DecodeEdits reads EncodeEdits' form; the edits' With share b.
func DecodeEdits(b []byte) ([]Edit, error) {
	var edits []Edit
	for len(b) > 0 {
		var v [3]uint64
		for i := range v {
			x, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, errEdits
			}
			v[i], b = x, b[n:]
		}
		if v[2] > uint64(len(b)) || v[0] > 1<<40 || v[1] > 1<<40 {
			return nil, errEdits
		}
		edits = append(edits, Edit{From: int(v[0]), To: int(v[0] + v[1]), With: b[:v[2]:v[2]]})
		b = b[v[2]:]
	}
	return edits, nil
}

// RebuildReport is a stored row's report: its own bytes when it has no
// base (rows stored whole), else the base's body with the row's encoded
// edits applied.
func RebuildReport(own, body, edits []byte, hasBase bool) ([]byte, error) {
	if !hasBase {
		return own, nil
	}
	if body == nil {
		return nil, errors.New("store: a scan's report base is missing")
	}
	es, err := DecodeEdits(edits)
	if err != nil {
		return nil, err
	}
	return ApplyEdits(body, es)
}
