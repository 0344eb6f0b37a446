// Package solanatest is an in-process Solana JSON-RPC server for tests: it
// serves account bytes loaded from fixture files (real mainnet dumps) over
// the methods the scanner uses, with batching, injected latency and
// injected failures.
package solanatest

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mr-tron/base58"
)

// Token program ids, for token account lookups.
const (
	TokenProgram     = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
	Token2022Program = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"
)

// Account is one account the server holds.
type Account struct {
	Lamports   uint64
	Owner      string
	Executable bool
	Data       []byte
}

// Signature is one entry of getSignaturesForAddress.
type Signature struct {
	Signature string
	Slot      uint64
	BlockTime int64
}

// Transaction is what getTransaction answers for a signature.
type Transaction struct {
	Slot        uint64
	BlockTime   int64
	AccountKeys []string
}

// Server is a JSON-RPC server over a set of accounts.
type Server struct {
	srv *httptest.Server

	mu           sync.Mutex
	accounts     map[string]Account
	signatures   map[string][]Signature
	transactions map[string]Transaction
	rawTxs       map[string]json.RawMessage
	disabled     map[string]string
	refused      map[string]string
	failNext     []int
	noBatches    bool
	arrivals     []time.Time
	latency      time.Duration
	hangAfter    int64
	epoch        uint64
	calls        map[string]int
	// misreported are owners the server reports in place of the real
	// one (a node answering with another account's owner).
	misreported map[string]string

	requests atomic.Int64
}

// New starts a server; Close stops it.
func New() *Server {
	s := &Server{
		accounts:     map[string]Account{},
		signatures:   map[string][]Signature{},
		transactions: map[string]Transaction{},
		rawTxs:       map[string]json.RawMessage{},
		disabled:     map[string]string{},
		refused:      map[string]string{},
		calls:        map[string]int{},
		misreported:  map[string]string{},
		epoch:        800,
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// URL is the server's endpoint.
func (s *Server) URL() string { return s.srv.URL }

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// fixtureFile is the fixture format: a getAccountInfo value with its key.
type fixtureFile struct {
	Pubkey  string `json:"pubkey"`
	Account struct {
		Lamports   uint64    `json:"lamports"`
		Owner      string    `json:"owner"`
		Executable bool      `json:"executable"`
		Data       [2]string `json:"data"`
	} `json:"account"`
}

// LoadFixture reads one fixture file and serves its account.
func (s *Server) LoadFixture(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("solanatest: %w", err)
	}
	var f fixtureFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return fmt.Errorf("solanatest: %s: %w", path, err)
	}
	data, err := base64.StdEncoding.DecodeString(f.Account.Data[0])
	if err != nil {
		return fmt.Errorf("solanatest: %s: data: %w", path, err)
	}
	s.SetAccount(f.Pubkey, Account{Lamports: f.Account.Lamports, Owner: f.Account.Owner, Executable: f.Account.Executable, Data: data})
	return nil
}

// LoadDir serves every *.json fixture in dir.
func (s *Server) LoadDir(dir string) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return fmt.Errorf("solanatest: %w", err)
	}
	for _, p := range paths {
		if err := s.LoadFixture(p); err != nil {
			return err
		}
	}
	return nil
}

// SetAccount serves a at pubkey (replacing any account there).
func (s *Server) SetAccount(pubkey string, a Account) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts[pubkey] = a
}

// Keys lists the accounts served, sorted.
func (s *Server) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sortedKeys()
}

// Account returns the account served at pubkey.
func (s *Server) Account(pubkey string) (Account, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.accounts[pubkey]
	a.Data = append([]byte(nil), a.Data...)
	return a, ok
}

// MisreportOwner makes the server report owner for the account at pubkey
// while it still matches searches by its real owner: a node whose answer
// does not belong to the question.
func (s *Server) MisreportOwner(pubkey, owner string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.misreported[pubkey] = owner
}

// DeleteAccount removes an account.
func (s *Server) DeleteAccount(pubkey string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.accounts, pubkey)
}

// AddTokenAccount serves a synthetic 165-byte token account of program.
func (s *Server) AddTokenAccount(address, mint, owner string, amount uint64, program string) error {
	m, err := base58.Decode(mint)
	if err != nil || len(m) != 32 {
		return fmt.Errorf("solanatest: mint %q", mint)
	}
	o, err := base58.Decode(owner)
	if err != nil || len(o) != 32 {
		return fmt.Errorf("solanatest: owner %q", owner)
	}
	data := make([]byte, 165)
	copy(data[0:], m)
	copy(data[32:], o)
	binary.LittleEndian.PutUint64(data[64:], amount)
	data[108] = 1 // initialized
	s.SetAccount(address, Account{Lamports: 2039280, Owner: program, Data: data})
	return nil
}

// SetSignatures serves sigs (newest first) for address.
func (s *Server) SetSignatures(address string, sigs []Signature) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signatures[address] = sigs
}

// SetTransaction serves tx for signature.
func (s *Server) SetTransaction(signature string, tx Transaction) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transactions[signature] = tx
}

// SetTransactionJSON serves result, a getTransaction result as a node
// sends it (json encoding), for signature.
func (s *Server) SetTransactionJSON(signature string, result json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rawTxs[signature] = result
}

// LoadTransaction serves the getTransaction answer in the file at path (a
// whole JSON-RPC response or its result) for the transaction's first
// signature, which it returns.
func (s *Server) LoadTransaction(path string) (string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("solanatest: %w", err)
	}
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(raw, &env) == nil && len(env.Result) > 0 {
		raw = env.Result
	}
	var tx struct {
		Transaction struct {
			Signatures []string `json:"signatures"`
		} `json:"transaction"`
	}
	if err := json.Unmarshal(raw, &tx); err != nil || len(tx.Transaction.Signatures) == 0 {
		return "", fmt.Errorf("solanatest: %s: not a transaction with a signature", path)
	}
	s.SetTransactionJSON(tx.Transaction.Signatures[0], raw)
	return tx.Transaction.Signatures[0], nil
}

// SetLatency delays every HTTP request by d.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// HangAfter answers the first n HTTP requests from now and holds every
// later one until the client gives up (a node that stops answering in the
// middle of a scan); 0 answers all again.
func (s *Server) HangAfter(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n == 0 {
		s.hangAfter = 0
		return
	}
	s.hangAfter = s.requests.Load() + n
}

// SetEpoch sets the epoch getEpochInfo reports.
func (s *Server) SetEpoch(e uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch = e
}

// FailNext makes the next HTTP requests answer with these statuses.
func (s *Server) FailNext(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = append(s.failNext, statuses...)
}

// DisableMethod makes method answer with a JSON-RPC error (as public
// nodes do for getProgramAccounts on large programs).
func (s *Server) DisableMethod(method, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.disabled[method] = message
}

// RefuseProgram makes getProgramAccounts on program answer with a
// JSON-RPC error while other programs are still served, as public nodes
// do for programs with too many accounts to scan.
func (s *Server) RefuseProgram(program, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused[program] = message
}

// RejectBatches makes the server answer every batch with one JSON-RPC
// error, as nodes that do not take batches do.
func (s *Server) RejectBatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noBatches = true
}

// Requests is the number of HTTP requests served.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Calls is the number of JSON-RPC calls of method served.
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

// Arrivals are the arrival times of the HTTP requests served since the
// last ResetCounters.
func (s *Server) Arrivals() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.arrivals...)
}

// ResetCounters zeroes request and call counters.
func (s *Server) ResetCounters() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests.Store(0)
	s.calls = map[string]int{}
	s.arrivals = nil
}

type request struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcErr         `json:"error,omitempty"`
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	s.mu.Lock()
	s.arrivals = append(s.arrivals, time.Now())
	latency := s.latency
	hang := s.hangAfter > 0 && n > s.hangAfter
	fail := 0
	if len(s.failNext) > 0 {
		fail, s.failNext = s.failNext[0], s.failNext[1:]
	}
	s.mu.Unlock()
	if hang {
		// Reading the body first lets the server notice the hang-up.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
		return
	}
	if latency > 0 {
		select {
		case <-time.After(latency):
		case <-r.Context().Done():
			return
		}
	}
	if fail != 0 {
		http.Error(w, http.StatusText(fail), fail)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	body = bytes.TrimSpace(body)
	s.mu.Lock()
	noBatches := s.noBatches
	s.mu.Unlock()
	if len(body) > 0 && body[0] == '[' && noBatches {
		_ = json.NewEncoder(w).Encode(response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcErr{-32600, "batch requests are not supported"}})
		return
	}
	if len(body) > 0 && body[0] == '[' {
		var reqs []request
		if err := json.Unmarshal(body, &reqs); err != nil {
			_ = json.NewEncoder(w).Encode(response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcErr{-32700, "parse error"}})
			return
		}
		out := make([]response, len(reqs))
		for i, rq := range reqs {
			out[i] = s.handle(rq)
		}
		_ = json.NewEncoder(w).Encode(out)
		return
	}
	var rq request
	if err := json.Unmarshal(body, &rq); err != nil {
		_ = json.NewEncoder(w).Encode(response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcErr{-32700, "parse error"}})
		return
	}
	_ = json.NewEncoder(w).Encode(s.handle(rq))
}

func (s *Server) handle(rq request) response {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[rq.Method]++
	resp := response{JSONRPC: "2.0", ID: rq.ID}
	if msg, ok := s.disabled[rq.Method]; ok {
		resp.Error = &rpcErr{-32010, msg}
		return resp
	}
	result, err := s.dispatch(rq)
	if err != nil {
		if re := (*rpcErr)(nil); errors.As(err, &re) {
			resp.Error = re
			return resp
		}
		resp.Error = &rpcErr{-32602, err.Error()}
		return resp
	}
	resp.Result = result
	if result == nil {
		resp.Result = json.RawMessage("null")
	}
	return resp
}

func (s *Server) context() map[string]any { return map[string]any{"slot": 446605268} }

func (s *Server) dispatch(rq request) (any, error) {
	str := func(i int) (string, error) {
		if i >= len(rq.Params) {
			return "", fmt.Errorf("missing param %d", i)
		}
		var v string
		if err := json.Unmarshal(rq.Params[i], &v); err != nil {
			return "", fmt.Errorf("param %d: %w", i, err)
		}
		return v, nil
	}
	var cfg struct {
		Encoding string `json:"encoding"`
		Limit    int    `json:"limit"`
		Before   string `json:"before"`
		// DataSlice cuts each account's data (getProgramAccounts).
		DataSlice *struct {
			Offset int `json:"offset"`
			Length int `json:"length"`
		} `json:"dataSlice"`
		Filters []struct {
			DataSize *int `json:"dataSize"`
			Memcmp   *struct {
				Offset int    `json:"offset"`
				Bytes  string `json:"bytes"`
			} `json:"memcmp"`
		} `json:"filters"`
	}
	if len(rq.Params) > 1 {
		_ = json.Unmarshal(rq.Params[1], &cfg)
	}
	switch rq.Method {
	case "getEpochInfo":
		return map[string]any{"epoch": s.epoch, "slotIndex": 0, "slotsInEpoch": 432000, "absoluteSlot": 446605268}, nil
	case "getAccountInfo":
		k, err := str(0)
		if err != nil {
			return nil, err
		}
		if cfg.Encoding != "base64" {
			return nil, fmt.Errorf("only base64 encoding is served")
		}
		return map[string]any{"context": s.context(), "value": s.wire(k)}, nil
	case "getMultipleAccounts":
		var keys []string
		if len(rq.Params) == 0 || json.Unmarshal(rq.Params[0], &keys) != nil {
			return nil, fmt.Errorf("param 0: want an array of keys")
		}
		if len(keys) > 100 {
			return nil, fmt.Errorf("too many accounts requested: %d > 100", len(keys))
		}
		if cfg.Encoding != "base64" {
			return nil, fmt.Errorf("only base64 encoding is served")
		}
		vals := make([]any, len(keys))
		for i, k := range keys {
			vals[i] = s.wire(k)
			if ds := cfg.DataSlice; ds != nil && vals[i] != nil {
				a := s.accounts[k]
				from, to := min(max(ds.Offset, 0), len(a.Data)), min(max(ds.Offset, 0)+max(ds.Length, 0), len(a.Data))
				vals[i].(map[string]any)["data"] = []string{base64.StdEncoding.EncodeToString(a.Data[from:to]), "base64"}
			}
		}
		return map[string]any{"context": s.context(), "value": vals}, nil
	case "getBalance":
		k, err := str(0)
		if err != nil {
			return nil, err
		}
		return map[string]any{"context": s.context(), "value": s.accounts[k].Lamports}, nil
	case "getProgramAccounts":
		prog, err := str(0)
		if err != nil {
			return nil, err
		}
		if msg, ok := s.refused[prog]; ok {
			return nil, &rpcErr{-32010, msg}
		}
		if cfg.Encoding != "base64" {
			return nil, fmt.Errorf("only base64 encoding is served")
		}
		keys := s.sortedKeys()
		out := []any{}
	next:
		for _, k := range keys {
			a := s.accounts[k]
			if a.Owner != prog {
				continue
			}
			for _, f := range cfg.Filters {
				if f.DataSize != nil && len(a.Data) != *f.DataSize {
					continue next
				}
				if f.Memcmp != nil {
					want, err := base58.Decode(f.Memcmp.Bytes)
					if err != nil {
						return nil, fmt.Errorf("memcmp bytes: %w", err)
					}
					o := f.Memcmp.Offset
					if o+len(want) > len(a.Data) || !bytes.Equal(a.Data[o:o+len(want)], want) {
						continue next
					}
				}
			}
			w := s.wire(k).(map[string]any)
			if ds := cfg.DataSlice; ds != nil {
				from, to := min(max(ds.Offset, 0), len(a.Data)), min(max(ds.Offset, 0)+max(ds.Length, 0), len(a.Data))
				w["data"] = []string{base64.StdEncoding.EncodeToString(a.Data[from:to]), "base64"}
			}
			out = append(out, map[string]any{"pubkey": k, "account": w})
		}
		return out, nil
	case "getTokenLargestAccounts":
		mint, err := str(0)
		if err != nil {
			return nil, err
		}
		return s.largest(mint)
	case "getSignaturesForAddress":
		addr, err := str(0)
		if err != nil {
			return nil, err
		}
		limit := cfg.Limit
		if limit <= 0 || limit > 1000 {
			limit = 1000
		}
		sigs := s.signatures[addr]
		start := 0
		if cfg.Before != "" {
			for i, sg := range sigs {
				if sg.Signature == cfg.Before {
					start = i + 1
				}
			}
		}
		out := []any{}
		for i := start; i < len(sigs) && len(out) < limit; i++ {
			out = append(out, map[string]any{"signature": sigs[i].Signature, "slot": sigs[i].Slot, "blockTime": sigs[i].BlockTime, "err": nil, "memo": nil, "confirmationStatus": "finalized"})
		}
		return out, nil
	case "getTransaction":
		sig, err := str(0)
		if err != nil {
			return nil, err
		}
		if raw, ok := s.rawTxs[sig]; ok {
			return raw, nil
		}
		tx, ok := s.transactions[sig]
		if !ok {
			return nil, nil
		}
		return map[string]any{
			"slot": tx.Slot, "blockTime": tx.BlockTime,
			"transaction": map[string]any{"signatures": []string{sig}, "message": map[string]any{"accountKeys": tx.AccountKeys}},
			"meta":        map[string]any{"err": nil, "fee": 5000},
		}, nil
	}
	return nil, fmt.Errorf("method %s not served", rq.Method)
}

func (s *Server) sortedKeys() []string {
	keys := make([]string, 0, len(s.accounts))
	for k := range s.accounts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (s *Server) wire(k string) any {
	a, ok := s.accounts[k]
	if !ok {
		return nil
	}
	owner := a.Owner
	if o, ok := s.misreported[k]; ok {
		owner = o
	}
	return map[string]any{
		"lamports": a.Lamports, "owner": owner, "executable": a.Executable, "rentEpoch": 0,
		"space": len(a.Data), "data": []string{base64.StdEncoding.EncodeToString(a.Data), "base64"},
	}
}

// largest answers getTokenLargestAccounts from the served token accounts.
func (s *Server) largest(mint string) (any, error) {
	ma, ok := s.accounts[mint]
	if !ok || (ma.Owner != TokenProgram && ma.Owner != Token2022Program) || len(ma.Data) < 82 {
		return nil, fmt.Errorf("Invalid param: not a Token mint")
	}
	decimals := ma.Data[44]
	m, _ := base58.Decode(mint)
	type entry struct {
		addr   string
		amount uint64
	}
	var es []entry
	for _, k := range s.sortedKeys() {
		a := s.accounts[k]
		if a.Owner != ma.Owner || len(a.Data) < 165 || (len(a.Data) > 165 && a.Data[165] != 2) {
			continue
		}
		if !bytes.Equal(a.Data[:32], m) {
			continue
		}
		es = append(es, entry{k, binary.LittleEndian.Uint64(a.Data[64:])})
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].amount > es[j].amount })
	if len(es) > 20 {
		es = es[:20]
	}
	out := make([]any, len(es))
	for i, e := range es {
		ui := strconv.FormatUint(e.amount, 10)
		if decimals > 0 {
			for len(ui) <= int(decimals) {
				ui = "0" + ui
			}
			ui = strings.TrimRight(strings.TrimRight(ui[:len(ui)-int(decimals)]+"."+ui[len(ui)-int(decimals):], "0"), ".")
		}
		out[i] = map[string]any{"address": e.addr, "amount": strconv.FormatUint(e.amount, 10), "decimals": decimals, "uiAmountString": ui}
	}
	return map[string]any{"context": s.context(), "value": out}, nil
}

func (e *rpcErr) Error() string { return e.Message }
