package store

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// Page sizes of FindScans: a Limit of 0 or less means DefaultLimit, more
// than MaxLimit means MaxLimit.
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// PageLimit returns the page size FindScans uses for a requested limit.
func PageLimit(limit int) int {
	switch {
	case limit <= 0:
		return DefaultLimit
	case limit > MaxLimit:
		return MaxLimit
	default:
		return limit
	}
}

// Position is a place in a key's scans, ordered newest first by
// (ScannedAt, ID): the next page starts strictly after it.
type Position struct {
	ScannedAt time.Time
	ID        string
}

// cursorVersion lets the encoding change without breaking old cursors
// silently: an unknown version is a bad cursor.
const cursorVersion = "1"

// EncodeCursor returns the opaque cursor of p.
func EncodeCursor(p Position) string {
	raw := cursorVersion + "." + strconv.FormatInt(p.ScannedAt.UnixMicro(), 36) + "." + p.ID
	// A checksum makes a truncated or edited cursor an error, not a jump.
	sum := crc32.ChecksumIEEE([]byte(raw))
	return base64.RawURLEncoding.EncodeToString(binary.BigEndian.AppendUint32([]byte(raw), sum))
}

// DecodeCursor reads a cursor from EncodeCursor. Anything else is a
// fault.InvalidRequest error.
func DecodeCursor(s string) (Position, error) {
	bad := fault.Errorf(fault.InvalidRequest, "invalid cursor")
	if len(s) > 200 {
		return Position{}, bad
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	// The decoder skips newlines: only the canonical spelling is a cursor.
	if err != nil || len(b) < 4 || base64.RawURLEncoding.EncodeToString(b) != s {
		return Position{}, bad
	}
	raw, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(raw) != sum {
		return Position{}, bad
	}
	parts := strings.SplitN(string(raw), ".", 3)
	if len(parts) != 3 || parts[0] != cursorVersion || parts[2] == "" {
		return Position{}, bad
	}
	us, err := strconv.ParseInt(parts[1], 36, 64)
	if err != nil {
		return Position{}, bad
	}
	return Position{ScannedAt: time.UnixMicro(us).UTC(), ID: parts[2]}, nil
}

// BatchSaver is implemented by stores that can save many scans in one
// transaction (faster than one SaveScan each). Like SaveScan, a scan whose
// ID is already stored is skipped.
type BatchSaver interface {
	SaveScans(ctx context.Context, scans []Scan) error
}

// Charge is N scans charged to a key's usage counter on Day.
type Charge struct {
	KeyID string
	Day   string
	N     int64
}

// AddCharge adds one scan charged to key on day to charges (one entry per
// key and day; a batch holds few keys, so a scan beats a map).
func AddCharge(charges []Charge, key, day string) []Charge {
	for i := range charges {
		if charges[i].KeyID == key && charges[i].Day == day {
			charges[i].N++
			return charges
		}
	}
	return append(charges, Charge{KeyID: key, Day: day, N: 1})
}

// ScanRecorder is implemented by stores that save scans and charge usage
// in one transaction: every row and charge is written, or none is (a
// retry neither loses a row nor charges twice). Like SaveScan, a scan
// whose ID is already stored is skipped. It returns each charge's new
// total.
type ScanRecorder interface {
	RecordScans(ctx context.Context, scans []Scan, charges []Charge) ([]int64, error)
}

// ParseDay checks a usage day ("2006-01-02").
func ParseDay(day string) error {
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return fault.Errorf(fault.InvalidRequest, "invalid usage day %q (want YYYY-MM-DD)", day)
	}
	return nil
}

// Day returns t's usage day in UTC.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Entry is a scan to save and the day its one-scan charge counts on (""
// charges nothing).
type Entry struct {
	Scan Scan
	Day  string
}

// EntryRecorder is implemented by stores that save entries idempotently:
// each entry's scan is saved unless its ID is stored, and its key is
// charged one scan on its day only when this call saved the scan, all in
// one transaction. Writing the same entries twice (a journal replayed
// after a crash that came after their commit) changes nothing.
type EntryRecorder interface {
	RecordEntries(ctx context.Context, entries []Entry) error
}

// Newer reports whether a comes after b in history order (newest first:
// scanned later, then the greater ID).
func Newer(a, b Scan) bool {
	if !a.ScannedAt.Equal(b.ScannedAt) {
		return a.ScannedAt.After(b.ScannedAt)
	}
	return a.ID > b.ID
}
