package scan

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// HistoricalNote is the warning a stored report recorded before reports
// said their completeness carries when it is read back.
const HistoricalNote = "history: this scan was recorded before reports said which checks ran; its completeness is unknown (null), not complete"

// Historical returns a stored report as it is answered today. A report
// recorded before completeness was part of a report has no completeness
// member: it gets completeness, unchecked and not_configured as null
// (after risk_level, where a report has them) and HistoricalNote among
// its warnings, because whether all its checks ran is not known and must
// never read as complete. Any other report is returned as it is; so is
// one that is not a JSON object (it is the store's, answered as stored).
func Historical(b []byte) []byte {
	// Reports encode completeness at the top level; the name cannot occur
	// unescaped inside a string, so its absence means an older report.
	if bytes.Contains(b, []byte(`"completeness"`)) {
		return b
	}
	out, err := addUnknownCompleteness(b)
	if err != nil {
		return b
	}
	return out
}

func addUnknownCompleteness(b []byte) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	var out bytes.Buffer
	out.Grow(len(b) + 256)
	enc := jsontext.NewEncoder(&out)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, fmt.Errorf("scan: a stored report is not a JSON object")
	}
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return nil, err
	}
	unknown := func() error {
		for _, name := range []string{"completeness", "unchecked", "not_configured"} {
			if err := enc.WriteToken(jsontext.String(name)); err != nil {
				return err
			}
			if err := enc.WriteToken(jsontext.Null); err != nil {
				return err
			}
		}
		return nil
	}
	added, warned := false, false
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // tok is void after the next read
		val, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if err := enc.WriteToken(jsontext.String(name)); err != nil {
			return nil, err
		}
		if name == "warnings" {
			var ws []string
			if err := json.Unmarshal(val, &ws); err != nil {
				return nil, err
			}
			ws = append(ws, HistoricalNote)
			if val, err = json.Marshal(ws); err != nil {
				return nil, err
			}
			warned = true
		}
		if err := enc.WriteValue(val); err != nil {
			return nil, err
		}
		if name == "risk_level" {
			if err := unknown(); err != nil {
				return nil, err
			}
			added = true
		}
	}
	if !added {
		if err := unknown(); err != nil {
			return nil, err
		}
	}
	if !warned {
		if err := enc.WriteToken(jsontext.String("warnings")); err != nil {
			return nil, err
		}
		if err := enc.WriteValue(jsontext.Value(`["` + HistoricalNote + `"]`)); err != nil {
			return nil, err
		}
	}
	if _, err := dec.ReadToken(); err != nil { // the closing brace
		return nil, err
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, err
	}
	return bytes.TrimRight(out.Bytes(), "\n"), nil
}
