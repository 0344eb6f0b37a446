package holder

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"

	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/insider"
)

// insiderRecipients bounds the recipients the insider query asks about
// (the top holders the holder analysis lists, and the pools).
const insiderRecipients = analysis.EVMTopHolders + 8

// insiderQuery establishes the first receipts of the top holders and the
// pools when the holder rebuild did not read the token's whole history:
// one eth_getLogs over the token's Transfer logs whose recipient (topic 2)
// is one of them, since the token's creation. It is one call folded into
// a batch the scan sends anyway (round trip 3, or the holders' round trip
// when the rebuild outlived it): no request or round trip of its own.
type InsiderQuery struct {
	Elems []rpc.BatchElem
	logs  []types.Log
	From  uint64
	// bounded is set when the query starts at an operator's window
	// (HolderBudget.MaxBlocks) rather than the token's creation: a
	// receipt it finds is then only an upper bound of the first one.
	Bounded bool
	// answered is set once the node answered the call.
	answered bool
}

// newInsiderQuery returns nil when no query is needed (the rebuild read
// everything) or possible (no holders known).
func NewInsiderQuery(token common.Address, hs *HolderScan, pools []pool.Pool, latest uint64) *InsiderQuery {
	if hs == nil || hs.Complete {
		return nil
	}
	var to []common.Hash
	for _, h := range TopHolders(hs) {
		if len(to) == analysis.EVMTopHolders {
			break
		}
		to = append(to, common.BytesToHash(h.Address.Bytes()))
	}
	if len(to) == 0 {
		return nil
	}
	for _, p := range pools {
		if len(to) == insiderRecipients {
			break
		}
		to = append(to, common.BytesToHash(p.Address.Bytes()))
	}
	// From the token's creation when the rebuild located it, else from
	// its own start: the first block, or the operator's window, which
	// the query respects (its receipts are then bounds only).
	q := &InsiderQuery{From: hs.FromBlock, Bounded: hs.FromBlock > 0}
	if hs.Created != nil {
		q.From, q.Bounded = *hs.Created, false
	}
	q.Elems = []rpc.BatchElem{{Method: "eth_getLogs", Args: []any{node.LogFilter{
		FromBlock: hexutil.Uint64(q.From), ToBlock: hexutil.Uint64(latest),
		Address: []common.Address{token}, Topics: [][]common.Hash{{TransferTopic}, nil, to},
	}}, Result: &q.logs}}
	return q
}

// read records the answer after the batch was sent (sent: the node
// answered the batch).
func (q *InsiderQuery) Read(sent bool) {
	if q != nil && sent && q.Elems[0].Error == nil {
		q.answered = true
	}
}

// firstReceipts are the first token receipts the insider check reads: from
// the rebuild when it read the whole history, else from the insider query,
// else none (nil).
func firstReceipts(hs *HolderScan, q *InsiderQuery) map[common.Address]Seen {
	switch {
	case hs == nil:
		return nil
	case hs.Complete:
		return hs.FirstIn
	case q == nil || !q.answered:
		return nil
	}
	s := &HolderScan{Balances: map[common.Address]*big.Int{}, FirstIn: map[common.Address]Seen{}}
	s.apply(q.logs)
	return s.FirstIn
}

// insiderFacts fills the holder facts the insider check needs: each top
// holder's first receipt and its sender, and the blocks the pools received
// their first tokens. A mint in the token's first mint block counts as
// sent by the creator (the deployer's own mint); a later mint has no
// sender.
func InsiderFacts(hf *analysis.EVMHolderFacts, hs *HolderScan, q *InsiderQuery, pools []pool.Pool, creator *common.Address) {
	first := firstReceipts(hs, q)
	if q != nil {
		hf.InsiderCost = insider.Cost{Calls: 1}
	}
	if first == nil {
		return
	}
	hf.InsidersRead = true
	bounded := q != nil && q.Bounded && !hs.Complete
	at := func(b uint64) insider.Span {
		if bounded {
			return insider.Span{Lo: 0, Hi: b} // an earlier receipt may lie before the window
		}
		return insider.At(b)
	}
	for _, p := range pools {
		if seen, ok := first[p.Address]; ok {
			hf.Launch = append(hf.Launch, at(seen.Block))
		}
	}
	mintBlock, minted := uint64(0), false
	if hs.FirstMintTo != nil {
		mintBlock, minted = hs.FirstMintBlock, true
	}
	for i := range hf.Top {
		hb := &hf.Top[i]
		seen, ok := first[common.HexToAddress(hb.Address)]
		if !ok {
			continue
		}
		span := at(seen.Block)
		hb.First = &span
		if bounded {
			continue // the sender of the first receipt is unknown
		}
		from := ""
		switch {
		case seen.from != (common.Address{}):
			from = seen.from.Hex()
		case minted && seen.Block == mintBlock && creator != nil:
			from = creator.Hex()
		}
		hb.FirstFrom = &from
	}
}
