package sqlite

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
	_, err := s.recordToken.ExecContext(ctx,
		t.Chain, t.Address, t.Creator, t.Code, t.ScanID, t.Level, t.Harm, strings.Join(t.Flags, ","), t.ScannedAt.UnixMicro())
	if err != nil {
		return fmt.Errorf("sqlite: record token: %w", err)
	}
	return nil
}

// recordTokenQuery replaces a token's row unless it holds a newer scan.
const recordTokenQuery = `INSERT INTO tokens (chain, address, creator, code, scan_id, level, harm, flags, scanned_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (chain, address) DO UPDATE SET creator = excluded.creator, code = excluded.code, scan_id = excluded.scan_id,
    level = excluded.level, harm = excluded.harm, flags = excluded.flags, scanned_at = excluded.scanned_at
WHERE excluded.scanned_at >= tokens.scanned_at`

// relatedQuery reads a creator's tokens and a code's twins in one
// statement, each branch walking its index backwards (proven harms,
// then the newest) and stopping at the limit.
const relatedQuery = `SELECT * FROM (SELECT 'creator', chain, address, creator, code, scan_id, level, harm, flags, scanned_at
  FROM tokens WHERE chain = ?1 AND creator = ?3 AND ?3 <> '' AND creator <> '' AND address <> ?2
  ORDER BY harm DESC, scanned_at DESC LIMIT ?5)
UNION ALL
SELECT * FROM (SELECT 'code', chain, address, creator, code, scan_id, level, harm, flags, scanned_at
  FROM tokens WHERE code = ?4 AND ?4 <> '' AND code <> '' AND NOT (chain = ?1 AND address = ?2)
  ORDER BY harm DESC, scanned_at DESC LIMIT ?5)`

// RelatedTokens implements store.Reputation.
func (s *Store) RelatedTokens(ctx context.Context, chain, address, creator, code string, limit int) (store.Related, error) {
	var out store.Related
	if creator == "" && code == "" {
		return out, nil
	}
	rows, err := s.related.QueryContext(ctx, chain, address, creator, code, limit)
	if err != nil {
		return out, fmt.Errorf("sqlite: related tokens: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			by, flags string
			at        int64
			t         store.Token
		)
		if err := rows.Scan(&by, &t.Chain, &t.Address, &t.Creator, &t.Code, &t.ScanID, &t.Level, &t.Harm, &flags, &at); err != nil {
			return out, fmt.Errorf("sqlite: related tokens: %w", err)
		}
		t.Flags = splitFlags(flags)
		t.ScannedAt = time.UnixMicro(at).UTC()
		if by == "creator" {
			out.ByCreator = append(out.ByCreator, t)
		} else {
			out.ByCode = append(out.ByCode, t)
		}
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("sqlite: related tokens: %w", err)
	}
	return out, nil
}

func splitFlags(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
