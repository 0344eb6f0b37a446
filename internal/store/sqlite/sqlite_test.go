package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSuite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, filepath.Join(t.TempDir(), "tokenrisk.db"))
	})
}

func TestSuiteInMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, ":memory:") })
}

func TestReopenKeepsEverything(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tokenrisk.db")
	s := open(t, path)
	key := store.Key{ID: "key_1", Plan: "free", Prefix: "trk_abcdefgh", CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := s.CreateKey(ctx, key, []byte("hash")); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveScan(ctx, store.Scan{ID: "scn_1", KeyID: "key_1", ScannedAt: key.CreatedAt, Report: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddUsage(ctx, "key_1", "2026-11-21", 3); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path) // migrations run again and must be a no-op
	defer s.Close()
	if _, err := s.KeyByHash(ctx, []byte("hash")); err != nil {
		t.Errorf("key lost on reopen: %v", err)
	}
	if _, err := s.FindScan(ctx, "key_1", "scn_1"); err != nil {
		t.Errorf("scan lost on reopen: %v", err)
	}
	if n, err := s.Usage(ctx, "key_1", "2026-11-21"); n != 3 || err != nil {
		t.Errorf("usage after reopen: %d, %v; want 3", n, err)
	}
}

func TestOpenFails(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "missing-dir", "x.db")} {
		if s, err := sqlite.Open(context.Background(), path, sqlite.Options{}); err == nil {
			s.Close()
			t.Errorf("Open(%q): no error", path)
		}
	}
}
