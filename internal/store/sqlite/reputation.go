package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

var _ store.Reputation = (*Store)(nil)

// RecordToken implements store.Reputation: the previous harm is read and
// the row written in one transaction on the one writer connection (an
// immediate transaction: another process waits for it).
func (s *Store) RecordToken(ctx context.Context, t store.Token) (store.Recorded, error) {
	var rec store.Recorded
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return rec, fmt.Errorf("sqlite: record token: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	err = tx.QueryRowContext(ctx, `SELECT harm FROM tokens WHERE chain = ? AND address = ?`, t.Chain, t.Address).Scan(&rec.PreviousHarm)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return rec, fmt.Errorf("sqlite: record token: %w", err)
	}
	res, err := tx.StmtContext(ctx, s.recordToken).ExecContext(ctx,
		t.Chain, t.Address, t.Creator, t.Code, t.ScanID, t.Level, t.Harm, strings.Join(t.Flags, ","), t.ScannedAt.UnixMicro(), t.PoolCreator, t.Dispatcher)
	if err != nil {
		return rec, fmt.Errorf("sqlite: record token: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return rec, fmt.Errorf("sqlite: record token: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return rec, fmt.Errorf("sqlite: record token: %w", err)
	}
	rec.Kept = n > 0
	return rec, nil
}

// recordTokenQuery replaces a token's row unless it holds a newer scan.
const recordTokenQuery = `INSERT INTO tokens (chain, address, creator, code, scan_id, level, harm, flags, scanned_at, pool_creator, dispatcher)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (chain, address) DO UPDATE SET creator = excluded.creator, code = excluded.code, scan_id = excluded.scan_id,
    level = excluded.level, harm = excluded.harm, flags = excluded.flags, scanned_at = excluded.scanned_at,
    pool_creator = excluded.pool_creator, dispatcher = excluded.dispatcher
WHERE excluded.scanned_at >= tokens.scanned_at`

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
// its key). ?1 chain, ?2 address, ?3
// creator, ?4 code, ?5 limit, ?6 pool creator, ?7 tally cap, ?8
// dispatcher, ?9 dispatcher cap.
const relatedQuery = `SELECT * FROM (SELECT 'creator', ?3, 0, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1
  FROM tokens WHERE chain = ?1 AND creator = ?3 AND ?3 <> '' AND creator <> '' AND address <> ?2
  ORDER BY harm DESC, scanned_at DESC LIMIT ?5)
UNION ALL
SELECT * FROM (SELECT 'creator', ?3, 1, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1
  FROM tokens WHERE chain = ?1 AND pool_creator = ?3 AND ?3 <> '' AND pool_creator <> '' AND address <> ?2
  ORDER BY harm DESC, scanned_at DESC LIMIT ?5)
UNION ALL
SELECT * FROM (SELECT 'creator', ?6, 1, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1
  FROM tokens WHERE chain = ?1 AND creator = ?6 AND ?6 <> '' AND creator <> '' AND address <> ?2
  ORDER BY harm DESC, scanned_at DESC LIMIT ?5)
UNION ALL
SELECT * FROM (SELECT 'code', '', 0, chain, address, creator, pool_creator, code, scan_id, level, harm, flags, scanned_at, 1
  FROM tokens WHERE code = ?4 AND ?4 <> '' AND code <> '' AND NOT (chain = ?1 AND address = ?2)
  ORDER BY harm DESC, scanned_at DESC LIMIT ?5)
UNION ALL
SELECT 'tally', '', 0, '', '', '', '', '', '', critical, harm, '', 0, count(*) FROM (SELECT harm, CASE WHEN level = 'critical' THEN level ELSE '' END AS critical
  FROM tokens WHERE code = ?4 AND ?4 <> '' AND code <> '' AND NOT (chain = ?1 AND address = ?2)
  ORDER BY harm DESC, scanned_at DESC LIMIT ?7)
GROUP BY harm, critical
UNION ALL
SELECT 'dispatcher', '', 0, '', '', '', '', '', '', '', '', '', 0,
  (SELECT count(*) FROM (SELECT 1 FROM tokens WHERE dispatcher = ?8 AND dispatcher <> '' AND code < ?4 LIMIT ?9)) +
  (SELECT count(*) FROM (SELECT 1 FROM tokens WHERE dispatcher = ?8 AND dispatcher <> '' AND code > ?4 LIMIT ?9)) -
  (SELECT count(*) FROM tokens WHERE chain = ?1 AND address = ?2 AND dispatcher = ?8 AND code <> ?4)
  WHERE ?8 <> ''`

// RelatedTokens implements store.Reputation.
func (s *Store) RelatedTokens(ctx context.Context, q store.RelatedQuery) (store.Related, error) {
	var out store.Related
	if q.Creator == "" && q.PoolCreator == "" && q.Code == "" && q.Dispatcher == "" {
		return out, nil
	}
	rows, err := s.related.QueryContext(ctx, q.Chain, q.Address, q.Creator, q.Code, q.Limit, q.PoolCreator, store.TwinTallyCap, q.Dispatcher, store.DispatcherTallyCap)
	if err != nil {
		return out, fmt.Errorf("sqlite: related tokens: %w", err)
	}
	defer rows.Close()
	var byCreator []store.Token
	for rows.Next() {
		var (
			by, flags string
			at        int64
			n         int
			t         store.Token
		)
		if err := rows.Scan(&by, &t.Via, &t.ViaPool, &t.Chain, &t.Address, &t.Creator, &t.PoolCreator, &t.Code, &t.ScanID, &t.Level, &t.Harm, &flags, &at, &n); err != nil {
			return out, fmt.Errorf("sqlite: related tokens: %w", err)
		}
		t.Flags = splitFlags(flags)
		t.ScannedAt = time.UnixMicro(at).UTC()
		switch by {
		case "creator":
			byCreator = append(byCreator, t)
		case "code":
			t.Via = ""
			out.ByCode = append(out.ByCode, t)
		case "dispatcher":
			out.SetSameDispatcher(n)
		default:
			out.CodeTally.Add(t.Level, t.Harm, int(n))
		}
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("sqlite: related tokens: %w", err)
	}
	out.ByCreator = store.MergeRelated(byCreator, q.Limit)
	out.ByCode = store.MergeRelated(out.ByCode, q.Limit)
	return out, nil
}

func splitFlags(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

var _ store.ReputationWatches = (*Store)(nil)

// linkedWatchesQuery joins the tokens linked to one (each branch on its
// index: creator, pool creator, code) with the entries watching them
// (watches_by_token). ?1 chain, ?2 address, ?3 creator, ?4 pool creator,
// ?5 code, ?6 limit.
const linkedWatchesQuery = `SELECT w.id, w.key_id, w.address, w.chain, w.created_at, w.baseline_scan_id, w.baseline_level, w.baseline_score, l.link, l.via
FROM (SELECT chain, address, 0 AS rank, 'creator' AS link, creator AS via
    FROM tokens WHERE chain = ?1 AND creator = ?3 AND ?3 <> '' AND creator <> '' AND address <> ?2
  UNION ALL
  SELECT chain, address, 1, 'pool_creator', pool_creator
    FROM tokens WHERE chain = ?1 AND pool_creator = ?3 AND ?3 <> '' AND pool_creator <> '' AND address <> ?2
  UNION ALL
  SELECT chain, address, 1, 'pool_creator', creator
    FROM tokens WHERE chain = ?1 AND creator = ?4 AND ?4 <> '' AND creator <> '' AND address <> ?2
  UNION ALL
  SELECT chain, address, 2, 'code', code
    FROM tokens WHERE code = ?5 AND ?5 <> '' AND code <> '' AND NOT (chain = ?1 AND address = ?2)) l
JOIN watches w ON w.chain = l.chain AND w.address = l.address
ORDER BY l.rank, w.created_at, w.id
LIMIT ?6`

// LinkedWatches implements store.ReputationWatches.
func (s *Store) LinkedWatches(ctx context.Context, q store.LinkedQuery) ([]store.LinkedWatch, error) {
	if q.Creator == "" && q.PoolCreator == "" && q.Code == "" {
		return nil, nil
	}
	rows, err := s.read.QueryContext(ctx, linkedWatchesQuery, q.Chain, q.Address, q.Creator, q.PoolCreator, q.Code, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: linked watches: %w", err)
	}
	defer rows.Close()
	var out []store.LinkedWatch
	for rows.Next() {
		var (
			lw      store.LinkedWatch
			created int64
		)
		w := &lw.Watch
		if err := rows.Scan(&w.ID, &w.KeyID, &w.Address, &w.Chain, &created, &w.BaselineScanID, &w.BaselineLevel, &w.BaselineScore, &lw.Link, &lw.Via); err != nil {
			return nil, fmt.Errorf("sqlite: linked watches: %w", err)
		}
		w.CreatedAt = time.UnixMicro(created).UTC()
		out = append(out, lw)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: linked watches: %w", err)
	}
	return out, nil
}
