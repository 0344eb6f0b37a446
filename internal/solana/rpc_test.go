package solana

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// rpcStub answers every request with handler's status and body.
func rpcStub(t *testing.T, handler func(n int64, body []byte) (int, string)) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		status, out := handler(n.Add(1), body)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestClientBatchOutOfOrder(t *testing.T) {
	srv, _ := rpcStub(t, func(int64, []byte) (int, string) {
		return 200, `[{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such method"}},{"jsonrpc":"2.0","id":0,"result":{"epoch":7}}]`
	})
	c := NewClient("solana", []string{srv.URL}, nil, nil)
	var e epochInfo
	a := &Call{Method: "getEpochInfo", Result: &e}
	b := &Call{Method: "nope"}
	if err := c.Batch(context.Background(), []*Call{a, b}); err != nil {
		t.Fatal(err)
	}
	if a.Err != nil || e.Epoch != 7 {
		t.Errorf("first call: err %v epoch %d", a.Err, e.Epoch)
	}
	var re *RPCError
	if !errors.As(b.Err, &re) || re.Code != -32601 {
		t.Errorf("second call error = %v, want the node's -32601", b.Err)
	}
}

func TestClientFailoverAndRetry(t *testing.T) {
	ok := `{"jsonrpc":"2.0","id":0,"result":{"epoch":1}}`
	tests := []struct {
		name      string
		first     func(n int64) (int, string)
		wantErr   bool
		wantFirst int64
	}{
		{"forbidden endpoint is skipped", func(int64) (int, string) { return 403, "forbidden" }, false, 1},
		{"429 then the next endpoint", func(int64) (int, string) { return 429, "slow down" }, false, 1},
		{"garbage then the next endpoint", func(int64) (int, string) { return 200, "<html>" }, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, n1 := rpcStub(t, func(n int64, _ []byte) (int, string) { return tt.first(n) })
			second, n2 := rpcStub(t, func(int64, []byte) (int, string) { return 200, ok })
			c := NewClient("solana", []string{first.URL, second.URL}, nil, nil)
			var e epochInfo
			err := c.Do(context.Background(), "getEpochInfo", &e)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if n1.Load() != tt.wantFirst || n2.Load() != 1 {
				t.Errorf("requests: first %d, second %d", n1.Load(), n2.Load())
			}
		})
	}
}

func TestClientGivesUp(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		attempts int64
	}{
		{"transient errors are retried in rounds", 503, 3},
		{"permanent errors are not", 400, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n := rpcStub(t, func(int64, []byte) (int, string) { return tt.status, "no" })
			c := NewClient("solana", []string{srv.URL}, nil, nil)
			c.backoff = time.Millisecond
			err := c.Do(context.Background(), "getEpochInfo", &epochInfo{})
			var ue *UpstreamError
			if !errors.As(err, &ue) || ue.Timeout {
				t.Fatalf("err = %v, want a non-timeout UpstreamError", err)
			}
			if n.Load() != tt.attempts {
				t.Errorf("attempts = %d, want %d", n.Load(), tt.attempts)
			}
		})
	}
}

func TestClientDeadline(t *testing.T) {
	srv, _ := rpcStub(t, func(int64, []byte) (int, string) {
		time.Sleep(200 * time.Millisecond)
		return 200, `{"jsonrpc":"2.0","id":0,"result":{"epoch":1}}`
	})
	c := NewClient("solana", []string{srv.URL}, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := c.Do(ctx, "getEpochInfo", &epochInfo{})
	var ue *UpstreamError
	if !errors.As(err, &ue) || !ue.Timeout {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if got := describe(err); got != "the scan deadline passed" {
		t.Errorf("describe = %q", got)
	}
}

func TestAccountsCallsChunks(t *testing.T) {
	keys := make([]PublicKey, 230)
	for i := range keys {
		keys[i][0] = byte(i)
		keys[i][1] = 1
	}
	calls, _ := accountsCalls(keys)
	if len(calls) != 3 {
		t.Fatalf("%d calls for 230 keys, want 3 (100 per call)", len(calls))
	}
	last, _ := json.Marshal(calls[2].Params[0])
	var got []string
	_ = json.Unmarshal(last, &got)
	if len(got) != 30 || got[29] != keys[229].String() {
		t.Errorf("last chunk = %d keys", len(got))
	}
}
