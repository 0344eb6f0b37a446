package scan

import (
	"context"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// Adapter assesses tokens on one kind of chain. It does all the I/O of a
// scan: detection across the kind's enabled chains (restricted to
// req.Chains), collecting facts and analysing them.
//
// Errors carry fault codes: token_not_found, not_a_token, plan_forbidden
// (the token exists only on chains the plan lacks), upstream_error,
// upstream_timeout.
type Adapter interface {
	Kind() chains.Kind
	Assess(ctx context.Context, req Request) (*Assessment, error)
}
