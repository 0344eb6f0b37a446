package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
)

var schemaSeq atomic.Int64

// freshDSN returns a DSN on a new, empty schema of the database named by
// TOKENRISK_TEST_POSTGRES, dropped when the test ends; it skips the test
// when the variable is unset.
func freshDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("TOKENRISK_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL tests skipped: set TOKENRISK_TEST_POSTGRES to a DSN, e.g. postgres://postgres@127.0.0.1:5432/postgres")
	}
	ctx := context.Background()
	schema := fmt.Sprintf("trtest_%d_%d_%d", os.Getpid(), time.Now().UnixNano(), schemaSeq.Add(1))
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect to TOKENRISK_TEST_POSTGRES: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	sep := " "
	if strings.Contains(dsn, "://") {
		sep = "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
	}
	return dsn + sep + "search_path=" + schema
}

func open(t *testing.T, dsn string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSuite(t *testing.T) {
	if os.Getenv("TOKENRISK_TEST_POSTGRES") == "" {
		t.Skip("PostgreSQL tests skipped: set TOKENRISK_TEST_POSTGRES to a DSN, e.g. postgres://postgres@127.0.0.1:5432/postgres")
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
