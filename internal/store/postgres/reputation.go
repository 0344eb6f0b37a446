package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

var _ store.Reputation = (*Store)(nil)

// RecordToken implements store.Reputation.
func (s *Store) RecordToken(ctx context.Context, t store.Token) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO tokens (chain, address, creator, code, scan_id, level, harm, flags, scanned_at, pool_creator, dispatcher)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (chain, address) DO UPDATE SET creator = excluded.creator, code = excluded.code, scan_id = excluded.scan_id,
    level = excluded.level, harm = excluded.harm, flags = excluded.flags, scanned_at = excluded.scanned_at,
    pool_creator = excluded.pool_creator, dispatcher = excluded.dispatcher
WHERE excluded.scanned_at >= tokens.scanned_at`,
		t.Chain, t.Address, t.Creator, t.Code, t.ScanID, t.Level, t.Harm, strings.Join(t.Flags, ","), t.ScannedAt.UTC(), t.PoolCreator, t.Dispatcher)
	if err != nil {
		return fmt.Errorf("postgres: record token: %w", err)
	}
	return nil
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
