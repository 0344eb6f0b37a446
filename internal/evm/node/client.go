package node

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// ClientOptions tune a Client; the zero value is usable.
type ClientOptions struct {
	// HTTPClient sends the requests; nil means a client with sane timeouts.
	HTTPClient *http.Client
	// MaxConcurrent caps the HTTP requests in flight to this chain (default 8).
	MaxConcurrent int
	// Retries is how many extra rounds over all URLs are tried after every
	// URL failed with a retryable error (default 2; negative means none).
	Retries int
	// Backoff is the pause before the first retry round, doubled each round
	// (default 100ms).
	Backoff time.Duration
	// AttemptTimeout bounds one HTTP request to one URL, so that a hanging
	// endpoint fails over (default 10s).
	AttemptTimeout time.Duration
	// Upstream, when set, is called once per upstream HTTP request with the
	// chain key and the JSON-RPC method ("batch" for a mixed batch).
	Upstream func(chain, method string)
	// MaxBatchBytes bounds one request body: a batch over it is split by
	// bytes before it is sent (default DefaultMaxBatchBytes; negative: no
	// bound). A call larger than the bound alone is still sent alone.
	MaxBatchBytes int
}

// DefaultMaxBatchBytes is the default bound on a request body, well under
// the limits common providers set (2 MiB and more).
const DefaultMaxBatchBytes = 1 << 20

// A learned limit climbs back after calm: calmBatches answered batches
// pressing the count limit grow it by a quarter (at least one); calmParts
// answered parts of batches split by bytes grow the byte limit by a
// quarter of the configured bound, never above it.
const (
	calmBatches = 16
	calmParts   = 4
)

// Client is a JSON-RPC client for one chain: several URLs tried in order,
// retries with backoff, a concurrency cap and real batching (N calls in one
// HTTP POST). Results are delivered into go-ethereum rpc.BatchElem values.
type Client struct {
	chain    string
	urls     []string
	http     *http.Client
	sem      chan struct{}
	retries  int
	backoff  time.Duration
	attempt  time.Duration
	upstream func(chain, method string)
	requests atomic.Int64
	nextID   atomic.Uint64
	// limit is the learned batch limit (0: none known).
	limit atomic.Int64
	// maxBytes is the configured body bound (0: none); byteLimit the
	// learned one (at most maxBytes; 0: none); calm and byteCalm count
	// the answered batches (parts) pressing a learned limit since it
	// last moved.
	maxBytes  int64
	byteLimit atomic.Int64
	calm      atomic.Int64
	byteCalm  atomic.Int64
}

// NewClient returns a client for chain reaching it through urls, in order.
func NewClient(chain string, urls []string, opts ClientOptions) *Client {
	c := &Client{
		chain:    chain,
		urls:     append([]string(nil), urls...),
		http:     opts.HTTPClient,
		retries:  opts.Retries,
		backoff:  opts.Backoff,
		attempt:  opts.AttemptTimeout,
		upstream: opts.Upstream,
	}
	if c.http == nil {
		c.http = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			MaxIdleConnsPerHost: 16,
			IdleConnTimeout:     90 * time.Second,
			TLSHandshakeTimeout: 5 * time.Second,
		}}
	}
	n := opts.MaxConcurrent
	if n <= 0 {
		n = 8
	}
	c.sem = make(chan struct{}, n)
	if c.retries == 0 {
		c.retries = 2
	} else if c.retries < 0 {
		c.retries = 0
	}
	if c.backoff <= 0 {
		c.backoff = 100 * time.Millisecond
	}
	if c.attempt <= 0 {
		c.attempt = 10 * time.Second
	}
	switch {
	case opts.MaxBatchBytes == 0:
		c.maxBytes = DefaultMaxBatchBytes
	case opts.MaxBatchBytes > 0:
		c.maxBytes = int64(opts.MaxBatchBytes)
	}
	c.byteLimit.Store(c.maxBytes)
	return c
}

// Chain returns the chain key the client serves.
func (c *Client) Chain() string { return c.chain }

// Requests returns how many upstream HTTP requests the client has sent.
func (c *Client) Requests() int64 { return c.requests.Load() }

// RPCError is an error answered by the node for one call. Data holds the
// error's data field (for reverts: the hex revert payload).
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the node's message.
func (e *RPCError) Error() string { return e.Message }

// ErrorCode returns the JSON-RPC error code (go-ethereum's rpc.Error).
func (e *RPCError) ErrorCode() int { return e.Code }

// ErrorData returns the error's data decoded as a string when it is one
// (go-ethereum's rpc.DataError), else the raw JSON.
func (e *RPCError) ErrorData() any {
	var s string
	if json.Unmarshal(e.Data, &s) == nil {
		return s
	}
	if len(e.Data) == 0 {
		return nil
	}
	return string(e.Data)
}

// RevertData returns the revert payload carried by a call's error, if any.
func RevertData(err error) ([]byte, bool) {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return nil, false
	}
	b, err2 := hexutil.Decode(s)
	if err2 != nil {
		return nil, false
	}
	return b, true
}

// TransportError says that no URL of the chain answered a request. Its
// message never contains a URL.
type TransportError struct {
	Chain   string
	Timeout bool
	Err     error
}

// Error says which chain failed, never through which URL.
func (e *TransportError) Error() string {
	if e.Timeout {
		return fmt.Sprintf("%s: every RPC endpoint timed out: %v", e.Chain, e.Err)
	}
	return fmt.Sprintf("%s: every RPC endpoint failed: %v", e.Chain, e.Err)
}

// Unwrap returns the last endpoint's failure.
func (e *TransportError) Unwrap() error { return e.Err }

type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      uint64 `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// attemptError is one URL's failure; retryable failures earn another round.
type attemptError struct {
	retryable    bool
	timeout      bool
	batchRefused bool
	bodyRefused  bool
	retryAfter   time.Duration
	err          error
}

// Call sends one JSON-RPC call and decodes its result into result.
func (c *Client) Call(ctx context.Context, result any, method string, args ...any) error {
	elems := []rpc.BatchElem{{Method: method, Args: args, Result: result}}
	if err := c.Batch(ctx, elems); err != nil {
		return err
	}
	return elems[0].Error
}

// Batch sends elems as one JSON-RPC batch in one HTTP request (a single
// element is sent as a plain call). The returned error is a transport
// failure of the whole batch (*TransportError or the context's error);
// each element's own error is in its Error field.
//
// A node's limits are learned rather than turned into answers: a batch
// the provider refuses as too large is split and the size that passed is
// remembered for the next batches; calls answered with a transient error
// (rate limits, -32005, -32603, "no response", a cap that answers only
// the first calls) are sent again, in smaller batches and preferring the
// next URL, before their error is left on them.
func (c *Client) Batch(ctx context.Context, elems []rpc.BatchElem) error {
	if len(elems) == 0 {
		return nil
	}
	for i := range elems {
		elems[i].Error = nil
	}
	if err := c.send(ctx, elems, 0); err != nil {
		return err
	}
	return c.retryCalls(ctx, elems)
}

// BatchLimit returns the largest batch the client sends to this chain:
// 0 until a provider refused or capped one.
func (c *Client) BatchLimit() int { return int(c.limit.Load()) }

// BatchBytes returns the largest request body the client sends to this
// chain in a batch of several calls: the configured bound until a provider
// refused a body, then what it learned (0: no bound).
func (c *Client) BatchBytes() int { return int(c.byteLimit.Load()) }

// learnBytes lowers the byte limit to n (a refused body of 2n bytes).
func (c *Client) learnBytes(n int) {
	n = max(n, 1)
	c.byteCalm.Store(0)
	for {
		cur := c.byteLimit.Load()
		if cur != 0 && cur <= int64(n) {
			return
		}
		if c.byteLimit.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}

// answered records a request of n calls that the node answered: one
// pressing the learned count limit counts toward calmBatches, after which
// the count limit climbs back a step.
func (c *Client) answered(n int) {
	limit := c.limit.Load()
	if limit <= 0 || int64(n)*4 < limit*3 || c.calm.Add(1) < calmBatches {
		return
	}
	c.calm.Store(0)
	c.limit.CompareAndSwap(limit, limit+max(1, limit/4))
}

// calmBytes records k answered parts of a batch split by bytes: every
// calmParts of them the byte limit climbs back a step.
func (c *Client) calmBytes(k int) {
	bytes := c.byteLimit.Load()
	if bytes >= c.maxBytes || c.byteCalm.Add(int64(k)) < calmParts {
		return
	}
	c.byteCalm.Store(0)
	c.byteLimit.CompareAndSwap(bytes, min(c.maxBytes, bytes+max(1, c.maxBytes/4)))
}

// learnLimit lowers the batch limit to n (never below 1).
func (c *Client) learnLimit(n int) {
	n = max(n, 1)
	c.calm.Store(0)
	for {
		cur := c.limit.Load()
		if cur != 0 && cur <= int64(n) {
			return
		}
		if c.limit.CompareAndSwap(cur, int64(n)) {
			return
		}
	}
}

// send delivers elems in batches no larger than the learned limits (bytes
// first, then count), side by side, starting at URL first; a refused batch
// is split in halves.
func (c *Client) send(ctx context.Context, elems []rpc.BatchElem, first int) error {
	if chunks := c.byteChunks(elems); len(chunks) > 1 {
		var wg sync.WaitGroup
		errs := make([]error, len(chunks))
		for i, chunk := range chunks {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = c.send(ctx, chunk, first) }()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		c.calmBytes(len(chunks))
		return nil
	}
	if limit := c.BatchLimit(); limit > 0 && len(elems) > limit {
		var wg sync.WaitGroup
		errs := make([]error, (len(elems)+limit-1)/limit)
		for i := range errs {
			chunk := elems[i*limit : min((i+1)*limit, len(elems))]
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = c.send(ctx, chunk, first) }()
		}
		wg.Wait()
		return errors.Join(errs...)
	}
	err := c.batchOnce(ctx, elems, first)
	if errors.Is(err, errOverLimit) {
		return c.send(ctx, elems, first)
	}
	if errors.Is(err, errBatchRefused) && len(elems) > 1 {
		c.learnLimit(len(elems) / 2)
		return c.send(ctx, elems, first)
	}
	var tooLarge *bodyRefused
	if errors.As(err, &tooLarge) && len(elems) > 1 {
		c.learnBytes(tooLarge.size / 2)
		return c.send(ctx, elems, first)
	}
	return err
}

// callOverhead bounds what one call adds to a batch body besides its
// parameters (the envelope, id, method name, separators).
const callOverhead = 96

// byteChunks splits elems, in order, into runs whose bodies fit the
// learned byte limit (one run when they all fit or there is no limit). A
// call over the limit alone is a run of its own.
func (c *Client) byteChunks(elems []rpc.BatchElem) [][]rpc.BatchElem {
	limit := int(c.byteLimit.Load())
	if limit <= 0 || len(elems) < 2 {
		return nil
	}
	var chunks [][]rpc.BatchElem
	start, size := 0, 2
	for i, el := range elems {
		n := callOverhead + len(el.Method) + paramsSize(el.Args)
		if i > start && size+n > limit {
			chunks = append(chunks, elems[start:i])
			start, size = i, 2
		}
		size += n
	}
	if start == 0 {
		return nil
	}
	return append(chunks, elems[start:])
}

// paramsSize is the encoded size of a call's parameters (0 when they do
// not encode: the send reports that).
func paramsSize(args []any) int {
	b, err := json.Marshal(args)
	if err != nil {
		return 0
	}
	return len(b)
}

// retryCalls sends again, up to the client's retries, the calls answered
// with a transient error; each round prefers the next URL and waits the
// backoff first.
func (c *Client) retryCalls(ctx context.Context, elems []rpc.BatchElem) error {
	rounds := c.retries
	for round := 1; round <= rounds; round++ {
		var again []int
		for i, el := range elems {
			if transientCall(el.Error) {
				again = append(again, i)
			}
		}
		if len(again) == 0 {
			return nil
		}
		// A provider that answers only the first k calls of a batch caps
		// batches at k.
		if k := again[0]; k > 0 && len(again) == len(elems)-k {
			c.learnLimit(k)
		}
		t := time.NewTimer(min(c.backoff<<(round-1), maxCallBackoff))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		sub := make([]rpc.BatchElem, len(again))
		for j, i := range again {
			sub[j] = elems[i]
			sub[j].Error = nil
		}
		if err := c.send(ctx, sub, round%max(len(c.urls), 1)); err != nil {
			// The calls keep their first error.
			return nil
		}
		left := 0
		for j, i := range again {
			elems[i].Error = sub[j].Error
			if transientCall(sub[j].Error) {
				left++
			}
		}
		// A node that answered some of the calls it had failed is
		// answering, only not every call (a rate limit, a flaky backend):
		// the last round earns another while rounds still make progress.
		if round == rounds && left > 0 && left < len(again) && rounds < c.retries+progressRounds {
			rounds++
		}
	}
	return nil
}

// progressRounds is how many rounds past the client's retries are tried
// while each round gets answers to some of the failed calls;
// maxCallBackoff bounds the pause before one.
const (
	progressRounds = 3
	maxCallBackoff = time.Second
)

// errNoResponse marks a call the node's answer left out.
var errNoResponse = errors.New("no response for this call")

// transientCall says whether a call's error is the node's or provider's
// trouble (worth asking again) rather than an answer about the chain: a
// revert, an unknown method or a bad argument is an answer.
func transientCall(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, errNoResponse) || errors.Is(err, errNoResult) {
		return true
	}
	var re *RPCError
	if !errors.As(err, &re) {
		return false
	}
	msg := strings.ToLower(re.Message)
	if re.Code == 3 || strings.Contains(msg, "revert") || IsRevert(err) {
		return false
	}
	// "query returned more than 10000 results", "block range too large":
	// the caller must ask for less, asking again will not help.
	for _, w := range []string{"more than", "range", "too large"} {
		if strings.Contains(msg, w) && !strings.Contains(msg, "batch") {
			return false
		}
	}
	switch re.Code {
	case 429, -32005, -32603, -32002, -32098, -32097:
		return true
	}
	for _, w := range []string{"rate limit", "too many", "timeout", "timed out", "try again", "temporar",
		"unavailable", "busy", "capacity", "header not found", "internal error", "limit exceeded"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// bodyRefused marks a provider's refusal of a request body of size bytes
// as too large (HTTP 413, or a refusal that names no batch count).
type bodyRefused struct{ size int }

func (e *bodyRefused) Error() string { return fmt.Sprintf("request body of %d bytes refused", e.size) }

// errBatchRefused marks a provider's refusal of a batch as too large;
// errOverLimit a batch found over the learned limit before it was sent.
var (
	errBatchRefused = errors.New("batch refused")
	errOverLimit    = errors.New("batch over the learned limit")
)

// batchOnce sends elems as one request, trying the URLs in order from
// first, for the client's retry rounds.
func (c *Client) batchOnce(ctx context.Context, elems []rpc.BatchElem, first int) error {
	if len(elems) == 0 {
		return nil
	}
	if len(c.urls) == 0 {
		return &TransportError{Chain: c.chain, Err: errors.New("no RPC endpoint configured")}
	}
	reqs := make([]request, len(elems))
	byID := make(map[uint64]int, len(elems))
	for i, el := range elems {
		id := c.nextID.Add(1)
		params := el.Args
		if params == nil {
			params = []any{}
		}
		reqs[i] = request{JSONRPC: "2.0", ID: id, Method: el.Method, Params: params}
		byID[id] = i
	}
	var body []byte
	var err error
	if len(reqs) == 1 {
		body, err = json.Marshal(reqs[0])
	} else {
		body, err = json.Marshal(reqs)
	}
	if err != nil {
		return fmt.Errorf("%s: encode request: %w", c.chain, err)
	}
	method := elems[0].Method
	for _, el := range elems[1:] {
		if el.Method != method {
			method = "batch"
			break
		}
	}

	select {
	case c.sem <- struct{}{}:
		defer func() { <-c.sem }()
	case <-ctx.Done():
		return ctx.Err()
	}
	// A batch that waited for its turn while a sibling learned a smaller
	// limit is split without being sent.
	if limit := c.BatchLimit(); limit > 0 && len(elems) > limit {
		return errOverLimit
	}
	if c.byteLimit.Load() < c.maxBytes && len(c.byteChunks(elems)) > 1 {
		return errOverLimit
	}

	var last *attemptError
	for round := 0; round <= c.retries; round++ {
		if round > 0 {
			wait := c.backoff << (round - 1)
			if last != nil && last.retryAfter > wait {
				wait = min(last.retryAfter, maxRetryAfter)
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return c.finalError(ctx, last)
			case <-t.C:
			}
		}
		retry := false
		for k := range c.urls {
			i := (first + k) % len(c.urls)
			resps, aerr := c.post(ctx, i, method, body)
			if aerr == nil {
				c.answered(len(elems))
				return deliver(elems, byID, resps)
			}
			if aerr.bodyRefused && len(elems) > 1 {
				return fmt.Errorf("%s: %w", c.chain, &bodyRefused{size: len(body)})
			}
			if aerr.batchRefused && len(elems) > 1 {
				return fmt.Errorf("%s: %w", c.chain, errBatchRefused)
			}
			last = aerr
			if ctx.Err() != nil {
				return c.finalError(ctx, last)
			}
			retry = retry || aerr.retryable
		}
		if !retry {
			break
		}
	}
	return c.finalError(ctx, last)
}

// maxRetryAfter bounds how long a provider's Retry-After holds a retry:
// a scan has seconds, not minutes.
const maxRetryAfter = 2 * time.Second

func (c *Client) finalError(ctx context.Context, last *attemptError) error {
	if ctx.Err() != nil && last == nil {
		return ctx.Err()
	}
	if last == nil {
		return &TransportError{Chain: c.chain, Err: errors.New("no attempt made")}
	}
	timeout := last.timeout || errors.Is(ctx.Err(), context.DeadlineExceeded)
	return &TransportError{Chain: c.chain, Timeout: timeout, Err: last.err}
}

// maxResponse bounds a response body (getLogs pages can be large).
const maxResponse = 64 << 20

// post sends body to URL i and parses the responses.
func (c *Client) post(ctx context.Context, i int, method string, body []byte) ([]response, *attemptError) {
	actx, cancel := context.WithTimeout(ctx, c.attempt)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.urls[i], bytes.NewReader(body))
	if err != nil {
		return nil, &attemptError{err: fmt.Errorf("endpoint %d: bad URL", i+1)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	c.requests.Add(1)
	if c.upstream != nil {
		c.upstream(c.chain, method)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		timeout := isTimeout(err) || errors.Is(actx.Err(), context.DeadlineExceeded)
		return nil, &attemptError{retryable: true, timeout: timeout, err: fmt.Errorf("endpoint %d: %w", i+1, netFailure(err))}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return nil, &attemptError{retryable: true, timeout: isTimeout(err), err: fmt.Errorf("endpoint %d: read: %w", i+1, netFailure(err))}
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return nil, &attemptError{retryable: true, retryAfter: retryAfter(resp.Header.Get("Retry-After")),
			err: fmt.Errorf("endpoint %d: HTTP %d", i+1, resp.StatusCode)}
	}
	if resp.StatusCode == http.StatusRequestEntityTooLarge {
		return nil, &attemptError{bodyRefused: true, err: fmt.Errorf("endpoint %d: HTTP %d", i+1, resp.StatusCode)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &attemptError{err: fmt.Errorf("endpoint %d: HTTP %d", i+1, resp.StatusCode)}
	}
	data = bytes.TrimSpace(data)
	var resps []response
	switch {
	case len(data) > 0 && data[0] == '[':
		if err := json.Unmarshal(data, &resps); err != nil {
			return nil, &attemptError{retryable: true, err: fmt.Errorf("endpoint %d: malformed response: %w", i+1, err)}
		}
	case len(data) > 0 && data[0] == '{':
		var one response
		if err := json.Unmarshal(data, &one); err != nil {
			return nil, &attemptError{retryable: true, err: fmt.Errorf("endpoint %d: malformed response: %w", i+1, err)}
		}
		// A batch answered by one id-less error is the provider refusing
		// the whole request (often a rate limit).
		// A batch answered by one id-less error "invalid request" or
		// naming the batch is a size cap.
		// A refusal that names the batch (its count) is a count cap; any
		// other (-32600 "Invalid request", "request entity too large") is
		// taken as a body-size cap: halving the bytes halves the count
		// too, and a byte limit climbs back after calm batches.
		if one.Error != nil && (len(one.ID) == 0 || string(one.ID) == "null") {
			msg := strings.ToLower(one.Error.Message)
			size := one.Error.Code == -32600 || strings.Contains(msg, "too large") || strings.Contains(msg, "entity")
			count := strings.Contains(msg, "batch") && !strings.Contains(msg, "bytes") && !strings.Contains(msg, "too large")
			return nil, &attemptError{retryable: !size && !count, batchRefused: count, bodyRefused: size && !count,
				err: fmt.Errorf("endpoint %d: %s", i+1, bounded(one.Error.Message))}
		}
		resps = []response{one}
	default:
		return nil, &attemptError{retryable: true, err: fmt.Errorf("endpoint %d: response is not JSON-RPC", i+1)}
	}
	return resps, nil
}

// deliver decodes responses into their elements by id.
func deliver(elems []rpc.BatchElem, byID map[uint64]int, resps []response) error {
	seen := make([]bool, len(elems))
	for _, r := range resps {
		id, err := strconv.ParseUint(string(bytes.Trim(r.ID, `"`)), 10, 64)
		if err != nil {
			continue
		}
		i, ok := byID[id]
		if !ok || seen[i] {
			continue
		}
		seen[i] = true
		el := &elems[i]
		switch {
		case r.Error != nil:
			el.Error = r.Error
		case len(r.Result) == 0:
			el.Error = errNoResult
		case el.Result != nil:
			if err := json.Unmarshal(r.Result, el.Result); err != nil {
				el.Error = fmt.Errorf("decode %s result: %w", el.Method, err)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			elems[i].Error = errNoResponse
		}
	}
	return nil
}

// errNoResult marks an answer with neither a result nor an error.
var errNoResult = errors.New("response without result")

// retryAfter reads a Retry-After header in seconds (an HTTP date is
// ignored: providers send seconds).
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// bounded cuts a provider's message to a length fit for an error.
func bounded(msg string) string {
	if len(msg) > 120 {
		return strings.ToValidUTF8(msg[:120], "") + "…"
	}
	return msg
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// netError is a transport failure described without the endpoint's URL,
// host or port (which may name internal hosts or carry an API key); the
// original stays reachable with errors.Is/As.
type netError struct {
	what string
	err  error
}

func (e *netError) Error() string { return e.what }
func (e *netError) Unwrap() error { return e.err }

// netFailure describes an HTTP client error without its URL.
func netFailure(err error) error {
	var what string
	var dns *net.DNSError
	switch {
	case errors.Is(err, context.Canceled):
		what = "canceled"
	case isTimeout(err):
		what = "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		what = "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		what = "connection reset"
	case errors.As(err, &dns):
		what = "DNS lookup failed"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		what = "connection closed"
	default:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		what = "connection failed"
	}
	return &netError{what: what, err: err}
}

// Block parameters: the adapter reads the latest state.
const Latest = "latest"

// CodeAt returns the code at addr.
func (c *Client) CodeAt(ctx context.Context, addr common.Address) ([]byte, error) {
	var code hexutil.Bytes
	if err := c.Call(ctx, &code, "eth_getCode", addr, Latest); err != nil {
		return nil, fmt.Errorf("eth_getCode: %w", err)
	}
	return code, nil
}

// StorageAt returns the storage word of addr at slot.
func (c *Client) StorageAt(ctx context.Context, addr common.Address, slot common.Hash) (common.Hash, error) {
	var v hexutil.Bytes
	if err := c.Call(ctx, &v, "eth_getStorageAt", addr, slot, Latest); err != nil {
		return common.Hash{}, fmt.Errorf("eth_getStorageAt: %w", err)
	}
	return common.BytesToHash(v), nil
}

// BalanceAt returns the native balance of addr.
func (c *Client) BalanceAt(ctx context.Context, addr common.Address) (*big.Int, error) {
	var v hexutil.Big
	if err := c.Call(ctx, &v, "eth_getBalance", addr, Latest); err != nil {
		return nil, fmt.Errorf("eth_getBalance: %w", err)
	}
	return (*big.Int)(&v), nil
}

// NonceAt returns the transaction count of addr.
func (c *Client) NonceAt(ctx context.Context, addr common.Address) (uint64, error) {
	var v hexutil.Uint64
	if err := c.Call(ctx, &v, "eth_getTransactionCount", addr, Latest); err != nil {
		return 0, fmt.Errorf("eth_getTransactionCount: %w", err)
	}
	return uint64(v), nil
}

// BlockNumber returns the latest block number.
func (c *Client) BlockNumber(ctx context.Context) (uint64, error) {
	var v hexutil.Uint64
	if err := c.Call(ctx, &v, "eth_blockNumber"); err != nil {
		return 0, fmt.Errorf("eth_blockNumber: %w", err)
	}
	return uint64(v), nil
}

// CallMsg is an eth_call request.
type CallMsg struct {
	From  *common.Address `json:"from,omitempty"`
	To    common.Address  `json:"to"`
	Gas   hexutil.Uint64  `json:"gas,omitempty"`
	Value *hexutil.Big    `json:"value,omitempty"`
	// Data is sent as "data", which every node accepts ("input" is newer).
	Data hexutil.Bytes `json:"data"`
}

// OverrideAccount is one account's state override for eth_call.
type OverrideAccount struct {
	Nonce     *hexutil.Uint64             `json:"nonce,omitempty"`
	Code      hexutil.Bytes               `json:"code,omitempty"`
	Balance   *hexutil.Big                `json:"balance,omitempty"`
	State     map[common.Hash]common.Hash `json:"state,omitempty"`
	StateDiff map[common.Hash]common.Hash `json:"stateDiff,omitempty"`
}

// StateOverride is eth_call's third parameter: accounts replaced for the call.
type StateOverride map[common.Address]OverrideAccount

// CallElem builds the batch element of an eth_call against the latest
// block with optional state overrides; result receives the return data.
func CallElem(msg CallMsg, overrides StateOverride, result *hexutil.Bytes) rpc.BatchElem {
	args := []any{msg, Latest}
	if len(overrides) > 0 {
		args = append(args, overrides)
	}
	return rpc.BatchElem{Method: "eth_call", Args: args, Result: result}
}

// CallContract runs an eth_call with optional state overrides and returns
// its return data. A revert comes back as an *RPCError carrying the revert
// data (see RevertData).
func (c *Client) CallContract(ctx context.Context, msg CallMsg, overrides StateOverride) ([]byte, error) {
	var out hexutil.Bytes
	elems := []rpc.BatchElem{CallElem(msg, overrides, &out)}
	if err := c.Batch(ctx, elems); err != nil {
		return nil, err
	}
	if elems[0].Error != nil {
		return nil, fmt.Errorf("eth_call: %w", elems[0].Error)
	}
	return out, nil
}

// CodeElem builds the batch element of eth_getCode at addr.
func CodeElem(addr common.Address, result *hexutil.Bytes) rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_getCode", Args: []any{addr, Latest}, Result: result}
}

// StorageElem builds the batch element of eth_getStorageAt.
func StorageElem(addr common.Address, slot common.Hash, result *hexutil.Bytes) rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_getStorageAt", Args: []any{addr, slot, Latest}, Result: result}
}

// BalanceElem builds the batch element of eth_getBalance.
func BalanceElem(addr common.Address, result *hexutil.Big) rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_getBalance", Args: []any{addr, Latest}, Result: result}
}

// NonceElem builds the batch element of eth_getTransactionCount.
func NonceElem(addr common.Address, result *hexutil.Uint64) rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{addr, Latest}, Result: result}
}

// BlockNumberElem builds the batch element of eth_blockNumber.
func BlockNumberElem(result *hexutil.Uint64) rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_blockNumber", Result: result}
}

// logFilter is eth_getLogs' parameter.
type LogFilter struct {
	FromBlock hexutil.Uint64   `json:"fromBlock"`
	ToBlock   hexutil.Uint64   `json:"toBlock"`
	Address   []common.Address `json:"address,omitempty"`
	Topics    [][]common.Hash  `json:"topics,omitempty"`
}

// FilterLogs returns the logs matching q; q needs explicit From and To
// blocks.
func (c *Client) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	if q.FromBlock == nil || q.ToBlock == nil {
		return nil, errors.New("eth_getLogs: from and to blocks are required")
	}
	f := LogFilter{
		FromBlock: hexutil.Uint64(q.FromBlock.Uint64()),
		ToBlock:   hexutil.Uint64(q.ToBlock.Uint64()),
		Address:   q.Addresses,
		Topics:    q.Topics,
	}
	var logs []types.Log
	if err := c.Call(ctx, &logs, "eth_getLogs", f); err != nil {
		return nil, fmt.Errorf("eth_getLogs: %w", err)
	}
	return logs, nil
}

// isRevert says whether a call failed by reverting (the code ran).
func IsRevert(err error) bool {
	_, ok := RevertData(err)
	return ok
}

// safeErr renders an error for a warning: transport errors never carry
// URLs; RPC messages are bounded.
func SafeErr(err error) string {
	msg := err.Error()
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}
