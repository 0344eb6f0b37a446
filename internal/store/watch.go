package store

import (
	"context"
	"errors"
	"time"
)

// ErrWatchLimit is returned by CreateWatch when the key already watches as
// many tokens as its plan allows.
var ErrWatchLimit = errors.New("store: watch limit reached")

// Watch is one watchlist entry: a key watching one token, and the scan its
// alerts are measured against when it was created.
type Watch struct {
	ID        string
	KeyID     string
	Address   string // canonical
	Chain     string
	CreatedAt time.Time
	// BaselineScanID, BaselineLevel and BaselineScore are the scan the
	// entry started from.
	BaselineScanID string
	BaselineLevel  string
	BaselineScore  float64
}

// WatchedToken is the watcher's memory of one watched token (shared by
// every key watching it): the last full scan, the main pool and its quote
// reserve reference, and when it was last scanned.
type WatchedToken struct {
	Chain   string
	Address string
	// ScanID and Report are the last full scan (the report's exact bytes).
	ScanID string
	Report []byte
	// Pool is the main pool's address ("" when none); QuoteReserve its
	// quote reserve reference (a decimal string, "" when unknown): the
	// highest reserve seen since the last liquidity alert.
	Pool         string
	QuoteReserve string
	ScannedAt    time.Time
}

// Watchlist is the persistence of watchlists and the watcher's state.
// Both store backends implement it.
type Watchlist interface {
	// CreateWatch inserts w unless the key already watches limit tokens
	// (ErrWatchLimit; limit <= 0 refuses every entry). If the key already
	// watches w.Address, it returns that entry and created=false.
	CreateWatch(ctx context.Context, w Watch, limit int) (got Watch, created bool, err error)
	// ListWatches returns the key's entries, oldest first.
	ListWatches(ctx context.Context, keyID string) ([]Watch, error)
	// DeleteWatch removes the key's entry id, or returns ErrNotFound.
	DeleteWatch(ctx context.Context, keyID, id string) error
	// WatchesOn returns every entry on chain, of every key, oldest first.
	WatchesOn(ctx context.Context, chain string) ([]Watch, error)
	// WatchedChains returns the chains with at least one entry, sorted.
	WatchedChains(ctx context.Context) ([]string, error)

	// WatchedTokens returns the watcher's state of the chain's tokens
	// without their reports (Report nil): a tick reads every state, and
	// only the reports of scans it has not seen.
	WatchedTokens(ctx context.Context, chain string) ([]WatchedToken, error)
	// WatchedReport returns the report of a token's last scan, or
	// ErrNotFound.
	WatchedReport(ctx context.Context, chain, address string) ([]byte, error)
	// SaveWatchedToken inserts or replaces the state of one token.
	SaveWatchedToken(ctx context.Context, t WatchedToken) error

	// LeaseWatch gives owner the right to watch chain until `until`, if
	// nobody else holds an unexpired lease at now (renewing its own). It
	// returns whether owner holds the lease and the chain's log cursor
	// (the last block whose logs were processed, 0 = none yet).
	LeaseWatch(ctx context.Context, chain, owner string, now, until time.Time) (held bool, cursor uint64, err error)
	// AdvanceWatch sets the chain's log cursor, if owner still holds the
	// lease at now; else it returns ErrLeaseLost.
	AdvanceWatch(ctx context.Context, chain, owner string, now time.Time, cursor uint64) error
	// ReleaseWatch gives up owner's lease on chain (at shutdown).
	ReleaseWatch(ctx context.Context, chain, owner string) error
}

// ErrLeaseLost is returned when a watcher writes under a lease another
// instance has taken over.
var ErrLeaseLost = errors.New("store: watch lease lost")
