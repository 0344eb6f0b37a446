package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"

	"context"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/explorer"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// BenchmarkScanLatency scans devnet tokens through a JSON-RPC proxy that
// adds a fixed latency L to every upstream HTTP request, and reports the
// wall time of a whole scan and of its verdict (contract, liquidity and
// simulation known) in units of L, and upstream requests per scan (log
// pages counted apart). With the V4 build the devnet's chain names a
// Uniswap V4 PoolManager: the V4 kinds are scanned too (a V4-only token,
// a hook trap, a token on V2 and V4), and "clean-nov4" scans the clean
// token on the same chain without its V4 deployment (what the V4 search
// costs a token with no V4 pool).
func BenchmarkScanLatency(b *testing.B) {
	const L = 100 * time.Millisecond
	dn := startAdapterNet(b)
	p := newRPCProxy(b, dn.RPCURL(), L, 0)
	ch := dn.Chain()
	ch.RPC = []string{p.URL()}
	noV4 := withoutV4(ch)
	kinds := []string{"clean", "tax_sell_high", "proxy_upgradeable", "proxy_keeper_seize", "mintable+explorers"}
	if contracts.UniswapV4Built() {
		// v4_hook_fee_changeable: a hook read and probed in the same round
		// trips (more elements, no more requests).
		kinds = append(kinds, "clean-nov4", "v4_clean", "v4_hook_sell_blocked", "v4_hook_fee_changeable", "v2_and_v4")
	}
	for _, kind := range kinds {
		withExplorers := strings.HasSuffix(kind, "+explorers")
		tok, _ := dn.Manifest().Token(strings.TrimSuffix(strings.TrimSuffix(kind, "+explorers"), "-nov4"))
		chain := ch
		if strings.HasSuffix(kind, "-nov4") {
			chain = noV4
		}
		b.Run(kind, func(b *testing.B) {
			var mu sync.Mutex
			var start, verdict time.Time
			var opts Options
			if withExplorers {
				// Explorers answering after the same latency L.
				es := fakeEtherscan(b, tok.Address, tok.Creator, 1)
				slow := func(h http.Handler) *httptest.Server {
					srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						time.Sleep(L)
						h.ServeHTTP(w, r)
					}))
					b.Cleanup(srv.Close)
					return srv
				}
				esURL := slow(es.Config.Handler).URL
				srcURL := slow(http.NotFoundHandler()).URL
				opts.Sourcify, opts.Etherscan = explorer.Config{SourcifyURL: srcURL, EtherscanURL: esURL, EtherscanAPIKey: "k"}.Clients(nil)
			}
			opts.Trace = func(stage string) {
				mu.Lock()
				defer mu.Unlock()
				if stage == "verdict" {
					verdict = time.Now()
				}
			}
			ad := NewAdapter(devnetRegistry(b, chain), opts)
			var whole, toVerdict time.Duration
			req0, pages0 := p.requests.Load(), p.logPages.Load()
			b.ResetTimer()
			for range b.N {
				start = time.Now()
				if _, err := assess(b, ad, tok.Address); err != nil {
					b.Fatal(err)
				}
				whole += time.Since(start)
				mu.Lock()
				toVerdict += verdict.Sub(start)
				mu.Unlock()
			}
			n := float64(b.N)
			reqs := float64(p.requests.Load()-req0) / n
			pages := float64(p.logPages.Load()-pages0) / n
			b.ReportMetric(float64(whole)/n/float64(L), "L/scan")
			b.ReportMetric(float64(toVerdict)/n/float64(L), "L/verdict")
			b.ReportMetric(reqs-pages, "requests/scan")
			b.ReportMetric(pages, "logpages/scan")
		})
	}
}

// BenchmarkHolderRebuild replays a token's Transfer logs from a real node
// and reports the rebuild's throughput.
func BenchmarkHolderRebuild(b *testing.B) {
	tc := newTestChain(b)
	m := newMarket(b, tc)
	const transfers = 3000
	art, err := contracts.Artifact("StableUSD")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cl := tc.backend.Client()
	nonce, err := cl.PendingNonceAt(ctx, tc.from)
	if err != nil {
		b.Fatal(err)
	}
	signer := types.LatestSignerForChainID(big.NewInt(1337))
	for i := range transfers {
		data, _ := art.ABI.Pack("transfer", common.BigToAddress(big.NewInt(int64(0x10000+i%500))), big.NewInt(int64(i+1)))
		tx, _ := types.SignTx(types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(1337), Nonce: nonce, GasTipCap: big.NewInt(1e9),
			GasFeeCap: big.NewInt(100e9), Gas: 100_000, To: &m.token, Data: data}), signer, tc.key)
		nonce++
		if err := cl.SendTransaction(ctx, tx); err != nil {
			b.Fatal(err)
		}
		if i%250 == 249 {
			tc.backend.Commit()
		}
	}
	tc.backend.Commit()
	latest, _ := cl.BlockNumber(ctx)
	c := node.NewClient("sim", []string{tc.url}, node.ClientOptions{})
	var logs int
	b.ResetTimer()
	for range b.N {
		s, err := holder.RebuildHolders(ctx, c, m.token, latest, holder.HolderBudget{Duration: time.Minute})
		if err != nil || !s.Complete {
			b.Fatalf("rebuild: %v (complete %v)", err, s != nil && s.Complete)
		}
		logs += s.Transfers
	}
	b.ReportMetric(float64(logs)/b.Elapsed().Seconds(), "logs/s")
}

// BenchmarkProbeBatch runs the privilege probes' batch of zoo tokens on
// the devnet node and reports the node time of one batch, its eth_calls
// and candidate calls, and how many functions were probed.
func BenchmarkProbeBatch(b *testing.B) {
	dn := startAdapterNet(b)
	c := node.NewClient("devnet", []string{dn.RPCURL()}, node.ClientOptions{})
	for _, kind := range []string{"clean", "fee_modifiable", "tax_sell_high", "balance_modifiable", "blacklist"} {
		tok, ok := dn.Manifest().Token(kind)
		if !ok {
			b.Fatalf("no zoo token %s", kind)
		}
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			token, pool, creator := common.HexToAddress(tok.Address), common.HexToAddress(tok.Pair), common.HexToAddress(tok.Creator)
			code, err := c.CodeAt(ctx, token)
			if err != nil {
				b.Fatal(err)
			}
			report := bytecode.AnalyseCode(code)
			req := probe.ProbeRequest{Token: token, Pool: pool, Code: report, Owner: &creator, Creator: &creator,
				Donors: []common.Address{creator}, Holders: []common.Address{creator}}
			var elems int
			var functions int
			b.ResetTimer()
			for range b.N {
				batch, decode, err := probe.ProbeCalls(req)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Batch(ctx, batch); err != nil {
					b.Fatal(err)
				}
				f, err := decode()
				if err != nil {
					b.Fatal(err)
				}
				elems, functions = len(batch), f.Functions
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/batch")
			b.ReportMetric(float64(elems), "eth_calls/batch")
			b.ReportMetric(float64(functions), "functions")
			b.ReportMetric(float64(len(probe.BuildProbeCalls(report, probe.DefaultProbeSelectors, probe.NewScene(req, probe.ProbeCallers(req))))), "calls")
		})
	}
}
