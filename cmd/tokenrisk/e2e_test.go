package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// server is `tokenrisk serve` running in process through run().
type server struct {
	url    string
	env    map[string]string
	stderr *syncBuffer
	stop   func() error
}

// logged reports whether the server's log has a line containing text
// within a few seconds: the log is written by its own goroutine
// (internal/logsink), a moment after the line is logged.
func (s *server) logged(text string) bool {
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.stderr.String(), text) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// startServer runs `serve --addr 127.0.0.1:0 --devnet` plus extra args,
// waits until /healthz answers, and stops it (gracefully) at cleanup.
func startServer(t *testing.T, env map[string]string, extra ...string) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--devnet"}, extra...)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, func(k string) string { return env[k] }, strings.NewReader(""), stdout, stderr)
	}()
	s := &server{env: env, stderr: stderr}
	stopped := false
	s.stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			return fmt.Errorf("server did not stop")
		}
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("serve: %v\n%s", err, stderr.String())
		}
	})
	listening := regexp.MustCompile(`listening on (http://\S+)`)
	deadline := time.Now().Add(90 * time.Second)
	for s.url == "" {
		if m := listening.FindStringSubmatch(stdout.String()); m != nil {
			s.url = m[1]
			break
		}
		select {
		case err := <-done:
			t.Fatalf("serve exited: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not listen:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for {
		res, err := http.Get(s.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz never answered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

// key creates a key through the `keys create` command.
func (s *server) key(t *testing.T, plan string) string {
	t.Helper()
	out, err := runCmd(t, s.env, "keys", "create", "--plan", plan, "--name", "e2e "+plan)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) code() string {
	var p struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(r.body, &p)
	return p.Code
}

func (s *server) do(t *testing.T, method, path, key, body string) reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{res.StatusCode, res.Header, b}
}

func (s *server) scan(t *testing.T, key, address string) reply {
	t.Helper()
	return s.do(t, "POST", "/api/v1/scan/", key, `{"address":"`+address+`"}`)
}

func readManifest(t *testing.T, path string) devnet.Manifest {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m devnet.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// usdcMint is mainnet USDC, served by the Solana test server.
const usdcMint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"

// TestEndToEnd runs the real binary's serve with the in-process devnet and
// the real EVM adapter, SQLite store and in-process limits, and exercises
// each plan over HTTP.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	env := map[string]string{
		"TOKENRISK_DB":        filepath.Join(dir, "e2e.db"),
		"TOKENRISK_LOG_LEVEL": "info",
		"TOKENRISK_CACHE_TTL": "1m",
		// Revocation through the keys command applies at once.
		"TOKENRISK_KEY_CACHE_TTL": "0",
		"TOKENRISK_SOURCIFY_URL":  "none",
	}
	// A second dev chain stands in for Arbitrum (premium only), with one
	// token deployed there alone.
	arbitrum, arbOnly := chainWithOwnToken(t)
	env["TOKENRISK_RPC_ARBITRUM"] = arbitrum
	// Solana: the JSON-RPC test server with real mainnet account bytes.
	sol := solanatest.New()
	t.Cleanup(sol.Close)
	if err := sol.LoadDir("../../internal/solana/testdata/accounts"); err != nil {
		t.Fatal(err)
	}
	env["TOKENRISK_RPC_SOLANA"] = sol.URL()
	s := startServer(t, env, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	clean, ok := m.Token("clean")
	if !ok {
		t.Fatal("manifest has no clean token")
	}
	notToken, _ := m.Token("not_a_token")
	free, pro, premium := s.key(t, "free"), s.key(t, "pro"), s.key(t, "premium")

	t.Run("premium scans the devnet", func(t *testing.T) {
		r := s.scan(t, premium, strings.ToLower(clean.Address))
		if r.status != 200 {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		validateReport(t, r.body)
		var rep scan.Report
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Chain != devnet.ChainKey || !strings.EqualFold(rep.Address, clean.Address) || rep.Cached {
			t.Errorf("report chain %s address %s cached %v", rep.Chain, rep.Address, rep.Cached)
		}
		if r := s.scan(t, premium, clean.Address); r.status != 200 || !bytes.Contains(r.body, []byte(`"cached":true`)) {
			t.Errorf("second scan: %d, want a cached 200", r.status)
		}
		if r := s.scan(t, premium, "0x00000000000000000000000000000000DeaDBeef"); r.status != 404 || r.code() != "token_not_found" {
			t.Errorf("no code anywhere: %d %s", r.status, r.body)
		}
		if notToken.Address != "" {
			if r := s.scan(t, premium, notToken.Address); r.status != 422 || r.code() != "not_a_token" {
				t.Errorf("not_a_token: %d %s", r.status, r.body)
			}
		}
	})

	t.Run("free: 11th scan in a minute is rate limited", func(t *testing.T) {
		for i := range 10 {
			if r := s.scan(t, free, clean.Address); r.status != 200 {
				t.Fatalf("scan %d: %d %s", i+1, r.status, r.body)
			}
		}
		r := s.scan(t, free, clean.Address)
		if r.status != 429 || r.code() != "rate_limited" || r.header.Get("Retry-After") == "" || r.header.Get("RateLimit-Remaining") != "0" {
			t.Fatalf("11th scan: %d %v %s", r.status, r.header, r.body)
		}
	})

	t.Run("free: history is forbidden", func(t *testing.T) {
		for _, p := range []string{"/api/v1/scans", "/api/v1/scans/export?format=csv"} {
			if r := s.do(t, "GET", p, free, ""); r.status != 403 || r.code() != "plan_forbidden" {
				t.Errorf("%s: %d %s", p, r.status, r.body)
			}
		}
		if r := s.do(t, "GET", "/api/v1/usage", free, ""); r.status != 200 || !bytes.Contains(r.body, []byte(`"scans_today":10`)) {
			t.Errorf("usage: %d %s", r.status, r.body)
		}
	})

	t.Run("pro: chain not in plan", func(t *testing.T) {
		// Pro includes Solana; free does not.
		r := s.scan(t, pro, usdcMint)
		if r.status != 200 || !bytes.Contains(r.body, []byte(`"chain":"solana"`)) {
			t.Errorf("pro scanning a Solana mint: %d %s", r.status, r.body)
		} else {
			validateReport(t, r.body)
		}
		if r := s.scan(t, free, usdcMint); r.status != 403 || r.code() != "plan_forbidden" {
			t.Errorf("free scanning solana: %d %s", r.status, r.body)
		}
		if r := s.scan(t, pro, clean.Address); r.status != 200 {
			t.Errorf("pro scanning the devnet: %d %s", r.status, r.body)
		}
		// A token that exists only on Arbitrum, which pro lacks.
		if r := s.scan(t, pro, arbOnly); r.status != 403 || r.code() != "plan_forbidden" {
			t.Errorf("pro scanning an arbitrum-only token: %d %s", r.status, r.body)
		}
		if r := s.scan(t, premium, arbOnly); r.status != 200 || !bytes.Contains(r.body, []byte(`"chain":"arbitrum"`)) {
			t.Errorf("premium scanning an arbitrum-only token: %d %s", r.status, r.body)
		}
	})

	t.Run("premium: export CSV and NDJSON", func(t *testing.T) {
		r := s.do(t, "GET", "/api/v1/scans/export?format=csv", premium, "")
		if r.status != 200 {
			t.Fatalf("csv: %d %s", r.status, r.body)
		}
		rows, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 4 || rows[0][0] != "scan_id" { // header + the three 200 scans
			t.Fatalf("csv rows: %v", rows)
		}
		r = s.do(t, "GET", "/api/v1/scans/export?format=ndjson&chain=devnet", premium, "")
		if r.status != 200 {
			t.Fatalf("ndjson: %d", r.status)
		}
		sc := bufio.NewScanner(bytes.NewReader(r.body))
		sc.Buffer(nil, 1<<20)
		lines := 0
		for sc.Scan() {
			var rep scan.Report
			if err := json.Unmarshal(sc.Bytes(), &rep); err != nil || rep.Chain != devnet.ChainKey {
				t.Fatalf("ndjson line %d: %v", lines, err)
			}
			lines++
		}
		if lines != 2 { // the arbitrum scan is filtered out
			t.Errorf("%d ndjson lines, want 2", lines)
		}
		var page struct {
			Scans []struct {
				ScanID string `json:"scan_id"`
			} `json:"scans"`
		}
		r = s.do(t, "GET", "/api/v1/scans?limit=1", premium, "")
		if err := json.Unmarshal(r.body, &page); err != nil || len(page.Scans) != 1 {
			t.Fatalf("history: %d %s", r.status, r.body)
		}
		if r := s.do(t, "GET", "/api/v1/scans/"+page.Scans[0].ScanID, premium, ""); r.status != 200 {
			t.Errorf("stored scan: %d", r.status)
		}
	})

	t.Run("revoked key", func(t *testing.T) {
		list, _ := runCmd(t, env, "keys", "list")
		id := regexp.MustCompile(`(key_[0-9A-Z]{26})\s+pro`).FindStringSubmatch(list)
		if id == nil {
			t.Fatalf("no pro key in\n%s", list)
		}
		if _, err := runCmd(t, env, "keys", "revoke", id[1]); err != nil {
			t.Fatal(err)
		}
		if r := s.scan(t, pro, clean.Address); r.status != 401 {
			t.Errorf("revoked key: %d", r.status)
		}
	})

	t.Run("metrics", func(t *testing.T) {
		r := s.do(t, "GET", "/metrics", "", "")
		for _, want := range []string{`tokenrisk_upstream_calls_total{chain="devnet"`, `tokenrisk_scan_duration_seconds_count{chain="devnet"}`, `tokenrisk_scan_cache_total{result="hit"}`} {
			if !bytes.Contains(r.body, []byte(want)) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})

	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	logs := s.stderr.String()
	for _, k := range []string{free, pro, premium} {
		if strings.Contains(logs, k) || strings.Contains(logs, k[len(k)-20:]) {
			t.Error("a key appears in the logs")
		}
	}
	if strings.Contains(logs, sol.URL()) || strings.Contains(logs, arbitrum) {
		t.Error("an RPC URL appears in the logs")
	}
	if !strings.Contains(logs, `"msg":"request"`) || !strings.Contains(logs, `"key_id":"key_`) || !strings.Contains(logs, `"request_id":"req_`) {
		t.Errorf("request logs lack request or key ids:\n%.2000s", logs)
	}
}

// chainWithOwnToken starts a second devnet and deploys on it, alone, a
// copy of its clean token's code (a token with empty storage). It returns
// the node's RPC URL and the token's address.
func chainWithOwnToken(t *testing.T) (string, string) {
	t.Helper()
	ctx := context.Background()
	d, err := devnet.Start(ctx, devnet.Options{CommitInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	m := d.Manifest()
	clean, _ := m.Token("clean")
	client := d.Backend().Client()
	code, err := client.CodeAt(ctx, common.HexToAddress(clean.Address), nil)
	if err != nil || len(code) == 0 {
		t.Fatalf("clean token code: %v", err)
	}
	// Init code returning the runtime code that follows it:
	// PUSH2 len DUP1 PUSH1 12 PUSH1 0 CODECOPY PUSH1 0 RETURN.
	initCode := append([]byte{0x61, byte(len(code) >> 8), byte(len(code)), 0x80, 0x60, 0x0c, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3}, code...)
	deployer := common.HexToAddress(m.Deployer)
	key, ok := d.Key(deployer)
	if !ok {
		t.Fatal("no deployer key")
	}
	nonce, err := client.PendingNonceAt(ctx, deployer)
	if err != nil {
		t.Fatal(err)
	}
	price, err := client.SuggestGasPrice(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignTx(types.NewContractCreation(nonce, big.NewInt(0), 5_000_000, price, initCode),
		types.LatestSignerForChainID(big.NewInt(m.ChainID)), key)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	d.Commit()
	addr := crypto.CreateAddress(deployer, nonce)
	if got, err := client.CodeAt(ctx, addr, nil); err != nil || len(got) != len(code) {
		t.Fatalf("copy not deployed: %d bytes, %v", len(got), err)
	}
	return d.RPCURL(), addr.Hex()
}

// TestDevnetCommandServesAnotherServer: `tokenrisk devnet` runs a chain
// until cancelled, and `serve --devnet` with TOKENRISK_RPC_DEVNET uses it
// (with its manifest) instead of starting its own.
func TestDevnetCommandServesAnotherServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"devnet", "--rpc-addr", "127.0.0.1:0", "--manifest", manifest, "--log-level", "warn"},
			func(string) string { return "" }, strings.NewReader(""), stdout, io.Discard)
	}()
	rpcURL := ""
	deadline := time.Now().Add(60 * time.Second)
	for rpcURL == "" {
		if m := regexp.MustCompile(`JSON-RPC on (http://\S+)`).FindStringSubmatch(stdout.String()); m != nil {
			rpcURL = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatal("devnet did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	env := map[string]string{"TOKENRISK_DB": filepath.Join(dir, "d.db"), "TOKENRISK_RPC_DEVNET": rpcURL, "TOKENRISK_LOG_LEVEL": "warn"}
	s := startServer(t, env, "--devnet-manifest", manifest)
	clean, _ := readManifest(t, manifest).Token("clean")
	if r := s.scan(t, s.key(t, "free"), clean.Address); r.status != 200 || !bytes.Contains(r.body, []byte(`"chain":"devnet"`)) {
		t.Errorf("scan through the external devnet: %d %s", r.status, r.body)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("devnet: %v", err)
	}
}

// validateReport checks a real report against the OpenAPI document's
// Report schema.
func validateReport(t *testing.T, body []byte) {
	t.Helper()
	validateSchema(t, "Report", body)
}

// validateSchema checks a real answer's body against the OpenAPI
// document's schema name.
func validateSchema(t *testing.T, name string, body []byte) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(httpapi.OpenAPI()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://tokenrisk.invalid/openapi.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url + "#/components/schemas/" + name)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the answer does not match the OpenAPI %s schema: %v\n%s", name, err, body)
	}
}
