package watch_test

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/evm"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/watch"
)

// BenchmarkRequestsPerTick measures, on the devnet, the upstream HTTP
// requests of one tick watching 10,000 tokens (and 10,000 pools) of which
// 1% moved: the log query (eth_blockNumber, then every eth_getLogs chunk
// in one batch) and the re-scans of the 100 moved tokens (requests per
// fresh scan measured on zoo tokens).
//
//	go test -run '^$' -bench RequestsPerTick -benchtime 3x ./internal/watch
func BenchmarkRequestsPerTick(b *testing.B) {
	bn := newBench(b)
	ch, _ := bn.reg.Get(devnet.ChainKey)
	var logCalls atomic.Int64
	client := node.NewClient(ch.Key, ch.RPC, node.ClientOptions{})
	src := watch.RPCLogs{Client: client}
	const watched, active = 10_000, 100
	addrs := make([]common.Address, 0, 2*watched)
	for _, t := range bn.m.Tokens {
		addrs = append(addrs, common.HexToAddress(t.Address))
		if t.Pair != "" {
			addrs = append(addrs, common.HexToAddress(t.Pair))
		}
	}
	for i := len(addrs); i < 2*watched; i++ {
		addrs = append(addrs, common.BigToAddress(new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 100), big.NewInt(int64(i)))))
	}
	addrs = slices.Compact(addrs)
	var scanRequests atomic.Int64
	engine, err := scan.NewEngine(scan.EngineOptions{
		Adapters: []scan.Adapter{evm.NewAdapter(bn.reg, evm.Options{Upstream: func(string, string) { scanRequests.Add(1) }})},
		Registry: bn.reg, ScanTimeout: time.Minute, Version: "bench",
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	kinds := []string{"clean", "mintable", "pausable", "fee_modifiable", "proxy_upgradeable"}
	var logReqs, scans int64
	b.ResetTimer()
	for range b.N {
		before := client.Requests()
		head, err := src.Head(ctx)
		if err != nil {
			b.Fatal(err)
		}
		logs, err := src.Logs(ctx, max(head, 100)-100, head, addrs, watch.Topics)
		if err != nil {
			b.Fatal(err)
		}
		logCalls.Add(int64(len(logs)))
		logReqs += client.Requests() - before
		for _, k := range kinds {
			tok, _ := bn.m.Token(k)
			if _, err := engine.Scan(ctx, scan.ScanRequest{Address: tok.Address, Chains: []string{devnet.ChainKey}, Fresh: true}); err != nil {
				b.Fatal(err)
			}
			scans++
		}
	}
	b.StopTimer()
	perTickLogs := float64(logReqs) / float64(b.N)
	perScan := float64(scanRequests.Load()) / float64(scans)
	chunks := (len(addrs) + 999) / 1000
	b.ReportMetric(perTickLogs, "log-requests/tick")
	b.ReportMetric(float64(chunks), "getLogs-calls/tick")
	b.ReportMetric(perScan, "requests/rescan")
	b.ReportMetric(perTickLogs+active*perScan, "requests/tick")
	fmt.Printf("%d watched tokens + pools (%d addresses), 1%% active: %.0f log requests per tick (eth_blockNumber + one batch of %d eth_getLogs), %.1f requests per re-scan, %.0f upstream HTTP requests per tick in all\n",
		watched, len(addrs), perTickLogs, chunks, perScan, perTickLogs+active*perScan)
}

// BenchmarkAlertLatency measures, on the devnet with a 1 s tick, the time
// from the owner's transaction being sent (devnet act mint) to its
// token.supply_changed event being published, and prints the median and
// p99.
//
//	go test -run '^$' -bench AlertLatency -benchtime 20x ./internal/watch
func BenchmarkAlertLatency(b *testing.B) {
	bn := newBench(b)
	tok := bn.watchKind(b, bn.st, "key_a", "mintable")
	w := bn.watcher(b, "inst_a", time.Second, bn.st, bn.pub)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = w.Run(ctx) }()
	defer func() { cancel(); <-done }()
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		res := bn.act(b, tok, "mint", "1")
		tx := res.Txs[0].Hex()
		deadline := time.After(time.Minute)
	wait:
		for {
			for _, e := range bn.pub.of(watch.SupplyChanged, tok.Address) {
				if h, _ := e.data["tx_hash"].(string); strings.EqualFold(h, tx) {
					lat = append(lat, e.at.Sub(res.SentAt))
					break wait
				}
			}
			select {
			case <-bn.pub.notify:
			case <-time.After(100 * time.Millisecond):
			case <-deadline:
				b.Fatalf("no event for %s within a minute", tx)
			}
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	median := lat[len(lat)/2]
	p99 := lat[min(len(lat)-1, len(lat)*99/100)]
	b.ReportMetric(float64(median.Milliseconds()), "median-ms")
	b.ReportMetric(float64(p99.Milliseconds()), "p99-ms")
	fmt.Printf("alert latency, owner's transaction sent to event published (1 s tick, %d alerts): median %v, p99 %v\n",
		len(lat), median.Round(time.Millisecond), p99.Round(time.Millisecond))
}

// BenchmarkQuietTick10k measures one tick of a chain with 10,000 watched
// tokens (and pools) and nothing moving, on the devnet with SQLite: the
// store reads, the log query over 20,000 addresses and the classification.
// Reports are read from the store once, on the first tick.
//
//	go test -run '^$' -bench QuietTick10k -benchtime 5x ./internal/watch
func BenchmarkQuietTick10k(b *testing.B) {
	bn := newBench(b)
	ctx := context.Background()
	now := bn.now()
	for i := range 10_000 {
		addr := common.BigToAddress(new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 100), big.NewInt(int64(2*i)))).Hex()
		pool := common.BigToAddress(new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 100), big.NewInt(int64(2*i+1)))).Hex()
		report := fmt.Sprintf(`{"scan_id":"scn_%d","risk_level":"low","overall_risk_score":20,"total_supply":"1000","risk_flags":[],`+
			`"contract_analysis":{"owner":null},"liquidity_analysis":{"main_pool":%q,"pools":[{"address":%q,"kind":"v2","quote_address":"0x0","quote_reserve":"1000"}]}}`,
			i, pool, pool)
		if _, _, err := bn.st.CreateWatch(ctx, store.Watch{ID: fmt.Sprintf("wat_%05d", i), KeyID: "key_a", Address: addr, Chain: devnet.ChainKey, CreatedAt: now}, 20_000); err != nil {
			b.Fatal(err)
		}
		if err := bn.st.SaveWatchedToken(ctx, store.WatchedToken{Chain: devnet.ChainKey, Address: addr, ScanID: fmt.Sprintf("scn_%d", i),
			Report: []byte(report), Pool: pool, QuoteReserve: "1000", ScannedAt: now}); err != nil {
			b.Fatal(err)
		}
	}
	w := bn.watcher(b, "inst_a", time.Second, bn.st, bn.pub)
	if st, err := w.TickChain(ctx, devnet.ChainKey); err != nil || st.Tokens != 10_000 {
		b.Fatalf("first tick %+v %v", st, err)
	}
	b.ResetTimer()
	for range b.N {
		bn.dn.Commit() // a new block each tick
		st, err := w.TickChain(ctx, devnet.ChainKey)
		if err != nil || st.Rescans != 0 || st.Events != 0 {
			b.Fatalf("quiet tick %+v %v", st, err)
		}
	}
}
