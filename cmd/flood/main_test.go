package main

import (
	"io"
	"testing"
	"time"
)

// The run is bounded: every count and duration must be positive, and the
// defaults are the flood (40 free clients, 2 premium).
func TestParse(t *testing.T) {
	o, err := parse(nil, io.Discard)
	if err != nil || o.free != 40 || o.premium != 2 || o.maxRequests <= 0 || o.timeout <= 0 {
		t.Fatalf("defaults %+v (%v), want 40 free, 2 premium, bounded", o, err)
	}
	o, err = parse([]string{"-serve-arg=--min-scans=2", "-serve-arg", "--max-scans=8", "-phase", "2s"}, io.Discard)
	if err != nil || len(o.serveArgs) != 2 || o.serveArgs[1] != "--max-scans=8" || o.phase != 2*time.Second {
		t.Errorf("flags %+v (%v)", o, err)
	}
	for _, bad := range [][]string{{"-premium", "0"}, {"-rounds", "0"}, {"-phase", "0s"}, {"-max-requests", "0"}, {"-timeout", "-1s"}, {"extra"}} {
		if _, err := parse(bad, io.Discard); err == nil {
			t.Errorf("parse(%q) accepted", bad)
		}
	}
}
