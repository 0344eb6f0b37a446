package auth_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// BenchmarkAuthenticate measures key checks on SQLite, with the lookup
// cache and without it (every check reads the store).
func BenchmarkAuthenticate(b *testing.B) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, c := range []struct {
		name string
		ttl  time.Duration
	}{{"cached", 0}, {"uncached", -1}} {
		b.Run(c.name, func(b *testing.B) {
			keys := auth.NewKeys(st, auth.DefaultPlans(), auth.Options{CacheTTL: c.ttl})
			secret, _, err := keys.Create(context.Background(), "pro", "bench")
			if err != nil {
				b.Fatal(err)
			}
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, _, err := keys.Authenticate(context.Background(), secret); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
