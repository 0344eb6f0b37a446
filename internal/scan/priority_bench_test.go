package scan_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// node models an upstream with finite capacity, as a chain node or the
// CPU behind the devnet is: `workers` requests are served at once, each
// round trip holds a worker for `service` (a wait, as for the network)
// plus `cpu` of real CPU work on this machine (as the devnet's EVM, its
// JSON-RPC and the engine's decoding cost), and the others queue for one
// (FIFO). A scan is `trips` sequential round trips, so alone it takes
// trips × (service + cpu), and with n scans running on the node about
// n/workers times that, or more where the CPU work of the scans running
// exceeds the machine's cores: then every scan's CPU work, premium's
// included, is shared with the flood's.
type node struct {
	workers chan struct{}
	service time.Duration
	cpu     time.Duration
	trips   int
	// spinsPerMS is how many rounds of burn make a millisecond of CPU
	// work on this machine (calibrated at start).
	spinsPerMS int
	// atNode counts the requests at the node (served or queued).
	atNode atomic.Int64
	// traces holds the traced scans by address: a scan is traced when
	// its address is registered before it runs (the premium ones).
	traces sync.Map // string → *trace
}

// trace is where one scan's time went.
type trace struct {
	admitted time.Time     // the adapter started: admission's wait ended
	nodeWait time.Duration // queued at the node, over all round trips
	service  time.Duration // served (the sleep, with the timer's lateness)
	ahead    int           // the most requests at the node a round trip found
}

func newNode(workers, trips int, service, cpu time.Duration) *node {
	return &node{workers: make(chan struct{}, workers), service: service, cpu: cpu, trips: trips, spinsPerMS: calibrate()}
}

// burn does n rounds of CPU work (SHA-256 over a small block).
func burn(n int) [32]byte {
	var sum [32]byte
	for range n {
		sum = sha256.Sum256(sum[:])
	}
	return sum
}

// calibrate finds how many rounds of burn take a millisecond: the fastest
// of a few tries, so that the machine's load at start does not shrink the
// work (under load the work takes longer, as a devnet scan does).
func calibrate() int {
	const n = 2000
	best := time.Duration(math.MaxInt64)
	for range 5 {
		start := time.Now()
		burn(n)
		best = min(best, time.Since(start))
	}
	return max(1, int(float64(n)*float64(time.Millisecond)/float64(max(best, 1))))
}

func (n *node) adapter() scan.Adapter {
	return &fakeAdapter{kind: chains.EVM, assess: func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
		t := &trace{}
		if v, ok := n.traces.Load(strings.ToLower(req.Address.Canonical)); ok {
			t = v.(*trace)
		}
		t.admitted = time.Now()
		for range n.trips {
			t.ahead = max(t.ahead, int(n.atNode.Add(1)-1))
			t0 := time.Now()
			select {
			case n.workers <- struct{}{}:
			case <-ctx.Done():
				n.atNode.Add(-1)
				return nil, ctx.Err()
			}
			t1 := time.Now()
			time.Sleep(n.service)
			burn(int(float64(n.spinsPerMS) * float64(n.cpu) / float64(time.Millisecond)))
			t.nodeWait += t1.Sub(t0)
			t.service += time.Since(t1)
			<-n.workers
			n.atNode.Add(-1)
		}
		return assessment("ethereum"), nil
	}}
}

// randomAddress is a fresh lower-case EVM address: every scan is uncached.
func randomAddress() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return "0x" + hex.EncodeToString(b)
}

// BenchmarkPriorityUnderFlood measures what a premium client sees when
// free and pro clients flood the engine with uncached scans, on a node
// that serves 4 requests at once and costs what a devnet scan costs: a
// scan is 5 round trips of 2 ms of waiting and 6 ms of CPU work (about
// 40 ms alone, 30 ms of it CPU, as `tokenrisk serve --devnet` spends per
// uncached scan, node included), so the flood's scans compete with
// premium's for this machine's cores as they do end to end. Premium (two clients, sequential scans) is measured alone, then
// beside 40 free and 40 pro clients that scan back to back (pausing 20 ms
// after a 503), in floodRounds rounds so that the machine's own load
// weighs on both phases alike. It prints premium p50/p99 unloaded and
// under flood, the p99 ratio, free and pro scans/s under flood and the
// mean limit while premium was measured under the flood (each value is
// logged), for the adaptive limit with the premium guard (the default),
// without it, and for fixed limits of 32 (the former default) and 4. Run
// it once: -benchtime 1x.
func BenchmarkPriorityUnderFlood(b *testing.B) {
	configs := []struct {
		name string
		opts scan.EngineOptions
	}{
		{"adaptive", scan.EngineOptions{}},
		{"adaptive-noguard", scan.EngineOptions{PremiumTolerance: -1}},
		{"fixed32", scan.EngineOptions{MinConcurrent: 32, MaxConcurrent: 32, PremiumReserve: -1, PremiumTolerance: -1}},
		{"fixed4", scan.EngineOptions{MinConcurrent: 4, MaxConcurrent: 4, PremiumReserve: -1, PremiumTolerance: -1}},
	}
	for _, cfg := range configs {
		b.Run(cfg.name, func(b *testing.B) {
			for b.Loop() {
				floodOnce(b, cfg.opts)
			}
		})
	}
}

func floodOnce(b *testing.B, opts scan.EngineOptions) {
	n := newNode(4, 5, 2*time.Millisecond, 6*time.Millisecond)
	opts.Adapters = []scan.Adapter{n.adapter()}
	opts.Registry = mustRegistry(b)
	lo := &limitObserver{}
	opts.Observer = lo
	e, err := scan.NewEngine(opts)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	chainsOf := []string{"ethereum"}
	scanAs := func(ctx context.Context, p scan.Priority) (time.Duration, error) {
		start := time.Now()
		_, err := e.Scan(ctx, scan.ScanRequest{Address: randomAddress(), Chains: chainsOf, Priority: p})
		return time.Since(start), err
	}
	// tracedScan is a premium scan with where its time went.
	tracedScan := func() (sample, error) {
		addr := randomAddress()
		t := &trace{}
		n.traces.Store(addr, t)
		defer n.traces.Delete(addr)
		start := time.Now()
		_, err := e.Scan(ctx, scan.ScanRequest{Address: addr, Chains: chainsOf, Priority: scan.PriorityHigh})
		total := time.Since(start)
		return sample{total: total, admission: t.admitted.Sub(start), nodeWait: t.nodeWait, service: t.service, ahead: t.ahead}, err
	}
	premium := func(perClient int) []sample {
		var mu sync.Mutex
		var lat []sample
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for range perClient {
					s, err := tracedScan()
					if err != nil {
						b.Error(err)
						return
					}
					mu.Lock()
					lat = append(lat, s)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return lat
	}
	pct := func(lat []time.Duration, q float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(q*float64(len(lat))))]
	}

	premium(10) // warm up: the limit learns the no-load latency
	// Rounds of premium alone, then under the flood, so that the machine's
	// own load, which drifts over seconds, weighs on both alike. Round -1
	// is not counted: in it the fresh limit first meets a flood and finds
	// the node's knee (its premium scans are logged apart).
	var unloadedS, floodS, firstFlood []sample
	var low, normal, refused atomic.Int64
	var elapsed float64
	var limits []int
	for round := -1; round < floodRounds; round++ {
		unloadedS = append(unloadedS, premium(premiumScans)...)
		// Stopping the flood lets its queued scans go (their clients hang
		// up) and waits for its running ones, so that rounds can be short.
		fctx, stop := context.WithCancel(ctx)
		var done [scan.PriorityHigh + 1]atomic.Int64
		var wg sync.WaitGroup
		for _, p := range []scan.Priority{scan.PriorityLow, scan.PriorityNormal} {
			for range 40 {
				wg.Go(func() {
					for {
						select {
						case <-fctx.Done():
							return
						default:
						}
						_, err := scanAs(fctx, p)
						switch {
						case err == nil:
							done[p].Add(1)
						case fault.CodeOf(err) == fault.Overloaded:
							refused.Add(1)
							time.Sleep(20 * time.Millisecond)
						case errors.Is(err, context.Canceled):
							return
						default:
							b.Error(err)
							return
						}
					}
				})
			}
		}
		time.Sleep(time.Second) // the flood builds up and the limit adapts
		mark := len(lo.since(0))
		low0, normal0, start := done[scan.PriorityLow].Load(), done[scan.PriorityNormal].Load(), time.Now()
		floodS = append(floodS, premium(premiumScans)...)
		elapsed += time.Since(start).Seconds()
		low.Add(done[scan.PriorityLow].Load() - low0)
		normal.Add(done[scan.PriorityNormal].Load() - normal0)
		limits = append(limits, lo.since(mark)...) // while premium was measured under the flood
		stop()
		wg.Wait()
		if round < 0 {
			firstFlood = floodS
			unloadedS, floodS, limits, elapsed = nil, nil, nil, 0
			low.Store(0)
			normal.Store(0)
			refused.Store(0)
		}
	}
	unloaded, flood := totals(unloadedS), totals(floodS)

	ratio := float64(pct(flood, 0.99)) / float64(pct(unloaded, 0.99))
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(pct(unloaded, 0.5)), "premium-p50-ms-alone")
	b.ReportMetric(ms(pct(unloaded, 0.99)), "premium-p99-ms-alone")
	b.ReportMetric(ms(pct(flood, 0.5)), "premium-p50-ms-flood")
	b.ReportMetric(ms(pct(flood, 0.99)), "premium-p99-ms-flood")
	b.ReportMetric(ratio, "p99-ratio")
	b.ReportMetric(float64(low.Load())/elapsed, "free-scans/s")
	b.ReportMetric(float64(normal.Load())/elapsed, "pro-scans/s")
	mean := 0.0
	for _, l := range limits {
		mean += float64(l) / float64(len(limits))
	}
	b.ReportMetric(mean, "limit-mean")
	b.Logf("premium alone p50 %v p99 %v; under flood p50 %v p99 %v (×%.2f); free %.1f/s, pro %.1f/s, %d refused; limit under flood %v",
		pct(unloaded, 0.5).Round(time.Millisecond), pct(unloaded, 0.99).Round(time.Millisecond),
		pct(flood, 0.5).Round(time.Millisecond), pct(flood, 0.99).Round(time.Millisecond), ratio,
		float64(low.Load())/elapsed, float64(normal.Load())/elapsed, refused.Load(), limits)
	b.Logf("premium alone:      %s", breakdown(unloadedS))
	b.Logf("premium under flood: %s", breakdown(floodS))
	b.Logf("premium under the first flood (round -1, the limit finding the knee): %s", breakdown(firstFlood))
}

// sample is one premium scan: its latency and where it went.
type sample struct {
	total     time.Duration
	admission time.Duration // waiting for an admission slot
	nodeWait  time.Duration // queued at the node
	service   time.Duration // served at the node
	ahead     int           // most requests a round trip found at the node
}

// totals returns the samples' latencies, sorted.
func totals(ss []sample) []time.Duration {
	d := make([]time.Duration, len(ss))
	for i, s := range ss {
		d[i] = s.total
	}
	slices.Sort(d)
	return d
}

// breakdown says where the time of the median scan and of the slowest
// 1% (the p99 and above) went: admission wait, node queue, service and
// the rest (the engine and the scheduler), and the most requests found
// at the node.
func breakdown(ss []sample) string {
	ss = slices.Clone(ss)
	slices.SortFunc(ss, func(a, b sample) int { return int(a.total - b.total) })
	if len(ss) == 0 {
		return "no samples"
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	one := func(s sample) string {
		return fmt.Sprintf("%.1f ms = admission %.1f + node queue %.1f + service %.1f + rest %.1f (ahead %d)",
			ms(s.total), ms(s.admission), ms(s.nodeWait), ms(s.service), ms(s.total-s.admission-s.nodeWait-s.service), s.ahead)
	}
	queued, service := 0, time.Duration(0)
	for _, s := range ss {
		if s.nodeWait > time.Millisecond {
			queued++
		}
		service += s.service
	}
	out := fmt.Sprintf("%d of %d queued at the node over 1 ms, mean service %.1f ms; p50 %s",
		queued, len(ss), ms(service/time.Duration(len(ss))), one(ss[len(ss)/2]))
	for i := min(len(ss)-1, int(0.99*float64(len(ss)))); i < len(ss); i++ {
		out += "; " + one(ss[i])
	}
	return out
}

// floodRounds and premiumScans: each round measures premiumScans scans
// per premium client alone, then as many under the flood (240 samples
// each). Short rounds (about a second per phase) put the phases side by
// side in time: on a shared machine the load of others comes in bursts of
// seconds, and the p99 of 240 samples is the third-slowest, so a burst
// that fell in one long phase only would decide the ratio.
const (
	floodRounds  = 12
	premiumScans = 10
)

// limitObserver keeps the adaptive limit's values.
type limitObserver struct {
	mu     sync.Mutex
	limits []int
}

func (*limitObserver) ScanDuration(string, time.Duration) {}
func (*limitObserver) QueueDepth(string, int)             {}
func (*limitObserver) CacheLookup(bool)                   {}
func (*limitObserver) DedupeShared()                      {}
func (o *limitObserver) ScanLimit(n int) {
	o.mu.Lock()
	o.limits = append(o.limits, n)
	o.mu.Unlock()
}

// since returns the values from the i-th on.
func (o *limitObserver) since(i int) []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.limits[min(i, len(o.limits)):])
}
