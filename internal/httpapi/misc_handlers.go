package httpapi

import (
	"context"
	_ "embed"
	"net/http"
	"slices"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the API's OpenAPI 3.1 document.
func OpenAPI() []byte { return slices.Clone(openAPI) }

// Usage is the answer of GET /api/v1/usage.
type Usage struct {
	KeyID string `json:"key_id"`
	Plan  string `json:"plan"`
	// Day is the UTC day the counters are for.
	Day        string    `json:"day"`
	ScansToday int64     `json:"scans_today"`
	DailyQuota *int64    `json:"daily_quota"`
	Remaining  *int64    `json:"remaining_today"`
	RatePerMin *int64    `json:"rate_per_minute"`
	ResetsAt   time.Time `json:"resets_at"`
	Chains     []string  `json:"chains"`
	Priority   string    `json:"queue_priority"`
	History    bool      `json:"history"`
}

func (s *Server) handleUsage(w http.ResponseWriter, r *http.Request, a *Account) {
	now := s.now().UTC()
	used, err := s.store.Usage(r.Context(), a.Key.ID, day(now))
	if err != nil {
		s.writeError(w, r, storeError(err, "read usage"))
		return
	}
	u := Usage{
		KeyID: a.Key.ID, Plan: a.Plan.Name, Day: day(now), ScansToday: used,
		ResetsAt: now.Add(untilMidnight(now)), Chains: a.Chains,
		Priority: a.Plan.Priority.String(), History: a.Plan.History,
	}
	if u.Chains == nil {
		u.Chains = []string{}
	}
	if q := a.Plan.DailyQuota; q > 0 {
		rem := max(q-used, 0)
		u.DailyQuota, u.Remaining = &q, &rem
	}
	if rate := a.Plan.RatePerMinute; rate > 0 {
		u.RatePerMin = &rate
	}
	s.writeJSON(w, r, http.StatusOK, u)
}

// FlagList is the answer of GET /api/v1/flags.
type FlagList struct {
	Flags []risk.Definition `json:"flags"`
}

func (s *Server) handleFlags(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.writeJSON(w, r, http.StatusOK, FlagList{Flags: s.scanner.Catalogue().All()})
}

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.writeRawJSON(w, http.StatusOK, openAPI)
}

// Health is the answer of /healthz and /readyz.
type Health struct {
	Status string `json:"status"`
}

func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	s.writeJSON(w, r, http.StatusOK, Health{Status: "ok"})
}

// handleReadyz reports ready only when the store answers a ping.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.log.WarnContext(r.Context(), "store not ready", "request_id", requestID(r.Context()), "err", redact(err.Error()))
		s.writeProblem(w, r, fault.Unavailable, "the store is not reachable")
		return
	}
	s.writeJSON(w, r, http.StatusOK, Health{Status: "ready"})
}
