package store

import (
	"context"
	"errors"
	"fmt"
)

// PageReader reads up to limit scans of f strictly after the position
// after (nil: from the newest), newest first, appending them to dst. A
// backend implements only this query; FindPage and ExportPages build the
// paginated listing and the streamed export on it, the same for every
// backend.
type PageReader func(ctx context.Context, f ScanFilter, after *Position, limit int, dst []Scan) ([]Scan, error)

// listingStart checks f and returns where its listing begins.
func listingStart(f ScanFilter) (*Position, error) {
	if f.KeyID == "" {
		return nil, errors.New("store: find scans: no key id")
	}
	if f.Cursor == "" {
		return nil, nil
	}
	p, err := DecodeCursor(f.Cursor)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// FindPage returns one page of f (Store.FindScans) and the cursor of the
// next page ("" at the end).
func FindPage(ctx context.Context, f ScanFilter, read PageReader) ([]Scan, string, error) {
	after, err := listingStart(f)
	if err != nil {
		return nil, "", err
	}
	limit := PageLimit(f.Limit)
	// One more row than asked says whether a next page exists.
	out, err := read(ctx, f, after, limit+1, make([]Scan, 0, min(limit+1, 64)))
	if err != nil {
		return nil, "", err
	}
	if len(out) <= limit {
		return out, "", nil
	}
	out = out[:limit]
	last := out[limit-1]
	return out, EncodeCursor(Position{ScannedAt: last.ScannedAt, ID: last.ID}), nil
}

// ExportBatch is how many rows ExportPages reads per query: no query stays
// open while fn runs for long, and memory holds one batch.
const ExportBatch = 500

// ExportPages streams every scan of f to fn (Store.ExportScans), newest
// first, ExportBatch rows per query. An error from fn stops the export and
// is returned as is.
func ExportPages(ctx context.Context, f ScanFilter, read PageReader, fn func(Scan) error) error {
	const batch = ExportBatch
	f.Cursor = ""
	after, err := listingStart(f)
	if err != nil {
		return err
	}
	rows := make([]Scan, 0, batch)
	for {
		rows, err = read(ctx, f, after, batch, rows[:0])
		if err != nil {
			return err
		}
		for _, sc := range rows {
			if err := fn(sc); err != nil {
				return err
			}
		}
		if len(rows) < batch {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("store: export scans: %w", err)
		}
		last := rows[len(rows)-1]
		after = &Position{ScannedAt: last.ScannedAt, ID: last.ID}
	}
}
