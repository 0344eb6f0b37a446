package node

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

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
