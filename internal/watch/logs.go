package watch

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// The event signatures one eth_getLogs asks for.
var (
	topicTransfer             = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	topicOwnershipTransferred = crypto.Keccak256Hash([]byte("OwnershipTransferred(address,address)"))
	topicUpgraded             = crypto.Keccak256Hash([]byte("Upgraded(address)"))
	topicPaused               = crypto.Keccak256Hash([]byte("Paused(address)"))
	topicUnpaused             = crypto.Keccak256Hash([]byte("Unpaused(address)"))
	topicBurn                 = crypto.Keccak256Hash([]byte("Burn(address,uint256,uint256,address)"))
	topicSync                 = crypto.Keccak256Hash([]byte("Sync(uint112,uint112)"))
)

// Topics are the first topics the log filter matches: ERC-20 Transfer
// (mints and burns of the token; LP shares leaving a burn address or a
// locker on the pool), OwnershipTransferred, Upgraded (EIP-1967),
// Paused/Unpaused, and a V2 pool's Burn and Sync.
var Topics = []common.Hash{topicTransfer, topicOwnershipTransferred, topicUpgraded, topicPaused, topicUnpaused, topicBurn, topicSync}

// Batcher sends JSON-RPC calls as one batch (*node.Client implements it).
type Batcher interface {
	Call(ctx context.Context, result any, method string, args ...any) error
	Batch(ctx context.Context, elems []rpc.BatchElem) error
}

// LogSource reads the chain head and the logs of many addresses.
type LogSource interface {
	Head(ctx context.Context) (uint64, error)
	// Logs returns the logs of addrs with one of topics first, in blocks
	// from..to, in chain order.
	Logs(ctx context.Context, from, to uint64, addrs []common.Address, topics []common.Hash) ([]types.Log, error)
}

// NonceSource also reads accounts' transaction counts at the block the
// logs end at, in the same round trip: a privileged address's own
// transaction (a fee set, a blacklist entry) announces nothing in the
// token's logs, but it moves the sender's nonce.
type NonceSource interface {
	LogSource
	// LogsAndNonces is Logs plus the nonce of each of accounts at block
	// to; with from past to, the nonces alone.
	LogsAndNonces(ctx context.Context, from, to uint64, addrs []common.Address, topics []common.Hash, accounts []common.Address) ([]types.Log, []uint64, error)
}

// RPCLogs is a LogSource (and a NonceSource) over JSON-RPC: all the address chunks of one
// tick go in one batch, one HTTP request.
type RPCLogs struct {
	Client Batcher
	// MaxAddresses is the node's limit of addresses per filter; 0 means
	// 1000 (go-ethereum's default).
	MaxAddresses int
}

// Head implements LogSource.
func (r RPCLogs) Head(ctx context.Context) (uint64, error) {
	var n hexutil.Uint64
	if err := r.Client.Call(ctx, &n, "eth_blockNumber"); err != nil {
		return 0, fmt.Errorf("watch: head: %w", err)
	}
	return uint64(n), nil
}

type logFilter struct {
	FromBlock string           `json:"fromBlock"`
	ToBlock   string           `json:"toBlock"`
	Address   []common.Address `json:"address"`
	Topics    [][]common.Hash  `json:"topics"`
}

// Logs implements LogSource: ceil(len(addrs)/MaxAddresses) eth_getLogs
// calls in one batch.
func (r RPCLogs) Logs(ctx context.Context, from, to uint64, addrs []common.Address, topics []common.Hash) ([]types.Log, error) {
	logs, _, err := r.LogsAndNonces(ctx, from, to, addrs, topics, nil)
	return logs, err
}

// LogsAndNonces implements NonceSource: the eth_getLogs calls and one
// eth_getTransactionCount per account at block to, in one batch.
// With from past to it reads only the nonces (at block to).
func (r RPCLogs) LogsAndNonces(ctx context.Context, from, to uint64, addrs []common.Address, topics []common.Hash, accounts []common.Address) ([]types.Log, []uint64, error) {
	if from > to {
		addrs = nil
	}
	if len(addrs) == 0 && len(accounts) == 0 {
		return nil, nil, nil
	}
	size := r.MaxAddresses
	if size <= 0 {
		size = 1000
	}
	var elems []rpc.BatchElem
	var results []*[]types.Log
	for i := 0; i < len(addrs); i += size {
		chunk := addrs[i:min(i+size, len(addrs))]
		res := new([]types.Log)
		results = append(results, res)
		elems = append(elems, rpc.BatchElem{Method: "eth_getLogs", Result: res, Args: []any{logFilter{
			FromBlock: hexutil.EncodeUint64(from), ToBlock: hexutil.EncodeUint64(to), Address: chunk, Topics: [][]common.Hash{topics},
		}}})
	}
	nLogs := len(elems)
	counts := make([]hexutil.Uint64, len(accounts))
	for i, a := range accounts {
		elems = append(elems, rpc.BatchElem{Method: "eth_getTransactionCount", Result: &counts[i], Args: []any{a, hexutil.EncodeUint64(to)}})
	}
	if err := r.Client.Batch(ctx, elems); err != nil {
		return nil, nil, fmt.Errorf("watch: logs: %w", err)
	}
	var out []types.Log
	for i, e := range elems[:nLogs] {
		if e.Error != nil {
			return nil, nil, fmt.Errorf("watch: logs: %w", e.Error)
		}
		out = append(out, *results[i]...)
	}
	sortLogs(out)
	nonces := make([]uint64, len(accounts))
	for i, e := range elems[nLogs:] {
		if e.Error != nil {
			return nil, nil, fmt.Errorf("watch: nonce of %s: %w", accounts[i].Hex(), e.Error)
		}
		nonces[i] = uint64(counts[i])
	}
	return out, nonces, nil
}

// sortLogs puts the chunks' logs in chain order: by block, then index.
func sortLogs(logs []types.Log) {
	slices.SortStableFunc(logs, func(a, b types.Log) int {
		if c := cmp.Compare(a.BlockNumber, b.BlockNumber); c != 0 {
			return c
		}
		return cmp.Compare(a.Index, b.Index)
	})
}

// topicAddress reads an indexed address topic.
func topicAddress(h common.Hash) common.Address { return common.BytesToAddress(h[12:]) }

// syncReserves decodes a V2 Sync log's two reserves.
func syncReserves(data []byte) (r0, r1 *big.Int, ok bool) {
	if len(data) != 64 {
		return nil, nil, false
	}
	return new(big.Int).SetBytes(data[:32]), new(big.Int).SetBytes(data[32:]), true
}
