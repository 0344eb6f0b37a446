package solana

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mr-tron/base58"
)

// maxResponseBytes bounds one upstream response body (getProgramAccounts
// answers can be large; anything beyond this is refused, not buffered).
const maxResponseBytes = 64 << 20

// maxAccountsPerCall is the node's limit for getMultipleAccounts.
const maxAccountsPerCall = 100

// Client is a Solana JSON-RPC client over several endpoints: each request
// goes to the first endpoint that answers, with retries and backoff on
// 429, 5xx, network errors and timeouts.
type Client struct {
	chain    string
	urls     []string
	http     *http.Client
	upstream func(chain, method string)
	attempts int
	backoff  time.Duration
}

// NewClient returns a client for chain's endpoints, tried in order.
// upstream, when not nil, is called once per JSON-RPC call sent.
func NewClient(chain string, urls []string, hc *http.Client, upstream func(chain, method string)) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{chain: chain, urls: urls, http: hc, upstream: upstream, attempts: 3, backoff: 100 * time.Millisecond}
}

// Call is one JSON-RPC call of a batch. After Batch returns, Err holds the
// call's own error (a JSON-RPC error or a result that did not decode) and
// Result, when non-nil, has been filled.
type Call struct {
	Method string
	Params []any
	Result any
	Err    error
}

// RPCError is an error object returned by the node for one call.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// UpstreamError means no endpoint answered the request.
type UpstreamError struct {
	// Timeout is true when the caller's deadline passed.
	Timeout bool
	Err     error
}

func (e *UpstreamError) Error() string { return "solana rpc: " + e.Err.Error() }

func (e *UpstreamError) Unwrap() error { return e.Err }

type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params,omitempty"`
}

type rpcResponse struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// retryableError marks failures worth another attempt or endpoint.
type retryableError struct {
	err        error
	retryAfter time.Duration
}

func (e *retryableError) Error() string { return e.err.Error() }
func (e *retryableError) Unwrap() error { return e.err }

// Do sends one call and decodes its result into result.
func (c *Client) Do(ctx context.Context, method string, result any, params ...any) error {
	call := &Call{Method: method, Params: params, Result: result}
	if err := c.Batch(ctx, []*Call{call}); err != nil {
		return err
	}
	return call.Err
}

// Batch sends calls as one JSON-RPC batch (one HTTP request; a single
// call is sent unbatched). It returns an *UpstreamError when no endpoint
// answered; per-call failures are left in each Call.Err.
func (c *Client) Batch(ctx context.Context, calls []*Call) error {
	err := c.batch(ctx, calls)
	if err != nil {
		// Every call failed with the batch, so that no caller reads an
		// unfilled result as an answer.
		for _, call := range calls {
			if call.Err == nil {
				call.Err = err
			}
		}
	}
	return err
}

func (c *Client) batch(ctx context.Context, calls []*Call) error {
	if len(calls) == 0 {
		return nil
	}
	if len(c.urls) == 0 {
		return &UpstreamError{Err: errors.New("no RPC endpoint configured")}
	}
	reqs := make([]rpcRequest, len(calls))
	for i, call := range calls {
		reqs[i] = rpcRequest{JSONRPC: "2.0", ID: i, Method: call.Method, Params: call.Params}
	}
	var body []byte
	var err error
	if len(reqs) == 1 {
		body, err = json.Marshal(reqs[0])
	} else {
		body, err = json.Marshal(reqs)
	}
	if err != nil {
		return fmt.Errorf("solana rpc: encode request: %w", err)
	}
	var lastErr error
	for attempt := 0; attempt < c.attempts; attempt++ {
		var wait time.Duration
		retry := false
		for i, u := range c.urls {
			for _, call := range calls {
				if c.upstream != nil {
					c.upstream(c.chain, call.Method)
				}
			}
			resps, err := c.post(ctx, u, body)
			if err == nil && len(calls) > 1 && len(resps) == 1 && resps[0].Error != nil {
				// A single error object for a batch: the node does not
				// take batches. Send the calls one by one, in parallel.
				return c.unbatched(ctx, calls)
			}
			if err == nil {
				return c.deliver(calls, resps)
			}
			lastErr = fmt.Errorf("endpoint %d/%d: %w", i+1, len(c.urls), err)
			if ctx.Err() != nil {
				return &UpstreamError{Timeout: errors.Is(ctx.Err(), context.DeadlineExceeded), Err: lastErr}
			}
			// Any failure moves on to the next endpoint; only transient
			// ones (429, 5xx, network) are worth another round.
			var re *retryableError
			if errors.As(err, &re) {
				retry = true
				wait = max(wait, re.retryAfter)
			}
		}
		if !retry || attempt == c.attempts-1 {
			break
		}
		wait = max(wait, c.backoff<<attempt)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return &UpstreamError{Timeout: errors.Is(ctx.Err(), context.DeadlineExceeded), Err: lastErr}
		case <-t.C:
		}
	}
	return &UpstreamError{Err: lastErr}
}

// unbatched sends each call as its own request, concurrently, for nodes
// that refuse batches. It fails only when every call failed upstream.
func (c *Client) unbatched(ctx context.Context, calls []*Call) error {
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, call := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Batch(ctx, []*Call{call})
			if errs[i] != nil {
				call.Err = errs[i]
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err == nil {
			return nil
		}
	}
	return errs[0]
}

// maxRetryAfter caps a server's Retry-After so one endpoint cannot stall a
// scan past its useful life.
const maxRetryAfter = 2 * time.Second

func (c *Client) post(ctx context.Context, url string, body []byte) ([]rpcResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		// Network errors and timeouts: try again elsewhere (Batch stops
		// when ctx is done). The URL is left out on purpose: it may carry
		// an API key.
		return nil, &retryableError{err: errors.New("request failed: " + describeNetErr(err))}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, &retryableError{err: fmt.Errorf("read response: %w", err)}
	}
	if len(data) > maxResponseBytes {
		return nil, fmt.Errorf("response larger than %d bytes", maxResponseBytes)
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		ra, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return nil, &retryableError{err: fmt.Errorf("HTTP %d", resp.StatusCode), retryAfter: min(time.Duration(ra)*time.Second, maxRetryAfter)}
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var out []rpcResponse
		if err := json.Unmarshal(data, &out); err != nil {
			return nil, &retryableError{err: fmt.Errorf("decode batch response: %w", err)}
		}
		return out, nil
	}
	var one rpcResponse
	if err := json.Unmarshal(data, &one); err != nil {
		return nil, &retryableError{err: fmt.Errorf("decode response: %w", err)}
	}
	return []rpcResponse{one}, nil
}

// describeNetErr keeps the kind of a transport error without its URL.
func describeNetErr(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner.Error()
		}
	}
	return "transport error"
}

func (c *Client) deliver(calls []*Call, resps []rpcResponse) error {
	byID := make(map[int]rpcResponse, len(resps))
	for _, r := range resps {
		byID[r.ID] = r
	}
	if len(calls) == 1 && len(resps) == 1 {
		byID[0] = resps[0]
	}
	for i, call := range calls {
		r, ok := byID[i]
		switch {
		case !ok:
			call.Err = fmt.Errorf("%s: no response in batch", call.Method)
		case r.Error != nil:
			call.Err = fmt.Errorf("%s: %w", call.Method, r.Error)
		case call.Result != nil:
			if err := json.Unmarshal(r.Result, call.Result); err != nil {
				call.Err = fmt.Errorf("%s: decode result: %w", call.Method, err)
			}
		}
	}
	return nil
}

// Account is an account as getMultipleAccounts returns it (base64 data
// decoded).
type Account struct {
	Lamports   uint64
	Owner      PublicKey
	Executable bool
	Data       []byte
}

// wireAccount is the JSON shape of an account with base64 encoding.
type wireAccount struct {
	Lamports   uint64    `json:"lamports"`
	Owner      string    `json:"owner"`
	Executable bool      `json:"executable"`
	Data       [2]string `json:"data"`
}

func (w *wireAccount) decode() (*Account, error) {
	if w.Data[1] != "base64" {
		return nil, fmt.Errorf("account data encoding %q, want base64", w.Data[1])
	}
	owner, err := ParsePublicKey(w.Owner)
	if err != nil {
		return nil, fmt.Errorf("account owner: %w", err)
	}
	data, err := base64.StdEncoding.DecodeString(w.Data[0])
	if err != nil {
		return nil, fmt.Errorf("account data: %w", err)
	}
	return &Account{Lamports: w.Lamports, Owner: owner, Executable: w.Executable, Data: data}, nil
}

// multipleAccountsResult is getMultipleAccounts' result.
type multipleAccountsResult struct {
	Value []*wireAccount `json:"value"`
}

// accounts decodes the result for keys; a nil entry is an absent account.
func (r *multipleAccountsResult) accounts(n int) ([]*Account, error) {
	if len(r.Value) != n {
		return nil, fmt.Errorf("getMultipleAccounts: %d accounts for %d keys", len(r.Value), n)
	}
	out := make([]*Account, n)
	for i, w := range r.Value {
		if w == nil {
			continue
		}
		a, err := w.decode()
		if err != nil {
			return nil, fmt.Errorf("getMultipleAccounts: %w", err)
		}
		out[i] = a
	}
	return out, nil
}

func keyStrings(keys []PublicKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

// accountsCalls returns getMultipleAccounts calls for keys in chunks of
// the node's limit, to be sent in one batch, and a function that collects
// their results in key order.
func accountsCalls(keys []PublicKey) ([]*Call, func() ([]*Account, error)) {
	var calls []*Call
	var results []*multipleAccountsResult
	for start := 0; start < len(keys); start += maxAccountsPerCall {
		end := min(start+maxAccountsPerCall, len(keys))
		res := &multipleAccountsResult{}
		results = append(results, res)
		calls = append(calls, &Call{
			Method: "getMultipleAccounts",
			Params: []any{keyStrings(keys[start:end]), map[string]any{"encoding": "base64"}},
			Result: res,
		})
	}
	collect := func() ([]*Account, error) {
		out := make([]*Account, 0, len(keys))
		for i, call := range calls {
			if call.Err != nil {
				return nil, call.Err
			}
			n := min(maxAccountsPerCall, len(keys)-i*maxAccountsPerCall)
			accs, err := results[i].accounts(n)
			if err != nil {
				return nil, err
			}
			out = append(out, accs...)
		}
		return out, nil
	}
	return calls, collect
}

// programAccount is one getProgramAccounts entry.
type programAccount struct {
	Pubkey  string      `json:"pubkey"`
	Account wireAccount `json:"account"`
}

// memcmp is a getProgramAccounts filter: bytes at offset.
type memcmp struct {
	offset int
	bytes  []byte
}

// programAccountsCall asks for the accounts of program with a dataSize
// filter (when size > 0) and memcmp filters (bytes base58-encoded).
func programAccountsCall(program PublicKey, size int, cmps []memcmp, out *[]programAccount) *Call {
	var filters []any
	if size > 0 {
		filters = append(filters, map[string]any{"dataSize": size})
	}
	for _, m := range cmps {
		filters = append(filters, map[string]any{"memcmp": map[string]any{"offset": m.offset, "bytes": base58.Encode(m.bytes)}})
	}
	return &Call{
		Method: "getProgramAccounts",
		Params: []any{program.String(), map[string]any{"encoding": "base64", "filters": filters}},
		Result: out,
	}
}

// tokenAccountSliceLen is what tokenAccountsOfMintCall asks for of each
// token account: mint, owner and amount.
const tokenAccountSliceLen = 72

// tokenAccountsOfMintCall lists the token accounts of mint owned by
// program (memcmp on the mint at offset 0, plus dataSize 165 when sized:
// SPL Token accounts have no extensions), each cut to its first 72 bytes.
func tokenAccountsOfMintCall(program, mint PublicKey, sized bool, out *[]programAccount) *Call {
	size := 0
	if sized {
		size = tokenAccountSize
	}
	c := programAccountsCall(program, size, []memcmp{{0, mint[:]}}, out)
	c.Params[1].(map[string]any)["dataSlice"] = map[string]any{"offset": 0, "length": tokenAccountSliceLen}
	return c
}

// largestAccount is one getTokenLargestAccounts entry.
type largestAccount struct {
	Address string `json:"address"`
	Amount  string `json:"amount"`
}

type largestAccountsResult struct {
	Value []largestAccount `json:"value"`
}

// signatureInfo is one getSignaturesForAddress entry.
type signatureInfo struct {
	Signature string `json:"signature"`
	Slot      uint64 `json:"slot"`
	BlockTime *int64 `json:"blockTime"`
	Err       any    `json:"err"`
}

// transactionResult is the part of getTransaction (json encoding) a scan
// reads: the account keys, whose first is the fee payer.
type transactionResult struct {
	BlockTime   *int64 `json:"blockTime"`
	Transaction struct {
		Message struct {
			AccountKeys []string `json:"accountKeys"`
		} `json:"message"`
	} `json:"transaction"`
}

type epochInfo struct {
	Epoch        uint64 `json:"epoch"`
	AbsoluteSlot uint64 `json:"absoluteSlot"`
}

type balanceResult struct {
	Value uint64 `json:"value"`
}

// maxNodeMessage bounds a node's error message carried into a warning.
const maxNodeMessage = 160

// describe turns an RPC failure into text safe for a client-facing
// warning: never a transport error (it can name the endpoint), only the
// kind of failure or the node's own JSON-RPC error.
func describe(err error) string {
	var ue *UpstreamError
	var re *RPCError
	switch {
	case errors.As(err, &ue) && ue.Timeout:
		return "the scan deadline passed"
	case errors.As(err, &ue):
		return "no RPC endpoint answered"
	case errors.As(err, &re):
		msg := re.Message
		if len(msg) > maxNodeMessage {
			msg = msg[:maxNodeMessage] + "…"
		}
		return fmt.Sprintf("node error %d: %s", re.Code, msg)
	default:
		return "unexpected node response"
	}
}
