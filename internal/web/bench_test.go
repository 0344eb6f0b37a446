package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// BenchmarkBadge serves SVG badges over a real TCP listener with
// keep-alive clients in parallel, from a SQLite file holding 20 000 scans
// of 2 000 addresses, and prints badge requests per second. Each request
// reads the newest scan of its address from the database (no cache in
// front of it), as a cold badge would.
func BenchmarkBadge(b *testing.B) {
	st := openStore(b)
	const addresses, perAddress = 2000, 10
	t0 := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	addrs := make([]string, addresses)
	var batch []store.Scan
	for i := range addresses {
		addrs[i] = fmt.Sprintf("0x%040x", i+1)
		for j := range perAddress {
			batch = append(batch, store.Scan{
				ID: fmt.Sprintf("scn_%05d_%02d", i, j), KeyID: "key_a", Address: addrs[i], Chain: "ethereum",
				RiskLevel: "high", Score: 67.7, ScannedAt: t0.Add(time.Duration(j) * time.Minute), Report: []byte(`{}`),
			})
		}
	}
	if err := st.SaveScans(context.Background(), batch); err != nil {
		b.Fatal(err)
	}
	srv := badgeServer(b, st)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			res, err := client.Get(srv.URL + "/badge/" + addrs[i%addresses] + ".svg")
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body) //nolint:errcheck // drained for keep-alive
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Errorf("status %d", res.StatusCode)
				return
			}
			i += 7
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "badges/s")
}

// BenchmarkTokenPage renders the token page of a stored verdict (a
// report with evidence in every analysis) through the HTTP handler, as a
// shared link is served, and prints the server time per render (store
// read, report decoding, layout and template, from the Server-Timing
// header) beside the round trip.
func BenchmarkTokenPage(b *testing.B) {
	s := newSite(b, 10, honeypotAssessment("Moon Rocket"))
	if res, _ := get(b, s.url+"/token/"+pepe); res.StatusCode != 200 {
		b.Fatalf("first visit: %d", res.StatusCode)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	b.ReportAllocs()
	b.ResetTimer()
	var server time.Duration
	for b.Loop() {
		res, err := client.Get(s.url + "/token/" + pepe)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body) //nolint:errcheck // drained for keep-alive
		res.Body.Close()
		var ms float64
		fmt.Sscanf(res.Header.Get("Server-Timing"), "page;dur=%g", &ms)
		server += time.Duration(ms * float64(time.Millisecond))
	}
	b.ReportMetric(float64(server.Microseconds())/float64(b.N), "µs-server/op")
}
