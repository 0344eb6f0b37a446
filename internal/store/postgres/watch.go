package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

var _ store.Watchlist = (*Store)(nil)

const watchColumns = `id, key_id, address, chain, created_at, baseline_scan_id, baseline_level, baseline_score`

func scanWatch(r pgx.Row) (store.Watch, error) {
	var w store.Watch
	err := r.Scan(&w.ID, &w.KeyID, &w.Address, &w.Chain, &w.CreatedAt, &w.BaselineScanID, &w.BaselineLevel, &w.BaselineScore)
	if errors.Is(err, pgx.ErrNoRows) {
		return w, store.ErrNotFound
	}
	w.CreatedAt = w.CreatedAt.UTC()
	return w, err
}

// CreateWatch implements store.Watchlist. A transaction-scoped advisory
// lock on the key makes the count and the insert atomic across instances.
func (s *Store) CreateWatch(ctx context.Context, w store.Watch, limit int) (got store.Watch, created bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('tokenrisk.watch.' || $1))`, w.KeyID); err != nil {
			return err
		}
		existing, err := scanWatch(tx.QueryRow(ctx, `SELECT `+watchColumns+` FROM watches WHERE key_id = $1 AND address = $2`,
			w.KeyID, w.Address))
		switch {
		case err == nil:
			got = existing
			return nil
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM watches WHERE key_id = $1`, w.KeyID).Scan(&n); err != nil {
			return err
		}
		if n >= limit {
			return store.ErrWatchLimit
		}
		w.CreatedAt = w.CreatedAt.UTC().Truncate(time.Microsecond)
		if _, err := tx.Exec(ctx, `INSERT INTO watches (`+watchColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			w.ID, w.KeyID, w.Address, w.Chain, w.CreatedAt, w.BaselineScanID, w.BaselineLevel, w.BaselineScore); err != nil {
			return err
		}
		got, created = w, true
		return nil
	})
	if errors.Is(err, store.ErrWatchLimit) {
		return store.Watch{}, false, err
	}
	if err != nil {
		return store.Watch{}, false, fmt.Errorf("postgres: create watch: %w", err)
	}
	return got, created, nil
}

func (s *Store) queryWatches(ctx context.Context, query string, arg any) ([]store.Watch, error) {
	rows, err := s.pool.Query(ctx, query, arg)
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
	ws, err := s.queryWatches(ctx, `SELECT `+watchColumns+` FROM watches WHERE key_id = $1 ORDER BY created_at, id`, keyID)
	if err != nil {
		return nil, fmt.Errorf("postgres: list watches: %w", err)
	}
	return ws, nil
}

// WatchesOn implements store.Watchlist.
func (s *Store) WatchesOn(ctx context.Context, chain string) ([]store.Watch, error) {
	ws, err := s.queryWatches(ctx, `SELECT `+watchColumns+` FROM watches WHERE chain = $1 ORDER BY created_at, id`, chain)
	if err != nil {
		return nil, fmt.Errorf("postgres: watches on %s: %w", chain, err)
	}
	return ws, nil
}

// DeleteWatch implements store.Watchlist.
func (s *Store) DeleteWatch(ctx context.Context, keyID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM watches WHERE id = $1 AND key_id = $2`, id, keyID)
	if err != nil {
		return fmt.Errorf("postgres: delete watch: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

// WatchedChains implements store.Watchlist.
func (s *Store) WatchedChains(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT chain FROM watches ORDER BY chain`)
	if err != nil {
		return nil, fmt.Errorf("postgres: watched chains: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("postgres: watched chains: %w", err)
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// WatchedTokens implements store.Watchlist.
func (s *Store) WatchedTokens(ctx context.Context, chain string) ([]store.WatchedToken, error) {
	rows, err := s.pool.Query(ctx, `SELECT chain, address, scan_id, pool, quote_reserve, scanned_at
		FROM watched_tokens WHERE chain = $1 ORDER BY address`, chain)
	if err != nil {
		return nil, fmt.Errorf("postgres: watched tokens: %w", err)
	}
	defer rows.Close()
	out := []store.WatchedToken{}
	for rows.Next() {
		var t store.WatchedToken
		if err := rows.Scan(&t.Chain, &t.Address, &t.ScanID, &t.Pool, &t.QuoteReserve, &t.ScannedAt); err != nil {
			return nil, fmt.Errorf("postgres: watched tokens: %w", err)
		}
		t.ScannedAt = t.ScannedAt.UTC()
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: watched tokens: %w", err)
	}
	return out, nil
}

// WatchedReport implements store.Watchlist.
func (s *Store) WatchedReport(ctx context.Context, chain, address string) ([]byte, error) {
	var report []byte
	err := s.pool.QueryRow(ctx, `SELECT report FROM watched_tokens WHERE chain = $1 AND address = $2`, chain, address).Scan(&report)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: watched report: %w", err)
	}
	return report, nil
}

// SaveWatchedToken implements store.Watchlist.
func (s *Store) SaveWatchedToken(ctx context.Context, t store.WatchedToken) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO watched_tokens (chain, address, scan_id, report, pool, quote_reserve, scanned_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (chain, address) DO UPDATE SET scan_id = excluded.scan_id, report = excluded.report,
			pool = excluded.pool, quote_reserve = excluded.quote_reserve, scanned_at = excluded.scanned_at`,
		t.Chain, t.Address, t.ScanID, t.Report, t.Pool, t.QuoteReserve, t.ScannedAt.UTC())
	if err != nil {
		return fmt.Errorf("postgres: save watched token: %w", err)
	}
	return nil
}

// LeaseWatch implements store.Watchlist: one upsert decides atomically who
// holds the chain.
func (s *Store) LeaseWatch(ctx context.Context, chain, owner string, now, until time.Time) (bool, uint64, error) {
	var holder string
	var cursor int64
	err := s.pool.QueryRow(ctx, `INSERT INTO watch_leases (chain, owner, lease_until, cursor) VALUES ($1, $2, $3, 0)
		ON CONFLICT (chain) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
			WHERE watch_leases.owner = excluded.owner OR watch_leases.lease_until <= $4
		RETURNING owner, cursor`, chain, owner, until.UTC(), now.UTC()).Scan(&holder, &cursor)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("postgres: lease watch %s: %w", chain, err)
	}
	return holder == owner, uint64(cursor), nil
}

// AdvanceWatch implements store.Watchlist.
func (s *Store) AdvanceWatch(ctx context.Context, chain, owner string, now time.Time, cursor uint64) error {
	tag, err := s.pool.Exec(ctx, `UPDATE watch_leases SET cursor = $1 WHERE chain = $2 AND owner = $3 AND lease_until > $4`,
		int64(cursor), chain, owner, now.UTC())
	if err != nil {
		return fmt.Errorf("postgres: advance watch %s: %w", chain, err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrLeaseLost
	}
	return nil
}

// ReleaseWatch implements store.Watchlist.
func (s *Store) ReleaseWatch(ctx context.Context, chain, owner string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE watch_leases SET lease_until = 'epoch' WHERE chain = $1 AND owner = $2`, chain, owner); err != nil {
		return fmt.Errorf("postgres: release watch %s: %w", chain, err)
	}
	return nil
}
