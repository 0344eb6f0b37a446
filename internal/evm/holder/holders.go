package holder

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// TransferTopic is the topic of ERC-20 Transfer(address,address,uint256).
var TransferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// HolderBudget bounds a holder rebuild.
type HolderBudget struct {
	// Duration is the time the rebuild may take (default 3s); past it the
	// result is partial.
	Duration time.Duration
	// MaxBlocks bounds the range scanned, counted back from the latest
	// block (0: from the first block).
	MaxBlocks uint64
	// InitialRange is the first page's block span (0: the whole range,
	// split on the provider's "too many results" answers).
	InitialRange uint64
	// MinRange is the smallest page split to before giving up (default 1).
	MinRange uint64
	// NoLocate disables the search for the token's creation block that
	// follows a refused first page.
	NoLocate bool
	// Parallel is how many pages are fetched at once (default 4).
	Parallel int
	// FirstMint, when set, is called once with the first mint's recipient
	// as soon as it is read, before the rebuild ends (a creator hint for
	// work that cannot wait for the whole scan).
	FirstMint func(common.Address)
}

// HolderScan is the outcome of a holder rebuild from Transfer logs.
type HolderScan struct {
	// Complete is true when every block from FromBlock (the first block)
	// to ToBlock was read.
	Complete bool
	// FromBlock and ToBlock are the range requested; Reached is the last
	// block read when the rebuild stopped early.
	FromBlock, ToBlock, Reached uint64
	Transfers                   int
	// Pages counts eth_getLogs requests, Splits the range halvings.
	Pages, Splits int
	// Balances are the rebuilt balances (positive only after Holders()).
	Balances map[common.Address]*big.Int
	// FirstMintTo receives the first mint (from the zero address).
	FirstMintTo *common.Address
	// FirstIn is, per address, the log of the first transfer it received.
	FirstIn map[common.Address]Seen
	// LastIn is, per address, the log of the last transfer it received
	// (its sender tells a buy from a pool); Sent holds every address that
	// sent a transfer (the real holders' sells read a balance below the
	// logs' of one that never sent as siphoned).
	LastIn map[common.Address]Seen
	Sent   map[common.Address]bool
	// StopReason says why the rebuild stopped early ("" when complete).
	StopReason string
	// Created is the token's creation block when it was located (the
	// scan then starts there and can still be complete).
	Created *uint64

	FirstMintBlock uint64
}

// Seen is when something happened: a block, and its timestamp when the
// node reports one (0 otherwise); for a first receipt, the log's index in
// its block and the sender (the zero address for a mint).
type Seen struct {
	Block, Time uint64
	Index       uint
	from        common.Address
}

// before orders sightings by block, then log index.
func (s Seen) before(o Seen) bool {
	return s.Block < o.Block || s.Block == o.Block && s.Index < o.Index
}

// Holder is one holder's balance.
type Holder struct {
	Address common.Address
	Balance *big.Int
}

// Holders returns the addresses with a positive balance, largest first
// (ties by address, so the order is stable).
func (s *HolderScan) Holders() []Holder {
	var out []Holder
	for a, b := range s.Balances {
		if b.Sign() > 0 && a != (common.Address{}) {
			out = append(out, Holder{a, b})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if c := out[i].Balance.Cmp(out[j].Balance); c != 0 {
			return c > 0
		}
		return out[i].Address.Cmp(out[j].Address) < 0
	})
	return out
}

// tooMuch reports whether an eth_getLogs error asks for a smaller range:
// providers word it as "query returned more than 10000 results", "block
// range is too large", "limit exceeded", "response size exceeded", …
func TooMuch(err error) bool {
	var re *node.RPCError
	if errors.As(err, &re) && re.Code == -32005 {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, s := range []string{"too many", "more than", "range", "limit", "exceed", "too large", "size", "timeout", "timed out"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	var te *node.TransportError
	return errors.As(err, &te) && te.Timeout
}

// RebuildHolders replays token's Transfer logs up to block latest within
// budget. The whole range is asked first; when the provider refuses it
// ("too many results", "range too large"), the token's creation block is
// located and the range is split (into pieces of the largest span that
// worked, else halves), and pieces are fetched by budget.Parallel workers.
// Logs are applied in any order (balances are sums; first sightings keep
// the lowest block). A result is always returned unless no page at all
// could be read; past the budget it is partial (Complete false).
func RebuildHolders(ctx context.Context, c *node.Client, token common.Address, latest uint64, budget HolderBudget) (*HolderScan, error) {
	if budget.Duration <= 0 {
		budget.Duration = 3 * time.Second
	}
	if budget.MinRange == 0 {
		budget.MinRange = 1
	}
	if budget.Parallel <= 0 {
		budget.Parallel = 4
	}
	from := uint64(0)
	if budget.MaxBlocks > 0 && latest+1 > budget.MaxBlocks {
		from = latest + 1 - budget.MaxBlocks
	}
	s := &HolderScan{
		FromBlock: from, ToBlock: latest,
		Balances: map[common.Address]*big.Int{},
		FirstIn:  map[common.Address]Seen{},
	}
	deadline := time.Now().Add(budget.Duration)
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()

	w := &logWalk{s: s, c: c, token: token, latest: latest, start: from, budget: budget, ctx: dctx}
	w.cond = sync.NewCond(&w.mu)
	w.queue = chunks(blockRange{from, latest}, budget.InitialRange)
	var wg sync.WaitGroup
	for range budget.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work()
		}()
	}
	wg.Wait()

	if !w.read && w.lastErr != nil {
		return nil, w.lastErr
	}
	if s.Created != nil && *s.Created > s.FromBlock {
		s.FromBlock = *s.Created
	}
	// Reached is the end of the contiguous prefix read.
	sort.Slice(w.done, func(i, j int) bool { return w.done[i].from < w.done[j].from })
	next := w.start
	for _, r := range w.done {
		if r.from != next {
			break
		}
		next = r.to + 1
	}
	if next > w.start {
		s.Reached = next - 1
	}
	covered := next > latest
	s.Complete = covered && (from == 0 || s.Created != nil && *s.Created >= from)
	switch {
	case w.stopReason != "":
		s.StopReason = w.stopReason
	case covered && !s.Complete:
		s.StopReason = "range budget: blocks before the window were not read"
	}
	return s, nil
}

// blockRange is an inclusive block range.
type blockRange struct{ from, to uint64 }

func (r blockRange) span() uint64 { return r.to - r.from + 1 }

// chunks cuts r into pieces of at most size blocks (0: one piece).
func chunks(r blockRange, size uint64) []blockRange {
	if size == 0 || r.span() <= size {
		return []blockRange{r}
	}
	var out []blockRange
	for f := r.from; f <= r.to; f += size {
		t := f + size - 1
		if t > r.to || t < f {
			t = r.to
		}
		out = append(out, blockRange{f, t})
		if t == r.to {
			break
		}
	}
	return out
}

// logWalk is the shared state of a rebuild's workers.
type logWalk struct {
	s      *HolderScan
	c      *node.Client
	token  common.Address
	latest uint64
	start  uint64 // first block of the scan (moves to the creation block)
	budget HolderBudget
	ctx    context.Context

	mu         sync.Mutex
	cond       *sync.Cond
	queue      []blockRange
	inflight   int
	done       []blockRange
	okSpan     uint64
	read       bool
	located    bool
	stopped    bool
	stopReason string
	lastErr    error
}

func (w *logWalk) stop(reason string) {
	if !w.stopped {
		w.stopped, w.stopReason = true, reason
	}
}

// work fetches ranges until none is left or the walk stops.
func (w *logWalk) work() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		for len(w.queue) == 0 && w.inflight > 0 && !w.stopped {
			w.cond.Wait()
		}
		if w.stopped || len(w.queue) == 0 {
			w.cond.Broadcast()
			return
		}
		r := w.queue[0]
		w.queue = w.queue[1:]
		w.inflight++
		w.mu.Unlock()
		logs, err := w.fetch(r)
		w.mu.Lock()
		w.inflight--
		w.handle(r, logs, err)
		w.cond.Broadcast()
	}
}

func (w *logWalk) fetch(r blockRange) ([]types.Log, error) {
	if err := w.ctx.Err(); err != nil {
		return nil, err
	}
	var logs []types.Log
	elems := []rpc.BatchElem{{Method: "eth_getLogs", Args: []any{node.LogFilter{
		FromBlock: hexutil.Uint64(r.from), ToBlock: hexutil.Uint64(r.to),
		Address: []common.Address{w.token}, Topics: [][]common.Hash{{TransferTopic}},
	}}, Result: &logs}}
	err := w.c.Batch(w.ctx, elems)
	if err == nil {
		err = elems[0].Error
	}
	return logs, err
}

// handle records one page's outcome (with w.mu held).
func (w *logWalk) handle(r blockRange, logs []types.Log, err error) {
	s := w.s
	s.Pages++
	if err == nil {
		s.apply(logs)
		if !w.read && r.from == w.start && s.FirstMintTo != nil && w.budget.FirstMint != nil {
			w.budget.FirstMint(*s.FirstMintTo)
			w.budget.FirstMint = nil
		}
		w.read = true
		w.done = append(w.done, r)
		w.okSpan = max(w.okSpan, r.span())
		return
	}
	w.lastErr = err
	if w.ctx.Err() != nil {
		w.stop("time budget reached")
		return
	}
	if !TooMuch(err) {
		w.stop("provider refused the log query: " + err.Error())
		return
	}
	if !w.read && !w.located && r.from == 0 && r.to == w.latest && !w.budget.NoLocate {
		// Whole history refused: skip the blocks before the token existed
		// rather than paging through them.
		w.located = true
		w.mu.Unlock()
		b, lerr := LocateCreation(w.ctx, w.c, w.token, w.latest)
		w.mu.Lock()
		if lerr == nil {
			s.Created = &b
			w.start = b
			r = blockRange{b, w.latest}
		}
	}
	if r.span() < 2 || r.span()/2 < w.budget.MinRange {
		w.stop("provider refused the log query: " + err.Error())
		return
	}
	s.Splits++
	if w.okSpan > 0 && r.span() > w.okSpan {
		w.queue = append(w.queue, chunks(r, w.okSpan)...)
		return
	}
	half := r.from + r.span()/2
	w.queue = append(w.queue, blockRange{r.from, half - 1}, blockRange{half, r.to})
}

func (s *HolderScan) apply(logs []types.Log) {
	for _, l := range logs {
		if l.Removed || len(l.Topics) != 3 || l.Topics[0] != TransferTopic || len(l.Data) < 32 {
			continue // ERC-721 style (indexed value) or malformed
		}
		from := common.BytesToAddress(l.Topics[1].Bytes())
		to := common.BytesToAddress(l.Topics[2].Bytes())
		v := new(big.Int).SetBytes(l.Data[:32])
		s.Transfers++
		if from == (common.Address{}) {
			if s.FirstMintTo == nil || l.BlockNumber < s.FirstMintBlock {
				t := to
				s.FirstMintTo, s.FirstMintBlock = &t, l.BlockNumber
			}
		} else {
			b := s.balance(from)
			b.Sub(b, v)
			if s.Sent == nil {
				s.Sent = map[common.Address]bool{}
			}
			s.Sent[from] = true
		}
		b := s.balance(to)
		b.Add(b, v)
		n := Seen{Block: l.BlockNumber, Time: l.BlockTimestamp, Index: l.Index, from: from}
		if !s.seen(to) || n.before(s.FirstIn[to]) {
			s.FirstIn[to] = n
		}
		if s.LastIn == nil {
			s.LastIn = map[common.Address]Seen{}
		}
		if last, ok := s.LastIn[to]; !ok || last.before(n) {
			s.LastIn[to] = n
		}
	}
}

func (s *HolderScan) seen(a common.Address) bool {
	_, ok := s.FirstIn[a]
	return ok
}

func (s *HolderScan) balance(a common.Address) *big.Int {
	b, ok := s.Balances[a]
	if !ok {
		b = new(big.Int)
		s.Balances[a] = b
	}
	return b
}

// locateFanout is how many blocks one search round asks about.
const locateFanout = 16

// LocateCreation finds the first block at which token has code, by a
// 16-way search over eth_getCode at historical blocks (one batch per
// round, about five rounds on a 20M-block chain). It needs a node that
// serves historical state; an error means the block is unknown.
func LocateCreation(ctx context.Context, c *node.Client, token common.Address, latest uint64) (uint64, error) {
	lo, hi := uint64(0), latest // invariant: no code at lo-1 is unknown; code at hi
	for hi-lo > 1 {
		step := (hi - lo) / locateFanout
		if step == 0 {
			step = 1
		}
		var blocks []uint64
		for b := lo + step; b < hi; b += step {
			blocks = append(blocks, b)
		}
		codes := make([]hexutil.Bytes, len(blocks))
		elems := make([]rpc.BatchElem, len(blocks))
		for i, b := range blocks {
			elems[i] = rpc.BatchElem{Method: "eth_getCode", Args: []any{token, hexutil.Uint64(b)}, Result: &codes[i]}
		}
		if err := c.Batch(ctx, elems); err != nil {
			return 0, err
		}
		newLo, newHi := lo, hi
		for i, b := range blocks {
			if elems[i].Error != nil {
				return 0, fmt.Errorf("eth_getCode at block %d: %w", b, elems[i].Error)
			}
			if len(codes[i]) > 0 {
				newHi = b
				break
			}
			newLo = b
		}
		if newLo == lo && newHi == hi {
			break
		}
		lo, hi = newLo, newHi
	}
	if lo == 0 {
		var code hexutil.Bytes
		if err := c.Call(ctx, &code, "eth_getCode", token, hexutil.Uint64(0)); err == nil && len(code) > 0 {
			return 0, nil
		}
	}
	return hi, nil
}

// isBurn reports whether a is the zero or the conventional dead address.
func IsBurn(a common.Address) bool {
	return a == (common.Address{}) || a == common.HexToAddress("0x000000000000000000000000000000000000dEaD")
}

// topHolders are the largest holders of a scan (nil scan: none).
func TopHolders(hs *HolderScan) []Holder {
	if hs == nil {
		return nil
	}
	top := hs.Holders()
	if len(top) > 50 {
		top = top[:50]
	}
	return top
}
