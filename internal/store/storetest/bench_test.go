package storetest_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
	"github.com/tokenrisk/tokenrisk/internal/store/writeback"
)

// report is about the size of a real scan report.
var report = append([]byte(`{"scan_id":"scn_x","risk_flags":[`), append(bytes.Repeat([]byte(`{"code":"OWNER_CAN_MINT","severity":"high"},`), 60), []byte(`{}]}`)...)...)

// BenchmarkHistoryWrite measures scan-history writes on each backend in one
// run (PostgreSQL when TOKENRISK_TEST_POSTGRES is set): one SaveScan per
// scan from one goroutine and from many, through the writeback queue, and
// batches of 100 (SaveScans).
func BenchmarkHistoryWrite(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"sqlite", func(b *testing.B) store.Store {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
		{"postgres", func(b *testing.B) store.Store {
			s, err := postgres.Open(context.Background(), storetest.PostgresDSN(b), postgres.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	var seq atomic.Int64
	scan := func() store.Scan {
		n := seq.Add(1)
		return store.Scan{ID: fmt.Sprintf("scn_%012d", n), KeyID: "key_bench", Address: "0x6982508145454ce325ddbe47a25d4ec3d2311933",
			Chain: "ethereum", RiskLevel: "low", Score: 24.5, ScannedAt: time.Now(), Report: report}
	}
	for _, be := range backends {
		b.Run(be.name+"/serial", func(b *testing.B) {
			s := be.open(b)
			defer s.Close()
			ctx := context.Background()
			for b.Loop() {
				if err := s.SaveScan(ctx, scan()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(be.name+"/parallel", func(b *testing.B) {
			s := be.open(b)
			defer s.Close()
			ctx := context.Background()
			b.SetParallelism(8) // many requests at once
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := s.SaveScan(ctx, scan()); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(be.name+"/writeback", func(b *testing.B) {
			w := writeback.New(be.open(b), writeback.Options{Capacity: 1 << 20})
			defer w.Close()
			ctx := context.Background()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := w.Enqueue(scan(), "2026-11-21", false); err != nil {
						b.Error(err)
						return
					}
				}
			})
			if err := w.Flush(ctx); err != nil { // count rows written, not queued
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(be.name+"/batch100", func(b *testing.B) {
			s := be.open(b)
			defer s.Close()
			bs := s.(store.BatchSaver)
			ctx := context.Background()
			batch := make([]store.Scan, 100)
			for b.Loop() {
				for i := range batch {
					batch[i] = scan()
				}
				if err := bs.SaveScans(ctx, batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
