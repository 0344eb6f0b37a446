package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

var _ store.Reputation = (*Store)(nil)

// RecordToken implements store.Reputation: in one transaction, the row
// is locked (FOR UPDATE) and its harm read before it is replaced, so
// instances recording one token at once see each other's harm. A row
// another transaction inserted between the read and the insert is read
// again, locked.
func (s *Store) RecordToken(ctx context.Context, t store.Token) (store.Recorded, error) {
	args := []any{t.Chain, t.Address, t.Creator, t.Code, t.ScanID, t.Level, t.Harm, strings.Join(t.Flags, ","), t.ScannedAt.UTC(), t.PoolCreator, t.Dispatcher}
	for attempt := 1; ; attempt++ {
		var rec store.Recorded
		raced := false
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			err := tx.QueryRow(ctx, `SELECT harm FROM tokens WHERE chain = $1 AND address = $2 FOR UPDATE`, t.Chain, t.Address).Scan(&rec.PreviousHarm)
			if errors.Is(err, pgx.ErrNoRows) {
				tag, err := tx.Exec(ctx, `INSERT INTO tokens (chain, address, creator, code, scan_id, level, harm, flags, scanned_at, pool_creator, dispatcher)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (chain, address) DO NOTHING`, args...)
				raced = err == nil && tag.RowsAffected() == 0
				rec.Kept = err == nil && !raced
				return err
			}
			if err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, `UPDATE tokens SET creator = $3, code = $4, scan_id = $5, level = $6, harm = $7, flags = $8, scanned_at = $9,
    pool_creator = $10, dispatcher = $11
WHERE chain = $1 AND address = $2 AND scanned_at <= $9`, args...)
			rec.Kept = err == nil && tag.RowsAffected() == 1
			return err
		})
		if err != nil {
			return store.Recorded{}, fmt.Errorf("postgres: record token: %w", err)
		}
		if !raced {
			return rec, nil
		}
		if attempt == 3 {
			return store.Recorded{}, fmt.Errorf("postgres: record token %s: the row kept vanishing", t.Address)
		}
	}
}

// relatedQuery reads, in one statement, a creator's tokens by three keys
// (the same creator; tokens whose pool the creator made; tokens whose
// creator made this token's pool) and a code's twins, each branch
// walking its index backwards (proven harms, then the newest) and
// stopping at the limit; the tally's rows count all the code's twins
// (up to store.TwinTallyCap) by harm and critical level (n), and the
// dispatcher's row the tokens with the same selector set and other code
// (two ranges of the index's own columns, below and above the code,
// each up to store.DispatcherTallyCap: a template's own twins are never
// walked; the token's own row, when its code was another, taken off by
// its key). $1 chain, $2 address, $3
// creator, $4 code, $5 limit, $6 pool creator, $7 tally cap, $8
// dispatcher, $9 dispatcher cap.
const relatedQuery = `(SELECT 'creator', $3::text, false, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1::bigint
  FROM tokens WHERE chain = $1 AND creator = $3 AND $3 <> '' AND creator <> '' AND address <> $2
  ORDER BY harm DESC, scanned_at DESC LIMIT $5)
UNION ALL
(SELECT 'creator', $3::text, true, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1::bigint
  FROM tokens WHERE chain = $1 AND pool_creator = $3 AND $3 <> '' AND pool_creator <> '' AND address <> $2
  ORDER BY harm DESC, scanned_at DESC LIMIT $5)
UNION ALL
(SELECT 'creator', $6::text, true, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1::bigint
  FROM tokens WHERE chain = $1 AND creator = $6 AND $6 <> '' AND creator <> '' AND address <> $2
  ORDER BY harm DESC, scanned_at DESC LIMIT $5)
UNION ALL
(SELECT 'code', ''::text, false, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1::bigint
  FROM tokens WHERE code = $4 AND $4 <> '' AND code <> '' AND NOT (chain = $1 AND address = $2)
  ORDER BY harm DESC, scanned_at DESC LIMIT $5)
UNION ALL
(SELECT 'tally', ''::text, false, '', '', '', '', '', '', critical, harm, '', to_timestamp(0), count(*) FROM (SELECT harm, CASE WHEN level = 'critical' THEN level ELSE '' END AS critical
  FROM tokens WHERE code = $4 AND $4 <> '' AND code <> '' AND NOT (chain = $1 AND address = $2)
  ORDER BY harm DESC, scanned_at DESC LIMIT $7) twins
GROUP BY harm, critical)
UNION ALL
(SELECT 'dispatcher', ''::text, false, '', '', '', '', '', '', '', '', '', to_timestamp(0),
  (SELECT count(*) FROM (SELECT 1 FROM tokens WHERE dispatcher = $8 AND dispatcher <> '' AND code < $4 LIMIT $9) below) +
  (SELECT count(*) FROM (SELECT 1 FROM tokens WHERE dispatcher = $8 AND dispatcher <> '' AND code > $4 LIMIT $9) above) -
  (SELECT count(*) FROM tokens WHERE chain = $1 AND address = $2 AND dispatcher = $8 AND code <> $4)
  WHERE $8 <> '')`

// RelatedTokens implements store.Reputation.
func (s *Store) RelatedTokens(ctx context.Context, q store.RelatedQuery) (store.Related, error) {
	var out store.Related
	if q.Creator == "" && q.PoolCreator == "" && q.Code == "" && q.Dispatcher == "" {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, relatedQuery, q.Chain, q.Address, q.Creator, q.Code, q.Limit, q.PoolCreator, store.TwinTallyCap, q.Dispatcher, store.DispatcherTallyCap)
	if err != nil {
		return out, fmt.Errorf("postgres: related tokens: %w", err)
	}
	defer rows.Close()
	var byCreator []store.Token
	for rows.Next() {
		var (
			by, flags string
			at        time.Time
			n         int64
			t         store.Token
		)
		if err := rows.Scan(&by, &t.Via, &t.ViaPool, &t.Chain, &t.Address, &t.Creator, &t.PoolCreator, &t.Code, &t.ScanID, &t.Level, &t.Harm, &flags, &at, &n); err != nil {
			return out, fmt.Errorf("postgres: related tokens: %w", err)
		}
		if flags != "" {
			t.Flags = strings.Split(flags, ",")
		}
		t.ScannedAt = at.UTC()
		switch by {
		case "creator":
			byCreator = append(byCreator, t)
		case "code":
			t.Via = ""
			out.ByCode = append(out.ByCode, t)
		case "dispatcher":
			out.SetSameDispatcher(int(n))
		default:
			out.CodeTally.Add(t.Level, t.Harm, int(n))
		}
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("postgres: related tokens: %w", err)
	}
	out.ByCreator = store.MergeRelated(byCreator, q.Limit)
	out.ByCode = store.MergeRelated(out.ByCode, q.Limit)
	return out, nil
}

var _ store.ReputationWatches = (*Store)(nil)

// linkedWatchesQuery joins the tokens linked to one (each branch on its
// index: creator, pool creator, code) with the entries watching them
// (watches_by_token). $1 chain, $2 address, $3 creator, $4 pool creator,
// $5 code, $6 limit.
const linkedWatchesQuery = `SELECT w.id, w.key_id, w.address, w.chain, w.created_at, w.baseline_scan_id, w.baseline_level, w.baseline_score, l.link, l.via
FROM (SELECT chain, address, 0 AS rank, 'creator'::text AS link, creator AS via
    FROM tokens WHERE chain = $1 AND creator = $3 AND $3 <> '' AND creator <> '' AND address <> $2
  UNION ALL
  SELECT chain, address, 1, 'pool_creator', pool_creator
    FROM tokens WHERE chain = $1 AND pool_creator = $3 AND $3 <> '' AND pool_creator <> '' AND address <> $2
  UNION ALL
  SELECT chain, address, 1, 'pool_creator', creator
    FROM tokens WHERE chain = $1 AND creator = $4 AND $4 <> '' AND creator <> '' AND address <> $2
  UNION ALL
  SELECT chain, address, 2, 'code', code
    FROM tokens WHERE code = $5 AND $5 <> '' AND code <> '' AND NOT (chain = $1 AND address = $2)) l
JOIN watches w ON w.chain = l.chain AND w.address = l.address
ORDER BY l.rank, w.created_at, w.id
LIMIT $6`

// LinkedWatches implements store.ReputationWatches.
func (s *Store) LinkedWatches(ctx context.Context, q store.LinkedQuery) ([]store.LinkedWatch, error) {
	if q.Creator == "" && q.PoolCreator == "" && q.Code == "" {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, linkedWatchesQuery, q.Chain, q.Address, q.Creator, q.PoolCreator, q.Code, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: linked watches: %w", err)
	}
	defer rows.Close()
	var out []store.LinkedWatch
	for rows.Next() {
		var lw store.LinkedWatch
		w := &lw.Watch
		if err := rows.Scan(&w.ID, &w.KeyID, &w.Address, &w.Chain, &w.CreatedAt, &w.BaselineScanID, &w.BaselineLevel, &w.BaselineScore, &lw.Link, &lw.Via); err != nil {
			return nil, fmt.Errorf("postgres: linked watches: %w", err)
		}
		w.CreatedAt = w.CreatedAt.UTC()
		out = append(out, lw)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: linked watches: %w", err)
	}
	return out, nil
}
