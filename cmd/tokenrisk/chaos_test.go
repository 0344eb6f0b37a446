package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chaos"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// chaosKinds are the zoo tokens every fault is tried on: a clean token,
// a honeypot, a hidden mint, a storage-target call, a proxy and a
// contract that is no token.
var chaosKinds = []string{"clean", "honeypot_sell_blocked", "hidden_mint", "external_call", "proxy_upgradeable", "not_a_token"}

// chaosFault is one row of the matrix: a fault of the proxy, and the
// RPC URLs the server is given (the proxy's, after a dead one).
type chaosFault struct {
	name     string
	fault    chaos.Fault
	deadURL  bool
	timeout  string // --scan-timeout of the row's server
	fixedCap int    // the learned batch limit must not exceed it
}

var ethCall = []string{"eth_call"}

var chaosFaults = []chaosFault{
	{name: "slow node (1.5 s per request)", fault: chaos.Fault{Delay: 1500 * time.Millisecond}, timeout: "4s"},
	{name: "eth_getLogs fails", fault: chaos.Fault{Methods: []string{"eth_getLogs"}, Error: &chaos.CallError{Code: -32603, Message: "internal error"}}},
	{name: "-32005 on 1 in 3 eth_call", fault: chaos.Fault{Methods: ethCall, Every: 3, Error: &chaos.CallError{Code: -32005, Message: "limit exceeded"}}},
	{name: "-32603 on every eth_call", fault: chaos.Fault{Methods: ethCall, Error: &chaos.CallError{Code: -32603, Message: "internal error"}}},
	{name: "429 inside batches (1 in 3 calls)", fault: chaos.Fault{Every: 3, Error: &chaos.CallError{Code: 429, Message: "Too Many Requests"}}},
	{name: "empty 0x on 1 in 2 eth_call", fault: chaos.Fault{Methods: ethCall, Every: 2, Empty: true}},
	{name: "empty 0x on every eth_call", fault: chaos.Fault{Methods: ethCall, Empty: true}},
	{name: "batch cap 3 (later calls refused)", fault: chaos.Fault{Cap: 3, CapStyle: chaos.CapTail}},
	{name: "batch cap 3 (batch refused)", fault: chaos.Fault{Cap: 3, CapStyle: chaos.CapRefuse}},
	{name: "truncated bodies (1 in 2)", fault: chaos.Fault{Every: 2, Body: chaos.BodyTruncated}},
	{name: "garbage bodies (1 in 2)", fault: chaos.Fault{Every: 2, Body: chaos.BodyGarbage}},
	{name: "dropped connections (1 in 3)", fault: chaos.Fault{Every: 3, Drop: true}},
	{name: "HTTP 429 + Retry-After (1 in 2)", fault: chaos.Fault{Every: 2, Status: http.StatusTooManyRequests, RetryAfter: time.Second}},
	{name: "first of two URLs dead", deadURL: true},
}

// chaosKnownFailures are cells that still break the level property,
// listed in the printed matrix and the README; the test fails on any
// other cell, and on a listed cell that passes (so the list shrinks).
var chaosKnownFailures = map[string]bool{}

// chaosCell is one scan of the matrix.
type chaosCell struct {
	status       int
	level        string
	complete     string
	incomplete   bool
	cached       bool
	problem      string
	healedStatus int
	healedLevel  string
	healedCached bool
	healedDeg    bool
	verdict      string // "ok", "degraded", "no verdict" or the failure
	failed       bool
}

// chaosScan is what the matrix reads from one answer.
type chaosScan struct {
	status int
	Level  string   `json:"risk_level"`
	Compl  string   `json:"completeness"`
	Cached bool     `json:"cached"`
	Code   string   `json:"code"`
	Detail string   `json:"detail"`
	Flags  []flagOf `json:"risk_flags"`
}

type flagOf struct {
	Code string `json:"code"`
}

func (c chaosScan) has(code string) bool {
	return slices.ContainsFunc(c.Flags, func(f flagOf) bool { return f.Code == code })
}

func chaosPost(url, key, address string) (chaosScan, error) {
	req, err := http.NewRequest("POST", url+"/api/v1/scan", strings.NewReader(`{"address":"`+address+`"}`))
	if err != nil {
		return chaosScan{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return chaosScan{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return chaosScan{}, err
	}
	var s chaosScan
	if err := json.Unmarshal(b, &s); err != nil {
		return chaosScan{}, fmt.Errorf("status %d, body %.200s: %w", res.StatusCode, b, err)
	}
	s.status = res.StatusCode
	return s, nil
}

// TestChaosMatrix runs the server against the devnet through a
// fault-injecting JSON-RPC proxy, for every fault × a set of zoo kinds,
// and checks: no 500 and no panic; a token never becomes not_a_token; a
// level below the healthy scan's only on a degraded report carrying
// SCAN_INCOMPLETE; after the fault clears, a rescan gives the healthy
// verdict (nothing degraded was cached). It prints the matrix (-v).
// It is the CI chaos tier: set TOKENRISK_CHAOS=1 (.ci/run does).
func TestChaosMatrix(t *testing.T) {
	if os.Getenv("TOKENRISK_CHAOS") == "" {
		t.Skip("the chaos tier runs with TOKENRISK_CHAOS=1 (.ci/run does)")
	}
	ctx := context.Background()
	dn, err := devnet.Start(ctx, devnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dn.Close() })
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	if err := dn.Manifest().WriteFile(manifest); err != nil {
		t.Fatal(err)
	}
	m := dn.Manifest()
	address := map[string]string{}
	for _, k := range chaosKinds {
		tok, ok := m.Token(k)
		if !ok {
			t.Fatalf("no zoo token %s", k)
		}
		address[k] = tok.Address
	}
	dead, err := chaos.Start("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	dead.Set(chaos.Fault{Drop: true})
	t.Cleanup(func() { _ = dead.Close() })

	serve := func(name string, urls []string, timeout string) *server {
		if timeout == "" {
			timeout = "8s"
		}
		env := map[string]string{
			"TOKENRISK_DB":           filepath.Join(dir, strings.NewReplacer(" ", "_", "/", "_").Replace(name)+".db"),
			"TOKENRISK_RPC_DEVNET":   strings.Join(urls, ","),
			"TOKENRISK_LOG_LEVEL":    "warn",
			"TOKENRISK_SCAN_TIMEOUT": timeout,
		}
		return startServer(t, env, "--devnet-manifest", manifest, "--cache-ttl", "1m")
	}
	scanAll := func(s *server, key string) map[string]chaosScan {
		out := map[string]chaosScan{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, k := range chaosKinds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := chaosPost(s.url, key, address[k])
				if err != nil {
					r = chaosScan{status: -1, Code: err.Error()}
				}
				mu.Lock()
				out[k] = r
				mu.Unlock()
			}()
		}
		wg.Wait()
		return out
	}

	// The healthy verdicts, straight from the devnet.
	healthySrv := serve("healthy", []string{dn.RPCURL()}, "")
	healthy := scanAll(healthySrv, healthySrv.key(t, "premium"))
	for _, k := range chaosKinds {
		h := healthy[k]
		switch {
		case k == "not_a_token" && h.status != http.StatusUnprocessableEntity:
			t.Fatalf("healthy %s: status %d, want 422", k, h.status)
		case k != "not_a_token" && (h.status != 200 || h.Compl != "complete"):
			t.Fatalf("healthy %s: status %d completeness %q, want a complete report", k, h.status, h.Compl)
		}
	}
	_ = healthySrv.stop()

	cells := map[string]map[string]*chaosCell{}
	// TOKENRISK_CHAOS_ONLY=text runs only the faults whose name has text
	// (while working on one row).
	only := os.Getenv("TOKENRISK_CHAOS_ONLY")
	for _, f := range chaosFaults {
		if only != "" && !strings.Contains(f.name, only) {
			continue
		}
		proxy, err := chaos.Start(dn.RPCURL())
		if err != nil {
			t.Fatal(err)
		}
		urls := []string{proxy.URL()}
		if f.deadURL {
			urls = []string{dead.URL(), proxy.URL()}
		}
		s := serve(f.name, urls, f.timeout)
		key := s.key(t, "premium")
		proxy.Set(f.fault)
		faulted := scanAll(s, key)
		proxy.Heal()
		healed := scanAll(s, key)
		_ = s.stop() // the log is written in full once the server stops
		if strings.Contains(s.stderr.String(), "panic") {
			t.Errorf("%s: the server logged a panic:\n%s", f.name, s.stderr.String())
		}
		_ = proxy.Close()

		row := map[string]*chaosCell{}
		cells[f.name] = row
		for _, k := range chaosKinds {
			h, g, r := healthy[k], faulted[k], healed[k]
			c := &chaosCell{status: g.status, level: g.Level, complete: g.Compl, incomplete: g.has("SCAN_INCOMPLETE"), cached: g.Cached,
				problem: g.Code, healedStatus: r.status, healedLevel: r.Level, healedCached: r.Cached, healedDeg: r.Compl == "degraded"}
			row[k] = c
			c.verdict, c.failed = judge(k, h, g, r)
			if g.status >= 500 {
				t.Logf("%s × %s: %d %s: %s", f.name, k, g.status, g.Code, g.Detail)
			}
			known := chaosKnownFailures[f.name+"|"+k]
			switch {
			case c.failed && !known:
				t.Errorf("%s × %s: %s", f.name, k, c.verdict)
			case !c.failed && known:
				t.Errorf("%s × %s: listed as a known failure but passes: take it off the list", f.name, k)
			}
		}
	}
	t.Log("\n" + chaosMatrix(healthy, cells))
}

// judge applies the properties to one cell: h healthy, g under the
// fault, r after the fault cleared.
func judge(kind string, h, g, r chaosScan) (string, bool) {
	switch {
	case g.status == -1:
		return "no answer: " + g.Code, true
	case g.status >= 500 && g.status != 502 && g.status != 503 && g.status != 504:
		return fmt.Sprintf("status %d (%s)", g.status, g.Code), true
	case kind != "not_a_token" && g.status == http.StatusUnprocessableEntity:
		return "a token answered not_a_token", true
	case kind == "not_a_token" && g.status == 200:
		return "a contract that is no token got a report", true
	}
	var verdict string
	switch {
	case g.status == 502 || g.status == 503 || g.status == 504:
		verdict = fmt.Sprintf("%d %s", g.status, g.Code)
	case g.status == http.StatusUnprocessableEntity:
		verdict = "422 " + g.Code
	case g.status != 200:
		return fmt.Sprintf("status %d (%s)", g.status, g.Code), true
	case levelRank[g.Level] >= levelRank[h.Level]:
		verdict = g.Level
		if g.Compl == "degraded" {
			verdict += " (degraded)"
		}
	case g.Compl == "degraded" && g.has("SCAN_INCOMPLETE"):
		verdict = g.Level + " (degraded, SCAN_INCOMPLETE)"
	default:
		return fmt.Sprintf("%s below the healthy %s on a %s report", g.Level, h.Level, g.Compl), true
	}
	if g.status == 200 && g.Compl == "degraded" && !g.has("SCAN_INCOMPLETE") {
		return "degraded without SCAN_INCOMPLETE", true
	}
	// After the fault: the healthy verdict, nothing degraded from cache.
	switch {
	case r.status != h.status:
		return fmt.Sprintf("%s; healed rescan %d, healthy %d", verdict, r.status, h.status), true
	case r.status == 200 && (r.Compl != "complete" || r.Level != h.Level):
		return fmt.Sprintf("%s; healed rescan %s %s (cached %v), healthy %s", verdict, r.Level, r.Compl, r.Cached, h.Level), true
	}
	return verdict, false
}

// chaosMatrix renders the matrix: one row per fault, one column per kind.
func chaosMatrix(healthy map[string]chaosScan, cells map[string]map[string]*chaosCell) string {
	var b strings.Builder
	w := 36
	fmt.Fprintf(&b, "%-36s", "fault \\ kind (healthy level)")
	for _, k := range chaosKinds {
		h := healthy[k].Level
		if h == "" {
			h = fmt.Sprint(healthy[k].status)
		}
		fmt.Fprintf(&b, " | %-34s", k+" ("+h+")")
	}
	b.WriteString("\n" + strings.Repeat("-", w+len(chaosKinds)*37) + "\n")
	for _, f := range chaosFaults {
		if cells[f.name] == nil {
			continue
		}
		fmt.Fprintf(&b, "%-36s", f.name)
		for _, k := range chaosKinds {
			c := cells[f.name][k]
			v := c.verdict
			if c.failed {
				v = "FAIL " + v
				if chaosKnownFailures[f.name+"|"+k] {
					v = "KNOWN " + v
				}
			}
			v = strings.Replace(v, "degraded, SCAN_INCOMPLETE", "degraded+SCAN_INCOMPLETE", 1)
			if len(v) > 34 {
				v = v[:33] + "…"
			}
			fmt.Fprintf(&b, " | %-34s", v)
		}
		b.WriteString("\n")
	}
	return b.String()
}
