package corpus

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/evm"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// Options tune Run.
type Options struct {
	// Workers is how many tokens are scanned at once (default 2).
	Workers int
	// Timeout bounds one token's scan (default 30s); a scan still running
	// after it (plus a grace second) is abandoned and counted a timeout.
	Timeout time.Duration
	// Progress, when set, is told after each token.
	Progress func(r Result)
}

// Result is one token's outcome.
type Result struct {
	Token  Token
	Seeded *Seeded
	// Flags are the report's risk flags; Report the whole report (nil
	// when none).
	Flags  []risk.Flag
	Report *scan.Report
	// Err is why the scan answered no report (e.g. not a token).
	Err error
	// Panicked and TimedOut say the scan crashed or hung.
	Panicked bool
	TimedOut bool
	Took     time.Duration
	// Upstream is what the scan asked of the node (seeding apart).
	Upstream Upstream
}

// errTimeout marks a scan abandoned at its deadline.
var errTimeout = errors.New("corpus: scan did not end in time")

// Run seeds every token on dn, then scans each with the EVM engine the
// service uses (evm.Adapter over the devnet's JSON-RPC, scan.Build),
// opts.Workers at a time. Results are in tokens' order.
func Run(ctx context.Context, dn *devnet.Devnet, tokens []Token, opts Options) ([]Result, error) {
	if opts.Workers <= 0 {
		opts.Workers = 2
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	ch, err := NewChain(ctx, dn, len(tokens))
	if err != nil {
		return nil, err
	}
	seeded, err := ch.Seed(ctx, tokens)
	if err != nil {
		return nil, err
	}
	reg, err := chains.Parse([]byte(`{"chains":[]}`))
	if err != nil {
		return nil, fmt.Errorf("corpus: registry: %w", err)
	}
	reg.Add(dn.Chain())
	ad := evm.NewAdapter(reg, evm.Options{Deadline: opts.Timeout, HTTPClient: meteredClient()})
	cat := risk.NewCatalogue()

	results := make([]Result, len(tokens))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := scanOne(ctx, ad, cat, seeded[i], opts.Timeout)
				r.Token = tokens[i]
				results[i] = r
				if opts.Progress != nil {
					mu.Lock()
					opts.Progress(r)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range tokens {
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return results, fmt.Errorf("corpus: %w", err)
	}
	return results, nil
}

// scanOne scans one seeded token, turning a panic or a hang into a
// result instead of a crash.
func scanOne(ctx context.Context, ad *evm.Adapter, cat *risk.Catalogue, s *Seeded, timeout time.Duration) Result {
	r := Result{Seeded: s}
	if !s.Deployed {
		r.Err = errors.New("corpus: not deployed: " + fmt.Sprint(s.Notes))
		return r
	}
	addr, err := chains.ParseAddress(s.Address.Hex())
	if err != nil {
		r.Err = err
		return r
	}
	ctx, meter := withMeter(ctx)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		rep      *scan.Report
		err      error
		panicked bool
	}
	done := make(chan answer, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{err: fmt.Errorf("corpus: scan panicked: %v", p), panicked: true}
			}
		}()
		as, err := ad.Assess(ctx, scan.Request{Address: addr, Chains: []string{devnet.ChainKey}})
		if err != nil {
			done <- answer{err: err}
			return
		}
		done <- answer{rep: scan.Build(cat, addr, as)}
	}()
	grace := time.NewTimer(timeout + time.Second)
	defer grace.Stop()
	select {
	case a := <-done:
		r.Took = time.Since(start)
		r.Err, r.Panicked = a.err, a.panicked
		if a.rep != nil {
			r.Flags, r.Report = a.rep.RiskFlags, a.rep
		}
	case <-grace.C:
		r.Took = time.Since(start)
		r.Err, r.TimedOut = errTimeout, true
	}
	r.Upstream = Upstream{Requests: meter.requests.Load(), Bytes: meter.bytes.Load()}
	return r
}
