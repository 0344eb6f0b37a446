package store_test

import (
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

func TestCursorRoundTrip(t *testing.T) {
	tests := []store.Position{
		{ScannedAt: time.Date(2026, 11, 21, 10, 0, 0, 123456000, time.UTC), ID: "scn_01JD0000000000000000000000"},
		{ScannedAt: time.Unix(0, 0).UTC(), ID: "a.b.c"},
		{ScannedAt: time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC), ID: "x"},
	}
	for _, want := range tests {
		got, err := store.DecodeCursor(store.EncodeCursor(want))
		if err != nil || !got.ScannedAt.Equal(want.ScannedAt) || got.ID != want.ID {
			t.Errorf("round trip of %+v: %+v, %v", want, got, err)
		}
	}
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add(store.EncodeCursor(store.Position{ScannedAt: time.Unix(1700000000, 0), ID: "scn_1"}))
	f.Add("")
	f.Add("MS5ob2Q1NG45ZzAwLnM")
	f.Add("!!!")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := store.DecodeCursor(s)
		if err != nil {
			if fault.CodeOf(err) != fault.InvalidRequest {
				t.Fatalf("error %v is not invalid_request", err)
			}
			return
		}
		if p.ID == "" {
			t.Fatalf("accepted %q with an empty id", s)
		}
		if again := store.EncodeCursor(p); again != s {
			t.Fatalf("%q decodes but re-encodes as %q", s, again)
		}
	})
}
