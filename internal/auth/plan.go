package auth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// AllChains in a plan's Chains grants every configured chain.
const AllChains = "*"

// Priority orders a plan's scans in the admission queue: higher first.
// It is the engine's own type, so a plan's priority reaches the queue as
// configured.
type Priority = scan.Priority

// Priorities, lowest first.
const (
	PriorityLow    = scan.PriorityLow
	PriorityNormal = scan.PriorityNormal
	PriorityHigh   = scan.PriorityHigh
)

// Plan is what a key may do (SPEC §5). Zero limits mean unlimited.
type Plan struct {
	Name string `json:"name"`
	// Chains are the chain keys the plan may scan; AllChains grants all.
	Chains []string `json:"chains"`
	// RatePerMinute bounds scans per minute; 0 = unlimited.
	RatePerMinute int64 `json:"rate_per_minute"`
	// DailyQuota bounds scans per day; 0 = unlimited.
	DailyQuota int64    `json:"daily_quota"`
	Priority   Priority `json:"priority"`
	// History grants scan history and export.
	History bool `json:"history"`
	// WatchLimit bounds the tokens a key may watch (watchlist alerts);
	// 0 = no watchlist.
	WatchLimit int `json:"watch_limit"`
	// Webhooks grants webhook endpoints (signed alerts).
	Webhooks bool `json:"webhooks"`
}

// AllowsChain reports whether the plan may scan on chain.
func (p Plan) AllowsChain(chain string) bool {
	return slices.Contains(p.Chains, AllChains) || slices.Contains(p.Chains, chain)
}

// AllowedChains returns the chains among configured that the plan may use, sorted.
func (p Plan) AllowedChains(configured []string) []string {
	var out []string
	for _, c := range configured {
		if p.AllowsChain(c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Plans are the configured plans by name.
type Plans map[string]Plan

// DefaultPlans returns the SPEC §5 defaults: free, pro and premium.
func DefaultPlans() Plans {
	return Plans{
		"free": {Name: "free", Chains: []string{"ethereum", "bsc"}, RatePerMinute: 10, DailyQuota: 200,
			Priority: PriorityLow},
		"pro": {Name: "pro", Chains: []string{"ethereum", "bsc", "base", "solana"}, RatePerMinute: 60,
			DailyQuota: 10_000, Priority: PriorityNormal},
		"premium": {Name: "premium", Chains: []string{AllChains}, Priority: PriorityHigh, History: true,
			WatchLimit: 1000, Webhooks: true},
	}
}

// ParsePlans reads a JSON array of plans and validates it against the
// configured chain keys (nil skips the chain check).
func ParsePlans(data []byte, configured []string) (Plans, error) {
	var list []Plan
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("auth: parse plans: %w", err)
	}
	ps := make(Plans, len(list))
	for _, p := range list {
		if _, dup := ps[p.Name]; dup {
			return nil, fmt.Errorf("auth: plan %q defined twice", p.Name)
		}
		ps[p.Name] = p
	}
	if err := ps.Validate(configured); err != nil {
		return nil, err
	}
	return ps, nil
}

// Lookup returns the plan called name.
func (ps Plans) Lookup(name string) (Plan, bool) {
	p, ok := ps[name]
	return p, ok
}

// Names returns the plan names, sorted.
func (ps Plans) Names() []string {
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Validate checks every plan: a name matching its key, at least one chain,
// known chains only (when configured is not nil), no negative limits, a
// known priority.
func (ps Plans) Validate(configured []string) error {
	if len(ps) == 0 {
		return fmt.Errorf("auth: no plans configured")
	}
	for _, name := range ps.Names() {
		p := ps[name]
		switch {
		case name == "" || p.Name != name:
			return fmt.Errorf("auth: plan %q is registered as %q", p.Name, name)
		case len(p.Chains) == 0:
			return fmt.Errorf("auth: plan %q has no chains", name)
		case p.RatePerMinute < 0 || p.DailyQuota < 0 || p.WatchLimit < 0:
			return fmt.Errorf("auth: plan %q has a negative limit (0 means unlimited)", name)
		case p.Priority < PriorityLow || p.Priority > PriorityHigh:
			return fmt.Errorf("auth: plan %q has an invalid priority %d", name, int(p.Priority))
		}
		if configured == nil {
			continue
		}
		for _, c := range p.Chains {
			if c != AllChains && !slices.Contains(configured, c) {
				return fmt.Errorf("auth: plan %q names unknown chain %q", name, c)
			}
		}
	}
	return nil
}

// WithChain returns a copy of ps where every plan may also scan chain (serve
// --devnet adds "devnet" this way). ps is left unchanged.
func (ps Plans) WithChain(chain string) Plans {
	out := make(Plans, len(ps))
	for name, p := range ps {
		if !p.AllowsChain(chain) {
			p.Chains = append(slices.Clip(p.Chains), chain)
		}
		out[name] = p
	}
	return out
}
