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
// with a fixed latency L added to every HTTP request. It reports, in units
// of L: the contract verdict (the scan's start to the arrival of its second
// request, which is sent as soon as the mint is decoded) and the whole
// assessment (pools, holders and deployer included); and the upstream HTTP
// requests per scan.
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
			var verdict, total time.Duration
			var requests int64
			b.ResetTimer()
			for range b.N {
				srv.ResetCounters()
				start := time.Now()
				if _, err := a.Assess(context.Background(), req); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
				requests += srv.Requests()
				if arr := srv.Arrivals(); len(arr) > 1 {
					verdict += arr[1].Sub(start)
				}
			}
			b.StopTimer()
			n := float64(b.N) * float64(latency)
			b.ReportMetric(float64(verdict)/n, "L/verdict")
			b.ReportMetric(float64(total)/n, "L/scan")
			b.ReportMetric(float64(requests)/float64(b.N), "requests/scan")
		})
	}
}
