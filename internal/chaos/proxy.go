// Package chaos is a fault-injecting JSON-RPC proxy: it stands between a
// scanner and a real node (the devnet) and answers the way bad nodes and
// providers do — slowly, with per-call JSON-RPC errors, empty results,
// batch caps, rate limits, broken bodies and dropped connections — so
// that tests can show that no such fault turns into a verdict.
package chaos

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// BatchCapStyle is how a provider answers a batch over its cap.
type BatchCapStyle int

const (
	// CapRefuse answers the whole batch with one id-less JSON-RPC error.
	CapRefuse BatchCapStyle = iota
	// CapTail answers the first Cap calls and gives every later call its
	// own -32005 error, as providers that cap per request do.
	CapTail
)

// Body is a way to break a response body.
type Body int

const (
	// BodyIntact forwards the node's answer.
	BodyIntact Body = iota
	// BodyTruncated cuts the node's answer in half.
	BodyTruncated
	// BodyGarbage answers an HTML error page with status 200.
	BodyGarbage
)

// CallError is a JSON-RPC error answered for one call.
type CallError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Fault describes how the proxy misbehaves; the zero value forwards
// everything untouched.
type Fault struct {
	// Delay holds every HTTP request this long before it is handled.
	Delay time.Duration
	// Methods limits Error and Empty to calls of these methods (empty:
	// every method).
	Methods []string
	// Data limits Error and Empty further to calls whose first parameter's
	// call data ("data" or "input") starts with one of these hex prefixes,
	// e.g. a selector "0x18160ddd" (empty: any call).
	Data []string
	// Every applies Error, Empty and the HTTP faults (Status, Body, Drop)
	// to one in Every of the calls (requests) they match; 0 or 1: all.
	Every int
	// Error answers matching calls with this JSON-RPC error instead of
	// forwarding them.
	Error *CallError
	// Empty answers matching calls with the result "0x".
	Empty bool
	// Cap is the largest batch the proxy forwards (0: no cap), answered
	// over the cap as CapStyle says.
	Cap      int
	CapStyle BatchCapStyle
	// Status answers every matching HTTP request with this status (e.g.
	// 429) and a JSON-RPC error body; RetryAfter sets Retry-After.
	Status     int
	RetryAfter time.Duration
	// Body breaks the node's answers.
	Body Body
	// Drop closes the connection without an answer.
	Drop bool
	// MaxBody refuses request bodies above this many bytes (0: none), as a
	// provider's body limit does: with HTTP 413 when BodyTooLarge413, else
	// (as anvil does) one id-less -32600 "Invalid request".
	MaxBody         int
	BodyTooLarge413 bool
	// MaxLogRange refuses every eth_getLogs whose block range spans more
	// than this many blocks (0: none; "latest" is the node's head, a
	// missing fromBlock "latest" too) with -32005 "block range too large,
	// max N", as providers that cap a query's range do.
	MaxLogRange uint64
}

// Proxy is a running fault-injecting JSON-RPC proxy.
type Proxy struct {
	target string
	client *http.Client
	srv    *http.Server
	ln     net.Listener

	mu    sync.Mutex
	fault Fault

	requests atomic.Int64 // HTTP requests received
	bytes    atomic.Int64 // request body bytes received
	calls    atomic.Int64 // JSON-RPC calls received
	hits     atomic.Int64 // counter for Every on calls
	reqHits  atomic.Int64 // counter for Every on requests
	faulted  atomic.Int64 // calls or requests a fault was applied to

	// refused holds the digests of the bodies a cap or a body limit
	// refused whole (a body the client sent again counts once).
	refused map[[sha256.Size]byte]struct{}
}

// Start runs a proxy to the JSON-RPC endpoint target on a free local port.
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("chaos: listen: %w", err)
	}
	p := &Proxy{
		target: target,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}},
		ln:     ln,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// URL is the proxy's JSON-RPC endpoint.
func (p *Proxy) URL() string { return "http://" + p.ln.Addr().String() }

// Close stops the proxy and cuts its connections.
func (p *Proxy) Close() error {
	p.client.CloseIdleConnections()
	return p.srv.Close()
}

// Set replaces the current fault (the zero Fault heals the proxy).
func (p *Proxy) Set(f Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fault = f
	p.hits.Store(0)
	p.reqHits.Store(0)
}

// Heal forwards everything untouched from now on.
func (p *Proxy) Heal() { p.Set(Fault{}) }

// Requests returns how many HTTP requests the proxy received.
func (p *Proxy) Requests() int64 { return p.requests.Load() }

// Bytes returns how many request body bytes the proxy received (refused
// bodies included: a provider reads them too).
func (p *Proxy) Bytes() int64 { return p.bytes.Load() }

// Calls returns how many JSON-RPC calls the proxy received.
func (p *Proxy) Calls() int64 { return p.calls.Load() }

// Faulted returns how many calls or requests a fault was applied to.
func (p *Proxy) Faulted() int64 { return p.faulted.Load() }

// RefusedBodies returns how many different request bodies a batch cap or
// a body limit refused whole: a client retrying the same body after a
// lost answer counts once, a client sending new calls over the limit
// again counts each time.
func (p *Proxy) RefusedBodies() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.refused)
}

func (p *Proxy) noteRefused(body []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.refused == nil {
		p.refused = map[[sha256.Size]byte]struct{}{}
	}
	p.refused[sha256.Sum256(body)] = struct{}{}
}

func (p *Proxy) current() Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fault
}

// call is one JSON-RPC request of a body.
type call struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	raw    json.RawMessage
}

// dataMatches reports whether the call's first parameter carries call
// data starting with one of prefixes (always, when there are none).
func (c call) dataMatches(prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	var params []json.RawMessage
	if json.Unmarshal(c.Params, &params) != nil || len(params) == 0 {
		return false
	}
	var msg struct {
		Data  string `json:"data"`
		Input string `json:"input"`
	}
	if json.Unmarshal(params[0], &msg) != nil {
		return false
	}
	data := strings.ToLower(msg.Data + msg.Input)
	for _, p := range prefixes {
		if strings.HasPrefix(data, strings.ToLower(p)) {
			return true
		}
	}
	return false
}

// answer is one JSON-RPC response.
type answer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *CallError      `json:"error,omitempty"`
}

// ServeHTTP applies the current fault to one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	f := p.current()
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, "read request", http.StatusBadRequest)
		return
	}
	p.bytes.Add(int64(len(body)))
	if f.MaxBody > 0 && len(body) > f.MaxBody {
		p.faulted.Add(1)
		p.noteRefused(body)
		w.Header().Set("Content-Type", "application/json")
		if f.BodyTooLarge413 {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request entity too large"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request"}}`))
		return
	}
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if f.Drop || f.Status != 0 || f.Body != BodyIntact {
		if !p.pick(&p.reqHits, f.Every) {
			f.Drop, f.Status, f.Body = false, 0, BodyIntact
		}
	}
	if f.Drop || f.Status != 0 || f.Body != BodyIntact {
		p.faulted.Add(1)
		switch {
		case f.Drop:
			p.drop(w)
			return
		case f.Status != 0:
			if f.RetryAfter > 0 {
				w.Header().Set("Retry-After", strconv.Itoa(int((f.RetryAfter+time.Second-1)/time.Second)))
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(f.Status)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%q}}`, -32005, http.StatusText(f.Status))
			return
		case f.Body == BodyGarbage:
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1></body></html>"))
			return
		}
		// BodyTruncated: forward, then cut the answer below.
	}

	calls, batch := parse(body)
	if calls == nil {
		p.forwardRaw(r.Context(), w, body, f)
		return
	}
	p.calls.Add(int64(len(calls)))
	answers := make([]*answer, len(calls))
	if batch && f.Cap > 0 && len(calls) > f.Cap {
		if f.CapStyle == CapRefuse {
			p.faulted.Add(1)
			p.noteRefused(body)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch of %d requests exceeds the limit of %d"}}`, len(calls), f.Cap)
			return
		}
		for i := f.Cap; i < len(calls); i++ {
			p.faulted.Add(1)
			answers[i] = &answer{JSONRPC: "2.0", ID: calls[i].ID, Error: &CallError{Code: -32005, Message: "batch limit exceeded"}}
		}
	}
	if f.Error != nil || f.Empty {
		for i, c := range calls {
			if answers[i] != nil || (len(f.Methods) > 0 && !slices.Contains(f.Methods, c.Method)) || !c.dataMatches(f.Data) || !p.pick(&p.hits, f.Every) {
				continue
			}
			p.faulted.Add(1)
			if f.Error != nil {
				e := *f.Error
				answers[i] = &answer{JSONRPC: "2.0", ID: c.ID, Error: &e}
			} else {
				answers[i] = &answer{JSONRPC: "2.0", ID: c.ID, Result: json.RawMessage(`"0x"`)}
			}
		}
	}
	if f.MaxLogRange > 0 {
		p.refuseLogRanges(r.Context(), calls, answers, f.MaxLogRange)
	}
	var forward []json.RawMessage
	var at []int
	for i, c := range calls {
		if answers[i] == nil {
			forward = append(forward, c.raw)
			at = append(at, i)
		}
	}
	if len(forward) > 0 {
		fwd, err := json.Marshal(forward)
		if !batch {
			fwd, err = forward[0], nil
		}
		if err != nil {
			http.Error(w, "encode", http.StatusInternalServerError)
			return
		}
		got, status, err := p.post(r.Context(), fwd)
		if err != nil || status != http.StatusOK {
			if status == 0 {
				status = http.StatusBadGateway
			}
			w.WriteHeader(status)
			return
		}
		byID := map[string]*answer{}
		var many []*answer
		if batch {
			if json.Unmarshal(got, &many) != nil {
				p.write(w, got, f)
				return
			}
		} else {
			var one answer
			if json.Unmarshal(got, &one) != nil {
				p.write(w, got, f)
				return
			}
			many = []*answer{&one}
		}
		for _, a := range many {
			byID[string(a.ID)] = a
		}
		for _, i := range at {
			if a, ok := byID[string(calls[i].ID)]; ok {
				answers[i] = a
			}
		}
	}
	var out []byte
	if batch {
		var list []*answer
		for _, a := range answers {
			if a != nil {
				list = append(list, a)
			}
		}
		out, err = json.Marshal(list)
	} else if answers[0] != nil {
		out, err = json.Marshal(answers[0])
	}
	if err != nil {
		http.Error(w, "encode", http.StatusInternalServerError)
		return
	}
	p.write(w, out, f)
}

// refuseLogRanges answers the eth_getLogs calls whose range spans more
// than limit blocks with a -32005 refusal (asking the node its head when a
// call names "latest").
func (p *Proxy) refuseLogRanges(ctx context.Context, calls []call, answers []*answer, limit uint64) {
	var head *uint64
	latest := func() (uint64, bool) {
		if head == nil {
			got, status, err := p.post(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`))
			var a struct {
				Result string `json:"result"`
			}
			if err != nil || status != http.StatusOK || json.Unmarshal(got, &a) != nil {
				return 0, false
			}
			n, err := strconv.ParseUint(strings.TrimPrefix(a.Result, "0x"), 16, 64)
			if err != nil {
				return 0, false
			}
			head = &n
		}
		return *head, true
	}
	block := func(tag string) (uint64, bool) {
		switch tag {
		case "", "latest", "pending", "safe", "finalized":
			return latest()
		case "earliest":
			return 0, true
		}
		n, err := strconv.ParseUint(strings.TrimPrefix(tag, "0x"), 16, 64)
		return n, err == nil
	}
	for i, c := range calls {
		if answers[i] != nil || c.Method != "eth_getLogs" {
			continue
		}
		var params []struct {
			FromBlock string `json:"fromBlock"`
			ToBlock   string `json:"toBlock"`
			BlockHash string `json:"blockHash"`
		}
		if json.Unmarshal(c.Params, &params) != nil || len(params) == 0 || params[0].BlockHash != "" {
			continue
		}
		from, ok1 := block(params[0].FromBlock)
		to, ok2 := block(params[0].ToBlock)
		if !ok1 || !ok2 || to < from || to-from+1 <= limit {
			continue
		}
		p.faulted.Add(1)
		answers[i] = &answer{JSONRPC: "2.0", ID: c.ID, Error: &CallError{Code: -32005, Message: fmt.Sprintf("block range too large, max %d", limit)}}
	}
}

// pick says whether the next matching call (or request) gets the fault.
func (p *Proxy) pick(counter *atomic.Int64, every int) bool {
	n := counter.Add(1)
	return every <= 1 || n%int64(every) == 0
}

// write sends a JSON answer, cut in half when the fault says so.
func (p *Proxy) write(w http.ResponseWriter, out []byte, f Fault) {
	if f.Body == BodyTruncated {
		out = out[:len(out)/2]
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	_, _ = w.Write(out)
}

// drop closes the client's connection without an answer.
func (p *Proxy) drop(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

// forwardRaw passes a body the proxy does not understand to the node.
func (p *Proxy) forwardRaw(ctx context.Context, w http.ResponseWriter, body []byte, f Fault) {
	got, status, err := p.post(ctx, body)
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	if status != http.StatusOK {
		w.WriteHeader(status)
		_, _ = w.Write(got)
		return
	}
	p.write(w, got, f)
}

func (p *Proxy) post(ctx context.Context, body []byte) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.target, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	return got, resp.StatusCode, err
}

// parse splits a JSON-RPC body into its calls; nil when it is neither a
// call nor a batch of calls.
func parse(body []byte) ([]call, bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, false
	}
	var raws []json.RawMessage
	batch := body[0] == '['
	if batch {
		if json.Unmarshal(body, &raws) != nil || len(raws) == 0 {
			return nil, false
		}
	} else {
		raws = []json.RawMessage{body}
	}
	calls := make([]call, len(raws))
	for i, raw := range raws {
		if json.Unmarshal(raw, &calls[i]) != nil || calls[i].Method == "" {
			return nil, false
		}
		calls[i].raw = raw
	}
	return calls, batch
}
