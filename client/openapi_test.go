package client_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/client"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
)

// TestTypesMatchTheOpenAPIDocument keeps the client's types and the API's
// document equal: each type's JSON fields are exactly its schema's
// properties (for an open object such as Analysis: its required ones, the
// others being evidence kept in a map), and a field the schema requires is
// never omitted.
func TestTypesMatchTheOpenAPIDocument(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
				Enum       []string                   `json:"enum"`
				// Open is additionalProperties: an open object's other
				// properties are evidence the client keeps in a map.
				Open bool `json:"additionalProperties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(httpapi.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	for schema, v := range map[string]any{
		"Report": client.Report{}, "Analysis": client.Analysis{}, "Checklist": client.Checklist{},
		"Flag": client.Flag{}, "ScanSummary": client.ScanSummary{}, "ScanPage": client.ScanPage{},
		"Problem": client.Problem{}, "Usage": client.Usage{},
	} {
		s, ok := doc.Components.Schemas[schema]
		if !ok {
			t.Errorf("the document has no schema %s", schema)
			continue
		}
		fields := map[string]bool{} // name → omitempty
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, opts, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "-" || name == "" {
				continue
			}
			fields[name] = strings.Contains(opts, "omitempty")
		}
		for p := range s.Properties {
			if _, ok := fields[p]; !ok && (!s.Open || slices.Contains(s.Required, p)) {
				t.Errorf("%s: the schema's property %q has no field in client.%s", schema, p, typ.Name())
			}
		}
		for f, omit := range fields {
			if _, ok := s.Properties[f]; !ok {
				t.Errorf("%s: client.%s has field %q the schema lacks", schema, typ.Name(), f)
			}
			if omit && slices.Contains(s.Required, f) {
				t.Errorf("%s: required %q is omitempty in client.%s", schema, f, typ.Name())
			}
		}
	}
	levels := doc.Components.Schemas["RiskLevel"].Enum
	for i, l := range levels {
		if client.Level(l).Rank() != i {
			t.Errorf("level %q ranks %d in the client, %d in the document", l, client.Level(l).Rank(), i)
		}
	}
}
