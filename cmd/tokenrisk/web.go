package main

import (
	"log/slog"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/config"
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
func webPages(cfg *config.Config, plans auth.Plans, engine *scan.Engine, st store.Store, limiter ratelimit.Limiter, log *slog.Logger) (*web.Pages, error) {
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
		Scanner: engine, Store: st, Limiter: limiter, Rate: rate, TrustedProxies: trusted, PublicURL: cfg.PublicURL,
		Chains: plan.AllowedChains(engine.ChainKeys()), Priority: plan.Priority,
		Logger: log.WithGroup("web"),
	})
}
