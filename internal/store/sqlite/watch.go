package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

var _ store.Watchlist = (*Store)(nil)

const watchColumns = `id, key_id, address, chain, created_at, baseline_scan_id, baseline_level, baseline_score`

// CreateWatch implements store.Watchlist. The one writer connection makes
// the count and the insert atomic.
func (s *Store) CreateWatch(ctx context.Context, w store.Watch, limit int) (store.Watch, bool, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return store.Watch{}, false, fmt.Errorf("sqlite: create watch: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	existing, err := scanWatch(tx.QueryRowContext(ctx, `SELECT `+watchColumns+` FROM watches WHERE key_id = ? AND address = ?`,
		w.KeyID, w.Address))
	switch {
	case err == nil:
		return existing, false, nil
	case !errors.Is(err, store.ErrNotFound):
		return store.Watch{}, false, fmt.Errorf("sqlite: create watch: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM watches WHERE key_id = ?`, w.KeyID).Scan(&n); err != nil {
		return store.Watch{}, false, fmt.Errorf("sqlite: create watch: %w", err)
	}
	if n >= limit {
		return store.Watch{}, false, store.ErrWatchLimit
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO watches (`+watchColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		w.ID, w.KeyID, w.Address, w.Chain, w.CreatedAt.UnixMicro(), w.BaselineScanID, w.BaselineLevel, w.BaselineScore); err != nil {
		return store.Watch{}, false, fmt.Errorf("sqlite: create watch: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return store.Watch{}, false, fmt.Errorf("sqlite: create watch: %w", err)
	}
	w.CreatedAt = time.UnixMicro(w.CreatedAt.UnixMicro()).UTC()
	return w, true, nil
}

type rowScanner interface{ Scan(dst ...any) error }

func scanWatch(r rowScanner) (store.Watch, error) {
	var w store.Watch
	var created int64
	err := r.Scan(&w.ID, &w.KeyID, &w.Address, &w.Chain, &created, &w.BaselineScanID, &w.BaselineLevel, &w.BaselineScore)
	if errors.Is(err, sql.ErrNoRows) {
		return w, store.ErrNotFound
	}
	w.CreatedAt = time.UnixMicro(created).UTC()
	return w, err
}

func (s *Store) queryWatches(ctx context.Context, query string, arg any) ([]store.Watch, error) {
	rows, err := s.read.QueryContext(ctx, query, arg)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []store.Watch{}
	for rows.Next() {
		w, err := scanWatch(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// ListWatches implements store.Watchlist.
func (s *Store) ListWatches(ctx context.Context, keyID string) ([]store.Watch, error) {
	ws, err := s.queryWatches(ctx, `SELECT `+watchColumns+` FROM watches WHERE key_id = ? ORDER BY created_at, id`, keyID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list watches: %w", err)
	}
	return ws, nil
}

// WatchesOn implements store.Watchlist.
func (s *Store) WatchesOn(ctx context.Context, chain string) ([]store.Watch, error) {
	ws, err := s.queryWatches(ctx, `SELECT `+watchColumns+` FROM watches WHERE chain = ? ORDER BY created_at, id`, chain)
	if err != nil {
		return nil, fmt.Errorf("sqlite: watches on %s: %w", chain, err)
	}
	return ws, nil
}

// DeleteWatch implements store.Watchlist.
func (s *Store) DeleteWatch(ctx context.Context, keyID, id string) error {
	res, err := s.write.ExecContext(ctx, `DELETE FROM watches WHERE id = ? AND key_id = ?`, id, keyID)
	if err != nil {
		return fmt.Errorf("sqlite: delete watch: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: delete watch: %w", err)
	} else if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// WatchedChains implements store.Watchlist.
func (s *Store) WatchedChains(ctx context.Context) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT DISTINCT chain FROM watches ORDER BY chain`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: watched chains: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("sqlite: watched chains: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// WatchedTokens implements store.Watchlist.
func (s *Store) WatchedTokens(ctx context.Context, chain string) ([]store.WatchedToken, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT chain, address, scan_id, pool, quote_reserve, scanned_at
		FROM watched_tokens WHERE chain = ? ORDER BY address`, chain)
	if err != nil {
		return nil, fmt.Errorf("sqlite: watched tokens: %w", err)
	}
	defer rows.Close()
	out := []store.WatchedToken{}
	for rows.Next() {
		var t store.WatchedToken
		var at int64
		if err := rows.Scan(&t.Chain, &t.Address, &t.ScanID, &t.Pool, &t.QuoteReserve, &at); err != nil {
			return nil, fmt.Errorf("sqlite: watched tokens: %w", err)
		}
		t.ScannedAt = time.UnixMicro(at).UTC()
		out = append(out, t)
	}
	return out, rows.Err()
}

// WatchedReport implements store.Watchlist.
func (s *Store) WatchedReport(ctx context.Context, chain, address string) ([]byte, error) {
	var report []byte
	err := s.read.QueryRowContext(ctx, `SELECT report FROM watched_tokens WHERE chain = ? AND address = ?`, chain, address).Scan(&report)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: watched report: %w", err)
	}
	return report, nil
}

// SaveWatchedToken implements store.Watchlist.
func (s *Store) SaveWatchedToken(ctx context.Context, t store.WatchedToken) error {
	_, err := s.write.ExecContext(ctx, `INSERT INTO watched_tokens (chain, address, scan_id, report, pool, quote_reserve, scanned_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (chain, address) DO UPDATE SET scan_id = excluded.scan_id, report = excluded.report,
			pool = excluded.pool, quote_reserve = excluded.quote_reserve, scanned_at = excluded.scanned_at`,
		t.Chain, t.Address, t.ScanID, t.Report, t.Pool, t.QuoteReserve, t.ScannedAt.UnixMicro())
	if err != nil {
		return fmt.Errorf("sqlite: save watched token: %w", err)
	}
	return nil
}

// LeaseWatch implements store.Watchlist.
func (s *Store) LeaseWatch(ctx context.Context, chain, owner string, now, until time.Time) (bool, uint64, error) {
	var holder string
	var cursor int64
	err := s.write.QueryRowContext(ctx, `INSERT INTO watch_leases (chain, owner, lease_until, cursor) VALUES (?, ?, ?, 0)
		ON CONFLICT (chain) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
			WHERE watch_leases.owner = excluded.owner OR watch_leases.lease_until <= ?
		RETURNING owner, cursor`, chain, owner, until.UnixMicro(), now.UnixMicro()).Scan(&holder, &cursor)
	if errors.Is(err, sql.ErrNoRows) {
		return false, 0, nil // held by another instance
	}
	if err != nil {
		return false, 0, fmt.Errorf("sqlite: lease watch %s: %w", chain, err)
	}
	return holder == owner, uint64(cursor), nil
}

// AdvanceWatch implements store.Watchlist.
func (s *Store) AdvanceWatch(ctx context.Context, chain, owner string, now time.Time, cursor uint64) error {
	res, err := s.write.ExecContext(ctx, `UPDATE watch_leases SET cursor = ? WHERE chain = ? AND owner = ? AND lease_until > ?`,
		int64(cursor), chain, owner, now.UnixMicro())
	if err != nil {
		return fmt.Errorf("sqlite: advance watch %s: %w", chain, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite: advance watch %s: %w", chain, err)
	} else if n == 0 {
		return store.ErrLeaseLost
	}
	return nil
}

// ReleaseWatch implements store.Watchlist.
func (s *Store) ReleaseWatch(ctx context.Context, chain, owner string) error {
	if _, err := s.write.ExecContext(ctx, `UPDATE watch_leases SET lease_until = 0 WHERE chain = ? AND owner = ?`, chain, owner); err != nil {
		return fmt.Errorf("sqlite: release watch %s: %w", chain, err)
	}
	return nil
}
