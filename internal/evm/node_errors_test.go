package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chaos"
	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// chaosChain puts a fault-injecting proxy in front of the devnet and
// returns an adapter that reaches the devnet only through it.
func chaosChain(t *testing.T, urls ...string) (*chaos.Proxy, *Adapter) {
	t.Helper()
	dn := startAdapterNet(t)
	p, err := chaos.Start(dn.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	ch := dn.Chain()
	ch.RPC = append(append([]string(nil), urls...), p.URL())
	return p, NewAdapter(devnetRegistry(t, ch), Options{Client: node.ClientOptions{Backoff: 20 * time.Millisecond}})
}

// TestNodeErrorsAreNotVerdicts: per-call JSON-RPC errors, empty answers
// and batch caps are the node's trouble. A token stays a token (retried,
// split, asked again) or the scan fails as upstream_error; never
// not_a_token, and the contract that is no token stays not_a_token only
// where the node answered.
func TestNodeErrorsAreNotVerdicts(t *testing.T) {
	m := startAdapterNet(t).Manifest()
	clean, _ := m.Token("clean")
	nat, _ := m.Token("not_a_token")
	ethCall := []string{"eth_call"}
	tests := []struct {
		name  string
		fault chaos.Fault
		// token is what a token must get: "" (a report) or a code;
		// other is what the non-token must get.
		token, other fault.Code
	}{
		{"-32005 on every third eth_call", chaos.Fault{Methods: ethCall, Every: 3, Error: &chaos.CallError{Code: -32005, Message: "limit exceeded"}}, "", fault.NotAToken},
		{"-32603 on every third eth_call", chaos.Fault{Methods: ethCall, Every: 3, Error: &chaos.CallError{Code: -32603, Message: "internal error"}}, "", fault.NotAToken},
		{"429 inside a batch", chaos.Fault{Every: 3, Error: &chaos.CallError{Code: 429, Message: "Too Many Requests"}}, "", fault.NotAToken},
		{"empty 0x on every other eth_call", chaos.Fault{Methods: ethCall, Every: 2, Empty: true}, "", fault.NotAToken},
		{"batch cap of 3, later calls refused", chaos.Fault{Cap: 3, CapStyle: chaos.CapTail}, "", fault.NotAToken},
		{"batch cap of 3, batch refused", chaos.Fault{Cap: 3, CapStyle: chaos.CapRefuse}, "", fault.NotAToken},
		{"HTTP 429 with Retry-After on every other request", chaos.Fault{Every: 2, Status: 429, RetryAfter: time.Second}, "", fault.NotAToken},
		{"every eth_call fails", chaos.Fault{Methods: ethCall, Error: &chaos.CallError{Code: -32603, Message: "internal error"}}, fault.UpstreamError, fault.UpstreamError},
		{"every eth_call answers 0x", chaos.Fault{Methods: ethCall, Empty: true}, fault.UpstreamError, fault.UpstreamError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ad := chaosChain(t)
			p.Set(tt.fault)
			for _, c := range []struct {
				address string
				want    fault.Code
			}{{clean.Address, tt.token}, {nat.Address, tt.other}} {
				r, err := assess(t, ad, c.address)
				if got := fault.CodeOf(err); err != nil && got != c.want || err == nil && c.want != "" {
					t.Errorf("%s: error %v (code %s), want %q", c.address, err, got, c.want)
				}
				if err == nil && (r.Decimals == nil || *r.Decimals != clean.Decimals) {
					t.Errorf("%s: decimals %s, want %d", c.address, fmtPtr(r.Decimals), clean.Decimals)
				}
			}
			if p.Faulted() == 0 {
				t.Error("the fault was never applied")
			}
		})
	}
}

// TestClientLearnsBatchLimit: a provider that answers only the first 3
// calls of a batch, or refuses batches over 3, costs one lesson; the next
// batches are split to fit without a refusal.
func TestClientLearnsBatchLimit(t *testing.T) {
	for _, style := range []chaos.BatchCapStyle{chaos.CapTail, chaos.CapRefuse} {
		p, _ := chaosChain(t)
		p.Set(chaos.Fault{Cap: 3, CapStyle: style})
		c := node.NewClient("devnet", []string{p.URL()}, node.ClientOptions{Backoff: time.Millisecond})
		m := startAdapterNet(t).Manifest()
		batch := func() {
			bals := make([]hexutil.Big, 12)
			elems := make([]rpc.BatchElem, len(bals))
			for i := range elems {
				elems[i] = node.BalanceElem(common.HexToAddress(m.Deployer), &bals[i])
			}
			if err := c.Batch(context.Background(), elems); err != nil {
				t.Fatalf("style %d: Batch: %v", style, err)
			}
			for i, el := range elems {
				if el.Error != nil || (*big.Int)(&bals[i]).Sign() <= 0 {
					t.Errorf("style %d: elem %d: %v, balance %v", style, i, el.Error, (*big.Int)(&bals[i]))
				}
			}
		}
		batch()
		if got := c.BatchLimit(); got < 1 || got > 3 {
			t.Fatalf("style %d: learned limit %d, want 1..3", style, got)
		}
		before, faulted := p.Requests(), p.Faulted()
		batch()
		if p.Faulted() != faulted {
			t.Errorf("style %d: the second batch was refused again (%d faults)", style, p.Faulted()-faulted)
		}
		if got, want := p.Requests()-before, int64((12+c.BatchLimit()-1)/c.BatchLimit()); got != want {
			t.Errorf("style %d: second batch took %d requests, want %d", style, got, want)
		}
	}
}

// TestClientOneURLDead: the first URL refuses connections; every call
// goes to the second without a verdict changing.
func TestClientOneURLDead(t *testing.T) {
	dead, err := chaos.Start("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	dead.Set(chaos.Fault{Drop: true})
	defer dead.Close()
	m := startAdapterNet(t).Manifest()
	clean, _ := m.Token("clean")
	_, ad := chaosChain(t, dead.URL())
	r, err := assess(t, ad, clean.Address)
	if err != nil {
		t.Fatalf("Assess: %v", err)
	}
	if r.Decimals == nil || *r.Decimals != clean.Decimals {
		t.Errorf("decimals %s, want %d", fmtPtr(r.Decimals), clean.Decimals)
	}
}

// TestEmptyAnswersFromAProxyAreNotVerdicts: a proxy has no totalSupply()
// or balanceOf() of its own (its implementation does), so empty answers
// to both, twice, prove nothing: the implementation's code is asked, and
// the node's failure is a 502, never not_a_token. A healthy node then
// gets the proxy's report.
func TestEmptyAnswersFromAProxyAreNotVerdicts(t *testing.T) {
	m := startAdapterNet(t).Manifest()
	proxy, ok := m.Token("proxy_upgradeable")
	if !ok {
		t.Fatal("the zoo has no proxy_upgradeable token")
	}
	p, ad := chaosChain(t)
	p.Set(chaos.Fault{Methods: []string{"eth_call"}, Data: []string{bytecode.SelTotalSupply.String(), bytecode.SelBalanceOf.String()}, Empty: true})
	_, err := assess(t, ad, proxy.Address)
	if got := fault.CodeOf(err); got != fault.UpstreamError {
		t.Fatalf("empty totalSupply()/balanceOf() from a proxy: error %v (code %s), want upstream_error", err, got)
	}
	if p.Faulted() == 0 {
		t.Fatal("the fault was never applied")
	}
	p.Set(chaos.Fault{})
	if _, err := assess(t, ad, proxy.Address); err != nil {
		t.Fatalf("healthy node: %v", err)
	}
}

// TestBodyLimitLeavesNoLastingHarm: a provider refusing request bodies
// above a few kilobytes (as anvil answers: -32600 "Invalid request"; or
// HTTP 413) for a few scans makes the client split by bytes, never lower
// its batch count; once the node takes any body again the learned byte
// limit climbs back and a scan takes the requests it took before.
func TestBodyLimitLeavesNoLastingHarm(t *testing.T) {
	for _, status413 := range []bool{false, true} {
		p, ad := chaosChain(t)
		clean, _ := startAdapterNet(t).Manifest().Token("clean")
		scanReqs := func() int64 {
			before := p.Requests()
			if _, err := assess(t, ad, clean.Address); err != nil {
				t.Logf("413=%v: scan: %v", status413, err)
			}
			return p.Requests() - before
		}
		// The first scan learns what later ones reuse (the creation block):
		// the budget is a warm scan's.
		scanReqs()
		budget := scanReqs()
		p.Set(chaos.Fault{MaxBody: 12_000, BodyTooLarge413: status413})
		var limited int64
		for range 6 {
			limited += scanReqs()
		}
		ch := startAdapterNet(t).Chain()
		ch.RPC = []string{p.URL()}
		c := ad.Client(ch)
		if p.Faulted() == 0 || c.BatchBytes() > 12_000 {
			t.Fatalf("413=%v: %d bodies refused, learned byte limit %d: the limit was never met", status413, p.Faulted(), c.BatchBytes())
		}
		if got := c.BatchLimit(); got != 0 {
			t.Errorf("413=%v: a body refusal lowered the batch count to %d", status413, got)
		}
		p.Set(chaos.Fault{})
		var after []int64
		for range 8 {
			after = append(after, scanReqs())
		}
		t.Logf("413=%v: %d requests a scan before, %.1f under a 12 KB body limit, then %v (byte limit %d)", status413, budget, float64(limited)/6, after, c.BatchBytes())
		// The byte limit climbs a quarter of the default after every four
		// answered parts: two scans bring it over a scan's bodies.
		for i, n := range after[2:] {
			if n != budget {
				t.Errorf("413=%v: scan %d after the limit was lifted takes %d requests, %d before", status413, i+3, n, budget)
			}
		}
		if c.BatchBytes() <= 12_000 {
			t.Errorf("413=%v: byte limit %d after calm scans: it never climbed back", status413, c.BatchBytes())
		}
	}
}
