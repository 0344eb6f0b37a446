package httpapi

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// query is a request's query parameters, each given at most once.
type query map[string]string

// parseQuery reads raw strictly: a malformed query string, a parameter
// this endpoint does not take, or one given twice (format=csv&format=ndjson:
// which one the client meant is unknown) is 400 invalid_request. An empty
// value is the same as an absent parameter.
func parseQuery(raw string, accepted ...string) (query, error) {
	values, err := url.ParseQuery(raw)
	if err != nil {
		return nil, fault.Wrap(err, fault.InvalidRequest, "the query string is malformed (a parameter is not percent-encoded or holds a ';')")
	}
	q := make(query, len(values))
	for name, vs := range values {
		if !slices.Contains(accepted, name) {
			if len(accepted) == 0 {
				return nil, fault.Errorf(fault.InvalidRequest, "unknown query parameter %s; this endpoint takes none", quoteParam(name))
			}
			return nil, fault.Errorf(fault.InvalidRequest, "unknown query parameter %s; this endpoint takes %s", quoteParam(name), strings.Join(accepted, ", "))
		}
		if len(vs) > 1 {
			return nil, fault.Errorf(fault.InvalidRequest, "query parameter %s is given %d times; give it once", name, len(vs))
		}
		q[name] = vs[0]
	}
	return q, nil
}

// quoteParam renders a client's parameter name, bounded, for a message.
func quoteParam(name string) string {
	if len(name) > 40 {
		name = name[:40] + "…"
	}
	return fmt.Sprintf("%q", strings.ToValidUTF8(name, "?"))
}
