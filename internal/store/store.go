// Package store defines tokenrisk's persistence: API keys, usage counters
// and scan history. Implementations live in sqlite/ and postgres/ and pass
// the one shared suite in storetest/.
package store

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned when a key or scan does not exist (or is not
// visible to the asking key).
var ErrNotFound = errors.New("store: not found")

// Key is an API key's record. The secret itself is never stored: only its
// SHA-256 hash.
type Key struct {
	ID   string
	Name string
	Plan string
	// Prefix is the first characters of the secret, shown in listings so an
	// operator can tell keys apart.
	Prefix    string
	CreatedAt time.Time
	RevokedAt *time.Time
}

// Scan is one stored scan: the indexed fields and the report JSON as it was
// answered.
type Scan struct {
	ID        string
	KeyID     string
	Address   string
	Chain     string
	RiskLevel string
	Score     float64
	Cached    bool
	ScannedAt time.Time
	Report    []byte
	// Base, when set on a scan to save, says that Report is Base.Body
	// with Edits applied, so the backend may store the base once and the
	// row as its edits (see Base). Scans read back carry Report only.
	Base  *Base
	Edits []Edit
}

// ScanFilter selects a key's scans, newest first.
type ScanFilter struct {
	KeyID string
	Chain string // "" = any
	Level string // "" = any
	From  time.Time
	To    time.Time // exclusive; zero = no bound
	// Cursor continues a listing; "" starts at the newest.
	Cursor string
	Limit  int
}

// Store is the persistence every backend implements.
type Store interface {
	CreateKey(ctx context.Context, k Key, secretHash []byte) error
	// KeyByHash finds a key by its secret's hash, revoked or not.
	KeyByHash(ctx context.Context, secretHash []byte) (Key, error)
	ListKeys(ctx context.Context) ([]Key, error)
	RevokeKey(ctx context.Context, id string, at time.Time) error

	SaveScan(ctx context.Context, s Scan) error
	FindScan(ctx context.Context, keyID, scanID string) (Scan, error)
	// FindScans returns up to f.Limit scans and the cursor of the next page
	// ("" at the end).
	FindScans(ctx context.Context, f ScanFilter) ([]Scan, string, error)
	// ExportScans streams every scan matching f (Limit and Cursor ignored)
	// to fn, newest first, without holding them all in memory.
	ExportScans(ctx context.Context, f ScanFilter, fn func(Scan) error) error
	// LatestScan returns the newest scan of the canonical address by any
	// key (what a public badge or token page shows), or ErrNotFound.
	LatestScan(ctx context.Context, address string) (Scan, error)

	// AddUsage adds n charged scans to the key's counter for day (UTC,
	// "2006-01-02") and returns the new total.
	AddUsage(ctx context.Context, keyID, day string, n int64) (int64, error)
	Usage(ctx context.Context, keyID, day string) (int64, error)

	Ping(ctx context.Context) error
	Close() error
}
