package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// postgresDSN returns a DSN on a fresh schema of TOKENRISK_TEST_POSTGRES,
// dropped at cleanup, or skips.
func postgresDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("TOKENRISK_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL: set TOKENRISK_TEST_POSTGRES (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run")
	}
	ctx := context.Background()
	schema := fmt.Sprintf("trcmd_%d_%d", os.Getpid(), time.Now().UnixNano())
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("drop schema: %v", err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema
}

// TestServeOnPostgres: the same commands and service on PostgreSQL.
func TestServeOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	dsn := postgresDSN(t)
	if out, err := runCmd(t, nil, "migrate", "--postgres", dsn); err != nil || !strings.Contains(out, "postgres") || strings.Contains(out, dsn) {
		t.Fatalf("migrate: %q %v", out, err)
	}
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_LOG_LEVEL": "warn"}
	s := startServer(t, env, "--devnet-manifest", manifest)
	premium := s.key(t, "premium")
	clean, _ := readManifest(t, manifest).Token("clean")
	if r := s.scan(t, premium, clean.Address); r.status != 200 {
		t.Fatalf("scan: %d %s", r.status, r.body)
	}
	r := s.do(t, "GET", "/api/v1/scans/export?format=csv", premium, "")
	if r.status != 200 || strings.Count(string(r.body), "\n") != 2 {
		t.Errorf("export: %d %q", r.status, r.body)
	}
	if r := s.do(t, "GET", "/readyz", "", ""); r.status != 200 {
		t.Errorf("readyz: %d", r.status)
	}
}
