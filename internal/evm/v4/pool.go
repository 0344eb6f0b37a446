// Package v4 reads a token's Uniswap V4 pools: it finds them by the
// PoolManager's Initialize logs (the token as the indexed currency0 or
// currency1), reads each pool's price, fee and in-range liquidity through
// the PoolManager's storage view (extsload), and simulates a buy, a
// transfer and a sell through a pool with its hooks running (the
// V4Simulator contract, placed by state override).
package v4

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// InitializeTopic is the PoolManager's Initialize event:
// Initialize(PoolId indexed id, Currency indexed currency0, Currency indexed
// currency1, uint24 fee, int24 tickSpacing, IHooks hooks, uint160
// sqrtPriceX96, int24 tick).
var InitializeTopic = crypto.Keccak256Hash([]byte("Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)"))

// DynamicFee is the fee value of a key whose LP fee the hook sets.
const DynamicFee = 0x800000

// poolsSlot is the PoolManager's storage slot of mapping(PoolId =>
// Pool.State); a pool's state starts at keccak256(id . slot): slot0 there,
// the in-range liquidity three slots on.
const (
	poolsSlot       = 6
	liquidityOffset = 3
)

// Key is a pool's key; its hash is the pool id.
type Key struct {
	Currency0, Currency1 common.Address // address zero is the native coin
	Fee                  uint32         // hundredths of a bp, or DynamicFee
	TickSpacing          int32
	Hooks                common.Address // the low 14 bits are its permissions
}

// ID is keccak256 of the ABI-encoded key.
func (k Key) ID() common.Hash {
	buf := make([]byte, 0, 160)
	buf = append(buf, common.LeftPadBytes(k.Currency0.Bytes(), 32)...)
	buf = append(buf, common.LeftPadBytes(k.Currency1.Bytes(), 32)...)
	buf = append(buf, common.LeftPadBytes(big.NewInt(int64(k.Fee)).Bytes(), 32)...)
	buf = append(buf, int256Word(int64(k.TickSpacing))...)
	buf = append(buf, common.LeftPadBytes(k.Hooks.Bytes(), 32)...)
	return crypto.Keccak256Hash(buf)
}

// Other is the currency of the key that is not token.
func (k Key) Other(token common.Address) common.Address {
	if k.Currency0 == token {
		return k.Currency1
	}
	return k.Currency0
}

// Pool is one V4 pool of the token.
type Pool struct {
	// Manager is the PoolManager the pool lives in.
	Manager common.Address
	Key     Key
	ID      common.Hash
	// Block is the block of its Initialize log.
	Block uint64
	// State is nil until read (StateCall), or when it could not be.
	State *State
}

// State is a pool's slot0 and in-range liquidity.
type State struct {
	SqrtPriceX96 *big.Int
	Tick         int32
	ProtocolFee  uint32
	LPFee        uint32 // hundredths of a bp (1 000 000 = 100%)
	Liquidity    *big.Int
}

// Reserves are the pool's virtual reserves at its price: the amounts the
// in-range liquidity would hold over the full range (amount0 = L / √P,
// amount1 = L · √P). Exact for a full-range position, an upper bound for a
// concentrated one.
func (s *State) Reserves() (amount0, amount1 *big.Int) {
	if s == nil || s.SqrtPriceX96 == nil || s.SqrtPriceX96.Sign() == 0 || s.Liquidity == nil {
		return nil, nil
	}
	q96 := new(big.Int).Lsh(big.NewInt(1), 96)
	amount0 = new(big.Int).Div(new(big.Int).Mul(s.Liquidity, q96), s.SqrtPriceX96)
	amount1 = new(big.Int).Div(new(big.Int).Mul(s.Liquidity, s.SqrtPriceX96), q96)
	return amount0, amount1
}

// LogQuery is the two eth_getLogs requests that find a token's pools in
// one PoolManager (the token as currency0, then as currency1), from the
// manager's deployment block to the latest.
type LogQuery struct {
	manager common.Address
	logs    [2][]types.Log
	elems   []rpc.BatchElem
}

// NewLogQuery builds the query for token in manager.
func NewLogQuery(manager, token common.Address, fromBlock uint64) *LogQuery {
	return newLogQuery(manager, token, fromBlock, "latest")
}

// NewLogWindow builds the query for token in manager over the blocks
// fromBlock..toBlock (inclusive): a window of a range the node refused.
func NewLogWindow(manager, token common.Address, fromBlock, toBlock uint64) *LogQuery {
	return newLogQuery(manager, token, fromBlock, hexutil.EncodeUint64(toBlock))
}

func newLogQuery(manager, token common.Address, fromBlock uint64, toBlock string) *LogQuery {
	q := &LogQuery{manager: manager}
	word := common.BytesToHash(token.Bytes())
	for i := range 2 {
		topics := []any{InitializeTopic, nil, nil, nil}
		topics[2+i] = word
		filter := map[string]any{
			"address":   manager,
			"fromBlock": hexutil.EncodeUint64(fromBlock),
			"toBlock":   toBlock,
			"topics":    topics[:3+i],
		}
		q.elems = append(q.elems, rpc.BatchElem{Method: "eth_getLogs", Args: []any{filter}, Result: &q.logs[i]})
	}
	return q
}

// Elems are the batch elements to send.
func (q *LogQuery) Elems() []rpc.BatchElem { return q.elems }

// Pools decodes the answers: every pool initialized with the token, oldest
// first. An element the node refused is an error (the pools are then
// unknown, not absent).
func (q *LogQuery) Pools() ([]Pool, error) {
	var out []Pool
	for i, e := range q.elems {
		if e.Error != nil {
			return nil, fmt.Errorf("v4: Initialize logs of %s: %w", q.manager.Hex(), e.Error)
		}
		for _, l := range q.logs[i] {
			p, err := DecodeInitialize(l)
			if err != nil {
				return nil, err
			}
			p.Manager = q.manager
			out = append(out, p)
		}
	}
	return out, nil
}

// DecodeInitialize reads a pool out of an Initialize log; the key's hash
// must be the log's pool id.
func DecodeInitialize(l types.Log) (Pool, error) {
	if len(l.Topics) != 4 || l.Topics[0] != InitializeTopic {
		return Pool{}, errors.New("v4: not an Initialize log")
	}
	if len(l.Data) != 5*32 {
		return Pool{}, fmt.Errorf("v4: Initialize data is %d bytes, want 160", len(l.Data))
	}
	word := func(i int) []byte { return l.Data[32*i : 32*(i+1)] }
	fee, ok := uintWord(word(0), 24)
	if !ok {
		return Pool{}, errors.New("v4: Initialize fee is not a uint24")
	}
	spacing, ok := intWord(word(1), 24)
	if !ok {
		return Pool{}, errors.New("v4: Initialize tickSpacing is not an int24")
	}
	hooks, ok := addressWord(word(2))
	if !ok {
		return Pool{}, errors.New("v4: Initialize hooks is not an address")
	}
	c0, ok0 := addressWord(l.Topics[2].Bytes())
	c1, ok1 := addressWord(l.Topics[3].Bytes())
	if !ok0 || !ok1 {
		return Pool{}, errors.New("v4: Initialize currency is not an address")
	}
	key := Key{Currency0: c0, Currency1: c1, Fee: uint32(fee), TickSpacing: int32(spacing), Hooks: hooks}
	if key.ID() != l.Topics[1] {
		return Pool{}, fmt.Errorf("v4: Initialize id %s is not the hash of its key", l.Topics[1].Hex())
	}
	return Pool{Key: key, ID: l.Topics[1], Block: l.BlockNumber}, nil
}

// StateCall is one eth_call of the PoolManager's extsload(bytes32[]) that
// reads slot0 and the liquidity of every pool of one manager.
type StateCall struct {
	pools []*Pool
	out   hexutil.Bytes
	elems []rpc.BatchElem
}

// extsloadSelector is extsload(bytes32[]).
var extsloadSelector = crypto.Keccak256([]byte("extsload(bytes32[])"))[:4]

// NewStateCall builds the read of the pools' state (all in one manager).
func NewStateCall(manager common.Address, pools []*Pool) *StateCall {
	c := &StateCall{pools: pools}
	data := append([]byte(nil), extsloadSelector...)
	data = append(data, common.LeftPadBytes([]byte{0x20}, 32)...)
	data = append(data, common.LeftPadBytes(big.NewInt(int64(2*len(pools))).Bytes(), 32)...)
	for _, p := range pools {
		slot := StateSlot(p.ID)
		data = append(data, slot.Bytes()...)
		data = append(data, common.BigToHash(new(big.Int).Add(slot.Big(), big.NewInt(liquidityOffset))).Bytes()...)
	}
	msg := map[string]any{"to": manager, "data": hexutil.Bytes(data)}
	c.elems = []rpc.BatchElem{{Method: "eth_call", Args: []any{msg, "latest"}, Result: &c.out}}
	return c
}

// StateSlot is the first storage slot of a pool's state in the PoolManager.
func StateSlot(id common.Hash) common.Hash {
	return crypto.Keccak256Hash(id.Bytes(), common.LeftPadBytes([]byte{poolsSlot}, 32))
}

// Elems is the batch element to send (the batch writes its answer back
// into this slice); after the batch, Apply reads it.
func (c *StateCall) Elems() []rpc.BatchElem { return c.elems }

// Apply fills each pool's State from the answer.
func (c *StateCall) Apply() error {
	if c.elems[0].Error != nil {
		return fmt.Errorf("v4: pool state: %w", c.elems[0].Error)
	}
	n := 2 * len(c.pools)
	if len(c.out) != 64+32*n || new(big.Int).SetBytes(c.out[32:64]).Cmp(big.NewInt(int64(n))) != 0 {
		return fmt.Errorf("v4: pool state: %d bytes for %d slots", len(c.out), n)
	}
	for i, p := range c.pools {
		slot0 := new(big.Int).SetBytes(c.out[64+64*i : 96+64*i])
		liq := new(big.Int).SetBytes(c.out[96+64*i : 128+64*i])
		p.State = DecodeSlot0(slot0, liq)
	}
	return nil
}

// DecodeSlot0 unpacks slot0 (sqrtPriceX96 in bits 0-159, tick 160-183,
// protocol fee 184-207, LP fee 208-231) beside the liquidity slot.
func DecodeSlot0(slot0, liquidity *big.Int) *State {
	bits := func(from, n uint) uint64 {
		return new(big.Int).And(new(big.Int).Rsh(slot0, from), new(big.Int).SetUint64(1<<n-1)).Uint64()
	}
	tick := int32(bits(160, 24))
	if tick >= 1<<23 {
		tick -= 1 << 24
	}
	return &State{
		SqrtPriceX96: new(big.Int).And(slot0, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 160), big.NewInt(1))),
		Tick:         tick,
		ProtocolFee:  uint32(bits(184, 24)),
		LPFee:        uint32(bits(208, 24)),
		Liquidity:    new(big.Int).And(liquidity, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))),
	}
}

func int256Word(v int64) []byte {
	if v >= 0 {
		return common.LeftPadBytes(big.NewInt(v).Bytes(), 32)
	}
	w := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(v))
	return common.LeftPadBytes(w.Bytes(), 32)
}

// uintWord reads an unsigned word of at most bits bits.
func uintWord(w []byte, bits uint) (uint64, bool) {
	v := new(big.Int).SetBytes(w)
	if v.BitLen() > int(bits) {
		return 0, false
	}
	return v.Uint64(), true
}

// intWord reads a two's-complement word that fits in bits bits.
func intWord(w []byte, bits uint) (int64, bool) {
	v := new(big.Int).SetBytes(w)
	if w[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 256))
	}
	lim := new(big.Int).Lsh(big.NewInt(1), bits-1)
	if v.Cmp(lim) >= 0 || v.Cmp(new(big.Int).Neg(lim)) < 0 {
		return 0, false
	}
	return v.Int64(), true
}

// addressWord reads a word that holds an address (12 zero bytes first).
func addressWord(w []byte) (common.Address, bool) {
	for _, b := range w[:12] {
		if b != 0 {
			return common.Address{}, false
		}
	}
	return common.BytesToAddress(w[12:]), true
}
