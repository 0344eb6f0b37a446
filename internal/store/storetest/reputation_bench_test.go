package storetest_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
)

// reputationRows is the size of the generated record: a million scanned
// tokens, five per creator, a hundred per code fingerprint, five thousand
// per dispatcher fingerprint (fifty codes with one selector set, as a
// standard's plain tokens: the dispatcher's count reaches its cap), one in
// seven a proven honeypot.
const reputationRows = 1_000_000

// The generated rows, as SQL over a row number i (SQLite's printf and
// PostgreSQL's format write the same text).
const (
	sqliteSeed = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < %d)
INSERT INTO tokens (chain, address, creator, code, dispatcher, scan_id, level, harm, flags, scanned_at) SELECT 'ethereum', printf('0x%%040x', i), printf('0xc%%039x', i / 5), printf('f%%d', i / 100), printf('d%%d', i / 5000),
  printf('scn_%%d', i), CASE WHEN i %% 7 = 0 THEN 'critical' ELSE 'low' END, CASE WHEN i %% 7 = 0 THEN 'honeypot' ELSE '' END,
  CASE WHEN i %% 7 = 0 THEN 'HONEYPOT_CANNOT_SELL' ELSE '' END, 1764300000000000 + i FROM n`
	postgresSeed = `INSERT INTO tokens (chain, address, creator, code, dispatcher, scan_id, level, harm, flags, scanned_at) SELECT 'ethereum', '0x' || lpad(to_hex(i), 40, '0'), '0xc' || lpad(to_hex(i / 5), 39, '0'), 'f' || (i / 100), 'd' || (i / 5000),
  'scn_' || i, CASE WHEN i %% 7 = 0 THEN 'critical' ELSE 'low' END, CASE WHEN i %% 7 = 0 THEN 'honeypot' ELSE '' END,
  CASE WHEN i %% 7 = 0 THEN 'HONEYPOT_CANNOT_SELL' ELSE '' END, to_timestamp(1764300000 + i) FROM generate_series(0, %d) AS i`
)

// BenchmarkRelatedTokens measures, against a record of a million tokens,
// on SQLite and (with TOKENRISK_TEST_POSTGRES) on PostgreSQL, what an
// uncached scan adds: the one query it reads the record with (related:
// the creator's other tokens, the code's twins and their tally, the
// dispatcher's count) and the one transaction it leaves its verdict with
// (record: the previous harm read, the row replaced). Seeding takes a
// while: run it alone, -benchtime small.
func BenchmarkRelatedTokens(b *testing.B) {
	ctx := context.Background()
	backends := []struct {
		name string
		open func(b *testing.B) store.Reputation
	}{
		{"sqlite", func(b *testing.B) store.Reputation {
			path := filepath.Join(b.TempDir(), "bench.db")
			s, err := sqlite.Open(ctx, path, sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(60000)")
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if _, err := db.ExecContext(ctx, fmt.Sprintf(sqliteSeed, reputationRows-1)); err != nil {
				b.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, "ANALYZE"); err != nil {
				b.Fatal(err)
			}
			return s
		}},
		{"postgres", func(b *testing.B) store.Reputation {
			dsn := storetest.PostgresDSN(b)
			s, err := postgres.Open(ctx, dsn, postgres.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			conn, err := pgx.Connect(ctx, dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, fmt.Sprintf(postgresSeed, reputationRows-1)); err != nil {
				b.Fatal(err)
			}
			// VACUUM as autovacuum would after the bulk insert: the
			// dispatcher's count reads the index alone once the
			// visibility map is set.
			if _, err := conn.Exec(ctx, "VACUUM ANALYZE tokens"); err != nil {
				b.Fatal(err)
			}
			return s
		}},
	}
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			r := be.open(b)
			b.Run("related", func(b *testing.B) { benchRelated(b, r) })
			b.Run("record", func(b *testing.B) { benchRecord(b, r) })
		})
	}
}

// benchRelated reads the record of a token it has not seen.
func benchRelated(b *testing.B, r store.Reputation) {
	ctx := context.Background()
	i := 0
	for b.Loop() {
		// A token the record has not seen, by a creator with five
		// tokens, whose code has a hundred twins and whose selector
		// set 4,900 tokens of other code share.
		k := (i * 7919) % reputationRows
		i++
		rel, err := r.RelatedTokens(ctx, store.RelatedQuery{Chain: "ethereum", Address: "0xnew", Creator: fmt.Sprintf("0xc%039x", k/5), Code: fmt.Sprintf("f%d", k/100),
			Dispatcher: fmt.Sprintf("d%d", k/5000), Limit: 20})
		if err != nil {
			b.Fatal(err)
		}
		if len(rel.ByCreator) != 5 || len(rel.ByCode) != 20 || rel.CodeTally.Twins != 100 || rel.CodeTally.Critical != rel.CodeTally.Harms["honeypot"] || rel.CodeTally.Critical < 14 ||
			rel.SameDispatcher != store.DispatcherTallyCap || !rel.SameDispatcherCapped {
			b.Fatalf("read %d by creator, %d by code, tally %+v and %d same dispatcher, want 5, 20, 100 twins of which the honeypots critical and the capped %d",
				len(rel.ByCreator), len(rel.ByCode), rel.CodeTally, rel.SameDispatcher, store.DispatcherTallyCap)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/scan")
}

// benchRecord re-records a scanned token with a later scan that proves a
// honeypot: the write an uncached scan leaves, with the previous harm
// read in the same transaction (the token.reputation_changed check).
func benchRecord(b *testing.B, r store.Reputation) {
	ctx := context.Background()
	i := 0
	at := time.Unix(1764400000, 0).UTC()
	for b.Loop() {
		k := (i*7919 + 1) % reputationRows
		i++
		if _, err := r.RecordToken(ctx, store.Token{Chain: "ethereum", Address: fmt.Sprintf("0x%040x", k), Creator: fmt.Sprintf("0xc%039x", k/5),
			Code: fmt.Sprintf("f%d", k/100), Dispatcher: fmt.Sprintf("d%d", k/5000), ScanID: fmt.Sprintf("scn_b%d", i), Level: "critical",
			Harm: "honeypot", Flags: []string{"HONEYPOT_CANNOT_SELL"}, ScannedAt: at.Add(time.Duration(i) * time.Microsecond)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/scan")
}
