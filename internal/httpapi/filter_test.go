package httpapi

import (
	"net/url"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// FuzzParseFilter: any query string gives either a 400 invalid_request or
// a filter the store can take as is.
func FuzzParseFilter(f *testing.F) {
	for _, q := range []string{"", "chain=ethereum&level=high", "level=nope", "limit=0", "limit=100", "limit=101",
		"limit=-1", "limit=1e3", "from=2026-11-21T10:00:00Z&to=2026-11-21T09:00:00Z",
		"from=2026-11-21T10:00:00.123456789%2B02:00", "to=yesterday", "cursor=abc&limit=5", "level=critical&level=low", "%zz"} {
		f.Add(q, true)
	}
	f.Fuzz(func(t *testing.T, raw string, paged bool) {
		q, err := parseQuery(raw, append([]string{"cursor", "limit"}, filterParams...)...)
		if err != nil {
			if code := fault.CodeOf(err); code != fault.InvalidRequest {
				t.Fatalf("%q: parseQuery code %s, want invalid_request", raw, code)
			}
			if values, perr := url.ParseQuery(raw); perr == nil && !repeated(values) && !unknown(values) {
				t.Fatalf("%q: refused %v, though well formed, once each and known", raw, err)
			}
			return
		}
		flt, err := parseFilter(q, "key_1", paged)
		if err != nil {
			if code := fault.CodeOf(err); code != fault.InvalidRequest {
				t.Fatalf("%q: code %s, want invalid_request", raw, code)
			}
			return
		}
		if flt.KeyID != "key_1" {
			t.Fatalf("%q: key %q", raw, flt.KeyID)
		}
		if flt.Level != "" && levelScore(flt.Level) < 0 {
			t.Fatalf("%q: accepted level %q", raw, flt.Level)
		}
		if flt.Level != "" && risk.LevelOf(levelScore(flt.Level)) != risk.Level(flt.Level) {
			t.Fatalf("%q: level %q outside its own band", raw, flt.Level)
		}
		if !flt.From.IsZero() && !flt.To.IsZero() && !flt.From.Before(flt.To) {
			t.Fatalf("%q: from %v not before to %v", raw, flt.From, flt.To)
		}
		if paged && (flt.Limit < 1 || flt.Limit > maxPageSize) {
			t.Fatalf("%q: page size %d", raw, flt.Limit)
		}
		if !paged && (flt.Limit != 0 || flt.Cursor != "") {
			t.Fatalf("%q: an export got limit %d, cursor %q", raw, flt.Limit, flt.Cursor)
		}
	})
}

func repeated(v url.Values) bool {
	for _, vs := range v {
		if len(vs) > 1 {
			return true
		}
	}
	return false
}

func unknown(v url.Values) bool {
	for name := range v {
		switch name {
		case "chain", "level", "from", "to", "cursor", "limit":
		default:
			return true
		}
	}
	return false
}
