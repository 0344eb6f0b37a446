package watch

import (
	"encoding/json"
	"slices"
	"testing"
)

// report builds a stored report's JSON from the fields change detection
// reads.
func report(t *testing.T, v map[string]any) *snapshot {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeSnapshot(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func base() map[string]any {
	return map[string]any{
		"scan_id": "scn_before", "risk_level": "low", "overall_risk_score": 25.0, "total_supply": "1000",
		"risk_flags":        []any{map[string]any{"code": "OWNER_NOT_RENOUNCED", "severity": "low", "category": "contract", "title": "t", "detail": "d"}},
		"contract_analysis": map[string]any{"owner": "0x00000000000000000000000000000000000000aa", "proxy": nil},
		"liquidity_analysis": map[string]any{
			"main_pool": "0x00000000000000000000000000000000000000p1", "lp_secured_pct": 100.0,
			"pools":      []any{map[string]any{"address": "0x00000000000000000000000000000000000000p1", "kind": "v2", "quote_address": "0xq", "quote_reserve": "1000"}},
			"simulation": map[string]any{"can_buy": true, "can_sell": true, "buy_tax": 2.0, "sell_tax": 2.0},
		},
	}
}

func with(m map[string]any, path []string, v any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	cur := out
	for _, p := range path[:len(path)-1] {
		cur = cur[p].(map[string]any)
	}
	cur[path[len(path)-1]] = v
	return out
}

func TestDiffScans(t *testing.T) {
	pool := func(reserve string) []any {
		return []any{map[string]any{"address": "0x00000000000000000000000000000000000000p1", "kind": "v2", "quote_address": "0xq", "quote_reserve": reserve}}
	}
	tests := []struct {
		name  string
		after map[string]any
		seen  map[string]bool
		want  []string
	}{
		{"nothing changed", with(base(), []string{"scan_id"}, "scn_after"), nil, nil},
		{"a drop under the threshold", with(base(), []string{"liquidity_analysis", "pools"}, pool("810")), nil, nil},
		{"reserve down 20%", with(base(), []string{"liquidity_analysis", "pools"}, pool("800")), nil, []string{LiquidityRemoved}},
		{"reserve down, already said by a log", with(base(), []string{"liquidity_analysis", "pools"}, pool("100")), map[string]bool{LiquidityRemoved: true}, nil},
		{"LP unlocked", with(base(), []string{"liquidity_analysis", "lp_secured_pct"}, 40.0), nil, []string{LiquidityRemoved}},
		{"sell tax up", with(base(), []string{"liquidity_analysis", "simulation", "sell_tax"}, 30.0), nil, []string{TradingChanged}},
		{"tax noise under a point", with(base(), []string{"liquidity_analysis", "simulation", "sell_tax"}, 2.4), nil, nil},
		{"cannot buy: honeypot even with sell unknown", with(with(base(), []string{"liquidity_analysis", "simulation", "can_buy"}, false),
			[]string{"liquidity_analysis", "simulation", "can_sell"}, nil), nil, []string{TradingChanged}},
		{"simulation unknown after: no claim", with(base(), []string{"liquidity_analysis", "simulation", "can_sell"}, nil), nil, nil},
		{"owner renounced", with(base(), []string{"contract_analysis", "owner"}, "0x0000000000000000000000000000000000000000"), nil, []string{OwnerChanged}},
		{"owner unknown after: no claim", with(base(), []string{"contract_analysis", "owner"}, nil), nil, nil},
		{"supply moved without a log", with(base(), []string{"total_supply"}, "2000"), nil, []string{SupplyChanged}},
		{"supply moved, log said it", with(base(), []string{"total_supply"}, "2000"), map[string]bool{SupplyChanged: true}, nil},
		{"level moved", with(with(base(), []string{"risk_level"}, "critical"), []string{"risk_flags"},
			[]any{map[string]any{"code": "HONEYPOT_CANNOT_SELL", "severity": "critical", "category": "liquidity", "title": "t", "detail": "d"}}), nil, []string{RiskChanged}},
		{"upgraded", with(base(), []string{"contract_analysis", "proxy"}, map[string]any{"implementation": "0x00000000000000000000000000000000000000bb"}), nil, []string{ContractUpgraded}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, after := report(t, base()), report(t, tc.after)
			seen := tc.seen
			if seen == nil {
				seen = map[string]bool{}
			}
			var got []string
			for _, c := range diffScans(before, after, seen, 20) {
				got = append(got, c.typ)
				_ = c.fill(Common{})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRiskChangedNamesFlagsAddedAndRemoved(t *testing.T) {
	after := with(with(base(), []string{"risk_level"}, "critical"), []string{"risk_flags"},
		[]any{map[string]any{"code": "HONEYPOT_CANNOT_SELL", "severity": "critical", "category": "liquidity", "title": "t", "detail": "sell reverts", "evidence": "probe"}})
	changes := diffScans(report(t, base()), report(t, after), map[string]bool{}, 20)
	if len(changes) != 1 {
		t.Fatalf("%d changes", len(changes))
	}
	d := changes[0].fill(Common{WatchID: "wat_1"}).(RiskChangedData)
	if d.Before.RiskLevel != "low" || d.After.RiskLevel != "critical" || len(d.FlagsAdded) != 1 || d.FlagsAdded[0].Code != "HONEYPOT_CANNOT_SELL" ||
		d.FlagsAdded[0].Evidence != "probe" || len(d.FlagsRemoved) != 1 || d.FlagsRemoved[0].Code != "OWNER_NOT_RENOUNCED" {
		t.Errorf("risk change %+v", d)
	}
	// The same change seen again (a restart) has the same id; another
	// entry's has its own.
	again := diffScans(report(t, base()), report(t, with(after, []string{"scan_id"}, "scn_other")), map[string]bool{}, 20)
	if eventID(append([]string{"wat_1"}, changes[0].idParts...)...) != eventID(append([]string{"wat_1"}, again[0].idParts...)...) {
		t.Error("the same change after a restart (another re-scan id) got another event id")
	}
	if eventID(append([]string{"wat_1"}, changes[0].idParts...)...) == eventID(append([]string{"wat_2"}, changes[0].idParts...)...) {
		t.Error("two entries share an event id")
	}
}

// TestSnapshotReadsBothSimulationErrors: a report stored before the
// three states (error a string) and one after (an object) both decode,
// with the failure's reason.
func TestSnapshotReadsBothSimulationErrors(t *testing.T) {
	for report, want := range map[string]string{
		`{"liquidity_analysis":{"simulation":{"error":"TRANSFER_FAILED"}}}`:                          "TRANSFER_FAILED",
		`{"liquidity_analysis":{"simulation":{"error":{"failed":true,"reason":"TRANSFER_FAILED"}}}}`: "TRANSFER_FAILED",
		`{"liquidity_analysis":{"simulation":{"error":{"failed":false}}}}`:                           "<none>",
		`{"liquidity_analysis":{"simulation":{"error":null}}}`:                                       "<none>",
	} {
		s, err := decodeSnapshot([]byte(report))
		if err != nil {
			t.Fatalf("%s: %v", report, err)
		}
		got := "<none>"
		if r := s.Liquidity.Simulation.Error.reason; r != nil {
			got = *r
		}
		if got != want {
			t.Errorf("%s: reason %s, want %s", report, got, want)
		}
	}
}
