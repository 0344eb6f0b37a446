package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// FieldLabel is one hand-established capability of a real token (issue
// 18's per-field check): the GoPlus token_security field, whether the
// token has the power (Value), and why, established from the bytecode and
// a devnet run, never from the engine's verdict.
type FieldLabel struct {
	Address string `json:"address"`
	Field   string `json:"field"`
	Value   bool   `json:"value"`
	Reason  string `json:"reason"`
	// Source says where the token comes from in the shared corpus.
	Source   string `json:"source"`
	CodeFile string `json:"code_file"`
	// Miss says the engine does not read a true label as true yet, and
	// why; the test fails when it starts to (remove the note then).
	Miss string `json:"known_miss,omitempty"`
	// FalsePositive says the engine reads a false label as true, and
	// why; the test fails when it stops (remove the note then).
	FalsePositive string `json:"known_false_positive,omitempty"`
}

// LoadFields reads fields.json in dir and the code of every token it
// names; the tokens come back once each, in file order, unlabelled.
func LoadFields(dir string) ([]FieldLabel, []Token, error) {
	data, err := os.ReadFile(filepath.Join(dir, "fields.json"))
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: %w", err)
	}
	var labels []FieldLabel
	if err := json.Unmarshal(data, &labels); err != nil {
		return nil, nil, fmt.Errorf("corpus: fields.json: %w", err)
	}
	var tokens []Token
	seen := map[common.Address]bool{}
	for _, l := range labels {
		switch {
		case !common.IsHexAddress(l.Address):
			return nil, nil, fmt.Errorf("corpus: fields.json: bad address %q", l.Address)
		case !slices.Contains(analysis.EVMCapabilityNames, l.Field):
			return nil, nil, fmt.Errorf("corpus: fields.json: %s: unknown field %q", l.Address, l.Field)
		case strings.TrimSpace(l.Reason) == "":
			return nil, nil, fmt.Errorf("corpus: fields.json: %s %s: no reason", l.Address, l.Field)
		case l.Miss != "" && !l.Value:
			return nil, nil, fmt.Errorf("corpus: fields.json: %s %s: a known miss must be a true label", l.Address, l.Field)
		case l.FalsePositive != "" && l.Value:
			return nil, nil, fmt.Errorf("corpus: fields.json: %s %s: a known false positive must be a false label", l.Address, l.Field)
		case l.CodeFile == "" || filepath.IsAbs(l.CodeFile) || strings.Contains(l.CodeFile, ".."):
			return nil, nil, fmt.Errorf("corpus: fields.json: %s: bad code_file %q", l.Address, l.CodeFile)
		}
		addr := common.HexToAddress(l.Address)
		if seen[addr] {
			continue
		}
		seen[addr] = true
		raw, err := os.ReadFile(filepath.Join(dir, l.CodeFile))
		if err != nil {
			return nil, nil, fmt.Errorf("corpus: %s: %w", l.Address, err)
		}
		code, err := hexutil.Decode(strings.TrimSpace(string(raw)))
		if err != nil {
			return nil, nil, fmt.Errorf("corpus: %s: code: %w", l.Address, err)
		}
		tokens = append(tokens, Token{Address: addr, Code: code})
	}
	return labels, tokens, nil
}

// Capability is one entry of a scan's capability table as the report
// shows it.
type Capability struct {
	Value  *bool  `json:"value"`
	Flag   string `json:"flag"`
	Detail string `json:"detail"`
}

// Capabilities reads contract_analysis.capabilities from a result's
// report (nil when the scan answered none).
func (r Result) Capabilities() (map[string]Capability, error) {
	if r.Report == nil {
		return nil, nil
	}
	raw, err := json.Marshal(r.Report)
	if err != nil {
		return nil, fmt.Errorf("corpus: report: %w", err)
	}
	var rep struct {
		ContractAnalysis struct {
			Capabilities map[string]Capability `json:"capabilities"`
		} `json:"contract_analysis"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		return nil, fmt.Errorf("corpus: report: %w", err)
	}
	return rep.ContractAnalysis.Capabilities, nil
}

// FieldVerdict is what a scan read for one labelled field.
type FieldVerdict struct {
	Label FieldLabel
	// Value is the table's value (nil: unknown, or no report); Flag the
	// flag it carries, Raised whether the report raised that flag.
	Value  *bool
	Flag   string
	Raised bool
	Detail string
	Err    error
}

// Detected says the scan read the field true with its flag raised.
func (v FieldVerdict) Detected() bool {
	return v.Value != nil && *v.Value && v.Flag != "" && v.Raised
}

// FieldScore counts one field's labels: true instances detected, and
// negatives (tokens without the power) read true.
type FieldScore struct {
	Detected, Instances       int
	FalsePositives, Negatives int
}

// TallyFields reads each label's verdict from the results (by address)
// and counts them per field.
func TallyFields(labels []FieldLabel, results []Result) ([]FieldVerdict, map[string]*FieldScore, error) {
	byAddr := map[common.Address]Result{}
	for _, r := range results {
		byAddr[r.Token.Address] = r
	}
	scores := map[string]*FieldScore{}
	var out []FieldVerdict
	for _, l := range labels {
		r, ok := byAddr[common.HexToAddress(l.Address)]
		if !ok {
			return nil, nil, fmt.Errorf("corpus: %s: not scanned", l.Address)
		}
		v := FieldVerdict{Label: l, Err: r.Err}
		caps, err := r.Capabilities()
		if err != nil {
			return nil, nil, err
		}
		if c, ok := caps[l.Field]; ok {
			v.Value, v.Flag, v.Detail = c.Value, c.Flag, c.Detail
			for _, f := range r.Flags {
				v.Raised = v.Raised || (c.Flag != "" && f.Code == c.Flag)
			}
		}
		s := scores[l.Field]
		if s == nil {
			s = &FieldScore{}
			scores[l.Field] = s
		}
		if l.Value {
			s.Instances++
			if v.Detected() {
				s.Detected++
			}
		} else {
			s.Negatives++
			if v.Value != nil && *v.Value {
				s.FalsePositives++
			}
		}
		out = append(out, v)
	}
	return out, scores, nil
}

// FieldTable renders the per-field counts as a Markdown table, in the
// capability table's order, fields without labels left out.
func FieldTable(scores map[string]*FieldScore) string {
	var b strings.Builder
	b.WriteString("| field | detections / instances | false positives / negatives |\n|---|---|---|\n")
	for _, f := range analysis.EVMCapabilityNames {
		s := scores[f]
		if s == nil {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d / %d | %d / %d |\n", f, s.Detected, s.Instances, s.FalsePositives, s.Negatives)
	}
	return b.String()
}
