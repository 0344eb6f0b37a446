package devnet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// Gas limits for setup transactions: generous, the unused part is refunded.
const (
	deployGas = 6_000_000
	callGas   = 1_500_000
	// maxCommits bounds how many blocks mine waits for its transactions.
	maxCommits = 64
)

var (
	gasTip    = big.NewInt(1_000_000_000)   // 1 gwei
	gasFeeCap = big.NewInt(100_000_000_000) // 100 gwei
)

// sentTx is a transaction waiting to be mined.
type sentTx struct {
	hash common.Hash
	what string
	from common.Address
	to   *common.Address
	data []byte
	val  *big.Int
	gas  uint64
}

// writer signs and sends setup transactions and mines them in batches.
type writer struct {
	client  simulated.Client
	commit  func() common.Hash
	signer  types.Signer
	abis    map[string]contracts.Compiled
	pending []sentTx
	sent    int
}

func newWriter(client simulated.Client, commit func() common.Hash, chainID *big.Int) *writer {
	return &writer{
		client: client,
		commit: commit,
		signer: types.LatestSignerForChainID(chainID),
		abis:   map[string]contracts.Compiled{},
	}
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

// send signs and submits one transaction from acct.
func (w *writer) send(ctx context.Context, from *account, to *common.Address, value *big.Int, data []byte, gas uint64, what string) error {
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
	if err := w.client.SendTransaction(ctx, tx); err != nil {
		return fmt.Errorf("devnet: send %s: %w", what, err)
	}
	from.nonce++
	w.sent++
	w.pending = append(w.pending, sentTx{hash: tx.Hash(), what: what, from: from.addr, to: to, data: data, val: value, gas: gas})
	return nil
}

// deploy sends the creation of contract name with constructor args and
// returns the address it will have.
func (w *writer) deploy(ctx context.Context, from *account, name string, args ...any) (common.Address, error) {
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
	if err := w.send(ctx, from, nil, nil, code, deployGas, "deploy "+name+" by "+from.name); err != nil {
		return common.Address{}, err
	}
	return addr, nil
}

// invoke sends a call of method on a contract of type name at to.
func (w *writer) invoke(ctx context.Context, from *account, name string, to common.Address, value *big.Int, method string, args ...any) error {
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
	return w.send(ctx, from, &to, value, data, gas, name+"."+method+" by "+from.name)
}

// read calls a view method and unpacks its results.
func (w *writer) read(ctx context.Context, name string, to common.Address, method string, args ...any) ([]any, error) {
	c, err := w.artifact(name)
	if err != nil {
		return nil, err
	}
	data, err := c.ABI.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("devnet: pack %s.%s: %w", name, method, err)
	}
	out, err := w.client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return nil, fmt.Errorf("devnet: call %s.%s: %w", name, method, err)
	}
	res, err := c.ABI.Unpack(method, out)
	if err != nil {
		return nil, fmt.Errorf("devnet: unpack %s.%s: %w", name, method, err)
	}
	return res, nil
}

// mine commits blocks until every sent transaction has a receipt and
// fails, naming the transaction and its revert reason, if one reverted.
func (w *writer) mine(ctx context.Context) error {
	waiting := w.pending
	w.pending = nil
	var failed []string
	for range maxCommits {
		if len(waiting) == 0 {
			break
		}
		w.commit()
		var still []sentTx
		for _, tx := range waiting {
			r, err := w.client.TransactionReceipt(ctx, tx.hash)
			if errors.Is(err, ethereum.NotFound) {
				still = append(still, tx)
				continue
			}
			if err != nil {
				return fmt.Errorf("devnet: receipt of %s: %w", tx.what, err)
			}
			if r.Status != types.ReceiptStatusSuccessful {
				reason := w.revertReason(ctx, tx, r.BlockNumber)
				if r.GasUsed == tx.gas {
					reason = "out of gas"
				}
				failed = append(failed, tx.what+": "+reason)
			}
		}
		waiting = still
	}
	if len(waiting) > 0 {
		return fmt.Errorf("devnet: %d transactions not mined after %d blocks (first: %s)", len(waiting), maxCommits, waiting[0].what)
	}
	if len(failed) > 0 {
		return fmt.Errorf("devnet: %d setup transactions reverted: %s", len(failed), strings.Join(failed, "; "))
	}
	return nil
}

// revertReason replays a failed transaction on its parent block: a best
// effort that is exact when nothing earlier in the block touched the same
// state.
func (w *writer) revertReason(ctx context.Context, tx sentTx, block *big.Int) string {
	parent := new(big.Int).Sub(block, big.NewInt(1))
	_, err := w.client.CallContract(ctx, ethereum.CallMsg{From: tx.from, To: tx.to, Value: tx.val, Data: tx.data, Gas: deployGas}, parent)
	if err == nil {
		return "reverted (a replay on the parent block succeeds)"
	}
	return err.Error() + " (replayed on the parent block)"
}
