package storetest_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// BenchmarkRecordScans measures RecordScans on SQLite by batch size: one
// transaction holding the rows of a batch and their usage charge, as the
// API's group commit writes them; each row holding its whole report
// ("whole") or, as cached answers are recorded, the edits of one shared
// report base ("base"); and RecordEntries of base rows as the history
// journal drains them ("entries"). It prints rows/s and CPU per row.
func BenchmarkRecordScans(b *testing.B) {
	var seq atomic.Int64
	base := &store.Base{Digest: sha256.Sum256(report), Body: report}
	for _, c := range []struct {
		name string
		n    int
	}{{"whole", 1}, {"whole", 4}, {"whole", 16}, {"whole", 64}, {"base", 1}, {"base", 4}, {"base", 16}, {"base", 64},
		{"entries", 64}, {"entries", 256}, {"entries", 1024}} {
		n := c.n
		b.Run(fmt.Sprintf("sqlite/%s/batch%d", c.name, n), func(b *testing.B) {
			s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			batch := make([]store.Scan, n)
			charges := []store.Charge{{KeyID: "key_bench", Day: "2026-11-21", N: int64(n)}}
			cpu0 := cpuTime()
			for b.Loop() {
				for i := range batch {
					batch[i] = store.Scan{ID: fmt.Sprintf("scn_%012d", seq.Add(1)), KeyID: "key_bench", Address: "0x6982508145454ce325ddbe47a25d4ec3d2311933",
						Chain: "ethereum", RiskLevel: "low", Score: 24.5, ScannedAt: time.Now(), Report: report}
					if c.name != "whole" {
						// The report with its own scan id: what a cached answer records.
						id := []byte(`"` + batch[i].ID + `"`)
						batch[i].Base, batch[i].Edits = base, []store.Edit{{From: 11, To: 18, With: id}}
						batch[i].Report, _ = store.ApplyEdits(report, batch[i].Edits)
					}
				}
				if c.name == "entries" {
					// As the history journal drains: rows charged one
					// each, idempotently (store.EntryRecorder).
					entries := make([]store.Entry, n)
					for i := range batch {
						entries[i] = store.Entry{Scan: batch[i], Day: "2026-11-21"}
					}
					if err := s.RecordEntries(ctx, entries); err != nil {
						b.Fatal(err)
					}
				} else if _, err := s.RecordScans(ctx, batch, charges); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N*n), "cpu-µs/row")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
