package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
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
	// StopReason says why the rebuild stopped early ("" when complete).
	StopReason string
	// Created is the token's creation block when it was located (the
	// scan then starts there and can still be complete).
	Created *uint64
}

// Seen is when something happened: a block, and its timestamp when the
// node reports one (0 otherwise).
type Seen struct {
	Block, Time uint64
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
func tooMuch(err error) bool {
	var re *RPCError
	if errors.As(err, &re) && re.Code == -32005 {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, s := range []string{"too many", "more than", "range", "limit", "exceed", "too large", "size", "timeout", "timed out"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	var te *TransportError
	return errors.As(err, &te) && te.Timeout
}

// RebuildHolders replays token's Transfer logs up to block latest,
// splitting the block range adaptively when the provider refuses a page,
// within budget. A result is always returned unless no page at all could
// be read; past the budget it is partial (Complete false).
func RebuildHolders(ctx context.Context, c *Client, token common.Address, latest uint64, budget HolderBudget) (*HolderScan, error) {
	if budget.Duration <= 0 {
		budget.Duration = 3 * time.Second
	}
	if budget.MinRange == 0 {
		budget.MinRange = 1
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

	span := latest - from + 1
	if budget.InitialRange > 0 && budget.InitialRange < span {
		span = budget.InitialRange
	}
	next := from
	var lastErr error
	read := false
	for next <= latest {
		if time.Now().After(deadline) {
			s.StopReason = "time budget reached"
			break
		}
		to := next + span - 1
		if to > latest || to < next {
			to = latest
		}
		var logs []types.Log
		elems := []rpc.BatchElem{{Method: "eth_getLogs", Args: []any{logFilter{
			FromBlock: hexutil.Uint64(next), ToBlock: hexutil.Uint64(to),
			Address: []common.Address{token}, Topics: [][]common.Hash{{TransferTopic}},
		}}, Result: &logs}}
		s.Pages++
		err := c.Batch(dctx, elems)
		if err == nil {
			err = elems[0].Error
		}
		if err != nil {
			lastErr = err
			if dctx.Err() != nil {
				s.StopReason = "time budget reached"
				break
			}
			if tooMuch(err) && !read && s.Created == nil && next == 0 && !budget.NoLocate {
				// Whole history refused: skip the blocks before the
				// token existed rather than paging through them.
				if b, lerr := LocateCreation(dctx, c, token, latest); lerr == nil {
					s.Created = &b
					next = b
					span = latest - b + 1
					continue
				}
			}
			if tooMuch(err) && to > next && span/2 >= budget.MinRange {
				span /= 2
				s.Splits++
				continue
			}
			s.StopReason = "provider refused the log query: " + err.Error()
			break
		}
		s.apply(logs)
		if s.FirstMintTo != nil && budget.FirstMint != nil {
			budget.FirstMint(*s.FirstMintTo)
			budget.FirstMint = nil
		}
		read = true
		s.Reached = to
		next = to + 1
		if span < latest-from+1 {
			span *= 2 // the split may have been local; grow back
		}
	}
	if !read && lastErr != nil {
		return nil, lastErr
	}
	s.Complete = next > latest && (s.FromBlock == 0 || s.Created != nil && *s.Created >= s.FromBlock)
	if s.Created != nil && *s.Created > s.FromBlock {
		s.FromBlock = *s.Created
	}
	if next > latest && !s.Complete {
		s.StopReason = "range budget: blocks before the window were not read"
	}
	return s, nil
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
			if s.FirstMintTo == nil {
				t := to
				s.FirstMintTo = &t
			}
		} else {
			b := s.balance(from)
			b.Sub(b, v)
		}
		b := s.balance(to)
		b.Add(b, v)
		if _, seen := s.FirstIn[to]; !seen {
			s.FirstIn[to] = Seen{Block: l.BlockNumber, Time: l.BlockTimestamp}
		}
	}
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
func LocateCreation(ctx context.Context, c *Client, token common.Address, latest uint64) (uint64, error) {
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
