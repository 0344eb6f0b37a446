// Package web is tokenrisk's human face: the scan form and shareable token
// pages rendered on the server, and the public listing badges. Templates
// and assets are embedded; nothing is fetched from elsewhere at run time.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Scanner runs the page's scans (*scan.Engine implements it).
type Scanner interface {
	Allowed(address string, planChains []string) (chains.Address, error)
	Scan(ctx context.Context, req scan.ScanRequest) (*scan.Report, error)
}

// Store is what the pages and badges read and write: the newest stored
// scan of an address, and the history row of a page scan.
type Store interface {
	LatestScan(ctx context.Context, address string) (store.Scan, error)
	SaveScan(ctx context.Context, s store.Scan) error
}

// Deps are the pages' collaborators. Scanner and Limiter are needed for
// page scans only; Logger and Now may be nil.
type Deps struct {
	Scanner Scanner
	Store   Store
	// Limiter counts page scans per client IP.
	Limiter ratelimit.Limiter
	// Rate is the page scans one IP may run per minute; 0 turns page scans
	// off (stored verdicts are still shown).
	Rate int64
	// TrustedProxies are the proxies whose X-Forwarded-For names the
	// client for that limit; none: the connection's address is the client.
	TrustedProxies []netip.Prefix
	// Chains and Priority are those of the plan page scans run under.
	Chains   []string
	Priority scan.Priority
	// PublicURL is the server's public base URL: every absolute link a
	// page gives out (the badge embed snippets) starts with it. "" gives
	// relative links; a request's Host header never makes a link (a
	// forged one would otherwise reach a visitor through a cache).
	PublicURL string
	// Examples are tokens the home page offers to scan (the dev chain's,
	// when it runs); none: no list.
	Examples []Example
	// Registry, if set, gives the quote tokens' decimals and symbols, so
	// that pool reserves show in their units (else they stay raw).
	Registry *chains.Registry
	Logger   *slog.Logger
	Now      func() time.Time
}

// Example is a token the home page offers, with words for what it shows.
type Example struct {
	Label   string
	Address string
}

// Pages serves the web pages and badges.
type Pages struct {
	d         Deps
	catalogue *risk.Catalogue
}

// New returns the pages.
func New(d Deps) (*Pages, error) {
	if d.Store == nil {
		return nil, errors.New("web: Store is required")
	}
	if d.Rate > 0 && (d.Scanner == nil || d.Limiter == nil) {
		return nil, errors.New("web: page scans need a Scanner and a Limiter")
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	d.PublicURL = strings.TrimSuffix(d.PublicURL, "/")
	return &Pages{d: d, catalogue: risk.NewCatalogue()}, nil
}

// Register adds the pages' routes to mux.
func (p *Pages) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /badge/{file}", p.handleBadge)
	p.registerPages(mux)
}
