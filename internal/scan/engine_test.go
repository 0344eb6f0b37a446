package scan_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

const (
	pepe      = "0x6982508145454Ce325dDbE47a25d4ec3d2311933"
	pepeLower = "0x6982508145454ce325ddbe47a25d4ec3d2311933"
	bonk      = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"
)

// fakeAdapter is a scan.Adapter made of function fields.
type fakeAdapter struct {
	kind   chains.Kind
	assess func(ctx context.Context, req scan.Request) (*scan.Assessment, error)
}

var _ scan.Adapter = (*fakeAdapter)(nil)

func (f *fakeAdapter) Kind() chains.Kind { return f.kind }
func (f *fakeAdapter) Assess(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
	return f.assess(ctx, req)
}

func assessment(chain string, flags ...risk.Flag) *scan.Assessment {
	return &scan.Assessment{
		Chain:    chain,
		Token:    scan.Token{Name: "Pepe", Symbol: "PEPE"},
		Contract: scan.Section{Status: scan.Complete, Flags: flags},
	}
}

// memCache is an in-test cache.Cache.
type memCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *memCache) Get(_ context.Context, key string) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok, nil
}

func (c *memCache) Set(_ context.Context, key string, v []byte, _ time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	c.m[key] = v
	return nil
}

func registry(t *testing.T) *chains.Registry {
	t.Helper()
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func newEngine(t *testing.T, opts scan.EngineOptions) *scan.Engine {
	t.Helper()
	if opts.Registry == nil {
		opts.Registry = registry(t)
	}
	e, err := scan.NewEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestScanBuildsAScoredReport(t *testing.T) {
	var got scan.Request
	a := &fakeAdapter{kind: chains.EVM, assess: func(_ context.Context, req scan.Request) (*scan.Assessment, error) {
		got = req
		return assessment("ethereum", risk.NewFlag(risk.OwnerCanMint, "Owner can mint", "")), nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Version: "test-1"})
	r, err := e.Scan(context.Background(), scan.ScanRequest{Address: "  " + pepe + "\n", Chains: []string{"bsc", "ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Address.Canonical != pepe || len(got.Chains) != 2 || got.Chains[0] != "bsc" {
		t.Errorf("adapter asked %+v, want the canonical address and the plan's sorted chains", got)
	}
	if r.ScanID == "" || r.EngineVersion != "test-1" || r.ScannedAt.IsZero() || r.Cached {
		t.Errorf("report envelope not filled: id=%q version=%q at=%v cached=%v", r.ScanID, r.EngineVersion, r.ScannedAt, r.Cached)
	}
	if r.OverallRiskScore != 60 || r.RiskLevel != risk.LevelHigh || !r.HasFlag(risk.OwnerCanMint) {
		t.Errorf("score %v level %v, want 60 high with OWNER_CAN_MINT", r.OverallRiskScore, r.RiskLevel)
	}
	if r.Disclaimer != scan.Disclaimer {
		t.Errorf("disclaimer = %q", r.Disclaimer)
	}
}

func TestScanCache(t *testing.T) {
	var calls atomic.Int32
	a := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
		calls.Add(1)
		return assessment("ethereum"), nil
	}}
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Cache: &memCache{}, CacheTTL: time.Minute})
	ctx := context.Background()
	first, err := e.Scan(ctx, scan.ScanRequest{Address: pepe, Chains: []string{"ethereum", "bsc"}})
	if err != nil {
		t.Fatal(err)
	}
	// Lower-case spelling and reordered chains hit the same entry.
	second, err := e.Scan(ctx, scan.ScanRequest{Address: "0x6982508145454ce325ddbe47a25d4ec3d2311933", Chains: []string{"bsc", "ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 {
		t.Fatalf("adapter called %d times, want 1", calls.Load())
	}
	if !second.Cached || first.Cached {
		t.Errorf("cached = %v then %v, want false then true", first.Cached, second.Cached)
	}
	if second.ScanID == first.ScanID {
		t.Errorf("cache hit reused scan_id %s", first.ScanID)
	}
	if !second.ScannedAt.Equal(first.ScannedAt) {
		t.Errorf("cache hit scanned_at %v, want the original %v", second.ScannedAt, first.ScannedAt)
	}
	// Hits share one decoding but never each other's envelope.
	secondID := second.ScanID
	third, err := e.Scan(ctx, scan.ScanRequest{Address: pepe, Chains: []string{"bsc", "ethereum"}})
	if err != nil {
		t.Fatal(err)
	}
	if third.ScanID == secondID || second.ScanID != secondID || !third.Cached || third.TokenSymbol != "PEPE" {
		t.Errorf("third hit %s (cached %v), second now %s (was %s)", third.ScanID, third.Cached, second.ScanID, secondID)
	}
	// Another plan's chain set is another scan.
	if _, err := e.Scan(ctx, scan.ScanRequest{Address: pepe, Chains: []string{"ethereum"}}); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 {
		t.Errorf("adapter called %d times, want 2 (different chain set)", calls.Load())
	}
}

func TestScanErrors(t *testing.T) {
	evm := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
		return nil, fault.Errorf(fault.TokenNotFound, "no contract")
	}}
	slow := &fakeAdapter{kind: chains.EVM, assess: func(ctx context.Context, _ scan.Request) (*scan.Assessment, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	panicky := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
		var m map[string]int
		m["boom"]++
		return nil, nil
	}}
	tests := []struct {
		name    string
		adapter scan.Adapter
		address string
		chains  []string
		want    fault.Code
	}{
		{"invalid address", evm, "0x1234", []string{"ethereum"}, fault.InvalidAddress},
		{"bad checksum", evm, "0x6982508145454ce325dDbE47a25d4ec3d2311933", []string{"ethereum"}, fault.InvalidChecksum},
		{"adapter error passes its code", evm, pepe, []string{"ethereum"}, fault.TokenNotFound},
		{"no chain of the kind in plan", evm, pepe, []string{"solana"}, fault.PlanForbidden},
		{"no adapter for the kind", evm, bonk, []string{"solana"}, fault.Unavailable},
		{"deadline", slow, pepe, []string{"ethereum"}, fault.UpstreamTimeout},
		{"adapter panic", panicky, pepe, []string{"ethereum"}, fault.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{tt.adapter}, ScanTimeout: 50 * time.Millisecond})
			_, err := e.Scan(context.Background(), scan.ScanRequest{Address: tt.address, Chains: tt.chains})
			if got := fault.CodeOf(err); got != tt.want {
				t.Errorf("code = %s (%v), want %s", got, err, tt.want)
			}
			// A 504 names the chains that did not answer in time.
			if tt.want == fault.UpstreamTimeout && !strings.Contains(fault.MessageOf(err), "no answer in time from ethereum") {
				t.Errorf("timeout message %q does not name the chain", fault.MessageOf(err))
			}
		})
	}
}

// gate is an adapter whose scans block until released, recording the
// order they started in.
type gate struct {
	mu      sync.Mutex
	order   []string
	started chan string
	release chan struct{}
}

func newGate() *gate {
	return &gate{started: make(chan string, 100), release: make(chan struct{})}
}

func (g *gate) adapter() scan.Adapter {
	return &fakeAdapter{kind: chains.EVM, assess: func(_ context.Context, req scan.Request) (*scan.Assessment, error) {
		g.mu.Lock()
		g.order = append(g.order, req.Address.Canonical)
		g.mu.Unlock()
		g.started <- req.Address.Canonical
		<-g.release
		return assessment("ethereum"), nil
	}}
}

func addr(i byte) string {
	b := []byte("0x000000000000000000000000000000000000000")
	return string(b) + string("0123456789abcdef"[i%16])
}

func TestAdmissionQueue(t *testing.T) {
	g := newGate()
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{g.adapter()}, MaxConcurrent: 1, QueueLimit: 1})
	ctx := context.Background()
	errs := make(chan error, 10)
	scanAt := func(i byte, p scan.Priority) {
		_, err := e.Scan(ctx, scan.ScanRequest{Address: addr(i), Chains: []string{"ethereum"}, Priority: p})
		errs <- err
	}
	go scanAt(1, scan.PriorityLow) // takes the only slot
	<-g.started
	go scanAt(2, scan.PriorityLow) // waits (the low queue is now full)
	waitQueued(t, e, 1)
	// A third low scan is refused.
	if _, err := e.Scan(ctx, scan.ScanRequest{Address: addr(3), Chains: []string{"ethereum"}, Priority: scan.PriorityLow}); fault.CodeOf(err) != fault.Overloaded {
		t.Fatalf("third low scan: %v, want overloaded", err)
	}
	// Premium is never refused and jumps the queue.
	go scanAt(4, scan.PriorityHigh)
	waitQueued(t, e, 2)
	go scanAt(5, scan.PriorityHigh)
	waitQueued(t, e, 3)
	for i := range 4 {
		g.release <- struct{}{}
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		if i < 3 {
			<-g.started
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	want := []string{addr(1), addr(4), addr(5), addr(2)}
	for i := range want {
		if g.order[i] != want[i] {
			t.Fatalf("admission order %v, want %v", g.order, want)
		}
	}
}

func waitQueued(t *testing.T, e *scan.Engine, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for e.Queued() != n {
		if time.Now().After(deadline) {
			t.Fatalf("queued = %d, want %d", e.Queued(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAdmissionWaiterLeaves(t *testing.T) {
	g := newGate()
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{g.adapter()}, MaxConcurrent: 1, QueueLimit: 1})
	done := make(chan error, 1)
	go func() {
		_, err := e.Scan(context.Background(), scan.ScanRequest{Address: addr(1), Chains: []string{"ethereum"}})
		done <- err
	}()
	<-g.started
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() {
		_, err := e.Scan(ctx, scan.ScanRequest{Address: addr(2), Chains: []string{"ethereum"}})
		left <- err
	}()
	waitQueued(t, e, 1)
	cancel()
	if err := <-left; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v, want context.Canceled", err)
	}
	if e.Queued() != 0 {
		t.Fatalf("queued = %d after the waiter left, want 0", e.Queued())
	}
	g.release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The slot is free again: a new low scan runs rather than queueing.
	go func() {
		_, err := e.Scan(context.Background(), scan.ScanRequest{Address: addr(3), Chains: []string{"ethereum"}})
		done <- err
	}()
	<-g.started
	g.release <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// group is an in-test scan.Group: identical keys in flight run once.
type group struct {
	mu    sync.Mutex
	calls map[string]*call
}

type call struct {
	done chan struct{}
	val  []byte
	err  error
}

func (g *group) Do(ctx context.Context, key string, fn func(context.Context) ([]byte, error)) ([]byte, bool, error) {
	g.mu.Lock()
	if c, ok := g.calls[key]; ok {
		g.mu.Unlock()
		<-c.done
		return c.val, true, c.err
	}
	c := &call{done: make(chan struct{})}
	if g.calls == nil {
		g.calls = map[string]*call{}
	}
	g.calls[key] = c
	g.mu.Unlock()
	c.val, c.err = fn(ctx)
	close(c.done)
	g.mu.Lock()
	delete(g.calls, key)
	g.mu.Unlock()
	return c.val, false, c.err
}

func TestScanSharesInFlight(t *testing.T) {
	g := newGate()
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{g.adapter()}, Dedupe: &group{}})
	type result struct {
		r   *scan.Report
		err error
	}
	out := make(chan result, 3)
	for range 3 {
		go func() {
			r, err := e.Scan(context.Background(), scan.ScanRequest{Address: pepe, Chains: []string{"ethereum"}})
			out <- result{r, err}
		}()
	}
	<-g.started
	time.Sleep(50 * time.Millisecond) // let the others join the flight
	close(g.release)
	ids := map[string]bool{}
	for range 3 {
		res := <-out
		if res.err != nil {
			t.Fatal(res.err)
		}
		ids[res.r.ScanID] = true
	}
	g.mu.Lock()
	ran := len(g.order)
	g.mu.Unlock()
	if ran != 1 {
		t.Errorf("adapter ran %d times, want 1", ran)
	}
	if len(ids) != 3 {
		t.Errorf("%d distinct scan ids for 3 requests, want 3", len(ids))
	}
}

// A premium scan of a token a free scan is waiting for admission on does
// not join it (it would wait in the free queue): it runs on its own, at
// once, while identical scans of one priority still share.
func TestPremiumDoesNotJoinAFreeScanInFlight(t *testing.T) {
	g := newGate()
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{g.adapter()}, Dedupe: &group{},
		MinConcurrent: 2, MaxConcurrent: 2, PremiumReserve: 0.5})
	free := func(address string) <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := e.Scan(context.Background(), scan.ScanRequest{Address: address, Chains: []string{"ethereum"}})
			done <- err
		}()
		return done
	}
	busy := free(addr(1)) // holds the one unreserved slot
	<-g.started
	waiting := free(pepe) // waits for admission
	deadline := time.Now().Add(2 * time.Second)
	for e.Queued() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the second free scan is not waiting for admission")
		}
		time.Sleep(time.Millisecond)
	}
	premium := make(chan error, 1)
	go func() {
		_, err := e.Scan(context.Background(), scan.ScanRequest{Address: pepe, Chains: []string{"ethereum"}, Priority: scan.PriorityHigh})
		premium <- err
	}()
	select {
	case <-g.started: // the premium scan reached the adapter on its own
	case <-time.After(2 * time.Second):
		t.Fatal("the premium scan joined the free one waiting in the free queue")
	}
	close(g.release)
	for _, done := range []<-chan error{busy, waiting, premium} {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestAdmissionWaitIsBounded(t *testing.T) {
	g := newGate()
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{g.adapter()}, MaxConcurrent: 1, ScanTimeout: 100 * time.Millisecond})
	done := make(chan error, 1)
	go func() {
		_, err := e.Scan(context.Background(), scan.ScanRequest{Address: addr(1), Chains: []string{"ethereum"}})
		done <- err
	}()
	<-g.started
	start := time.Now()
	_, err := e.Scan(context.Background(), scan.ScanRequest{Address: addr(2), Chains: []string{"ethereum"}, Priority: scan.PriorityHigh})
	if fault.CodeOf(err) != fault.Overloaded || time.Since(start) > 2*time.Second {
		t.Fatalf("waiter: %v after %v, want overloaded after the scan deadline", err, time.Since(start))
	}
	if e.Queued() != 0 {
		t.Errorf("queued = %d after the waiter gave up", e.Queued())
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestCacheIsPerEngineVersion: instances of two engine versions sharing
// one cache (a rolling upgrade) never answer with each other's reports.
func TestCacheIsPerEngineVersion(t *testing.T) {
	a := &fakeAdapter{kind: chains.EVM, assess: func(context.Context, scan.Request) (*scan.Assessment, error) {
		return assessment("ethereum"), nil
	}}
	shared := &memCache{}
	req := scan.ScanRequest{Address: pepe, Chains: []string{"ethereum"}}
	for _, v := range []string{"1.0.0", "1.1.0"} {
		e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{a}, Cache: shared, CacheTTL: time.Minute, Version: v})
		r, err := e.Scan(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if r.Cached || r.EngineVersion != v {
			t.Errorf("engine %s answered a report of engine %s (cached %v)", v, r.EngineVersion, r.Cached)
		}
	}
}

// TestAllowedRemembersAddresses: an address parsed once is not parsed
// again (a hot token's checksum costs a Keccak-256 per request), and
// what is remembered does not change an answer: an invalid address is
// refused every time, the same address in another case keeps its own
// answer, and a plan's refusal still applies.
func TestAllowedRemembersAddresses(t *testing.T) {
	e := newEngine(t, scan.EngineOptions{Adapters: []scan.Adapter{&fakeAdapter{kind: chains.EVM}}})
	eth := []string{"ethereum"}
	for range 2 {
		a, err := e.Allowed(" "+pepeLower+" ", eth)
		if err != nil || a.Canonical != pepe {
			t.Fatalf("Allowed(lower case) = %+v, %v, want %s", a, err, pepe)
		}
		if _, err := e.Allowed("0x6982508145454ce325dDbE47a25d4ec3d2311933", eth); fault.CodeOf(err) != fault.InvalidChecksum {
			t.Errorf("a bad checksum after its valid forms: %v, want invalid_checksum", err)
		}
		if _, err := e.Allowed(pepe, []string{"solana"}); fault.CodeOf(err) != fault.PlanForbidden {
			t.Errorf("a remembered address outside the plan: %v, want plan_forbidden", err)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := e.Allowed(pepe, eth); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Allowed of a remembered address allocates %v times, want 0 (parsed again)", allocs)
	}
}
