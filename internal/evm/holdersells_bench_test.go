package evm

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
)

// BenchmarkHolderSells runs the real holders' sells of zoo tokens on the
// devnet node (the top holders and last buyers of the holder rebuild, as
// a scan picks them, each an eth_simulateV1 of the batch) and reports the
// node time per simulated holder sell and per batch, and the sellers.
func BenchmarkHolderSells(b *testing.B) {
	dn := startAdapterNet(b)
	c := node.NewClient("devnet", []string{dn.RPCURL()}, node.ClientOptions{})
	ch := dn.Chain()
	weth := common.HexToAddress(dn.Manifest().WETH)
	for _, kind := range []string{"clean", "tax_sell_high", "honeypot_holders_armed"} {
		tok, ok := dn.Manifest().Token(kind)
		if !ok {
			b.Fatalf("no zoo token %s", kind)
		}
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			token, pair := common.HexToAddress(tok.Address), common.HexToAddress(tok.Pair)
			latest, err := c.BlockNumber(ctx)
			if err != nil {
				b.Fatal(err)
			}
			hs, err := holder.RebuildHolders(ctx, c, token, latest, holder.HolderBudget{Duration: time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			exclude := map[common.Address]bool{pair: true, token: true, common.HexToAddress(tok.Creator): true, common.HexToAddress(dn.Manifest().Locker): true}
			picked := holder.Sellers(hs, []common.Address{pair}, func(a common.Address) bool { return exclude[a] }, holderSellsTop, holderSellsLast)
			sellers := make([]simulation.Seller, len(picked))
			for i, s := range picked {
				sellers[i] = simulation.Seller{Address: s.Address, Logged: s.Logged, NeverSent: s.NeverSent}
			}
			var head struct {
				Time hexutil.Uint64 `json:"timestamp"`
			}
			if err := c.Call(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
				b.Fatal(err)
			}
			req := simulation.SimulationRequest{Token: token, Pool: pair, PoolKind: "v2", Quote: weth, Wrapped: weth, FeeBps: ch.DEXes[0].FeeBps,
				BlockTime: uint64(head.Time), DelayedSell: simulation.DefaultDelayedSell, QuoteReserve: big.NewInt(1)}
			var tried int
			b.ResetTimer()
			for range b.N {
				elems, decode, err := simulation.HolderSellsCall(req, sellers)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Batch(ctx, elems); err != nil {
					b.Fatal(err)
				}
				h := decode()
				if h == nil {
					b.Fatal("no holder sell established")
				}
				tried = h.Tried
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(per/float64(len(sellers)), "ns/holder-sell")
			b.ReportMetric(per/1e6, "ms/batch")
			b.ReportMetric(float64(len(sellers)), "sellers")
			b.ReportMetric(float64(tried), "tried")
		})
	}
}
