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

// TestScaleOutSharesLimits runs two instances on one PostgreSQL and one
// Redis: a free key's per-minute rate is shared, and history written
// through one instance is read through the other.
func TestScaleOutSharesLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers")
	}
	redisURL := os.Getenv("TOKENRISK_TEST_REDIS")
	if redisURL == "" {
		t.Skip("Redis: set TOKENRISK_TEST_REDIS (e.g. redis://127.0.0.1:6379/0) to run")
	}
	dsn := postgresDSN(t)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	env := map[string]string{"TOKENRISK_POSTGRES": dsn, "TOKENRISK_REDIS": redisURL, "TOKENRISK_LOG_LEVEL": "warn"}
	a := startServer(t, env, "--devnet-manifest", manifest)
	b := startServer(t, env)
	clean, _ := readManifest(t, manifest).Token("clean")
	free, premium := a.key(t, "free"), a.key(t, "premium")
	for i := range 10 {
		s := a
		if i%2 == 1 {
			s = b
		}
		if r := s.scan(t, free, clean.Address); r.status != 200 {
			t.Fatalf("scan %d: %d %s", i+1, r.status, r.body)
		}
	}
	for _, s := range []*server{a, b} {
		if r := s.scan(t, free, clean.Address); r.status != 429 || r.code() != "rate_limited" {
			t.Errorf("11th scan across instances: %d %s", r.status, r.body)
		}
	}
	if r := a.scan(t, premium, clean.Address); r.status != 200 {
		t.Fatalf("premium scan: %d", r.status)
	}
	if r := b.do(t, "GET", "/api/v1/scans", premium, ""); r.status != 200 || !strings.Contains(string(r.body), clean.Address) {
		t.Errorf("history through the other instance: %d %s", r.status, r.body)
	}
}
