package scan

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
)

// stored is a report's encoding as the engine cached or shared it, with
// where the per-answer fields' values sit in it. A report answered from
// it differs only in scan_id, duration_ms and cached, so Encode writes
// the stored bytes around those three values instead of encoding the
// whole report again (a cache hit costs a copy, not an encode).
type stored struct {
	raw []byte
	// digest is raw's SHA-256: a history row refers to raw by it.
	digest [32]byte
	// Spans of the top-level values of scan_id, duration_ms and cached,
	// in increasing order of offset.
	spans [3]span
	order [3]field
}

type span struct{ from, to int }

// field names a per-answer field.
type field int

const (
	fieldScanID field = iota
	fieldDuration
	fieldCached
)

var fieldKeys = map[string]field{"scan_id": fieldScanID, "duration_ms": fieldDuration, "cached": fieldCached}

// newStored locates the per-answer fields in raw, a report encoded by
// json.Marshal. It returns nil when raw is not such an object (the
// report is then encoded afresh).
func newStored(raw []byte) *stored {
	s := &stored{raw: raw}
	found := 0
	ok := topLevel(raw, func(key string, from, to int) {
		f, known := fieldKeys[key]
		if !known || found == len(s.spans) {
			return
		}
		s.spans[found], s.order[found] = span{from, to}, f
		found++
	})
	if !ok || found != len(s.spans) {
		return nil
	}
	s.digest = sha256.Sum256(raw)
	return s
}

// encode writes the stored report with r's scan id, duration and cached
// and returns where in s.raw they replaced the stored values.
func (s *stored) encode(r *Report) ([]byte, [3]Splice) {
	var splices [3]Splice
	out := make([]byte, 0, len(s.raw)+len(r.ScanID)+24)
	at := 0
	for i, sp := range s.spans {
		out = append(out, s.raw[at:sp.from]...)
		start := len(out)
		switch s.order[i] {
		case fieldScanID:
			out = strconv.AppendQuote(out, r.ScanID)
		case fieldDuration:
			out = strconv.AppendInt(out, r.DurationMS, 10)
		case fieldCached:
			out = strconv.AppendBool(out, r.Cached)
		}
		splices[i] = Splice{From: sp.from, To: sp.to, With: out[start:len(out):len(out)]}
		at = sp.to
	}
	return append(out, s.raw[at:]...), splices
}

// Encode returns the report's JSON. A report the engine answered from a
// stored encoding (a cache hit or a scan shared in flight) is written from
// those bytes with its own scan_id, duration_ms and cached; its other
// fields must not have been changed since the engine returned it.
func (r *Report) Encode() ([]byte, error) {
	enc, err := r.EncodeShared()
	return enc.JSON, err
}

// Encoded is a report's JSON and, for a report answered from a stored
// encoding, how the JSON derives from it.
type Encoded struct {
	JSON []byte
	// Base is the stored encoding, the same bytes for every answer from
	// one cached report (nil when the report was encoded afresh); Digest
	// is its SHA-256 (computed once per encoding). JSON is Base with each
	// of Splices applied.
	Base    []byte
	Digest  [32]byte
	Splices [3]Splice
}

// Splice replaces Base[From:To] with With (which shares JSON's bytes).
type Splice struct {
	From, To int
	With     []byte
}

// EncodeShared is Encode with the stored encoding the JSON was written
// from, so that a history row can keep the encoding once and each answer
// as its few splices.
func (r *Report) EncodeShared() (Encoded, error) {
	if r.stored != nil && canQuote(r.ScanID) {
		b, splices := r.stored.encode(r)
		return Encoded{JSON: b, Base: r.stored.raw, Digest: r.stored.digest, Splices: splices}, nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return Encoded{}, fmt.Errorf("scan: encode report: %w", err)
	}
	return Encoded{JSON: b}, nil
}

// canQuote reports whether strconv.Quote writes id as json.Marshal would:
// printable ASCII without the characters JSON escapes differently.
func canQuote(id string) bool {
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// topLevel calls fn with each key of the JSON object b and the span of
// its value, without descending into values. It reports whether b is one
// well-formed object as far as its structure goes (it does not validate
// numbers or literals, which json.Marshal wrote).
func topLevel(b []byte, fn func(key string, from, to int)) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i < len(b) && b[i] == '}' {
			return skipSpace(b, i+1) == len(b)
		}
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end := skipString(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		from := skipSpace(b, i+1)
		to := skipValue(b, from)
		if to < 0 {
			return false
		}
		fn(string(key), from, to)
		i = skipSpace(b, to)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if i < len(b) && b[i] == '}' {
			return skipSpace(b, i+1) == len(b)
		}
		return false
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the offset after the string starting at b[i] (a
// quote), or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the offset after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default: // number, true, false, null
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}
