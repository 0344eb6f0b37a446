package main

import (
	"log/slog"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/web"
)

// webPlan is the plan whose chains, priority and (by default) rate the
// web page's keyless scans get.
const webPlan = "free"

// webPages builds the web pages and badges: keyless page scans run as the
// free plan, at --web-rate per IP (default the free plan's rate).
func webPages(cfg *config.Config, plans auth.Plans, reg *chains.Registry, engine *scan.Engine, st store.Store,
	limiter ratelimit.Limiter, examples []web.Example, log *slog.Logger) (*web.Pages, error) {
	plan, ok := plans.Lookup(webPlan)
	rate := int64(cfg.WebRate)
	if rate < 0 {
		rate = plan.RatePerMinute // 0 (off) without a free plan
		if ok && rate == 0 {
			// An unlimited free plan still gets a per-IP bound on the page.
			rate = 10
		}
	}
	if !ok && rate > 0 {
		log.Warn("web: no free plan; page scans use no chain", "plan", webPlan)
	}
	trusted, err := cfg.TrustedProxies()
	if err != nil {
		return nil, err
	}
	return web.New(web.Deps{
		Scanner: engine, Store: st, Limiter: limiter, Rate: rate, TrustedProxies: trusted, PublicURL: cfg.PublicURL, Examples: examples,
		Chains: plan.AllowedChains(engine.ChainKeys()), Priority: plan.Priority, Registry: reg,
		Logger: log.WithGroup("web"),
	})
}

// devnetExampleKinds are the dev chain's tokens the home page offers, one
// of each kind of verdict: clean, a high tax, a honeypot, an owner power,
// an upgradeable proxy.
var devnetExampleKinds = []struct{ kind, label string }{
	{"clean", "a clean token"},
	{"tax_sell_high", "a 30% sell tax"},
	{"honeypot_sell_blocked", "a honeypot"},
	{"mintable", "an owner who can mint"},
	{"proxy_upgradeable", "an upgradeable proxy"},
}

// devnetExamples are the home page's example tokens on the dev chain.
func devnetExamples(m devnet.Manifest) []web.Example {
	var out []web.Example
	for _, k := range devnetExampleKinds {
		if tok, ok := m.Token(k.kind); ok {
			out = append(out, web.Example{Label: k.label, Address: tok.Address})
		}
	}
	return out
}
