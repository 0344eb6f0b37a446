package insider_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/insider"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func span(lo, hi uint64) *insider.Span { return &insider.Span{Lo: lo, Hi: hi} }
func at(p uint64) *insider.Span        { s := insider.At(p); return &s }

func solanaFacts(holders ...insider.Holder) insider.Facts {
	return insider.Facts{
		Creator: "CREATOR", Launch: []insider.Span{insider.At(100)},
		PointReason: insider.SameSlot, FundingReason: insider.CreatorFunded, Hops: 2,
		Holders: holders, ThresholdPct: risk.InsiderPct,
	}
}

func TestAssessDecidesEachHolder(t *testing.T) {
	tests := []struct {
		name          string
		h             insider.Holder
		wantInsider   []insider.Reason
		wantUndecided []insider.Reason
	}{
		{"funded by the creator", insider.Holder{Address: "A", SharePct: 3, First: at(150), Funding: &insider.Funding{Chain: []string{"CREATOR"}}}, []insider.Reason{insider.CreatorFunded}, nil},
		{"funded by a wallet the creator funded", insider.Holder{Address: "A", SharePct: 3, First: at(150), Funding: &insider.Funding{Chain: []string{"HOP", "CREATOR"}}}, []insider.Reason{insider.CreatorFunded}, nil},
		{"creator beyond the hops asked", insider.Holder{Address: "A", SharePct: 3, First: at(150), Funding: &insider.Funding{Chain: []string{"X", "Y", "CREATOR"}}}, nil, nil},
		{"bought in the launch slot", insider.Holder{Address: "A", SharePct: 3, First: at(100), Funding: &insider.Funding{Chain: []string{"X", "Y"}}}, []insider.Reason{insider.SameSlot}, nil},
		{"both", insider.Holder{Address: "A", SharePct: 3, First: at(100), Funding: &insider.Funding{Chain: []string{"CREATOR"}}}, []insider.Reason{insider.SameSlot, insider.CreatorFunded}, nil},
		{"unrelated", insider.Holder{Address: "A", SharePct: 3, First: at(101), Funding: &insider.Funding{Chain: []string{"X", "Y"}}}, nil, nil},
		{"chain ended early", insider.Holder{Address: "A", SharePct: 3, First: at(101), Funding: &insider.Funding{Chain: []string{"X"}, Ended: true}}, nil, nil},
		{"second hop unknown", insider.Holder{Address: "A", SharePct: 3, First: at(101), Funding: &insider.Funding{Chain: []string{"X"}}}, nil, []insider.Reason{insider.CreatorFunded}},
		{"funding unknown", insider.Holder{Address: "A", SharePct: 3, First: at(101)}, nil, []insider.Reason{insider.CreatorFunded}},
		{"first receipt bounded past the launch", insider.Holder{Address: "A", SharePct: 3, First: span(120, 900), Funding: &insider.Funding{Chain: []string{"X", "Y"}}}, nil, nil},
		{"first receipt bounded around the launch", insider.Holder{Address: "A", SharePct: 3, First: span(50, 900), Funding: &insider.Funding{Chain: []string{"X", "Y"}}}, nil, []insider.Reason{insider.SameSlot}},
		{"first receipt unknown, funded", insider.Holder{Address: "A", SharePct: 3, Funding: &insider.Funding{Chain: []string{"CREATOR"}}}, []insider.Reason{insider.CreatorFunded}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := insider.Assess(solanaFacts(tt.h))
			var gotIn, gotUn []insider.Reason
			if len(r.Insiders) == 1 {
				gotIn = r.Insiders[0].Why
			}
			if len(r.Undecided) == 1 {
				gotUn = r.Undecided[0].Why
			}
			if !slices.Equal(gotIn, tt.wantInsider) || !slices.Equal(gotUn, tt.wantUndecided) {
				t.Errorf("insider %v undecided %v, want %v and %v", gotIn, gotUn, tt.wantInsider, tt.wantUndecided)
			}
		})
	}
}

func TestLaunchBoundedMakesTheSlotUndecided(t *testing.T) {
	f := solanaFacts(insider.Holder{Address: "A", SharePct: 3, First: at(100), Funding: &insider.Funding{Chain: []string{"X", "Y"}}},
		insider.Holder{Address: "B", SharePct: 4, First: at(5000), Funding: &insider.Funding{Chain: []string{"X", "Y"}}})
	// The pool's creation is only known to lie in slots 90-200.
	f.Launch = []insider.Span{{Lo: 90, Hi: 200}}
	r := insider.Assess(f)
	if len(r.Insiders) != 0 || len(r.Undecided) != 1 || r.Undecided[0].Address != "A" {
		t.Fatalf("insiders %v undecided %v; want only A undecided (B first held the token long after)", r.Insiders, r.Undecided)
	}
}

func TestCreatorOrLaunchUnknown(t *testing.T) {
	f := solanaFacts(insider.Holder{Address: "A", SharePct: 12, First: at(100), Funding: &insider.Funding{Chain: []string{"CREATOR"}}})
	f.Creator, f.Launch = "", nil
	r := insider.Assess(f)
	if len(r.Insiders) != 0 || len(r.Undecided) != 1 || len(r.Undecided[0].Why) != 2 {
		t.Fatalf("insiders %v undecided %v; without creator and launch both tests are undecided", r.Insiders, r.Undecided)
	}
	if r.Conclusive {
		t.Error("12% undecided against a 10% threshold reads conclusive")
	}
	if r.Warning() == "" {
		t.Error("an inconclusive check has no warning")
	}
}

func TestShareThresholdAndConclusiveness(t *testing.T) {
	funded := &insider.Funding{Chain: []string{"CREATOR"}}
	clean := &insider.Funding{Chain: []string{"X", "Y"}}
	tests := []struct {
		name           string
		holders        []insider.Holder
		wantShare      float64
		wantUndecided  float64
		wantFlag       bool
		wantConclusive bool
	}{
		{"insiders above the threshold", []insider.Holder{
			{Address: "A", SharePct: 6, First: at(300), Funding: funded},
			{Address: "B", SharePct: 4.5, First: at(100), Funding: clean},
			{Address: "C", SharePct: 20, First: at(300), Funding: clean},
		}, 10.5, 0, true, true},
		{"exactly at the threshold is not above", []insider.Holder{
			{Address: "A", SharePct: 6, First: at(300), Funding: funded},
			{Address: "B", SharePct: 4, First: at(100), Funding: clean},
		}, 10, 0, false, true},
		{"undecided holders could pass it", []insider.Holder{
			{Address: "A", SharePct: 6, First: at(300), Funding: funded},
			{Address: "B", SharePct: 5, First: at(300)},
		}, 6, 5, false, false},
		{"undecided holders too small to matter", []insider.Holder{
			{Address: "A", SharePct: 6, First: at(300), Funding: funded},
			{Address: "B", SharePct: 1, First: at(300)},
		}, 6, 1, false, true},
		{"above even with undecided holders", []insider.Holder{
			{Address: "A", SharePct: 16, First: at(300), Funding: funded},
			{Address: "B", SharePct: 30, First: at(300)},
		}, 16, 30, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := insider.Assess(solanaFacts(tt.holders...))
			if r.SharePct != tt.wantShare || r.UndecidedSharePct != tt.wantUndecided {
				t.Errorf("share %v undecided %v, want %v and %v", r.SharePct, r.UndecidedSharePct, tt.wantShare, tt.wantUndecided)
			}
			fl, ok := r.Flag()
			if ok != tt.wantFlag {
				t.Errorf("flag raised = %v, want %v", ok, tt.wantFlag)
			}
			if ok && (fl.Code != risk.InsiderSupply || fl.Value == nil || *fl.Value != tt.wantShare || !strings.Contains(fl.Detail, "A (")) {
				t.Errorf("flag %+v", fl)
			}
			if r.Conclusive != tt.wantConclusive {
				t.Errorf("conclusive = %v, want %v", r.Conclusive, tt.wantConclusive)
			}
			if r.Examined != len(tt.holders) {
				t.Errorf("examined = %d, want %d", r.Examined, len(tt.holders))
			}
		})
	}
}

func TestInsidersListedLargestFirst(t *testing.T) {
	funded := &insider.Funding{Chain: []string{"CREATOR"}}
	r := insider.Assess(solanaFacts(
		insider.Holder{Address: "small", SharePct: 1, Funding: funded},
		insider.Holder{Address: "big", SharePct: 9, Funding: funded},
	))
	if len(r.Insiders) != 2 || r.Insiders[0].Address != "big" {
		t.Fatalf("insiders %v, want big first", r.Insiders)
	}
}

func TestEVMReasons(t *testing.T) {
	f := insider.Facts{
		Creator: "0xC", Launch: []insider.Span{insider.At(7)}, PointReason: insider.SameBlock, FundingReason: insider.FromCreator, Hops: 1,
		ThresholdPct: risk.InsiderPct, Holders: []insider.Holder{
			{Address: "0xA", SharePct: 8, First: at(7), Funding: &insider.Funding{Chain: []string{"0xPOOL"}}},
			{Address: "0xB", SharePct: 8, First: at(5), Funding: &insider.Funding{Chain: []string{"0xC"}}},
			{Address: "0xD", SharePct: 8, First: at(9), Funding: &insider.Funding{Chain: []string{"0xA"}}},
		},
	}
	r := insider.Assess(f)
	if len(r.Insiders) != 2 || r.SharePct != 16 || len(r.Undecided) != 0 {
		t.Fatalf("insiders %v undecided %v share %v; want 0xA (same_block) and 0xB (from_creator)", r.Insiders, r.Undecided, r.SharePct)
	}
	for _, in := range r.Insiders {
		want := map[string]insider.Reason{"0xA": insider.SameBlock, "0xB": insider.FromCreator}[in.Address]
		if len(in.Why) != 1 || in.Why[0] != want {
			t.Errorf("%s why %v, want %v", in.Address, in.Why, want)
		}
	}
}
