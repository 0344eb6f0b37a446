package evm

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
)

// The V4 pool search: round trip 1 asks each PoolManager's Initialize
// logs from its deployment block to the latest in one eth_getLogs per
// currency side. Providers cap a query's block range or results ("block
// range too large", "query returned more than 10000 results", -32005): a
// refused range is then searched again in windows, the most recent first
// (a token's pool is mostly initialized at its launch, and scans are
// mostly of new tokens), at most maxV4Windows of them per deployment in
// ONE follow-up batch before round trip 2 (no extra request when nothing
// was refused). A search that did not reach the deployment block is
// partial: the pools it found are kept, a warning names the blocks
// searched, and the pools check is unchecked (never "no V4 pool").
const (
	maxV4Windows = 8
	// defaultV4Window is a window's span when the refusal names no limit
	// (2,000 blocks: what the strictest common providers let through).
	defaultV4Window = 2_000
)

// v4Search is round trip 1's V4 part on one chain.
type v4Search struct {
	token   common.Address
	queries []*v4.LogQuery
	dexes   []chains.DEX
	// pools are the token's V4 pools (every deployment), dexOf their
	// deployment; err is set when a log search failed (V4 pools are then
	// unknown, not absent); refused are the queries whose range the node
	// refused (searched again in windows), partial the warnings of
	// searches that did not reach a deployment block.
	pools   []v4.Pool
	dexOf   []chains.DEX
	err     error
	refused []v4Refusal
	partial []string
}

// v4Refusal is a query whose range the node refused, and why.
type v4Refusal struct {
	query int
	err   error
}

// newV4Search plans the log search on every V4 deployment of ch; nil when
// the chain has none.
func newV4Search(ch chains.Chain, token common.Address) *v4Search {
	vs := v4Search{token: token}
	for _, d := range ch.DEXes {
		if d.Kind != "v4" || d.PoolManager == "" {
			continue
		}
		vs.queries = append(vs.queries, v4.NewLogQuery(common.HexToAddress(d.PoolManager), token, d.FromBlock))
		vs.dexes = append(vs.dexes, d)
	}
	if len(vs.queries) == 0 {
		return nil
	}
	return &vs
}

func (vs *v4Search) add(plan *batchPlan) {
	if vs == nil {
		return
	}
	for _, q := range vs.queries {
		plan.add(q.Elems())
	}
}

// read decodes the answers after the batch.
func (vs *v4Search) read() {
	if vs == nil {
		return
	}
	for i, q := range vs.queries {
		ps, err := q.Pools()
		switch {
		case err != nil && holder.TooMuch(err):
			vs.refused = append(vs.refused, v4Refusal{query: i, err: err})
			continue
		case err != nil:
			vs.err = err
			continue
		}
		vs.keep(ps, vs.dexes[i])
	}
}

// keep keeps pools found in deployment d, each once.
func (vs *v4Search) keep(ps []v4.Pool, d chains.DEX) {
	for _, p := range ps {
		seen := false
		for _, q := range vs.pools {
			seen = seen || q.ID == p.ID && q.Manager == p.Manager
		}
		if !seen {
			vs.pools = append(vs.pools, p)
			vs.dexOf = append(vs.dexOf, d)
		}
	}
}

// v4Window is one window of a refused search.
type v4Window struct {
	q        *v4.LogQuery
	from, to uint64
}

// searchWindows searches the refused ranges again in windows below
// latest, in one batch sent with client; nothing is sent when no range
// was refused.
func (vs *v4Search) searchWindows(ctx context.Context, client *node.Client, latest uint64) {
	if vs == nil || len(vs.refused) == 0 {
		return
	}
	plans := make([][]v4Window, len(vs.refused))
	var elems []rpc.BatchElem
	for k, rf := range vs.refused {
		d := vs.dexes[rf.query]
		span := windowSpan(rf.err, latest-min(latest, d.FromBlock)+1)
		to := latest
		for range maxV4Windows {
			from := d.FromBlock
			if to+1 > span && to+1-span > from {
				from = to + 1 - span
			}
			q := v4.NewLogWindow(common.HexToAddress(d.PoolManager), vs.token, from, to)
			plans[k] = append(plans[k], v4Window{q: q, from: from, to: to})
			elems = append(elems, q.Elems()...)
			if from <= d.FromBlock {
				break
			}
			to = from - 1
		}
	}
	sent := client.Batch(ctx, elems)
	for k, rf := range vs.refused {
		d := vs.dexes[rf.query]
		// covered is the lowest block of the unbroken run of answered
		// windows from latest down; a window that failed ends the run
		// (pools found below it are still kept).
		covered, broken, answered := latest+1, false, 0
		for _, w := range plans[k] {
			var ps []v4.Pool
			err := sent
			if err == nil {
				ps, err = w.q.Pools()
			}
			if err != nil {
				broken = true
				continue
			}
			answered++
			vs.keep(ps, d)
			if !broken {
				covered = w.from
			}
		}
		switch {
		case answered == 0:
			vs.err = rf.err
		case covered > d.FromBlock:
			if covered > latest {
				vs.partial = append(vs.partial, fmt.Sprintf("the %s PoolManager's Initialize logs: the node refused the range from block %d (%s) and its most recent windows", d.Name, d.FromBlock, node.SafeErr(rf.err)))
			} else {
				vs.partial = append(vs.partial, fmt.Sprintf("V4 pools searched in blocks %d..%d only on %s (the node refused the range from block %d: %s); pools initialized earlier are unknown",
					covered, latest, d.Name, d.FromBlock, node.SafeErr(rf.err)))
			}
		}
	}
	vs.refused = nil
}

var limitPattern = regexp.MustCompile(`\b([0-9]{1,12})(k?)\b`)

// windowSpan is the span of a window below a refused range of span
// blocks: the limit the refusal names ("block range is too large, max
// 2000", "exceed maximum block range: 50000", "up to a 2K block range",
// "more than 10000 results"), the largest number in its message below
// span, else defaultV4Window.
func windowSpan(err error, span uint64) uint64 {
	best := uint64(0)
	for _, m := range limitPattern.FindAllStringSubmatch(strings.ToLower(err.Error()), -1) {
		n, e := strconv.ParseUint(m[1], 10, 64)
		if e != nil {
			continue
		}
		if m[2] == "k" {
			n *= 1000
		}
		if n >= 1 && n < span && n > best {
			best = n
		}
	}
	if best == 0 {
		return min(defaultV4Window, max(span, 1))
	}
	return best
}
