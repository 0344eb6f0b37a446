package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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
	// ID is the anchor of a fact of a block (none in tables and lists).
	ID    string
	Label string
	// Text is the value in words; Unknown marks null (not established).
	Text    string
	Unknown bool
	// Mono shows the value in a fixed font (addresses, hashes, amounts).
	Mono bool
	// Sub is a second line in smaller type (an amount's value in USD).
	Sub string
	// Num aligns the value to the right in a table (numbers, amounts).
	Num bool
}

// table is an array of objects: one row per item, one column per field.
type table struct {
	ID      string
	Label   string
	Columns []column
	Rows    [][]fact
}

// column is a table's column heading.
type column struct {
	Label string
	Num   bool
}

// list is an array of plain values.
type list struct {
	Label string
	Items []fact
}

// block is an evidence object laid out: plain values as facts, objects as
// nested blocks, arrays of objects as tables, other arrays as lists. Its
// ID is the anchor the verdict's reasons link to.
type block struct {
	ID     string
	Label  string
	Facts  []fact
	Blocks []block
	Tables []table
	Lists  []list
}

// maxDepth bounds how deep objects nest as blocks; deeper ones are
// written as one line of text.
const maxDepth = 3

// viewEvidence lays out the fields of one analysis (prefix is its
// section's id, which the blocks' anchors start with).
func (u *units) viewEvidence(prefix string, fields []field) block {
	return u.block(prefix, "", fields, 0)
}

func (u *units) block(id, label string, fields []field, depth int) block {
	b := block{ID: id, Label: label}
	siblings := make(map[string]json.RawMessage, len(fields))
	for _, f := range fields {
		siblings[f.Name] = f.Raw
	}
	for _, f := range fields {
		name, sub := humanize(f.Name), id+"-"+strings.ReplaceAll(f.Name, "_", "-")
		if v, ok := u.threeState(f.Name, f.Raw); ok {
			v.ID = sub
			b.Facts = append(b.Facts, v)
			continue
		}
		switch kind(f.Raw) {
		case '{':
			if t, ok := u.recordTable(sub, name, f.Raw); ok {
				b.Tables = append(b.Tables, t)
				continue
			}
			if fs, ok := objectFields(f.Raw); ok && depth < maxDepth {
				b.Blocks = append(b.Blocks, u.block(sub, name, fs, depth+1))
				continue
			}
			v := u.value(f.Name, f.Raw, siblings)
			v.ID = sub
			b.Facts = append(b.Facts, v)
		case '[':
			if t, ok := u.table(sub, name, f.Raw); ok {
				b.Tables = append(b.Tables, t)
			} else {
				b.Lists = append(b.Lists, list{Label: name, Items: u.items(f.Raw)})
			}
		default:
			v := u.value(f.Name, f.Raw, siblings)
			v.ID = sub
			b.Facts = append(b.Facts, v)
		}
	}
	return b
}

// threeState reads the evidence objects that say none, some or (null)
// unknown: a proxy of kind "none", a hidden owner not found, a simulation
// error that did not happen read "no"; found or failed ones "yes" with
// what was found (the rest of a found proxy or owner is shown as a block).
func (u *units) threeState(name string, raw json.RawMessage) (fact, bool) {
	var v struct {
		Kind   *string `json:"kind"`
		Found  *bool   `json:"found"`
		Failed *bool   `json:"failed"`
		Reason string  `json:"reason"`
		Detail string  `json:"detail"`
	}
	if kind(raw) != '{' || json.Unmarshal(raw, &v) != nil {
		return fact{}, false
	}
	f := fact{Label: humanize(name)}
	switch {
	case name == "proxy" && v.Kind != nil && *v.Kind == "none":
		f.Text = "no"
	case name == "hidden_owner" && v.Found != nil && !*v.Found:
		f.Text = "no"
		if v.Detail != "" {
			f.Text += " — " + v.Detail
		}
	case name == "error" && v.Failed != nil:
		f.Text = "no"
		if *v.Failed {
			f.Text = "yes: " + v.Reason
		}
	default:
		return fact{}, false
	}
	return f, true
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

// recordTable makes a table of an object whose fields are all objects
// (a record per name, as the capability table): one row per name, its
// name first.
func (u *units) recordTable(id, label string, raw json.RawMessage) (table, bool) {
	fields, ok := objectFields(raw)
	if !ok || len(fields) < 2 {
		return table{}, false
	}
	items := make([]json.RawMessage, len(fields))
	for i, f := range fields {
		if kind(f.Raw) != '{' {
			return table{}, false
		}
		items[i] = f.Raw
	}
	t, ok := u.rows(id, label, items)
	if !ok {
		return table{}, false
	}
	t.Columns = append([]column{{Label: "Name"}}, t.Columns...)
	for i, f := range fields {
		t.Rows[i] = append([]fact{{Label: "Name", Text: identWords(f.Name)}}, t.Rows[i]...)
	}
	return t, true
}

// table makes a table of an array whose items are all objects.
func (u *units) table(id, label string, raw json.RawMessage) (table, bool) {
	return u.rows(id, label, arrayItems(raw))
}

// rows makes a table of objects: one row per item, one column per field.
func (u *units) rows(id, label string, items []json.RawMessage) (table, bool) {
	if len(items) == 0 {
		return table{}, false
	}
	t := table{ID: id, Label: label}
	index := map[string]int{}
	var names []string
	var rows [][]field
	for _, it := range items {
		fs, ok := objectFields(it)
		if !ok {
			return table{}, false
		}
		for _, f := range fs {
			if _, seen := index[f.Name]; !seen {
				index[f.Name] = len(names)
				names = append(names, f.Name)
			}
		}
		rows = append(rows, fs)
	}
	num := make([]bool, len(names))
	for i := range num {
		num[i] = true
	}
	for _, fs := range rows {
		row := make([]fact, len(names))
		for i, c := range names {
			row[i] = fact{Label: humanize(c), Text: "—"}
		}
		siblings := make(map[string]json.RawMessage, len(fs))
		for _, f := range fs {
			siblings[f.Name] = f.Raw
		}
		for _, f := range fs {
			v := u.value(f.Name, f.Raw, siblings)
			row[index[f.Name]] = v
			num[index[f.Name]] = num[index[f.Name]] && (v.Num || v.Unknown)
		}
		t.Rows = append(t.Rows, row)
	}
	for i, c := range names {
		t.Columns = append(t.Columns, column{Label: humanize(c), Num: num[i]})
		for _, row := range t.Rows {
			row[i].Num = num[i]
		}
	}
	return t, true
}

func (u *units) items(raw json.RawMessage) []fact {
	var out []fact
	for _, it := range arrayItems(raw) {
		out = append(out, u.value("", it, nil))
	}
	return out
}

// value renders one value: null is "unknown", booleans yes/no, amounts in
// token units (and USD where known), arrays of words as words, other
// nested values as "name: value" pairs.
func (u *units) value(name string, raw json.RawMessage, siblings map[string]json.RawMessage) fact {
	f := fact{Label: humanize(name)}
	raw = bytes.TrimSpace(raw)
	if text, usd, ok := u.amount(name, raw, siblings); ok {
		f.Text, f.Sub, f.Num = text, usd, true
		return f
	}
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
		if f.Mono && s != "" && !strings.HasPrefix(s, "0x") && isDigits(s) {
			f.Text, f.Num = groupThousands(s), true
		}
	case '[':
		var words []string
		for _, it := range arrayItems(raw) {
			words = append(words, u.value("", it, nil).Text)
		}
		if len(words) == 0 {
			f.Text = "none"
		} else {
			f.Text = strings.Join(words, ", ")
		}
		if len(words) == 1 {
			f.Mono = looksLikeID(words[0])
		}
	case '{':
		fs, _ := objectFields(raw)
		var parts []string
		for _, sf := range fs {
			parts = append(parts, strings.ToLower(humanize(sf.Name))+" "+u.value(sf.Name, sf.Raw, nil).Text)
		}
		f.Text = strings.Join(parts, " · ")
	default:
		f.Text, f.Num = number(string(raw), name), true
	}
	if name == "" && kind(raw) == '"' && !f.Mono {
		f.Text = identWords(f.Text)
	}
	return f
}

// identWords writes a snake_case identifier (a reason code such as
// same_block) as words; other text is kept.
func identWords(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return s
		}
	}
	return strings.ReplaceAll(s, "_", " ")
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
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
		return dollars(v)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return groupThousands(strconv.FormatFloat(v, 'f', 0, 64))
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
