package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// TestMigrationLandedLaterIsApplied: a database migrated by a build that
// had 0004 (watchlists) but not yet 0003 (webhooks) gets 0003 on the next
// start, and keeps its watchlist: each migration is applied by its own
// version, whatever the order they arrived in.
func TestMigrationLandedLaterIsApplied(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tokenrisk.db")
	s := open(t, path)
	if _, _, err := s.CreateWatch(ctx, store.Watch{ID: "wat_1", KeyID: "key_1", Address: "0xAA", Chain: "ethereum", CreatedAt: time.Now()}, 10); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Undo 0003 as if it had never been there.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP TABLE webhook_attempts`, `DROP TABLE webhook_deliveries`, `DROP TABLE webhook_events`,
		`DROP TABLE webhooks`, `DELETE FROM schema_migrations WHERE version = 3`} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s = open(t, path)
	defer s.Close()
	if list, err := s.ListWatches(ctx, "key_1"); err != nil || len(list) != 1 {
		t.Errorf("watchlist after the late migration: %v %v", list, err)
	}
	if _, err := s.Webhooks(ctx, "key_1"); err != nil {
		t.Errorf("webhooks table after the late migration: %v", err)
	}
}
