package store

import "github.com/oklog/ulid/v2"

// NewScanID returns a new scan id: "scn_" and a ULID, so ids sort by
// creation time.
func NewScanID() string { return "scn_" + ulid.Make().String() }

// NewWatchID returns a new watchlist entry id: "wat_" and a ULID.
func NewWatchID() string { return "wat_" + ulid.Make().String() }

// NewDeliveryID returns a new webhook delivery id: "dlv_" and a ULID.
func NewDeliveryID() string { return "dlv_" + ulid.Make().String() }
