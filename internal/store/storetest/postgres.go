package storetest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresEnv names the variable holding the test PostgreSQL DSN.
const PostgresEnv = "TOKENRISK_TEST_POSTGRES"

var schemaSeq atomic.Int64

// PostgresDSN returns a DSN on a new, empty schema of the database named by
// TOKENRISK_TEST_POSTGRES, so runs and tests never collide; the schema is
// dropped when tb ends. It skips tb when the variable is unset.
func PostgresDSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		tb.Skip("PostgreSQL tests skipped: set " + PostgresEnv + " to a DSN, e.g. postgres://postgres@127.0.0.1:5432/postgres")
	}
	ctx := context.Background()
	schema := fmt.Sprintf("trtest_%d_%d_%d", os.Getpid(), time.Now().UnixNano(), schemaSeq.Add(1))
	exec := func(sql string) error {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return fmt.Errorf("connect to %s: %w", PostgresEnv, err)
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := exec("CREATE SCHEMA " + schema); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
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
