package devnet

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// Gas limits for setup transactions: generous, the unused part is refunded.
const (
	deployGas = 6_000_000
	callGas   = 1_500_000
)

var (
	gasTip    = big.NewInt(1_000_000_000)   // 1 gwei
	gasFeeCap = big.NewInt(100_000_000_000) // 100 gwei
)

// sentTx is a setup transaction and what it is for.
type sentTx struct {
	tx   *types.Transaction
	what string
	from common.Address
}

// plannedBlock is a block of setup transactions; at, when set, is its
// timestamp.
type plannedBlock struct {
	at  time.Time
	txs []sentTx
}

// writer plans the setup history: it signs transactions into blocks with
// chosen timestamps, which build then executes into a chain. Planning the
// history offline is what lets the pools have real ages: a live dev chain
// can only mine at the wall clock's time or later.
type writer struct {
	signer types.Signer
	abis   map[string]contracts.Compiled
	blocks []plannedBlock
	open   bool // the last block still takes transactions
	sent   int
}

func newWriter(chainID *big.Int) *writer {
	return &writer{signer: types.LatestSignerForChainID(chainID), abis: map[string]contracts.Compiled{}}
}

// artifact returns a compiled contract, loading it once.
func (w *writer) artifact(name string) (contracts.Compiled, error) {
	if c, ok := w.abis[name]; ok {
		return c, nil
	}
	c, err := contracts.Artifact(name)
	if err != nil {
		return contracts.Compiled{}, fmt.Errorf("devnet: %w", err)
	}
	w.abis[name] = c
	return c, nil
}

// seal ends the current block: later transactions go into a new one,
// mined at `at` when it is not zero (else 10 s after its parent).
func (w *writer) seal(at time.Time) {
	w.open = false
	if !at.IsZero() {
		w.blocks = append(w.blocks, plannedBlock{at: at})
		w.open = true
	}
}

// send signs one transaction from acct into the current block.
func (w *writer) send(from *account, to *common.Address, value *big.Int, data []byte, gas uint64, what string) error {
	if value == nil {
		value = new(big.Int)
	}
	tx, err := types.SignNewTx(from.key, w.signer, &types.DynamicFeeTx{
		Nonce:     from.nonce,
		GasTipCap: gasTip,
		GasFeeCap: gasFeeCap,
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	})
	if err != nil {
		return fmt.Errorf("devnet: sign %s: %w", what, err)
	}
	if !w.open {
		w.blocks = append(w.blocks, plannedBlock{})
		w.open = true
	}
	last := &w.blocks[len(w.blocks)-1]
	last.txs = append(last.txs, sentTx{tx: tx, what: what, from: from.addr})
	from.nonce++
	w.sent++
	return nil
}

// deploy plans the creation of contract name with constructor args and
// returns the address it will have.
func (w *writer) deploy(from *account, name string, args ...any) (common.Address, error) {
	c, err := w.artifact(name)
	if err != nil {
		return common.Address{}, err
	}
	packed, err := c.ABI.Pack("", args...)
	if err != nil {
		return common.Address{}, fmt.Errorf("devnet: %s constructor: %w", name, err)
	}
	addr := crypto.CreateAddress(from.addr, from.nonce)
	code := append(append([]byte(nil), c.Bytecode...), packed...)
	if err := w.send(from, nil, nil, code, deployGas, "deploy "+name+" by "+from.name); err != nil {
		return common.Address{}, err
	}
	return addr, nil
}

// invoke plans a call of method on a contract of type name at to.
func (w *writer) invoke(from *account, name string, to common.Address, value *big.Int, method string, args ...any) error {
	c, err := w.artifact(name)
	if err != nil {
		return err
	}
	data, err := c.ABI.Pack(method, args...)
	if err != nil {
		return fmt.Errorf("devnet: pack %s.%s: %w", name, method, err)
	}
	gas := uint64(callGas)
	if strings.HasPrefix(method, "addLiquidity") {
		gas = deployGas // may create the pair
	}
	return w.send(from, &to, value, data, gas, name+"."+method+" by "+from.name)
}

// build executes the planned blocks on top of genesis. It returns the
// blocks and the setup transactions that reverted.
func (w *writer) build(genesis *core.Genesis) (blocks []*types.Block, failed []sentTx, err error) {
	defer func() {
		// The chain maker panics on a transaction it cannot include
		// (bad nonce, gas or fee): a bug in the plan, reported as an error.
		if r := recover(); r != nil {
			err = fmt.Errorf("devnet: build setup chain: %v", r)
		}
	}()
	engine := beacon.New(ethash.NewFaker())
	_, blocks, receipts := core.GenerateChainWithGenesis(genesis, engine, len(w.blocks), func(i int, g *core.BlockGen) {
		if at := w.blocks[i].at; !at.IsZero() {
			want := uint64(at.Unix())
			if want <= g.Timestamp() {
				panic(fmt.Sprintf("block %d planned at %d, before its parent's time allows (%d)", i+1, want, g.Timestamp()))
			}
			g.OffsetTime(int64(want - g.Timestamp()))
		}
		for _, s := range w.blocks[i].txs {
			g.AddTx(s.tx)
		}
	})
	for i, rs := range receipts {
		for j, r := range rs {
			if r.Status != types.ReceiptStatusSuccessful {
				failed = append(failed, w.blocks[i].txs[j])
			}
		}
	}
	return blocks, failed, nil
}

// revertReasons replays failed transactions on their parent blocks of the
// live chain and describes each failure: a best effort, exact when nothing
// earlier in the same block touched the same state.
func revertReasons(ctx context.Context, client ethereum.ContractCaller, receipts func(common.Hash) (*types.Receipt, error), failed []sentTx) string {
	var out []string
	for _, f := range failed {
		reason := "reverted"
		if r, err := receipts(f.tx.Hash()); err == nil {
			if r.GasUsed == f.tx.Gas() {
				reason = "out of gas"
			} else {
				parent := new(big.Int).Sub(r.BlockNumber, big.NewInt(1))
				msg := ethereum.CallMsg{From: f.from, To: f.tx.To(), Value: f.tx.Value(), Data: f.tx.Data(), Gas: f.tx.Gas()}
				if _, err := client.CallContract(ctx, msg, parent); err != nil {
					reason = err.Error()
				}
			}
		}
		out = append(out, f.what+": "+reason)
	}
	return strings.Join(out, "; ")
}
