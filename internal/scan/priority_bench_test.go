package scan_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
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
// round trip holds a worker for `service`, and the others queue for one
// (FIFO). A scan is `trips` sequential round trips, so alone it takes
// trips × service, and with n scans running on the node about n/workers
// times that.
type node struct {
	workers chan struct{}
	service time.Duration
	trips   int
}

func newNode(workers, trips int, service time.Duration) *node {
	return &node{workers: make(chan struct{}, workers), service: service, trips: trips}
}

func (n *node) adapter() scan.Adapter {
	return &fakeAdapter{kind: chains.EVM, assess: func(ctx context.Context, _ scan.Request) (*scan.Assessment, error) {
		for range n.trips {
			select {
			case n.workers <- struct{}{}:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			time.Sleep(n.service)
			<-n.workers
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
// that serves 4 requests at once (a scan is 5 round trips of 20 ms: 100 ms
// alone). Premium (two clients, sequential scans) is measured alone, then
// beside 40 free and 40 pro clients that scan back to back (pausing 20 ms
// after a 503), in floodRounds rounds so that the machine's own load
// weighs on both phases alike. It prints premium p50/p99 unloaded and
// under flood, the p99 ratio, free and pro scans/s under flood and the
// mean limit while premium was measured under the flood (each value is
// logged), for the adaptive limit (the default) and for fixed limits of
// 32 (the former default) and 4. Run it once: -benchtime 1x.
func BenchmarkPriorityUnderFlood(b *testing.B) {
	configs := []struct {
		name string
		opts scan.EngineOptions
	}{
		{"adaptive", scan.EngineOptions{}},
		{"fixed32", scan.EngineOptions{MinConcurrent: 32, MaxConcurrent: 32, PremiumReserve: -1}},
		{"fixed4", scan.EngineOptions{MinConcurrent: 4, MaxConcurrent: 4, PremiumReserve: -1}},
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
	n := newNode(4, 5, 20*time.Millisecond)
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
	scanAs := func(p scan.Priority) (time.Duration, error) {
		start := time.Now()
		_, err := e.Scan(ctx, scan.ScanRequest{Address: randomAddress(), Chains: chainsOf, Priority: p})
		return time.Since(start), err
	}
	premium := func(perClient int) []time.Duration {
		var mu sync.Mutex
		var lat []time.Duration
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for range perClient {
					d, err := scanAs(scan.PriorityHigh)
					if err != nil {
						b.Error(err)
						return
					}
					mu.Lock()
					lat = append(lat, d)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		slices.Sort(lat)
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
	// own load, which drifts over seconds, weighs on both alike.
	var unloaded, flood []time.Duration
	var low, normal, refused atomic.Int64
	var elapsed float64
	var limits []int
	for range floodRounds {
		unloaded = append(unloaded, premium(premiumScans)...)
		stop := make(chan struct{})
		var done [scan.PriorityHigh + 1]atomic.Int64
		var wg sync.WaitGroup
		for _, p := range []scan.Priority{scan.PriorityLow, scan.PriorityNormal} {
			for range 40 {
				wg.Go(func() {
					for {
						select {
						case <-stop:
							return
						default:
						}
						_, err := scanAs(p)
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
		flood = append(flood, premium(premiumScans)...)
		elapsed += time.Since(start).Seconds()
		low.Add(done[scan.PriorityLow].Load() - low0)
		normal.Add(done[scan.PriorityNormal].Load() - normal0)
		limits = append(limits, lo.since(mark)...) // while premium was measured under the flood
		close(stop)
		wg.Wait()
	}
	slices.Sort(unloaded)
	slices.Sort(flood)

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
}

// floodRounds and premiumScans: each round measures premiumScans scans
// per premium client alone, then as many under the flood.
const (
	floodRounds  = 3
	premiumScans = 40
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
