package evm

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chaos"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// A provider that caps eth_getLogs ranges refuses the V4 pool search's
// whole range (the deployment block to the latest): the range is searched
// again in windows, the most recent first, in one follow-up batch. Where
// the windows reach the deployment block the pool is found as without the
// cap (one more request); where they do not, the report says which blocks
// were searched and leaves the pools check unchecked: never "no V4 pool".
func TestV4SearchRefusedRange(t *testing.T) {
	requireV4(t)
	dn := startAdapterNet(t)
	for range 16 {
		dn.Commit() // a chain longer than maxV4Windows one-block windows
	}
	p, err := chaos.Start(dn.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	ch := dn.Chain()
	ch.RPC = []string{p.URL()}
	ad := NewAdapter(devnetRegistry(t, ch), Options{Deadline: 60 * time.Second, Client: node.ClientOptions{Backoff: 20 * time.Millisecond}})
	tok := v4Token(t, "v4_clean")
	// The shared devnet's length depends on the tests that ran before:
	// windows wide enough that maxV4Windows of them reach block 0 from
	// the head (with room for blocks other tests commit meanwhile).
	head, err := node.NewClient("sim", []string{dn.RPCURL()}, node.ClientOptions{}).BlockNumber(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wide := (head+1)/maxV4Windows + 8
	partial := func(w string) bool { return strings.Contains(w, "V4 pools searched in blocks") }
	for _, tt := range []struct {
		name     string
		maxRange uint64
		found    bool
	}{
		// maxV4Windows windows of `wide` blocks reach block 0.
		{"windows reach the deployment block", wide, true},
		// 8 windows of 1 block miss the pool initialized at block 3.
		{"windows stop short", 1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p.Set(chaos.Fault{MaxLogRange: tt.maxRange})
			r0 := p.Requests()
			r, err := assess(t, ad, tok.Address)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("max range %d: %d requests (holder log pages included), level %s, unchecked %v", tt.maxRange, p.Requests()-r0, r.RiskLevel, r.Unchecked)
			ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
			hasV4 := slices.ContainsFunc(ev.Pools, func(p analysis.EVMPool) bool { return p.Kind == "v4" && p.PoolID == tok.V4PoolID })
			if hasV4 != tt.found {
				t.Fatalf("V4 pool listed %v, want %v (pools %+v, warnings %q)", hasV4, tt.found, ev.Pools, r.Warnings)
			}
			if tt.found {
				if slices.ContainsFunc(r.Warnings, partial) || slices.Contains(r.Unchecked, risk.CheckPools) {
					t.Errorf("warnings %q unchecked %v: the windows reached the deployment block, the search is complete", r.Warnings, r.Unchecked)
				}
				checkV4Sim(t, r, "v4_clean", true, 0)
				return
			}
			if !slices.ContainsFunc(r.Warnings, partial) || !slices.Contains(r.Unchecked, risk.CheckPools) {
				t.Errorf("warnings %q unchecked %v, want the blocks searched named and the pools unchecked", r.Warnings, r.Unchecked)
			}
			if slices.Contains(flagsOf(r), risk.NoLiquidity) {
				t.Errorf("flags %v: NO_LIQUIDITY from a search that did not complete", flagsOf(r))
			}
		})
	}
}

func flagsOf(r *scan.Report) []string {
	var out []string
	for _, f := range r.RiskFlags {
		out = append(out, f.Code)
	}
	return out
}
