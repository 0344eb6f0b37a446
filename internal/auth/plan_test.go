package auth_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/auth"
)

var sixChains = []string{"arbitrum", "base", "bsc", "ethereum", "polygon", "solana"}

func TestDefaultPlans(t *testing.T) {
	ps := auth.DefaultPlans()
	if err := ps.Validate(sixChains); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		plan      string
		chains    []string
		rate, day int64
		priority  auth.Priority
		history   bool
		watch     int
	}{
		{"free", []string{"bsc", "ethereum"}, 10, 200, auth.PriorityLow, false, 0},
		{"pro", []string{"base", "bsc", "ethereum", "solana"}, 60, 10_000, auth.PriorityNormal, false, 0},
		{"premium", sixChains, 0, 0, auth.PriorityHigh, true, 1000},
	}
	for _, tc := range tests {
		t.Run(tc.plan, func(t *testing.T) {
			p, ok := ps.Lookup(tc.plan)
			if !ok {
				t.Fatal("missing")
			}
			if got := p.AllowedChains(sixChains); !slices.Equal(got, tc.chains) {
				t.Errorf("chains %v, want %v", got, tc.chains)
			}
			if p.RatePerMinute != tc.rate || p.DailyQuota != tc.day || p.Priority != tc.priority || p.History != tc.history ||
				p.WatchLimit != tc.watch {
				t.Errorf("got %+v", p)
			}
		})
	}
}

func TestWithChain(t *testing.T) {
	ps := auth.DefaultPlans()
	dev := ps.WithChain("devnet")
	for _, name := range dev.Names() {
		if !dev[name].AllowsChain("devnet") {
			t.Errorf("%s lacks devnet", name)
		}
	}
	if ps["free"].AllowsChain("devnet") || len(ps["free"].Chains) != 2 {
		t.Errorf("WithChain changed the original: %v", ps["free"].Chains)
	}
	if dev["free"].AllowsChain("polygon") {
		t.Error("free gained polygon")
	}
}

func TestParsePlans(t *testing.T) {
	tests := []struct {
		name, json, wantErr string
	}{
		{"ok", `[{"name":"team","chains":["ethereum"],"rate_per_minute":5,"daily_quota":0,"priority":"high","history":true}]`, ""},
		{"unknown field", `[{"name":"team","chains":["ethereum"],"rate":5}]`, "unknown field"},
		{"bad priority", `[{"name":"team","chains":["ethereum"],"priority":"urgent"}]`, "priority"},
		{"unknown chain", `[{"name":"team","chains":["dogechain"]}]`, "unknown chain"},
		{"no chains", `[{"name":"team","chains":[]}]`, "no chains"},
		{"negative", `[{"name":"team","chains":["*"],"daily_quota":-1}]`, "negative"},
		{"duplicate", `[{"name":"a","chains":["*"]},{"name":"a","chains":["*"]}]`, "twice"},
		{"empty", `[]`, "no plans"},
		{"unnamed", `[{"chains":["*"]}]`, "registered"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := auth.ParsePlans([]byte(tc.json), sixChains)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if p := ps["team"]; p.Priority != auth.PriorityHigh || p.RatePerMinute != 5 || !p.History {
					t.Errorf("parsed %+v", p)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want one mentioning %q", err, tc.wantErr)
			}
		})
	}
}

func FuzzParsePlans(f *testing.F) {
	f.Add(`[{"name":"team","chains":["ethereum"],"rate_per_minute":5,"priority":"high","history":true}]`)
	f.Add(`[{"name":"a","chains":["*"]}]`)
	f.Add(`{}`)
	f.Add(`[{"name":"a","chains":["*"],"priority":7}]`)
	f.Fuzz(func(t *testing.T, data string) {
		ps, err := auth.ParsePlans([]byte(data), sixChains)
		if err != nil {
			return
		}
		if err := ps.Validate(sixChains); err != nil {
			t.Fatalf("ParsePlans accepted plans that do not validate: %v", err)
		}
		for name, p := range ps {
			if p.Name != name || len(p.Chains) == 0 || p.RatePerMinute < 0 || p.DailyQuota < 0 {
				t.Fatalf("accepted plan %+v", p)
			}
		}
	})
}
