package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// field is one evidence field in the order the report gives it.
type field struct {
	Name string
	Raw  json.RawMessage
}

// objectFields decodes a JSON object's fields in order; ok is false when
// raw is not an object.
func objectFields(raw json.RawMessage) (fields []field, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		fields = append(fields, field{Name: name, Raw: v})
	}
	return fields, true
}

// fact is one evidence value as the page shows it.
type fact struct {
	Label string
	// Text is the value in words; Unknown marks null (not established).
	Text    string
	Unknown bool
	// Mono shows the value in a fixed font (addresses, hashes, amounts).
	Mono bool
}

// table is an array of objects: one row per item, one column per field.
type table struct {
	Label   string
	Columns []string
	Rows    [][]fact
}

// group is an evidence object shown as its own list of facts.
type group struct {
	Label string
	Facts []fact
	Lists []list
}

// list is an array of plain values.
type list struct {
	Label string
	Items []fact
}

// evidenceView lays an analysis's evidence out: plain values as facts,
// objects as groups, arrays of objects as tables, other arrays as lists.
type evidenceView struct {
	Facts  []fact
	Groups []group
	Tables []table
	Lists  []list
}

// viewEvidence lays out the fields of one analysis.
func viewEvidence(fields []field) evidenceView {
	var v evidenceView
	for _, f := range fields {
		label := humanize(f.Name)
		switch kind(f.Raw) {
		case '{':
			sub, _ := objectFields(f.Raw)
			g := group{Label: label}
			for _, sf := range sub {
				switch kind(sf.Raw) {
				case '[':
					g.Lists = append(g.Lists, list{Label: humanize(sf.Name), Items: arrayFacts(sf.Raw)})
				default:
					g.Facts = append(g.Facts, valueFact(sf.Name, sf.Raw))
				}
			}
			v.Groups = append(v.Groups, g)
		case '[':
			if t, ok := arrayTable(label, f.Raw); ok {
				v.Tables = append(v.Tables, t)
			} else {
				v.Lists = append(v.Lists, list{Label: label, Items: arrayFacts(f.Raw)})
			}
		default:
			v.Facts = append(v.Facts, valueFact(f.Name, f.Raw))
		}
	}
	return v
}

// kind is the first byte of a JSON value: '{', '[', or another.
func kind(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func arrayItems(raw json.RawMessage) []json.RawMessage {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil
	}
	return items
}

// arrayTable makes a table of an array whose items are all objects.
func arrayTable(label string, raw json.RawMessage) (table, bool) {
	items := arrayItems(raw)
	if len(items) == 0 {
		return table{}, false
	}
	t := table{Label: label}
	index := map[string]int{}
	var rows [][]field
	for _, it := range items {
		fs, ok := objectFields(it)
		if !ok {
			return table{}, false
		}
		for _, f := range fs {
			if _, seen := index[f.Name]; !seen {
				index[f.Name] = len(t.Columns)
				t.Columns = append(t.Columns, f.Name)
			}
		}
		rows = append(rows, fs)
	}
	for _, fs := range rows {
		row := make([]fact, len(t.Columns))
		for i, c := range t.Columns {
			row[i] = fact{Label: humanize(c), Text: "—"}
		}
		for _, f := range fs {
			row[index[f.Name]] = valueFact(f.Name, f.Raw)
		}
		t.Rows = append(t.Rows, row)
	}
	for i, c := range t.Columns {
		t.Columns[i] = humanize(c)
	}
	return t, true
}

func arrayFacts(raw json.RawMessage) []fact {
	var out []fact
	for _, it := range arrayItems(raw) {
		out = append(out, valueFact("", it))
	}
	return out
}

// valueFact renders one value: null is "unknown", booleans yes/no,
// nested values as compact JSON.
func valueFact(name string, raw json.RawMessage) fact {
	f := fact{Label: humanize(name)}
	raw = bytes.TrimSpace(raw)
	switch kind(raw) {
	case 'n':
		f.Text, f.Unknown = "unknown", true
	case 't':
		f.Text = "yes"
	case 'f':
		f.Text = "no"
	case '"':
		var s string
		json.Unmarshal(raw, &s) //nolint:errcheck // a JSON string
		f.Text = s
		f.Mono = looksLikeID(s)
	case '{', '[':
		var b bytes.Buffer
		if json.Compact(&b, raw) == nil {
			f.Text = b.String()
		} else {
			f.Text = string(raw)
		}
		f.Mono = true
	default:
		f.Text = number(string(raw), name)
	}
	return f
}

// number formats a JSON number; percentages keep two decimals at most.
func number(s, name string) string {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	switch {
	case strings.HasSuffix(name, "_pct") || strings.HasSuffix(name, "_tax") || name == "value":
		return strconv.FormatFloat(roundTo(v, 2), 'f', -1, 64) + " %"
	case strings.HasSuffix(name, "_usd"):
		return "$" + strconv.FormatFloat(roundTo(v, 2), 'f', -1, 64)
	}
	return s
}

func roundTo(v float64, places int) float64 {
	p := 1.0
	for range places {
		p *= 10
	}
	return float64(int64(v*p+0.5*sign(v))) / p
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// looksLikeID is true for addresses, hashes and raw amounts.
func looksLikeID(s string) bool {
	if strings.HasPrefix(s, "0x") || (len(s) >= 32 && !strings.Contains(s, " ")) {
		return true
	}
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// abbreviations are words humanize writes in capitals or as a sign.
var abbreviations = map[string]string{
	"pct": "%", "usd": "USD", "lp": "LP", "tx": "tx", "id": "ID", "sol": "SOL", "dex": "DEX",
	"bps": "bps", "evm": "EVM", "uri": "URI", "top10": "top 10",
}

// humanize turns a field name into words: lp_burned_pct → LP burned %.
func humanize(name string) string {
	if name == "" {
		return ""
	}
	words := strings.Split(name, "_")
	for i, w := range words {
		if a, ok := abbreviations[w]; ok {
			words[i] = a
		}
	}
	s := strings.Join(words, " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// percent formats a share for display.
func percent(v float64) string { return fmt.Sprintf("%.1f %%", v) }
