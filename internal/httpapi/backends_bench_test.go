package httpapi_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	cacheredis "github.com/tokenrisk/tokenrisk/internal/cache/redis"
	rateredis "github.com/tokenrisk/tokenrisk/internal/ratelimit/redis"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
)

// scaleOutBackends are PostgreSQL (TOKENRISK_TEST_POSTGRES, a fresh
// schema) and Redis (TOKENRISK_TEST_REDIS, keys under a fresh prefix); it
// skips b when either is not configured.
func scaleOutBackends(b *testing.B) benchBackends {
	b.Helper()
	url := os.Getenv("TOKENRISK_TEST_REDIS")
	if url == "" {
		b.Skip("PostgreSQL + Redis half skipped: set TOKENRISK_TEST_POSTGRES and TOKENRISK_TEST_REDIS")
	}
	dsn := storetest.PostgresDSN(b)
	opts, err := goredis.ParseURL(url)
	if err != nil {
		b.Fatal(err)
	}
	opts.PoolSize = 64
	client := goredis.NewClient(opts)
	b.Cleanup(func() { client.Close() })
	st, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		b.Fatal(err)
	}
	prefix := fmt.Sprintf("tokenrisk-bench-%d:", time.Now().UnixNano())
	return benchBackends{
		store:   st,
		cache:   cacheredis.New(client, cacheredis.Options{Prefix: prefix}),
		limiter: rateredis.New(client, rateredis.Options{Prefix: prefix}),
	}
}

// BenchmarkBackends compares, in one run, the embedded backends (SQLite,
// in-process cache and limits) with the scale-out ones (PostgreSQL,
// Redis): history writes (one row and one usage charge per answered scan,
// spread over benchKeys keys, 8 writers per CPU, as concurrent requests
// would write them without group commit) and cached scans through the whole HTTP stack with a pro key
// (rate limit and daily quota checked, history row and charge written
// before each answer). It prints rows/s and scans/s.
func BenchmarkBackends(b *testing.B) {
	for _, be := range []struct {
		name string
		open func(*testing.B) benchBackends
	}{
		{"sqlite+memory", embeddedBackends},
		{"postgres+redis", scaleOutBackends},
	} {
		b.Run(be.name+"/history-write", func(b *testing.B) { benchHistoryWrite(b, be.open(b).store) })
		b.Run(be.name+"/cached-scan", func(b *testing.B) { benchCachedScan(b, "pro", be.open(b)) })
	}
}

func benchHistoryWrite(b *testing.B, st store.Store) {
	defer st.Close()
	ctx := context.Background()
	day := time.Now().UTC().Format(time.DateOnly)
	var seq atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n := seq.Add(1)
			key := fmt.Sprintf("key_bench_%d", n%benchKeys)
			sc := store.Scan{ID: fmt.Sprintf("scn_%012d", n), KeyID: key, Address: pepeLower, Chain: "ethereum",
				RiskLevel: "low", Score: 24.5, ScannedAt: time.Now(), Report: benchReport}
			if err := st.SaveScan(ctx, sc); err != nil {
				b.Error(err)
				return
			}
			if _, err := st.AddUsage(ctx, key, day, 1); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(seq.Load())/b.Elapsed().Seconds(), "rows/s")
	var total int64
	for i := range benchKeys {
		n, err := st.Usage(ctx, fmt.Sprintf("key_bench_%d", i), day)
		if err != nil {
			b.Fatal(err)
		}
		total += n
	}
	if total != seq.Load() {
		b.Fatalf("usage %d after %d charged writes", total, seq.Load())
	}
}

// benchKeys is how many keys the history-write benchmark charges.
const benchKeys = 64

// benchReport is about the size of a real scan report.
var benchReport = []byte(`{"scan_id":"scn_x","risk_flags":[` + fmt.Sprintf("%0600d", 0) + `]}`)
