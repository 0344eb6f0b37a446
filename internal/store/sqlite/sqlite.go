// Package sqlite is the embedded store.Store on one SQLite file (no cgo):
// WAL, one writer connection with prepared statements, a pool of readers.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/tokenrisk/tokenrisk/internal/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configures a Store.
type Options struct {
	// Now is the clock (migration times); nil means time.Now.
	Now func() time.Time
	// BusyTimeout is how long a statement waits for a lock; 0 means 5s.
	BusyTimeout time.Duration
}

// Store is a store.Store on SQLite, safe for concurrent use.
type Store struct {
	write *sql.DB // exactly one connection: SQLite has one writer anyway
	read  *sql.DB
	now   func() time.Time

	insertScan  *sql.Stmt
	insertBase  *sql.Stmt
	addUsage    *sql.Stmt
	keyByHash   *sql.Stmt
	findScans   *sql.Stmt
	findScan    *sql.Stmt
	latestScan  *sql.Stmt
	usage       *sql.Stmt
	revokeKey   *sql.Stmt
	createKey   *sql.Stmt
	related     *sql.Stmt
	recordToken *sql.Stmt
	listKeys    *sql.Stmt
	preparedAll []*sql.Stmt

	// batchInserts holds the statements inserting n rows at once
	// (RecordEntries), prepared on first use: key 2n counts the rows
	// inserted, 2n+1 returns their IDs.
	batchMu      sync.Mutex
	batchInserts map[int]*sql.Stmt
}

var (
	_ store.Store         = (*Store)(nil)
	_ store.BatchSaver    = (*Store)(nil)
	_ store.ScanRecorder  = (*Store)(nil)
	_ store.EntryRecorder = (*Store)(nil)
)

const scanColumns = `id, key_id, address, chain, risk_level, score, cached, scanned_at, report, report_base, report_edits`

// readColumns are what scanScan reads: a row and its report base's body
// (NULL when the row keeps its whole report), from readFrom.
const (
	readColumns = `s.id, s.key_id, s.address, s.chain, s.risk_level, s.score, s.cached, s.scanned_at,
		s.report, s.report_base IS NOT NULL, s.report_edits, b.body`
	readFrom = `scans s LEFT JOIN report_bases b ON b.digest = s.report_base`
)

// Open opens (creating if needed) the database at path and migrates it.
// Path ":memory:" gives a private in-memory database.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: empty database path")
	}
	busy := opts.BusyTimeout
	if busy <= 0 {
		busy = 5 * time.Second
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_txlock", "immediate")
	// Fewer, larger checkpoints: commits rarely wait for one.
	q.Add("_pragma", "wal_autocheckpoint(10000)")
	q.Add("_pragma", "journal_size_limit(67108864)")
	memory := path == ":memory:"
	if !memory {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	dsn := "file:" + path + "?" + q.Encode()

	s := &Store{now: opts.Now}
	if s.now == nil {
		s.now = time.Now
	}
	var err error
	if s.write, err = sql.Open("sqlite", dsn); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	s.write.SetMaxOpenConns(1)
	s.write.SetMaxIdleConns(1)
	s.write.SetConnMaxLifetime(0)
	s.write.SetConnMaxIdleTime(0)
	if memory {
		s.read = s.write // one connection holds the whole database
	} else {
		if s.read, err = sql.Open("sqlite", dsn+"&_pragma=query_only(1)"); err != nil {
			s.write.Close()
			return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
		}
		n := max(4, runtime.GOMAXPROCS(0))
		s.read.SetMaxOpenConns(n)
		s.read.SetMaxIdleConns(n)
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// migrate applies the embedded migrations not yet applied, each in its own
// transaction.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT`); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	slices.Sort(names)
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("sqlite: migration %s has no numeric version: %w", base, err)
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return fmt.Errorf("sqlite: migrate: %w", err)
		}
		if err := s.apply(ctx, version, string(body)); err != nil {
			return fmt.Errorf("sqlite: migration %s: %w", base, err)
		}
	}
	return nil
}

func (s *Store) apply(ctx context.Context, version int, body string) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`,
		version, s.now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Store) prepare(ctx context.Context) error {
	stmts := []struct {
		dst **sql.Stmt
		db  *sql.DB
		sql string
	}{
		{&s.insertScan, s.write, `INSERT INTO scans (` + scanColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`},
		{&s.insertBase, s.write, `INSERT INTO report_bases (digest, body) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING`},
		{&s.addUsage, s.write, `INSERT INTO usage (key_id, day, count) VALUES (?, ?, ?)
			ON CONFLICT (key_id, day) DO UPDATE SET count = count + excluded.count RETURNING count`},
		{&s.createKey, s.write, `INSERT INTO keys (id, name, plan, prefix, secret_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)`},
		{&s.revokeKey, s.write, `UPDATE keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`},
		{&s.keyByHash, s.read, `SELECT id, name, plan, prefix, created_at, revoked_at FROM keys WHERE secret_hash = ?`},
		{&s.listKeys, s.read, `SELECT id, name, plan, prefix, created_at, revoked_at FROM keys ORDER BY created_at, id`},
		{&s.usage, s.read, `SELECT count FROM usage WHERE key_id = ? AND day = ?`},
		{&s.findScan, s.read, `SELECT ` + readColumns + ` FROM ` + readFrom + ` WHERE s.id = ? AND s.key_id = ?`},
		{&s.latestScan, s.read, `SELECT ` + readColumns + ` FROM ` + readFrom + ` WHERE s.address = ?
			ORDER BY s.scanned_at DESC, s.id DESC LIMIT 1`},
		{&s.findScans, s.read, `SELECT ` + readColumns + ` FROM ` + readFrom + `
			WHERE s.key_id = ?1 AND (?2 = '' OR s.chain = ?2) AND (?3 = '' OR s.risk_level = ?3)
			  AND s.scanned_at >= ?4 AND s.scanned_at < ?5 AND (s.scanned_at, s.id) < (?6, ?7)
			ORDER BY s.scanned_at DESC, s.id DESC LIMIT ?8`},
		{&s.related, s.read, relatedQuery},
		{&s.recordToken, s.write, recordTokenQuery},
	}
	for _, st := range stmts {
		p, err := st.db.PrepareContext(ctx, st.sql)
		if err != nil {
			return fmt.Errorf("sqlite: prepare %.40q: %w", st.sql, err)
		}
		*st.dst = p
		s.preparedAll = append(s.preparedAll, p)
	}
	return nil
}

// Close closes the statements and both connection pools.
func (s *Store) Close() error {
	var errs []error
	for _, p := range s.preparedAll {
		errs = append(errs, p.Close())
	}
	s.batchMu.Lock()
	for _, p := range s.batchInserts {
		errs = append(errs, p.Close())
	}
	s.batchMu.Unlock()
	if s.read != nil && s.read != s.write {
		errs = append(errs, s.read.Close())
	}
	if s.write != nil {
		errs = append(errs, s.write.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// Ping checks that the database answers a query.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.read.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// CreateKey stores k with the hash of its secret.
func (s *Store) CreateKey(ctx context.Context, k store.Key, secretHash []byte) error {
	if _, err := s.createKey.ExecContext(ctx, k.ID, k.Name, k.Plan, k.Prefix, secretHash, k.CreatedAt.UnixMicro()); err != nil {
		return fmt.Errorf("sqlite: create key %s: %w", k.ID, err)
	}
	return nil
}

type scanner interface{ Scan(dest ...any) error }

func scanKey(row scanner) (store.Key, error) {
	var (
		k       store.Key
		created int64
		revoked sql.NullInt64
	)
	if err := row.Scan(&k.ID, &k.Name, &k.Plan, &k.Prefix, &created, &revoked); err != nil {
		return store.Key{}, err
	}
	k.CreatedAt = time.UnixMicro(created).UTC()
	if revoked.Valid {
		t := time.UnixMicro(revoked.Int64).UTC()
		k.RevokedAt = &t
	}
	return k, nil
}

// KeyByHash finds a key by its secret's hash, revoked or not.
func (s *Store) KeyByHash(ctx context.Context, secretHash []byte) (store.Key, error) {
	k, err := scanKey(s.keyByHash.QueryRowContext(ctx, secretHash))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Key{}, store.ErrNotFound
	}
	if err != nil {
		return store.Key{}, fmt.Errorf("sqlite: key by hash: %w", err)
	}
	return k, nil
}

// ListKeys returns every key, oldest first.
func (s *Store) ListKeys(ctx context.Context) ([]store.Key, error) {
	rows, err := s.listKeys.QueryContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list keys: %w", err)
	}
	defer rows.Close()
	var keys []store.Key
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: list keys: %w", err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list keys: %w", err)
	}
	return keys, nil
}

// RevokeKey marks the key revoked at at; a revoked key keeps its first
// revocation time. An unknown id is store.ErrNotFound.
func (s *Store) RevokeKey(ctx context.Context, id string, at time.Time) error {
	res, err := s.revokeKey.ExecContext(ctx, at.UnixMicro(), id)
	if err != nil {
		return fmt.Errorf("sqlite: revoke key %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: revoke key %s: %w", id, err)
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// scanArgs are sc's values in scanColumns' order: a scan with a base
// keeps an empty report, its base's digest and its edits.
func scanArgs(sc store.Scan) []any {
	report, base, edits := sc.Report, []byte(nil), []byte(nil)
	if sc.Base != nil {
		report, base, edits = []byte{}, sc.Base.Digest[:], store.EncodeEdits(sc.Edits)
	}
	return []any{sc.ID, sc.KeyID, sc.Address, sc.Chain, sc.RiskLevel, sc.Score, sc.Cached,
		sc.ScannedAt.UnixMicro(), report, base, edits}
}

// insertScans inserts scans in tx, each base they use once, skipping
// stored IDs and stored bases.
func (s *Store) insertScans(ctx context.Context, tx *sql.Tx, scans []store.Scan) error {
	if err := s.insertBases(ctx, tx, scans); err != nil {
		return err
	}
	ins := tx.StmtContext(ctx, s.insertScan)
	for _, sc := range scans {
		if _, err := ins.ExecContext(ctx, scanArgs(sc)...); err != nil {
			return fmt.Errorf("sqlite: save scan %s: %w", sc.ID, err)
		}
	}
	return nil
}

// insertBases inserts the report bases scans use, each once, skipping
// stored ones.
func (s *Store) insertBases(ctx context.Context, tx *sql.Tx, scans []store.Scan) error {
	var bases *sql.Stmt
	var seen [][32]byte
	for _, sc := range scans {
		if sc.Base == nil || slices.Contains(seen, sc.Base.Digest) {
			continue
		}
		seen = append(seen, sc.Base.Digest)
		if bases == nil {
			bases = tx.StmtContext(ctx, s.insertBase)
		}
		if _, err := bases.ExecContext(ctx, sc.Base.Digest[:], sc.Base.Body); err != nil {
			return fmt.Errorf("sqlite: save report base of %s: %w", sc.ID, err)
		}
	}
	return nil
}

// SaveScan stores one scan; a scan whose ID is already stored is skipped,
// so retrying a save is safe.
func (s *Store) SaveScan(ctx context.Context, sc store.Scan) error {
	if sc.Base != nil {
		// The base and the row: one transaction.
		return s.SaveScans(ctx, []store.Scan{sc})
	}
	if _, err := s.insertScan.ExecContext(ctx, scanArgs(sc)...); err != nil {
		return fmt.Errorf("sqlite: save scan %s: %w", sc.ID, err)
	}
	return nil
}

// SaveScans stores scans in one transaction, skipping stored IDs.
func (s *Store) SaveScans(ctx context.Context, scans []store.Scan) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: save scans: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if err := s.insertScans(ctx, tx, scans); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: save scans: %w", err)
	}
	return nil
}

// RecordScans saves scans and applies charges in one transaction and
// returns each charge's new total.
func (s *Store) RecordScans(ctx context.Context, scans []store.Scan, charges []store.Charge) ([]int64, error) {
	for _, c := range charges {
		if err := store.ParseDay(c.Day); err != nil {
			return nil, err
		}
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: record scans: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if len(scans) > 0 {
		if err := s.insertScans(ctx, tx, scans); err != nil {
			return nil, err
		}
	}
	totals := make([]int64, len(charges))
	if len(charges) > 0 {
		add := tx.StmtContext(ctx, s.addUsage)
		for i, c := range charges {
			if err := add.QueryRowContext(ctx, c.KeyID, c.Day, c.N).Scan(&totals[i]); err != nil {
				return nil, fmt.Errorf("sqlite: add usage: %w", err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: record scans: %w", err)
	}
	return totals, nil
}

// maxRowsPerInsert bounds the rows of one INSERT statement
// (RecordEntries): 64 rows of 11 columns stay far below SQLite's bound on
// parameters, and a statement per row costs several times more.
const maxRowsPerInsert = 64

// RecordEntries saves each entry's scan unless its ID is stored, each
// report base once, and charges one scan to an entry's key on its day
// only when this call saved its scan, in one transaction (see
// store.EntryRecorder). Rows go in statements of up to maxRowsPerInsert.
//
// Entries are nearly always new (a journal drains each once; only a
// replay after a crash meets rows already stored), so the transaction
// first counts the rows each statement inserted; only when a statement
// skipped one is it rolled back and written again with statements that
// return the IDs they inserted (which costs more per row).
func (s *Store) RecordEntries(ctx context.Context, entries []store.Entry) error {
	for _, e := range entries {
		if e.Day != "" {
			if err := store.ParseDay(e.Day); err != nil {
				return err
			}
		}
	}
	all, err := s.recordEntries(ctx, entries, false)
	if err != nil || all {
		return err
	}
	_, err = s.recordEntries(ctx, entries, true)
	return err
}

// recordEntries is RecordEntries with statements that return the IDs
// they inserted (returning) or count them; counting, it gives up (false,
// nothing written) when a row was already stored.
func (s *Store) recordEntries(ctx context.Context, entries []store.Entry, returning bool) (bool, error) {
	// The statements are prepared before the transaction takes the one
	// write connection.
	var stmts []*sql.Stmt
	for from := 0; from < len(entries); from += maxRowsPerInsert {
		st, err := s.batchInsert(ctx, min(maxRowsPerInsert, len(entries)-from), returning)
		if err != nil {
			return false, err
		}
		stmts = append(stmts, st)
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("sqlite: record entries: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	scans := make([]store.Scan, len(entries))
	for i, e := range entries {
		scans[i] = e.Scan
	}
	if err := s.insertBases(ctx, tx, scans); err != nil {
		return false, err
	}
	var saved map[string]bool // nil: every row
	if returning {
		saved = make(map[string]bool, len(entries))
	}
	for i, st := range stmts {
		from := i * maxRowsPerInsert
		chunk := scans[from:min(from+maxRowsPerInsert, len(scans))]
		all, err := s.insertRows(ctx, tx, st, chunk, saved)
		if err != nil {
			return false, err
		}
		if !all && !returning {
			return false, nil
		}
	}
	var charges []store.Charge
	for _, e := range entries {
		if e.Day != "" && (saved == nil || saved[e.Scan.ID]) {
			charges = store.AddCharge(charges, e.Scan.KeyID, e.Day)
		}
	}
	if len(charges) > 0 {
		add := tx.StmtContext(ctx, s.addUsage)
		for _, c := range charges {
			var total int64
			if err := add.QueryRowContext(ctx, c.KeyID, c.Day, c.N).Scan(&total); err != nil {
				return false, fmt.Errorf("sqlite: add usage: %w", err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("sqlite: record entries: %w", err)
	}
	return true, nil
}

// insertRows inserts scans with stmt (from batchInsert), skipping stored
// IDs. With saved (a returning statement) it marks there the IDs it
// inserted; without, it reports whether it inserted every row.
func (s *Store) insertRows(ctx context.Context, tx *sql.Tx, stmt *sql.Stmt, scans []store.Scan, saved map[string]bool) (bool, error) {
	args := make([]any, 0, len(scans)*11)
	for _, sc := range scans {
		args = append(args, scanArgs(sc)...)
	}
	fail := func(err error) (bool, error) {
		return false, fmt.Errorf("sqlite: save %d scans from %s: %w", len(scans), scans[0].ID, err)
	}
	if saved == nil {
		res, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, args...)
		if err != nil {
			return fail(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fail(err)
		}
		return n == int64(len(scans)), nil
	}
	rows, err := tx.StmtContext(ctx, stmt).QueryContext(ctx, args...)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return fail(err)
		}
		saved[id] = true
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	return true, nil
}

// batchInsert returns the statement inserting n rows (returning the IDs
// it inserted, or not), preparing it on first use.
func (s *Store) batchInsert(ctx context.Context, n int, returning bool) (*sql.Stmt, error) {
	key := 2 * n
	if returning {
		key++
	}
	s.batchMu.Lock()
	defer s.batchMu.Unlock()
	if st, ok := s.batchInserts[key]; ok {
		return st, nil
	}
	row := "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	q := `INSERT INTO scans (` + scanColumns + `) VALUES ` + row + strings.Repeat(", "+row, n-1) +
		` ON CONFLICT (id) DO NOTHING`
	if returning {
		q += ` RETURNING id`
	}
	st, err := s.write.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("sqlite: prepare insert of %d scans: %w", n, err)
	}
	if s.batchInserts == nil {
		s.batchInserts = map[int]*sql.Stmt{}
	}
	s.batchInserts[key] = st
	return st, nil
}

// scanScan reads a row of readColumns.
func scanScan(row scanner) (store.Scan, error) {
	var (
		sc               store.Scan
		at               int64
		hasBase          bool
		own, edits, body []byte
	)
	if err := row.Scan(&sc.ID, &sc.KeyID, &sc.Address, &sc.Chain, &sc.RiskLevel, &sc.Score, &sc.Cached, &at,
		&own, &hasBase, &edits, &body); err != nil {
		return store.Scan{}, err
	}
	sc.ScannedAt = time.UnixMicro(at).UTC()
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
	sc, err := scanScan(s.findScan.QueryRowContext(ctx, scanID, keyID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Scan{}, store.ErrNotFound
	}
	if err != nil {
		return store.Scan{}, fmt.Errorf("sqlite: find scan %s: %w", scanID, err)
	}
	return sc, nil
}

// LatestScan returns the newest scan of address by any key, or
// store.ErrNotFound.
func (s *Store) LatestScan(ctx context.Context, address string) (store.Scan, error) {
	sc, err := scanScan(s.latestScan.QueryRowContext(ctx, address))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Scan{}, store.ErrNotFound
	}
	if err != nil {
		return store.Scan{}, fmt.Errorf("sqlite: latest scan of %s: %w", address, err)
	}
	return sc, nil
}

// readPage is the store.PageReader of SQLite.
func (s *Store) readPage(ctx context.Context, f store.ScanFilter, after *store.Position, limit int, dst []store.Scan) ([]store.Scan, error) {
	pos := store.Position{ScannedAt: time.UnixMicro(math.MaxInt64)}
	if after != nil {
		pos = *after
	}
	from, to := int64(math.MinInt64), int64(math.MaxInt64)
	if !f.From.IsZero() {
		from = f.From.UnixMicro()
	}
	if !f.To.IsZero() {
		to = f.To.UnixMicro()
	}
	rows, err := s.findScans.QueryContext(ctx, f.KeyID, f.Chain, f.Level, from, to,
		pos.ScannedAt.UnixMicro(), pos.ID, limit)
	if err != nil {
		return dst, fmt.Errorf("sqlite: find scans: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		sc, err := scanScan(rows)
		if err != nil {
			return dst, fmt.Errorf("sqlite: find scans: %w", err)
		}
		dst = append(dst, sc)
	}
	if err := rows.Err(); err != nil {
		return dst, fmt.Errorf("sqlite: find scans: %w", err)
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
	if err := s.addUsage.QueryRowContext(ctx, keyID, day, n).Scan(&total); err != nil {
		return 0, fmt.Errorf("sqlite: add usage: %w", err)
	}
	return total, nil
}

// Usage returns the key's counter for day (0 when nothing was counted).
func (s *Store) Usage(ctx context.Context, keyID, day string) (int64, error) {
	if err := store.ParseDay(day); err != nil {
		return 0, err
	}
	var total int64
	err := s.usage.QueryRowContext(ctx, keyID, day).Scan(&total)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: usage: %w", err)
	}
	return total, nil
}
