package postgres_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
)

// freshDSN is a DSN on a new schema, or a skip.
func freshDSN(t *testing.T) string { return storetest.PostgresDSN(t) }

func open(t *testing.T, dsn string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSuite(t *testing.T) {
	if os.Getenv(storetest.PostgresEnv) == "" {
		t.Skip("PostgreSQL tests skipped: set " + storetest.PostgresEnv + " to a DSN, e.g. postgres://postgres@127.0.0.1:5432/postgres")
	}
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, freshDSN(t)) })
}

func TestMigrateIsIdempotentAndConcurrent(t *testing.T) {
	dsn := freshDSN(t)
	ctx := context.Background()
	errs := make(chan error, 4)
	for range 4 { // instances starting together
		go func() { errs <- postgres.Migrate(ctx, dsn) }()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	s := open(t, dsn)
	defer s.Close()
	if err := s.SaveScan(ctx, store.Scan{ID: "scn_1", KeyID: "key_1", ScannedAt: time.Now(), Report: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenFails(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, dsn := range []string{"not a dsn ://", "postgres://nobody:secret@127.0.0.1:1/none?connect_timeout=1"} {
		s, err := postgres.Open(ctx, dsn, postgres.Options{})
		if err == nil {
			s.Close()
			t.Errorf("Open(%q): no error", dsn)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("error %q reveals the password", err)
		}
	}
}
