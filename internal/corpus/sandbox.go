package corpus

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/triedb"
)

// sandboxGas bounds one sandbox call: far above any getter, low enough
// that a looping contract ends quickly.
const sandboxGas = 10_000_000

// sandbox is a throwaway in-memory EVM (go-ethereum's own) holding one
// token's code, where getters run under a tracer that records which
// storage words they read and which words they hash.
type sandbox struct {
	state *state.StateDB
	token common.Address
	cfg   *params.ChainConfig
	now   uint64
	block uint64
	seen  observed
	// written are the keys set, in first-write order: the seed.
	written []common.Hash
}

// observed is what one call did to the token's storage.
type observed struct {
	ops    int           // opcodes run in the token's code
	sloads []common.Hash // SLOAD keys, in order
	hashes [][]byte      // KECCAK256 inputs of at most 128 bytes
	// compares are the words compared (EQ) with the caller: the other
	// operand and the last key loaded before it.
	compares []compare
}

type compare struct {
	loaded common.Hash // the last SLOAD key before the EQ
	value  common.Hash // the other operand
}

// newSandbox holds code at token; block is the chain's next block number
// (0 for a high one), so that block-number conditions agree with the devnet.
func newSandbox(token common.Address, code []byte, cfg *params.ChainConfig, block uint64) (*sandbox, error) {
	db := state.NewDatabase(triedb.NewDatabase(rawdb.NewMemoryDatabase(), nil), nil)
	st, err := state.New(types.EmptyRootHash, db)
	if err != nil {
		return nil, fmt.Errorf("corpus: sandbox state: %w", err)
	}
	st.SetCode(token, code, tracing.CodeChangeUnspecified)
	if block == 0 {
		block = 20_000_000
	}
	return &sandbox{state: st, token: token, cfg: cfg, now: uint64(time.Now().Unix()), block: block}, nil
}

// call runs data against the token from caller and records what it read.
func (s *sandbox) call(from common.Address, data []byte) (out []byte, err error) {
	s.seen = observed{}
	var lastLoad common.Hash
	hooks := &tracing.Hooks{OnOpcode: func(pc uint64, op byte, gas, cost uint64, scope tracing.OpContext, rData []byte, depth int, err error) {
		if scope.Address() != s.token {
			return
		}
		s.seen.ops++
		stack := scope.StackData()
		n := len(stack)
		switch vm.OpCode(op) {
		case vm.SLOAD:
			if n >= 1 {
				lastLoad = common.Hash(stack[n-1].Bytes32())
				s.seen.sloads = append(s.seen.sloads, lastLoad)
			}
		case vm.KECCAK256:
			if n >= 2 && stack[n-1].IsUint64() && stack[n-2].IsUint64() {
				off, size := stack[n-1].Uint64(), stack[n-2].Uint64()
				mem := scope.MemoryData()
				if size > 0 && size <= 128 && off+size <= uint64(len(mem)) {
					s.seen.hashes = append(s.seen.hashes, append([]byte(nil), mem[off:off+size]...))
				}
			}
		case vm.EQ:
			if n >= 2 {
				a, b := common.Hash(stack[n-1].Bytes32()), common.Hash(stack[n-2].Bytes32())
				caller := common.BytesToHash(from.Bytes())
				switch caller {
				case a:
					s.seen.compares = append(s.seen.compares, compare{loaded: lastLoad, value: b})
				case b:
					s.seen.compares = append(s.seen.compares, compare{loaded: lastLoad, value: a})
				}
			}
		}
	}}
	snap := s.state.Snapshot()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("corpus: sandbox call panicked: %v", r)
		}
		s.state.RevertToSnapshot(snap)
	}()
	out, _, err = runtime.Call(s.token, data, &runtime.Config{
		ChainConfig: s.cfg,
		Origin:      from,
		GasLimit:    sandboxGas,
		BlockNumber: new(big.Int).SetUint64(s.block),
		Time:        s.now,
		State:       s.state,
		EVMConfig:   vm.Config{Tracer: hooks},
	})
	if err != nil {
		return out, fmt.Errorf("corpus: sandbox call %x: %w", data[:min(4, len(data))], err)
	}
	return out, nil
}

// word calls a getter and returns its first return word.
func (s *sandbox) word(from common.Address, data []byte) (common.Hash, error) {
	out, err := s.call(from, data)
	if err != nil {
		return common.Hash{}, err
	}
	if len(out) < 32 {
		return common.Hash{}, errors.New("corpus: short answer")
	}
	return common.BytesToHash(out[:32]), nil
}

func (s *sandbox) set(key, value common.Hash) {
	if !slices.Contains(s.written, key) {
		s.written = append(s.written, key)
	}
	s.state.SetState(s.token, key, value)
}

// seed is the storage the sandbox now holds beyond its empty start.
func (s *sandbox) seed() ([]common.Hash, map[common.Hash]common.Hash) {
	var keys []common.Hash
	values := map[common.Hash]common.Hash{}
	for _, k := range s.written {
		if v := s.get(k); v != (common.Hash{}) {
			keys = append(keys, k)
			values[k] = v
		}
	}
	return keys, values
}
func (s *sandbox) get(key common.Hash) common.Hash {
	return s.state.GetState(s.token, key)
}

// mappingKey is the storage key of a mapping entry: Solidity hashes the
// key then the slot, Vyper the slot then the key.
func mappingKey(slot common.Hash, slotFirst bool, a common.Address) common.Hash {
	k := common.BytesToHash(a.Bytes())
	if slotFirst {
		return crypto.Keccak256Hash(slot.Bytes(), k.Bytes())
	}
	return crypto.Keccak256Hash(k.Bytes(), slot.Bytes())
}
