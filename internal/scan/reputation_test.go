package scan_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// TestScanFlagsAnImpersonator: the engine hands the token's name and
// symbol to the reputation checks beside the adapter; a copy of USDT
// (a Cyrillic Т) on Ethereum is critical and names the real USDT, while
// the real USDT is not a copy of itself.
func TestScanFlagsAnImpersonator(t *testing.T) {
	const realUSDT = "0xdAC17F958D2ee523a2206206994597C13D831ec7"
	a := &fakeAdapter{kind: chains.EVM, assess: func(_ context.Context, req scan.Request) (*scan.Assessment, error) {
		as := assessment("ethereum")
		as.Token = scan.Token{Name: "Tether USD", Symbol: "USDТ"}
		as.Contract.Evidence = map[string]any{"verified": true}
		return as, nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}})
	read := func(address string) (*scan.Report, map[string]json.RawMessage) {
		t.Helper()
		r, err := e.Scan(context.Background(), scan.ScanRequest{Address: address, Chains: []string{"ethereum"}})
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
		return r, out.Contract
	}

	r, contract := read(addr(7))
	if !r.HasFlag(risk.FakeToken) || r.RiskLevel != risk.LevelCritical {
		t.Fatalf("copy of USDT: level %s flags %+v, want critical with FAKE_TOKEN", r.RiskLevel, r.RiskFlags)
	}
	var imp struct{ Address, Symbol, Matched string }
	if err := json.Unmarshal(contract["impersonates"], &imp); err != nil || imp.Address != realUSDT || imp.Symbol != "USDT" || imp.Matched != "symbol" {
		t.Fatalf("impersonates = %s (%v), want the real USDT matched by symbol", contract["impersonates"], err)
	}
	if string(contract["verified"]) != "true" {
		t.Errorf("the adapter's evidence was lost: %v", contract)
	}
	for _, name := range r.NotConfigured {
		if name == risk.CheckImpersonation {
			t.Errorf("not_configured lists %s on a chain with major tokens", name)
		}
	}

	r, contract = read(realUSDT)
	if r.HasFlag(risk.FakeToken) || string(contract["impersonates"]) != "null" {
		t.Fatalf("the real USDT: flags %+v impersonates %s, want no FAKE_TOKEN and null", r.RiskFlags, contract["impersonates"])
	}
}

// TestImpersonationNotConfigured: a chains file with an empty list turns
// the check off and says so.
func TestImpersonationNotConfigured(t *testing.T) {
	reg, err := chains.Parse([]byte(`{"chains":[{"key":"ethereum","kind":"evm","chain_id":1,"native":"ETH","rpc":[],"dexes":[],"quote_tokens":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
		as := assessment("ethereum")
		as.Token = scan.Token{Name: "Tether USD", Symbol: "USDT"}
		return as, nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Registry: reg})
	r, err := e.Scan(context.Background(), scan.ScanRequest{Address: addr(8), Chains: []string{"ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.HasFlag(risk.FakeToken) || len(r.NotConfigured) != 1 || r.NotConfigured[0] != risk.CheckImpersonation {
		t.Fatalf("flags %+v not_configured %v, want no FAKE_TOKEN and not_configured [impersonation]", r.RiskFlags, r.NotConfigured)
	}
}

// TestScanReadsTheCreatorsRecord: with a record kept, a scan leaves its
// verdict under its creator and the creator's next token reads it (and
// the earlier scan's id); creator_history is no longer not configured;
// a cached answer neither reads nor writes the record.
func TestScanReadsTheCreatorsRecord(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	creator := "0x00000000000000000000000000000000000000C1"
	honeypot := addr(1)
	a := &fakeAdapter{kind: chains.EVM, assess: func(_ context.Context, req scan.Request) (*scan.Assessment, error) {
		as := assessment("ethereum")
		as.Token = scan.Token{Name: "Moon", Symbol: "MOON"}
		as.Deployer = scan.Section{Status: scan.Complete, Evidence: analysis.EVMDeployerEvidence{Creator: &creator}}
		as.NotConfigured = []string{risk.CheckCreatorHistory}
		if req.Address.Canonical == honeypot {
			as.Liquidity.Flags = []risk.Flag{risk.NewFlag(risk.HoneypotCannotSell, "Cannot sell", "")}
		}
		return as, nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Record: st, Cache: &memCache{}, CacheTTL: time.Minute})
	deployer := func(r *scan.Report) map[string]json.RawMessage {
		t.Helper()
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Deployer map[string]json.RawMessage `json:"deployer_analysis"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out.Deployer
	}

	first, err := e.Scan(ctx, scan.ScanRequest{Address: honeypot, Chains: []string{"ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := deployer(first); string(d["creator_record"]) != `"no earlier scans"` || string(d["creator_tokens"]) != "[]" || slices.Contains(first.NotConfigured, risk.CheckCreatorHistory) {
		t.Fatalf("first launch: creator_record %s creator_tokens %s not_configured %v", d["creator_record"], d["creator_tokens"], first.NotConfigured)
	}
	second, err := e.Scan(ctx, scan.ScanRequest{Address: addr(2), Chains: []string{"ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	if !second.HasFlag(risk.CreatorScamHistory) || second.RiskLevel != risk.LevelCritical {
		t.Fatalf("second launch: level %s flags %+v, want critical with CREATOR_SCAM_HISTORY", second.RiskLevel, second.RiskFlags)
	}
	var mates []struct {
		Address, Harm string
		ScanID        string `json:"scan_id"`
	}
	if err := json.Unmarshal(deployer(second)["creator_tokens"], &mates); err != nil || len(mates) != 1 || mates[0].Address != honeypot || mates[0].ScanID != first.ScanID || mates[0].Harm != "honeypot" {
		t.Fatalf("creator_tokens %+v (%v), want the honeypot with scan %s", mates, err, first.ScanID)
	}
	// A cached answer of the honeypot leaves the record as it was.
	again, err := e.Scan(ctx, scan.ScanRequest{Address: honeypot, Chains: []string{"ethereum"}})
	if err != nil || !again.Cached {
		t.Fatalf("cached: %v %v", again, err)
	}
	rel, err := st.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: addr(2), Creator: creator, Limit: 10})
	if err != nil || len(rel.ByCreator) != 1 || rel.ByCreator[0].ScanID != first.ScanID {
		t.Fatalf("record after a cached scan: %+v (%v), want the first scan's row", rel, err)
	}
}

// TestExplorerLaunchesJoinTheCreatorRecord: the creator's deployments
// the explorer listed (deployer evidence other_launches, read beside the
// scan) join creator_tokens after the scanned ones: one this server
// scanned keeps its verdict and is listed once, the others carry link
// explorer and no verdict (level and scan id null); creator_record counts
// them apart.
func TestExplorerLaunchesJoinTheCreatorRecord(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	creator := "0x00000000000000000000000000000000000000C1"
	a := &fakeAdapter{kind: chains.EVM, assess: func(_ context.Context, req scan.Request) (*scan.Assessment, error) {
		as := assessment("ethereum")
		// The explorer lists the earlier token (in its own spelling) and
		// one never scanned here.
		as.Deployer = scan.Section{Status: scan.Complete, Evidence: analysis.EVMDeployerEvidence{Creator: &creator,
			OtherLaunches: []string{strings.ToLower(addr(1)), addr(3)}}}
		return as, nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Record: st})
	first, err := e.Scan(ctx, scan.ScanRequest{Address: addr(1), Chains: []string{"ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.Scan(ctx, scan.ScanRequest{Address: addr(2), Chains: []string{"ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(second)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Deployer struct {
			Tokens []struct {
				Address string
				Level   *string
				ScanID  *string `json:"scan_id"`
				Link    string
			} `json:"creator_tokens"`
			Record string `json:"creator_record"`
		} `json:"deployer_analysis"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	got := out.Deployer.Tokens
	if len(got) != 2 {
		t.Fatalf("creator_tokens %s, want the scanned token then the explorer's other", b)
	}
	if got[0].Address != addr(1) || got[0].Link != "creator" || got[0].ScanID == nil || *got[0].ScanID != first.ScanID || got[0].Level == nil {
		t.Errorf("first entry %+v, want %s with its verdict and scan %s", got[0], addr(1), first.ScanID)
	}
	if got[1].Address != addr(3) || got[1].Link != "explorer" || got[1].Level != nil || got[1].ScanID != nil {
		t.Errorf("second entry %+v, want %s listed by the explorer with no verdict", got[1], addr(3))
	}
	if want := "1 earlier token(s) scanned, none found harmful; 1 more deployment(s) listed by the explorer, not scanned here"; out.Deployer.Record != want {
		t.Errorf("creator_record %q, want %q", out.Deployer.Record, want)
	}
}
