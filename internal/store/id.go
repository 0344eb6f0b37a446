package store

import "github.com/oklog/ulid/v2"

// NewScanID returns a new scan id: "scn_" and a ULID, so ids sort by
// creation time.
func NewScanID() string { return "scn_" + ulid.Make().String() }
