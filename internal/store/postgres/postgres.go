// Package postgres is the scale-out store.Store on PostgreSQL (pgx): the
// same semantics as the SQLite store, shared by any number of instances.
package postgres

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configures a Store.
type Options struct {
	// Now is the clock (migration times); nil means time.Now.
	Now func() time.Time
	// MaxConns bounds the pool; 0 means the DSN's pool_max_conns, else 16
	// (pgx's own default, 4 on a 2-core machine, queues API requests).
	MaxConns int32
}

// Store is a store.Store on PostgreSQL, safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

var (
	_ store.Store        = (*Store)(nil)
	_ store.BatchSaver   = (*Store)(nil)
	_ store.ScanRecorder = (*Store)(nil)
)

const scanColumns = `id, key_id, address, chain, risk_level, score, cached, scanned_at, report, report_base, report_edits`

// readColumns are what scanScan reads: a row and its report base's body
// (NULL when the row keeps its whole report), from readFrom.
const (
	readColumns = `s.id, s.key_id, s.address, s.chain, s.risk_level, s.score, s.cached, s.scanned_at,
		s.report, s.report_base IS NOT NULL, s.report_edits, b.body`
	readFrom = `scans s LEFT JOIN report_bases b ON b.digest = s.report_base`
)

// Open connects to the database at dsn and migrates it.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The DSN may hold a password: do not echo it.
		return nil, errors.New("postgres: invalid DSN")
	}
	switch {
	case opts.MaxConns > 0:
		cfg.MaxConns = opts.MaxConns
	case !strings.Contains(dsn, "pool_max_conns"):
		cfg.MaxConns = 16
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	s := &Store{pool: pool, now: opts.Now}
	if s.now == nil {
		s.now = time.Now
	}
	if err := s.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Migrate connects to dsn, applies the migrations not yet applied and
// disconnects (the `tokenrisk migrate` command).
func Migrate(ctx context.Context, dsn string) error {
	s, err := Open(ctx, dsn, Options{})
	if err != nil {
		return err
	}
	s.Close()
	return nil
}

// migrate applies the embedded migrations under an advisory lock, so
// instances starting together migrate once.
func (s *Store) migrate(ctx context.Context) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer conn.Release()
	const lock = `SELECT pg_advisory_lock(hashtext('tokenrisk.migrate.' || current_schema()))`
	if _, err := conn.Exec(ctx, lock); err != nil {
		return fmt.Errorf("postgres: migrate: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), //nolint:errcheck // the session ends the lock anyway
		`SELECT pg_advisory_unlock(hashtext('tokenrisk.migrate.' || current_schema()))`)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY, applied_at timestamptz NOT NULL)`); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	slices.Sort(names)
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("postgres: migration %s has no numeric version: %w", base, err)
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return fmt.Errorf("postgres: migrate: %w", err)
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			var done bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`,
				version).Scan(&done); err != nil || done {
				return err
			}
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)`, version, s.now())
			return err
		})
		if err != nil {
			return fmt.Errorf("postgres: migration %s: %w", base, err)
		}
	}
	return nil
}

// Close closes the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// CreateKey stores k with the hash of its secret.
func (s *Store) CreateKey(ctx context.Context, k store.Key, secretHash []byte) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO keys (id, name, plan, prefix, secret_hash, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, k.ID, k.Name, k.Plan, k.Prefix, secretHash, k.CreatedAt)
	if err != nil {
		return fmt.Errorf("postgres: create key %s: %w", k.ID, err)
	}
	return nil
}

func scanKey(row pgx.Row) (store.Key, error) {
	var k store.Key
	if err := row.Scan(&k.ID, &k.Name, &k.Plan, &k.Prefix, &k.CreatedAt, &k.RevokedAt); err != nil {
		return store.Key{}, err
	}
	k.CreatedAt = k.CreatedAt.UTC()
	if k.RevokedAt != nil {
		t := k.RevokedAt.UTC()
		k.RevokedAt = &t
	}
	return k, nil
}

// KeyByHash finds a key by its secret's hash, revoked or not.
func (s *Store) KeyByHash(ctx context.Context, secretHash []byte) (store.Key, error) {
	k, err := scanKey(s.pool.QueryRow(ctx,
		`SELECT id, name, plan, prefix, created_at, revoked_at FROM keys WHERE secret_hash = $1`, secretHash))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Key{}, store.ErrNotFound
	}
	if err != nil {
		return store.Key{}, fmt.Errorf("postgres: key by hash: %w", err)
	}
	return k, nil
}

// ListKeys returns every key, oldest first.
func (s *Store) ListKeys(ctx context.Context) ([]store.Key, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, name, plan, prefix, created_at, revoked_at FROM keys
		ORDER BY created_at, id COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("postgres: list keys: %w", err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Key, error) { return scanKey(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: list keys: %w", err)
	}
	return keys, nil
}

// RevokeKey marks the key revoked at at; a revoked key keeps its first
// revocation time. An unknown id is store.ErrNotFound.
func (s *Store) RevokeKey(ctx context.Context, id string, at time.Time) error {
	tag, err := s.pool.Exec(ctx, `UPDATE keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2`, at, id)
	if err != nil {
		return fmt.Errorf("postgres: revoke key %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

// SaveScan stores one scan; a scan whose ID is already stored is skipped,
// so retrying a save is safe.
func (s *Store) SaveScan(ctx context.Context, sc store.Scan) error {
	_, err := s.pool.Exec(ctx, `WITH `+saveBases+` `+insertScans+` ON CONFLICT (id) DO NOTHING`,
		scanColumnsOf([]store.Scan{sc})...)
	if err != nil {
		return fmt.Errorf("postgres: save scan %s: %w", sc.ID, err)
	}
	return nil
}

// reportBytes keeps the NOT NULL column satisfied for an empty report.
func reportBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// SaveScans stores scans in one statement, skipping stored IDs.
func (s *Store) SaveScans(ctx context.Context, scans []store.Scan) error {
	if len(scans) == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, `WITH `+saveBases+` `+insertScans+` ON CONFLICT (id) DO NOTHING`, scanColumnsOf(scans)...)
	if err != nil {
		return fmt.Errorf("postgres: save %d scans: %w", len(scans), err)
	}
	return nil
}

// insertScans inserts the rows of scanColumnsOf's arrays ($1 to $11).
const insertScans = `INSERT INTO scans (` + scanColumns + `)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
		                     $6::float8[], $7::bool[], $8::timestamptz[], $9::bytea[], $10::bytea[], $11::bytea[])`

// saveBases is the common table expression that stores the report bases
// of scanColumnsOf's arrays ($12 and $13), skipping stored ones.
const saveBases = `bases AS (INSERT INTO report_bases (digest, body)
		SELECT * FROM unnest($12::bytea[], $13::bytea[]) ON CONFLICT (digest) DO NOTHING)`

// scanColumnsOf returns scans as one array per column, in scanColumns'
// order, then the digests and bodies of their bases (each once, in order
// of digest, so that two instances' statements inserting the same new
// bases take their locks in one order): a scan with a base keeps an empty
// report, its base's digest and its edits.
func scanColumnsOf(scans []store.Scan) []any {
	var (
		ids, keys, addrs, chains, levels = make([]string, len(scans)), make([]string, len(scans)),
			make([]string, len(scans)), make([]string, len(scans)), make([]string, len(scans))
		scores                = make([]float64, len(scans))
		cached                = make([]bool, len(scans))
		at                    = make([]time.Time, len(scans))
		reports, bases, edits = make([][]byte, len(scans)), make([][]byte, len(scans)), make([][]byte, len(scans))
		uniq                  []*store.Base
	)
	for i, sc := range scans {
		ids[i], keys[i], addrs[i], chains[i], levels[i] = sc.ID, sc.KeyID, sc.Address, sc.Chain, sc.RiskLevel
		scores[i], cached[i], at[i], reports[i] = sc.Score, sc.Cached, sc.ScannedAt, reportBytes(sc.Report)
		if sc.Base == nil {
			continue
		}
		reports[i], bases[i], edits[i] = []byte{}, sc.Base.Digest[:], store.EncodeEdits(sc.Edits)
		if !slices.ContainsFunc(uniq, func(b *store.Base) bool { return b.Digest == sc.Base.Digest }) {
			uniq = append(uniq, sc.Base)
		}
	}
	slices.SortFunc(uniq, func(a, b *store.Base) int { return bytes.Compare(a.Digest[:], b.Digest[:]) })
	digests, bodies := make([][]byte, len(uniq)), make([][]byte, len(uniq))
	for i, b := range uniq {
		digests[i], bodies[i] = b.Digest[:], b.Body
	}
	return []any{ids, keys, addrs, chains, levels, scores, cached, at, reports, bases, edits, digests, bodies}
}

// RecordScans saves scans and applies charges in one statement (one
// round trip, one transaction) and returns each charge's new total.
// Charges must name distinct key and day pairs.
func (s *Store) RecordScans(ctx context.Context, scans []store.Scan, charges []store.Charge) ([]int64, error) {
	keys, days, counts := make([]string, len(charges)), make([]string, len(charges)), make([]int64, len(charges))
	for i, c := range charges {
		if err := store.ParseDay(c.Day); err != nil {
			return nil, err
		}
		keys[i], days[i], counts[i] = c.KeyID, c.Day, c.N
	}
	args := append(scanColumnsOf(scans), keys, days, counts)
	rows, err := s.pool.Query(ctx, `WITH `+saveBases+`, saved AS (`+insertScans+` ON CONFLICT (id) DO NOTHING)
		INSERT INTO usage (key_id, day, count)
		SELECT * FROM unnest($14::text[], $15::text[], $16::bigint[])
		ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + excluded.count
		RETURNING key_id, day, count`, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: record %d scans: %w", len(scans), err)
	}
	defer rows.Close()
	totals := make([]int64, len(charges))
	for rows.Next() {
		var (
			key, day string
			total    int64
		)
		if err := rows.Scan(&key, &day, &total); err != nil {
			return nil, fmt.Errorf("postgres: record %d scans: %w", len(scans), err)
		}
		for i, c := range charges {
			if c.KeyID == key && c.Day == day {
				totals[i] = total
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: record %d scans: %w", len(scans), err)
	}
	return totals, nil
}

// scanScan reads a row of readColumns.
func scanScan(row pgx.Row) (store.Scan, error) {
	var (
		sc               store.Scan
		hasBase          bool
		own, edits, body []byte
	)
	if err := row.Scan(&sc.ID, &sc.KeyID, &sc.Address, &sc.Chain, &sc.RiskLevel, &sc.Score, &sc.Cached,
		&sc.ScannedAt, &own, &hasBase, &edits, &body); err != nil {
		return store.Scan{}, err
	}
	sc.ScannedAt = sc.ScannedAt.UTC()
	report, err := store.RebuildReport(own, body, edits, hasBase)
	if err != nil {
		return store.Scan{}, fmt.Errorf("scan %s: %w", sc.ID, err)
	}
	sc.Report = report
	return sc, nil
}

// FindScan returns the scan scanID if it belongs to keyID, else
// store.ErrNotFound.
func (s *Store) FindScan(ctx context.Context, keyID, scanID string) (store.Scan, error) {
	sc, err := scanScan(s.pool.QueryRow(ctx, `SELECT `+readColumns+` FROM `+readFrom+` WHERE s.id = $1 AND s.key_id = $2`,
		scanID, keyID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Scan{}, store.ErrNotFound
	}
	if err != nil {
		return store.Scan{}, fmt.Errorf("postgres: find scan %s: %w", scanID, err)
	}
	return sc, nil
}

// LatestScan returns the newest scan of address by any key, or
// store.ErrNotFound.
func (s *Store) LatestScan(ctx context.Context, address string) (store.Scan, error) {
	sc, err := scanScan(s.pool.QueryRow(ctx, `SELECT `+readColumns+` FROM `+readFrom+` WHERE s.address = $1
		ORDER BY s.scanned_at DESC, s.id DESC LIMIT 1`, address))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Scan{}, store.ErrNotFound
	}
	if err != nil {
		return store.Scan{}, fmt.Errorf("postgres: latest scan of %s: %w", address, err)
	}
	return sc, nil
}

// readPage is the store.PageReader of PostgreSQL.
func (s *Store) readPage(ctx context.Context, f store.ScanFilter, pos *store.Position, limit int, dst []store.Scan) ([]store.Scan, error) {
	var q strings.Builder
	args := []any{f.KeyID}
	q.WriteString(`SELECT ` + readColumns + ` FROM ` + readFrom + ` WHERE s.key_id = $1`)
	where := func(cond string, vals ...any) {
		for _, v := range vals {
			args = append(args, v)
			cond = strings.Replace(cond, "?", "$"+strconv.Itoa(len(args)), 1)
		}
		q.WriteString(" AND " + cond)
	}
	if f.Chain != "" {
		where("s.chain = ?", f.Chain)
	}
	if f.Level != "" {
		where("s.risk_level = ?", f.Level)
	}
	if !f.From.IsZero() {
		where("s.scanned_at >= ?", f.From)
	}
	if !f.To.IsZero() {
		where("s.scanned_at < ?", f.To)
	}
	if pos != nil {
		where("(s.scanned_at, s.id) < (?, ?)", pos.ScannedAt, pos.ID)
	}
	args = append(args, limit)
	q.WriteString(` ORDER BY s.scanned_at DESC, s.id DESC LIMIT $` + strconv.Itoa(len(args)))

	rows, err := s.pool.Query(ctx, q.String(), args...)
	if err != nil {
		return dst, fmt.Errorf("postgres: find scans: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		sc, err := scanScan(rows)
		if err != nil {
			return dst, fmt.Errorf("postgres: find scans: %w", err)
		}
		dst = append(dst, sc)
	}
	if err := rows.Err(); err != nil {
		return dst, fmt.Errorf("postgres: find scans: %w", err)
	}
	return dst, nil
}

// FindScans returns a page of f's scans, newest first, and the cursor of
// the next page ("" at the end).
func (s *Store) FindScans(ctx context.Context, f store.ScanFilter) ([]store.Scan, string, error) {
	return store.FindPage(ctx, f, s.readPage)
}

// ExportScans streams every scan of f to fn, newest first,
// store.ExportBatch rows at a time. An error from fn stops the export and is returned as is.
func (s *Store) ExportScans(ctx context.Context, f store.ScanFilter, fn func(store.Scan) error) error {
	return store.ExportPages(ctx, f, s.readPage, fn)
}

// AddUsage adds n to the key's counter for day and returns the new total.
func (s *Store) AddUsage(ctx context.Context, keyID, day string, n int64) (int64, error) {
	if err := store.ParseDay(day); err != nil {
		return 0, err
	}
	var total int64
	err := s.pool.QueryRow(ctx, `INSERT INTO usage (key_id, day, count) VALUES ($1, $2, $3)
		ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + excluded.count RETURNING count`,
		keyID, day, n).Scan(&total)
	if err != nil {
		return 0, fmt.Errorf("postgres: add usage: %w", err)
	}
	return total, nil
}

// Usage returns the key's counter for day (0 when nothing was counted).
func (s *Store) Usage(ctx context.Context, keyID, day string) (int64, error) {
	if err := store.ParseDay(day); err != nil {
		return 0, err
	}
	var total int64
	err := s.pool.QueryRow(ctx, `SELECT count FROM usage WHERE key_id = $1 AND day = $2`, keyID, day).Scan(&total)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("postgres: usage: %w", err)
	}
	return total, nil
}
