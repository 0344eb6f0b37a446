package solana_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// BenchmarkAssessLatency scans the pump mint against the fixture server
// with a fixed latency L added to every HTTP request, and reports the wall
// time of a whole assessment (contract verdict, pools, holders and
// deployer) in units of L, and the upstream HTTP requests per scan.
func BenchmarkAssessLatency(b *testing.B) {
	for _, latency := range []time.Duration{20 * time.Millisecond, 50 * time.Millisecond} {
		b.Run(fmt.Sprintf("L=%s", latency), func(b *testing.B) {
			srv := newServer(b)
			addPumpHolders(b, srv)
			// A creation transaction for the deployer analysis, so that
			// getTransaction is part of the measured scan.
			srv.SetSignatures(pumpMint, []solanatest.Signature{{Signature: "sig2", Slot: 2, BlockTime: 1782220000}, {Signature: "sig1", Slot: 1, BlockTime: 1782210000}})
			srv.SetTransaction("sig1", solanatest.Transaction{Slot: 1, BlockTime: 1782210000, AccountKeys: []string{creator, pumpMint}})
			srv.SetLatency(latency)
			a := newAdapter(b, solana.Options{}, srv.URL())
			req := request(b, pumpMint)
			srv.ResetCounters()
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				if _, err := a.Assess(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			elapsed := time.Since(start)
			b.StopTimer()
			perScan := elapsed / time.Duration(b.N)
			b.ReportMetric(float64(perScan)/float64(latency), "L/scan")
			b.ReportMetric(float64(srv.Requests())/float64(b.N), "requests/scan")
		})
	}
}
