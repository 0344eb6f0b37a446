package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"slices"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chaos"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// providerBodyLimit is a common provider's request body limit.
const providerBodyLimit = 2 << 20

// scanCost is what one scan asked of the node.
type scanCost struct {
	kind            string
	requests, bytes int64
	refused         int64
}

// zooCosts scans each zoo token once through a proxy refusing bodies
// above providerBodyLimit, with the client's default byte bound, and
// returns what each scan sent.
func zooCosts(t testing.TB, tokens []devnet.ManifestToken) []scanCost {
	t.Helper()
	dn := startAdapterNet(t)
	p, err := chaos.Start(dn.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	p.Set(chaos.Fault{MaxBody: providerBodyLimit})
	ch := dn.Chain()
	ch.RPC = []string{p.URL()}
	ad := NewAdapter(devnetRegistry(t, ch), Options{Deadline: 60 * time.Second, Client: node.ClientOptions{Backoff: 20 * time.Millisecond}})
	var out []scanCost
	for _, tok := range tokens {
		r0, b0, f0 := p.Requests(), p.Bytes(), p.Faulted()
		if _, err := assess(t, ad, tok.Address); err != nil {
			t.Logf("%s: %v", tok.Kind, err)
		}
		out = append(out, scanCost{kind: tok.Kind, requests: p.Requests() - r0, bytes: p.Bytes() - b0, refused: p.Faulted() - f0})
	}
	return out
}

// BenchmarkScanBytes scans every zoo token behind a node refusing request
// bodies over 2 MiB and reports the bytes and HTTP requests a scan sends:
// the mean and the largest scan's (a provider bills both and refuses
// bodies over its limit), and the bodies refused.
func BenchmarkScanBytes(b *testing.B) {
	tokens := startAdapterNet(b).Manifest().Tokens
	var all []scanCost
	for range b.N {
		all = append(all, zooCosts(b, tokens)...)
	}
	var bytes, reqs, refused int64
	for _, c := range all {
		bytes += c.bytes
		reqs += c.requests
		refused += c.refused
	}
	heaviest := slices.MaxFunc(all, func(x, y scanCost) int { return int(x.bytes - y.bytes) })
	most := slices.MaxFunc(all, func(x, y scanCost) int { return int(x.requests - y.requests) })
	n := float64(len(all))
	b.ReportMetric(float64(bytes)/n/1000, "KB/scan")
	b.ReportMetric(float64(heaviest.bytes)/1000, "max_KB/scan")
	b.ReportMetric(float64(reqs)/n, "requests/scan")
	b.ReportMetric(float64(most.requests), "max_requests/scan")
	b.ReportMetric(float64(refused), "refused_bodies")
	b.Logf("%d scans; most requests %s (%d)", len(all), most.kind, most.requests)
	slices.SortFunc(all, func(x, y scanCost) int { return int(y.bytes - x.bytes) })
	for _, c := range all[:min(5, len(all))] {
		b.Logf("heavy: %s %d KB in %d requests", c.kind, c.bytes/1000, c.requests)
	}
}

// TestHeavyScansStayLight: the zoo scans that send the most (many
// candidate calls, several callers and donors) stay well under a
// provider's body limit: behind a node refusing bodies over 2 MiB no
// body is refused, a scan takes at most 4 HTTP requests, and sends at
// most 480 KB. Each probe eth_call used to carry the Prober's ~21 KB of
// code (as hex) at the caller, the victim and every donor (up to ten
// copies): the heaviest of these scans sent 988 KB; with ProbeDonor at
// the donors, 445 KB; the real holders' sells and the scripted probes
// (reclaim, whitelist, per-address fee) since added ~80 KB, to 499–522
// KB; with the victim and the donors holding a 45-byte forwarder to the
// caller (one Prober a call), 361–384 KB; the replay after the renounce
// (afterrenounce.go) since added up to ~50 KB, to 361–433 KB
// (BenchmarkScanBytes prints the figures over the whole zoo).
func TestHeavyScansStayLight(t *testing.T) {
	m := startAdapterNet(t).Manifest()
	var tokens []devnet.ManifestToken
	for _, kind := range []string{"benign_cooldown_named", "external_call_guard", "benign_self_lock"} {
		tok, ok := m.Token(kind)
		if !ok {
			t.Fatalf("no zoo token %s", kind)
		}
		tokens = append(tokens, tok)
	}
	for _, c := range zooCosts(t, tokens) {
		t.Logf("%s: %d KB in %d requests", c.kind, c.bytes/1000, c.requests)
		if c.refused > 0 {
			t.Errorf("%s: %d request bodies over 2 MiB refused", c.kind, c.refused)
		}
		if c.requests > 4 {
			t.Errorf("%s: %d HTTP requests, want at most 4", c.kind, c.requests)
		}
		if c.bytes > 480_000 {
			t.Errorf("%s: %d KB sent, want at most 480 KB", c.kind, c.bytes/1000)
		}
	}
}
