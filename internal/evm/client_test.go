package evm

import (
	"bytes"

	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"context"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chaos"
)

// failing is an endpoint that answers every request with status (or
// hangs for delay first), counting requests.
func failing(t *testing.T, status int, delay time.Duration) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte("<html>busy</html>"))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestClientBatchIsOneHTTPRequest(t *testing.T) {
	tc := newTestChain(t)
	var hooks atomic.Int64
	c := node.NewClient("sim", []string{tc.url}, node.ClientOptions{Upstream: func(chain, method string) {
		if chain != "sim" || method != "batch" {
			t.Errorf("hook got (%q, %q), want (sim, batch)", chain, method)
		}
		hooks.Add(1)
	}})
	var bn hexutil.Uint64
	var bal hexutil.Big
	var code hexutil.Bytes
	elems := []rpc.BatchElem{
		node.BlockNumberElem(&bn),
		node.BalanceElem(tc.from, &bal),
		node.CodeElem(common.HexToAddress("0x1234"), &code),
		{Method: "eth_noSuchMethod", Result: new(any)},
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatalf("Batch: %v", err)
	}
	if got := c.Requests(); got != 1 {
		t.Errorf("upstream requests = %d, want 1", got)
	}
	if got := hooks.Load(); got != 1 {
		t.Errorf("hook calls = %d, want 1", got)
	}
	for i, el := range elems[:3] {
		if el.Error != nil {
			t.Errorf("elem %d (%s): %v", i, el.Method, el.Error)
		}
	}
	want := new(big.Int).Mul(big.NewInt(1e18), big.NewInt(1e6))
	if (*big.Int)(&bal).Cmp(want) != 0 {
		t.Errorf("balance = %v, want %v", (*big.Int)(&bal), want)
	}
	if len(code) != 0 {
		t.Errorf("code at empty account = %x, want none", code)
	}
	var re *node.RPCError
	if !errors.As(elems[3].Error, &re) || re.Code != -32601 {
		t.Errorf("unknown method error = %v, want an RPCError -32601", elems[3].Error)
	}
}

func TestClientTypedHelpers(t *testing.T) {
	tc := newTestChain(t)
	c := node.NewClient("sim", []string{tc.url}, node.ClientOptions{})
	ctx := context.Background()
	bal, err := c.BalanceAt(ctx, tc.from)
	if err != nil || bal.Sign() <= 0 {
		t.Fatalf("BalanceAt = %v, %v; want a positive balance", bal, err)
	}
	n, err := c.NonceAt(ctx, tc.from)
	if err != nil || n != 0 {
		t.Errorf("NonceAt = %d, %v; want 0", n, err)
	}
	if _, err := c.BlockNumber(ctx); err != nil {
		t.Errorf("BlockNumber: %v", err)
	}
	// A contract injected by state override: PUSH1 0x2a PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN.
	at := common.HexToAddress("0xc0de")
	code := hexutil.MustDecode("0x602a60005260206000f3")
	out, err := c.CallContract(ctx, node.CallMsg{To: at}, node.StateOverride{at: {Code: code}})
	if err != nil {
		t.Fatalf("CallContract: %v", err)
	}
	if got := new(big.Int).SetBytes(out); got.Int64() != 42 {
		t.Errorf("override call returned %v, want 42", got)
	}
	// A reverting override: PUSH1 0 PUSH1 0 REVERT with data 0x2a.
	rev := hexutil.MustDecode("0x602a60005260206000fd")
	_, err = c.CallContract(ctx, node.CallMsg{To: at}, node.StateOverride{at: {Code: rev}})
	data, ok := node.RevertData(err)
	if !ok || len(data) != 32 || data[31] != 42 {
		t.Errorf("revert data = %x (%v), err %v; want 32 bytes ending 2a", data, ok, err)
	}
}

func TestClientFailover(t *testing.T) {
	tc := newTestChain(t)
	tests := []struct {
		name     string
		status   int
		delay    time.Duration
		wantDead int64 // requests the failing endpoint receives
	}{
		{"http 500", http.StatusInternalServerError, 0, 1},
		{"http 429", http.StatusTooManyRequests, 0, 1},
		{"http 503", http.StatusServiceUnavailable, 0, 1},
		{"hanging endpoint", http.StatusOK, 5 * time.Second, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad, n := failing(t, tt.status, tt.delay)
			c := node.NewClient("sim", []string{bad.URL, tc.url}, node.ClientOptions{AttemptTimeout: 300 * time.Millisecond})
			start := time.Now()
			bn, err := c.BlockNumber(context.Background())
			if err != nil {
				t.Fatalf("BlockNumber through failover: %v", err)
			}
			_ = bn
			if got := n.Load(); got != tt.wantDead {
				t.Errorf("failing endpoint got %d requests, want %d", got, tt.wantDead)
			}
			if got := c.Requests(); got != 2 {
				t.Errorf("upstream requests = %d, want 2", got)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("failover took %v", d)
			}
		})
	}
}

func TestClientRetriesThenGivesUp(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		retries     int
		wantPerURL  int64
		wantTimeout bool
	}{
		{"retryable 502 gets every round", http.StatusBadGateway, 2, 3, false},
		{"429 with no retries", http.StatusTooManyRequests, -1, 1, false},
		{"404 is not retried", http.StatusNotFound, 2, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, na := failing(t, tt.status, 0)
			b, nb := failing(t, tt.status, 0)
			c := node.NewClient("sim", []string{a.URL + "/?apikey=SECRET", b.URL}, node.ClientOptions{Retries: tt.retries, Backoff: time.Millisecond})
			_, err := c.BlockNumber(context.Background())
			var te *node.TransportError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want a TransportError", err)
			}
			if te.Timeout != tt.wantTimeout {
				t.Errorf("Timeout = %v, want %v", te.Timeout, tt.wantTimeout)
			}
			if na.Load() != tt.wantPerURL || nb.Load() != tt.wantPerURL {
				t.Errorf("requests per URL = %d, %d; want %d each", na.Load(), nb.Load(), tt.wantPerURL)
			}
			msg := err.Error()
			if strings.Contains(msg, "127.0.0.1") || strings.Contains(msg, "SECRET") {
				t.Errorf("error leaks the endpoint: %q", msg)
			}
		})
	}
}

func TestClientDeadlineIsTimeout(t *testing.T) {
	bad, _ := failing(t, http.StatusOK, 5*time.Second)
	c := node.NewClient("sim", []string{bad.URL}, node.ClientOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.BlockNumber(ctx)
	var te *node.TransportError
	if !errors.As(err, &te) || !te.Timeout {
		t.Fatalf("err = %v, want a timeout TransportError", err)
	}
	if strings.Contains(err.Error(), bad.URL) {
		t.Errorf("error leaks the endpoint: %q", err)
	}
}

func TestClientConcurrencyCap(t *testing.T) {
	var cur, peak atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := cur.Add(1)
		defer cur.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + idOf(r) + `,"result":"0x10"}`))
	}))
	defer srv.Close()
	c := node.NewClient("sim", []string{srv.URL}, node.ClientOptions{MaxConcurrent: 2})
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if bn, err := c.BlockNumber(context.Background()); err != nil || bn != 16 {
				t.Errorf("BlockNumber = %d, %v", bn, err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 2 {
		t.Errorf("peak concurrent requests = %d, want <= 2", p)
	}
}

// idOf extracts the id of a single JSON-RPC request for a fake answer.
func idOf(r *http.Request) string {
	var req struct {
		ID uint64 `json:"id"`
	}
	_ = jsonDecode(r, &req)
	return big.NewInt(int64(req.ID)).String()
}

func TestClientSplitsRefusedBatches(t *testing.T) {
	tc := newTestChain(t)
	p, err := chaos.Start(tc.url)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Set(chaos.Fault{Cap: 3, CapStyle: chaos.CapRefuse})
	c := node.NewClient("sim", []string{p.URL()}, node.ClientOptions{MaxConcurrent: 1})
	bals := make([]hexutil.Big, 10)
	elems := make([]rpc.BatchElem, len(bals))
	for i := range elems {
		elems[i] = node.BalanceElem(tc.from, &bals[i])
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatalf("Batch: %v", err)
	}
	for i, el := range elems {
		if el.Error != nil || (*big.Int)(&bals[i]).Sign() <= 0 {
			t.Errorf("elem %d: %v, balance %v", i, el.Error, (*big.Int)(&bals[i]))
		}
	}
	// 10 refused (limit 5) → 5 refused (limit 2) → the other 5 is split
	// before it is sent → 2+2+1 twice: two refused, six answered. (A
	// request whose answer was lost on a loaded machine is sent again,
	// the same body: one more request, never a new refused batch.)
	if got := p.RefusedBodies(); got != 2 {
		t.Errorf("refused batches = %d, want 2 (a split batch was sent over the limit again)", got)
	}
	if got := p.Requests(); got < 8 {
		t.Errorf("upstream requests = %d, want 8", got)
	} else if got > 8 {
		t.Logf("upstream requests = %d: %d retried", got, got-8)
	}
	if got := c.BatchLimit(); got != 2 {
		t.Errorf("learned limit %d, want 2", got)
	}
}

func TestClientErrorsNameNoHost(t *testing.T) {
	c := node.NewClient("sim", []string{"http://127.0.0.1:1/?apikey=SECRET", "http://no-such-host.invalid:8545/KEY"}, node.ClientOptions{Retries: -1})
	_, err := c.BlockNumber(context.Background())
	var te *node.TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a TransportError", err)
	}
	for _, leak := range []string{"127.0.0.1", ":1", "SECRET", "no-such-host", "KEY"} {
		if strings.Contains(err.Error(), leak) {
			t.Errorf("error %q leaks %q", err, leak)
		}
	}
}

// TestClientSplitsByBytesFirst: a batch whose body would pass the
// configured byte bound is split by bytes before it is sent, so a
// provider that refuses larger bodies refuses none; the parts are as few
// as the bound allows and the count limit stays unlearned.
func TestClientSplitsByBytesFirst(t *testing.T) {
	tc := newTestChain(t)
	p, err := chaos.Start(tc.url)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	const bound = 4096
	p.Set(chaos.Fault{MaxBody: bound, BodyTooLarge413: true})
	c := node.NewClient("sim", []string{p.URL()}, node.ClientOptions{MaxConcurrent: 1, MaxBatchBytes: bound})
	// 16 calls of 500 bytes of call data (~1.1 KB encoded): ~18 KB in one body.
	outs := make([]hexutil.Bytes, 16)
	elems := make([]rpc.BatchElem, len(outs))
	for i := range elems {
		elems[i] = node.CallElem(node.CallMsg{To: tc.from, Data: bytes.Repeat([]byte{byte(i)}, 500)}, nil, &outs[i])
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatalf("Batch: %v", err)
	}
	for i, el := range elems {
		if el.Error != nil {
			t.Errorf("elem %d: %v", i, el.Error)
		}
	}
	if got := p.Faulted(); got != 0 {
		t.Errorf("%d bodies refused: the batch was not split by bytes before it was sent", got)
	}
	// Three calls fit a part: six parts (one call a part would be 16).
	if got := p.Requests(); got < 5 || got > 8 {
		t.Errorf("upstream requests = %d, want 5..8 parts under %d bytes", got, bound)
	}
	if c.BatchLimit() != 0 || c.BatchBytes() != bound {
		t.Errorf("limits learned: count %d, bytes %d; want none", c.BatchLimit(), c.BatchBytes())
	}
}
