package scan_test

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/dedupe/memory"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// trickyEvidence names its fields like the report's per-answer fields and
// holds strings that look like JSON structure, so that an encoder that
// patches the stored report in the wrong place is caught.
type trickyEvidence struct {
	ScanID   string            `json:"scan_id"`
	Duration int64             `json:"duration_ms"`
	Cached   bool              `json:"cached"`
	Note     string            `json:"note"`
	Nested   map[string]any    `json:"nested"`
	Labels   map[string]string `json:"labels"`
}

func trickyAssessment() *scan.Assessment {
	a := assessment("ethereum", risk.NewFlag(risk.OwnerCanMint, `Owner "can" mint`, `a \ "detail" <b>&`))
	a.Contract.Evidence = trickyEvidence{
		ScanID: "scn_evidence", Duration: 77, Cached: true,
		Note:   `},"scan_id":"x","duration_ms":1,"cached":true,{[`,
		Nested: map[string]any{"cached": []any{true, "}", map[string]any{"duration_ms": 3}}, "scan_id": nil},
		Labels: map[string]string{"é\u2028": "\\\"", "<>": "&"},
	}
	a.Warnings = []string{`warning with "quotes" and \ backslash`, "line\nbreak"}
	return a
}

// TestEncodeMatchesMarshal: a report answered fresh, from the cache or
// shared in flight encodes to exactly what encoding/json writes for it,
// with its own scan_id, duration_ms and cached.
func TestEncodeMatchesMarshal(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 8)
	a := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
		started <- struct{}{}
		<-release
		return trickyAssessment(), nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Cache: &memCache{}, CacheTTL: time.Minute,
		Dedupe: memory.New(), Version: "v\"1<>"})
	ctx := context.Background()
	req := scan.ScanRequest{Address: pepe, Chains: []string{"ethereum"}}

	// Two identical scans in flight: one runs, one shares its result.
	var wg sync.WaitGroup
	reports := make([]*scan.Report, 2)
	for i := range reports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := e.Scan(ctx, req)
			if err != nil {
				t.Error(err)
			}
			reports[i] = r
		}()
	}
	<-started
	time.Sleep(50 * time.Millisecond) // let the second scan join
	close(release)
	wg.Wait()
	for range 2 {
		hit, err := e.Scan(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !hit.Cached {
			t.Fatal("third scan not answered from the cache")
		}
		reports = append(reports, hit)
	}
	reports[len(reports)-1].DurationMS = 123456 // set after the engine answered
	ids := map[string]bool{}
	for i, r := range reports {
		if r == nil {
			t.Fatal("missing report")
		}
		got, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		// The stored encoding keeps the evidence's field order (the
		// decoded report holds evidence as a map, which json.Marshal
		// sorts): the documents must be equal, not the bytes.
		var gotDoc, wantDoc any
		if err := json.Unmarshal(got, &gotDoc); err != nil {
			t.Fatalf("report %d: Encode wrote invalid JSON: %v\n%s", i, err, got)
		}
		if err := json.Unmarshal(want, &wantDoc); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotDoc, wantDoc) {
			t.Errorf("report %d (cached %v): Encode\n%s\nwant the document of json.Marshal\n%s", i, r.Cached, got, want)
		}
		var back struct {
			ScanID string `json:"scan_id"`
		}
		if err := json.Unmarshal(got, &back); err != nil || back.ScanID != r.ScanID {
			t.Errorf("report %d: scan_id %q (%v), want %q", i, back.ScanID, err, r.ScanID)
		}
		ids[back.ScanID] = true
	}
	if len(ids) != len(reports) {
		t.Errorf("%d distinct scan ids in %d answers", len(ids), len(reports))
	}
}

// BenchmarkEncodeCachedReport: encoding a cache hit's report.
func BenchmarkEncodeCachedReport(b *testing.B) {
	a := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
		return trickyAssessment(), nil
	}}
	e, err := scan.NewEngine(scan.EngineOptions{Adapters: []scan.Adapter{a}, Registry: mustRegistry(b), Cache: &memCache{}, CacheTTL: time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	req := scan.ScanRequest{Address: pepe, Chains: []string{"ethereum"}}
	if _, err := e.Scan(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	r, err := e.Scan(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.Encode(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func mustRegistry(tb testing.TB) *chains.Registry {
	tb.Helper()
	reg, err := chains.Load("")
	if err != nil {
		tb.Fatal(err)
	}
	return reg
}
