package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// results are the measured figures of every round.
type results struct {
	alone, flood []time.Duration // premium latencies
	premiumErrs  int64
	// served, shed and failed are the free scans answered 200, 503 and
	// otherwise while premium was measured under the flood; window is
	// how long that was.
	served, shed, failed int64
	window               time.Duration
	rounds               []round
	load                 []string // /proc/loadavg before each round and at the end
	requests             int64
}

// round is one pair's figures.
type round struct {
	alone, flood   []time.Duration
	served, shed   int64
	window         time.Duration
	loadBefore     string
	stoppedByLimit bool
}

// client sends scans to the server.
type client struct {
	http     *http.Client
	url      string
	requests atomic.Int64
	max      int64
}

var errRequestBudget = fmt.Errorf("request budget spent")

// scan posts one scan; it returns the status and the Retry-After seconds.
func (c *client) scan(ctx context.Context, key, address string) (int, int, error) {
	if c.requests.Add(1) > c.max {
		return 0, 0, errRequestBudget
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/api/v1/scan",
		strings.NewReader(`{"address":"`+address+`"}`))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return 0, 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	retry, _ := strconv.Atoi(res.Header.Get("Retry-After"))
	return res.StatusCode, retry, nil
}

func measure(ctx context.Context, o options, s *server) (*results, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = o.free + o.premium + 8
	c := &client{http: &http.Client{Transport: tr, Timeout: time.Minute}, url: s.url, max: o.maxRequests}
	res := &results{}

	// premium runs o.premium clients scanning back to back for d and
	// returns their latencies (every scan is uncached: the TTL is 0).
	premium := func(d time.Duration) ([]time.Duration, error) {
		var mu sync.Mutex
		var lat []time.Duration
		var firstErr error
		stop := time.Now().Add(d)
		var wg sync.WaitGroup
		for i := range o.premium {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
				for time.Now().Before(stop) && ctx.Err() == nil {
					start := time.Now()
					status, _, err := c.scan(ctx, s.premium, s.tokens[rng.IntN(len(s.tokens))])
					d := time.Since(start)
					mu.Lock()
					switch {
					case err != nil:
						if firstErr == nil {
							firstErr = err
						}
					case status != http.StatusOK:
						res.premiumErrs++
					default:
						lat = append(lat, d)
					}
					mu.Unlock()
					if err != nil {
						return
					}
				}
			})
		}
		wg.Wait()
		return lat, firstErr
	}

	// Warm up: the server's admission learns the no-load latency.
	if _, err := premium(o.phase / 2); err != nil {
		return nil, err
	}
	for range o.rounds {
		r := round{loadBefore: loadavg()}
		lat, err := premium(o.phase)
		if err != nil {
			return nil, err
		}
		r.alone = lat

		fctx, stopFlood := context.WithCancel(ctx)
		var served, shed, failed atomic.Int64
		var wg sync.WaitGroup
		for i := range o.free {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(1000+i), uint64(time.Now().UnixNano())))
				for fctx.Err() == nil {
					status, retry, err := c.scan(fctx, s.free, s.tokens[rng.IntN(len(s.tokens))])
					switch {
					case err != nil:
						if fctx.Err() == nil {
							failed.Add(1)
							time.Sleep(50 * time.Millisecond)
						}
					case status == http.StatusOK:
						served.Add(1)
					case status == http.StatusServiceUnavailable:
						// A well-behaved client waits as told (bounded, so
						// that the flood stays a flood).
						shed.Add(1)
						sleep(fctx, min(time.Duration(max(retry, 0))*time.Second, time.Second))
					default:
						failed.Add(1)
					}
				}
			})
		}
		sleep(ctx, o.ramp)
		served0, shed0, start := served.Load(), shed.Load(), time.Now()
		lat, err = premium(o.phase)
		r.window = time.Since(start)
		r.served, r.shed = served.Load()-served0, shed.Load()-shed0
		stopFlood()
		wg.Wait()
		if err != nil && err != errRequestBudget {
			return nil, err
		}
		r.flood = lat
		r.stoppedByLimit = err == errRequestBudget
		res.rounds = append(res.rounds, r)
		res.alone = append(res.alone, r.alone...)
		res.flood = append(res.flood, r.flood...)
		res.served += r.served
		res.shed += r.shed
		res.failed += failed.Load()
		res.window += r.window
		res.load = append(res.load, r.loadBefore)
		if r.stoppedByLimit || ctx.Err() != nil {
			break
		}
	}
	res.load = append(res.load, loadavg())
	res.requests = c.requests.Load()
	return res, nil
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// loadavg is the machine's 1-minute load average and its core count.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(bytes.TrimSpace(b)))[0]
}

// pct is the q-quantile of sorted latencies.
func pct(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64)
}

func (r *results) print(w io.Writer, o options) {
	fmt.Fprintf(w, "flood: %d free clients (uncached scans, free plan unlimited), %d premium clients; %d paired rounds of %v alone / %v under the flood\n",
		o.free, o.premium, len(r.rounds), o.phase, o.phase)
	for i, rd := range r.rounds {
		a, f := slices.Sorted(slices.Values(rd.alone)), slices.Sorted(slices.Values(rd.flood))
		fmt.Fprintf(w, "round %d (load %s): premium alone p50 %s p99 %s ms (%d); under flood p50 %s p99 %s ms (%d); free %.1f served/s, %.1f shed/s\n",
			i+1, rd.loadBefore, ms(pct(a, .5)), ms(pct(a, .99)), len(a), ms(pct(f, .5)), ms(pct(f, .99)), len(f),
			float64(rd.served)/rd.window.Seconds(), float64(rd.shed)/rd.window.Seconds())
	}
	a, f := slices.Sorted(slices.Values(r.alone)), slices.Sorted(slices.Values(r.flood))
	ratio := 0.0
	if pct(a, .99) > 0 {
		ratio = float64(pct(f, .99)) / float64(pct(a, .99))
	}
	fmt.Fprintf(w, "premium alone:       p50 %s ms  p99 %s ms  (%d scans)\n", ms(pct(a, .5)), ms(pct(a, .99)), len(a))
	fmt.Fprintf(w, "premium under flood: p50 %s ms  p99 %s ms  (%d scans)  p99 ×%.2f\n", ms(pct(f, .5)), ms(pct(f, .99)), len(f), ratio)
	fmt.Fprintf(w, "free under flood:    %.1f served/s, %.1f shed (503)/s, %d other failures\n",
		float64(r.served)/r.window.Seconds(), float64(r.shed)/r.window.Seconds(), r.failed)
	fmt.Fprintf(w, "premium non-200: %d; requests sent: %d; load (1 min) per round and at the end: %s\n",
		r.premiumErrs, r.requests, strings.Join(r.load, " "))
}
