package scan_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/codeprint"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// TestScanReadsTheCodeTwins: the adapter's code fingerprint goes to the
// record with the scan's verdict (tokens.code), and the next token with
// the same code reads the honeypot's scan in contract_analysis.code_twins
// and KNOWN_SCAM_CODE; a first scan says "no earlier scans"; a token
// without a fingerprint has code_twins null; a cached answer reads and
// writes nothing.
func TestScanReadsTheCodeTwins(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fp := codeprint.Print{Code: "cp1_00112233445566778899aabbccddeeff", Dispatcher: "ds1_00112233445566778899aabbccddeeff"}
	honeypot, unknown := addr(1), addr(9)
	a := &fakeAdapter{kind: chains.EVM, assess: func(_ context.Context, req scan.Request) (*scan.Assessment, error) {
		as := assessment("ethereum")
		as.Token = scan.Token{Name: "Moon", Symbol: "MOON"}
		if req.Address.Canonical != unknown {
			as.CodePrint = fp
		}
		if req.Address.Canonical == honeypot {
			as.Liquidity.Flags = []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "Cannot sell", "")}
		}
		return as, nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Record: st, Cache: &memCache{}, CacheTTL: time.Minute})
	twinsOf := func(address string) (*scan.Report, json.RawMessage) {
		t.Helper()
		r, err := e.Scan(ctx, scan.ScanRequest{Address: address, Chains: []string{"ethereum"}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Contract map[string]json.RawMessage `json:"contract_analysis"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return r, out.Contract["code_twins"]
	}
	type twins struct {
		Fingerprint, Dispatcher string
		Count                   int
		Critical                int
		Harms                   map[string]int
		Record                  string
		Examples                []struct {
			Address string
			ScanID  string `json:"scan_id"`
		}
	}

	first, raw := twinsOf(honeypot)
	var ct twins
	if err := json.Unmarshal(raw, &ct); err != nil || ct.Fingerprint != fp.Code || ct.Dispatcher != fp.Dispatcher || ct.Count != 0 || ct.Record != "no earlier scans" {
		t.Fatalf("first scan: code_twins %s (%v), want the fingerprints and no earlier scans", raw, err)
	}
	second, raw := twinsOf(addr(2))
	if !second.HasFlag(risk.KnownScamCode) || second.RiskLevel != risk.LevelCritical {
		t.Fatalf("the honeypot's twin: level %s flags %+v, want critical with KNOWN_SCAM_CODE", second.RiskLevel, second.RiskFlags)
	}
	ct = twins{}
	if err := json.Unmarshal(raw, &ct); err != nil || ct.Count != 1 || ct.Critical != 1 || ct.Harms["honeypot"] != 1 ||
		len(ct.Examples) != 1 || ct.Examples[0].Address != honeypot || ct.Examples[0].ScanID != first.ScanID {
		t.Fatalf("code_twins %s (%v), want the honeypot with scan %s", raw, err, first.ScanID)
	}
	if _, raw := twinsOf(unknown); string(raw) != "null" {
		t.Fatalf("no fingerprint: code_twins %s, want null", raw)
	}
	// A cached answer of the twin leaves the record with two rows.
	if again, _ := twinsOf(addr(2)); !again.Cached {
		t.Fatal("the second scan of the twin was not cached")
	}
	rel, err := st.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: addr(3), Code: fp.Code, Limit: 10})
	if err != nil || rel.CodeTally.Twins != 2 {
		t.Fatalf("record: %+v (%v), want the honeypot and its twin under the fingerprint", rel, err)
	}
}
