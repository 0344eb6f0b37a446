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
	_, err := s.pool.Exec(ctx, `INSERT INTO tokens (chain, address, creator, code, scan_id, level, harm, flags, scanned_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (chain, address) DO UPDATE SET creator = excluded.creator, code = excluded.code, scan_id = excluded.scan_id,
    level = excluded.level, harm = excluded.harm, flags = excluded.flags, scanned_at = excluded.scanned_at
WHERE excluded.scanned_at >= tokens.scanned_at`,
		t.Chain, t.Address, t.Creator, t.Code, t.ScanID, t.Level, t.Harm, strings.Join(t.Flags, ","), t.ScannedAt.UTC())
	if err != nil {
		return fmt.Errorf("postgres: record token: %w", err)
	}
	return nil
}

// relatedQuery reads a creator's tokens and a code's twins in one
// statement, each branch walking its index backwards (proven harms,
// then the newest) and stopping at the limit.
const relatedQuery = `(SELECT 'creator', chain, address, creator, code, scan_id, level, harm, flags, scanned_at
  FROM tokens WHERE chain = $1 AND creator = $3 AND $3 <> '' AND creator <> '' AND address <> $2
  ORDER BY harm DESC, scanned_at DESC LIMIT $5)
UNION ALL
(SELECT 'code', chain, address, creator, code, scan_id, level, harm, flags, scanned_at
  FROM tokens WHERE code = $4 AND $4 <> '' AND code <> '' AND NOT (chain = $1 AND address = $2)
  ORDER BY harm DESC, scanned_at DESC LIMIT $5)`

// RelatedTokens implements store.Reputation.
func (s *Store) RelatedTokens(ctx context.Context, chain, address, creator, code string, limit int) (store.Related, error) {
	var out store.Related
	if creator == "" && code == "" {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, relatedQuery, chain, address, creator, code, limit)
	if err != nil {
		return out, fmt.Errorf("postgres: related tokens: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			by, flags string
			at        time.Time
			t         store.Token
		)
		if err := rows.Scan(&by, &t.Chain, &t.Address, &t.Creator, &t.Code, &t.ScanID, &t.Level, &t.Harm, &flags, &at); err != nil {
			return out, fmt.Errorf("postgres: related tokens: %w", err)
		}
		if flags != "" {
			t.Flags = strings.Split(flags, ",")
		}
		t.ScannedAt = at.UTC()
		if by == "creator" {
			out.ByCreator = append(out.ByCreator, t)
		} else {
			out.ByCode = append(out.ByCode, t)
		}
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("postgres: related tokens: %w", err)
	}
	return out, nil
}
