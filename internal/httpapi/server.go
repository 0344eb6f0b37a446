// Package httpapi is tokenrisk's HTTP API: one routing table, bearer-key
// auth, per-plan rate limits and quotas, strict JSON decoding, history and
// export, and every error as application/problem+json.
package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

// Account is an authenticated key, its plan, and the plan's chains as
// enabled on this server.
type Account struct {
	Key    store.Key
	Plan   auth.Plan
	Chains []string
}

// Authenticator resolves a bearer secret to its key and plan; unknown,
// malformed or revoked secrets give a fault.Unauthorized error.
type Authenticator interface {
	Authenticate(ctx context.Context, secret string) (store.Key, auth.Plan, error)
}

// Scanner runs scans (*scan.Engine implements it).
type Scanner interface {
	// ChainKeys are the configured chains (enabled or not).
	ChainKeys() []string
	Allowed(address string, planChains []string) (chains.Address, error)
	Scan(ctx context.Context, req scan.ScanRequest) (*scan.Report, error)
	Catalogue() *risk.Catalogue
}

// Deps are the server's collaborators. Metrics and Logger may be nil.
type Deps struct {
	Scanner Scanner
	Store   store.Store
	Auth    Authenticator
	Limiter ratelimit.Limiter
	// PlanLimiters, by plan name, replace Limiter for that plan's keys
	// (e.g. a limiter that fails open while Redis is down).
	PlanLimiters map[string]ratelimit.Limiter
	// Checks are the backends /readyz reports; nil means the store alone.
	Checks  []Check
	Metrics *metrics.Metrics
	Logger  *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Pages, if not nil, adds the web pages and badges beside the API.
	Pages Pages
	// Watchlist, if not nil, serves /api/v1/watchlist (premium plans).
	Watchlist store.Watchlist
	// Webhooks, if not nil, serves /api/v1/webhooks (premium plans).
	Webhooks *webhook.Service
}

// Pages are routes served beside the API (*web.Pages implements it).
type Pages interface {
	Register(mux *http.ServeMux)
}

// Server is the API's http.Handler.
type Server struct {
	scanner  Scanner
	store    store.Store
	recorder *recorder
	quota    *quotaHolds
	auth     Authenticator
	limiter  ratelimit.Limiter
	// planLimiters replace limiter for the keys of the plans they name.
	planLimiters map[string]ratelimit.Limiter
	checks       []Check
	metrics      *metrics.Metrics
	log          *slog.Logger
	now          func() time.Time
	pages        Pages
	watchlist    store.Watchlist
	webhooks     *webhook.Service
	handler      http.Handler
}

// NewServer returns the API handler.
func NewServer(d Deps) (*Server, error) {
	if d.Scanner == nil || d.Store == nil || d.Auth == nil || d.Limiter == nil {
		return nil, errors.New("httpapi: Scanner, Store, Auth and Limiter are required")
	}
	s := &Server{
		scanner:      d.Scanner,
		store:        d.Store,
		recorder:     newRecorder(d.Store),
		quota:        newQuotaHolds(),
		auth:         d.Auth,
		limiter:      d.Limiter,
		planLimiters: d.PlanLimiters,
		checks:       d.Checks,
		metrics:      d.Metrics,
		log:          d.Logger,
		now:          d.Now,
		pages:        d.Pages,
		watchlist:    d.Watchlist,
		webhooks:     d.Webhooks,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.checks == nil {
		s.checks = []Check{StoreCheck("store", d.Store)}
	}
	s.handler = s.observe(s.cleanPaths(s.routes()))
	return s, nil
}

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }
