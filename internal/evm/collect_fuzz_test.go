package evm

import (
	"bytes"
	"context"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// FuzzDecodeLens feeds arbitrary return data to the lens decoder: a node
// (or a hostile override) controls these bytes, so they must never panic.
func FuzzDecodeLens(f *testing.F) {
	lens, err := lensContract()
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{})
	f.Add(make([]byte, 64))
	f.Add(append(common.LeftPadBytes([]byte{0x20}, 32), make([]byte, 600)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := decodeLens(lens.ABI, data, 1, 2)
		if err == nil && res == nil {
			t.Fatal("nil result without error")
		}
	})
}

// FuzzHolderApply replays arbitrary Transfer-shaped logs: balances must
// stay consistent (every non-mint debit has a credit) and nothing panics.
func FuzzHolderApply(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{0, 0, 1}, uint8(3))
	f.Fuzz(func(t *testing.T, from, to []byte, topics uint8) {
		s := &HolderScan{Balances: map[common.Address]*big.Int{}, FirstIn: map[common.Address]Seen{}}
		tp := []common.Hash{TransferTopic, common.BytesToHash(from), common.BytesToHash(to)}
		if int(topics) < len(tp) {
			tp = tp[:topics]
		}
		s.apply([]types.Log{{Topics: tp, Data: append(to, from...)}})
		sum := new(big.Int)
		for _, b := range s.Balances {
			sum.Add(sum, b)
		}
		if s.Transfers > 0 && s.FirstMintTo == nil && sum.Sign() != 0 {
			t.Fatalf("a plain transfer changed the total: %v", sum)
		}
		_ = s.Holders()
	})
}

// FuzzClientResponse feeds arbitrary HTTP bodies to the JSON-RPC client
// as a node's answer to a two-call batch: it must fail or deliver, never
// panic, and never leave a call without a result or an error.
func FuzzClientResponse(f *testing.F) {
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"result":"0x10"},{"jsonrpc":"2.0","id":2,"error":{"code":3,"message":"execution reverted","data":"0x08c379a0"}}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"rate limited"}}`))
	f.Add([]byte(`[{"id":"1","result":null}]`))
	f.Add([]byte(`<html>`))
	var body atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(body.Load().([]byte))
	}))
	defer srv.Close()
	c := NewClient("fuzz", []string{srv.URL}, ClientOptions{Retries: -1})
	f.Fuzz(func(t *testing.T, data []byte) {
		body.Store(data)
		c.nextID.Store(0) // ids 1 and 2, as in the seeds
		var a hexutil.Uint64
		var b hexutil.Bytes
		elems := []rpc.BatchElem{BlockNumberElem(&a), {Method: "eth_call", Result: &b}}
		if err := c.Batch(context.Background(), elems); err != nil {
			return
		}
		for i, el := range elems {
			if el.Error == nil && i == 0 && !bytes.Contains(data, []byte("result")) {
				t.Fatalf("call %d succeeded without a result in %q", i, data)
			}
		}
	})
}
