package httpapi

import (
	"context"
	_ "embed"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store"
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
	used, err := s.store.Usage(r.Context(), a.Key.ID, store.Day(now))
	if err != nil {
		s.writeError(w, r, storeError(err, "read usage"))
		return
	}
	u := Usage{
		KeyID: a.Key.ID, Plan: a.Plan.Name, Day: store.Day(now), ScansToday: used,
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

// Health is the answer of /healthz.
type Health struct {
	Status string `json:"status"`
}

func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	s.writeJSON(w, r, http.StatusOK, Health{Status: "ok"})
}

// Backend states in /readyz.
const (
	// BackendOK: the backend works as configured.
	BackendOK = "ok"
	// BackendDegraded: the instance serves without it (a fallback runs).
	BackendDegraded = "degraded"
	// BackendDown: scans cannot be served as they should; /readyz is 503.
	BackendDown = "down"
)

// Backend is one backend's line in /readyz.
type Backend struct {
	// Kind is the implementation: sqlite, postgres, redis, memory, queue,
	// journal.
	Kind string `json:"kind"`
	// Status is BackendOK, BackendDegraded or BackendDown.
	Status string `json:"status"`
	// Detail says what a degraded or down state means for scans; it never
	// holds a URL or credential.
	Detail string `json:"detail,omitempty"`
	// Pending and Capacity describe a queue.
	Pending  *int `json:"pending,omitempty"`
	Capacity *int `json:"capacity,omitempty"`
}

// Check is one backend /readyz reports on.
type Check struct {
	// Name is the backend's role: store, history_queue, cache, limiter,
	// dedupe.
	Name string
	// Probe returns the backend's state; it must return by ctx's deadline.
	Probe func(ctx context.Context) Backend
}

// StoreCheck reports st as down when it does not answer a ping.
func StoreCheck(kind string, st store.Store) Check {
	return Check{Name: "store", Probe: func(ctx context.Context) Backend {
		if err := st.Ping(ctx); err != nil {
			return Backend{Kind: kind, Status: BackendDown, Detail: "not reachable: " + redact(err.Error())}
		}
		return Backend{Kind: kind, Status: BackendOK}
	}}
}

// Readiness is the answer of /readyz: "ready" when every backend is ok,
// "degraded" (still 200) when some run on a fallback, "unavailable" (503)
// when one is down.
type Readiness struct {
	Status   string             `json:"status"`
	Backends map[string]Backend `json:"backends"`
}

// readyTimeout bounds all of /readyz's probes.
const readyTimeout = 2 * time.Second

// handleReadyz probes every backend at once and reports each.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	states := make([]Backend, len(s.checks))
	var wg sync.WaitGroup
	for i, c := range s.checks {
		wg.Go(func() { states[i] = c.Probe(ctx) })
	}
	wg.Wait()
	out := Readiness{Status: "ready", Backends: make(map[string]Backend, len(states))}
	for i, st := range states {
		out.Backends[s.checks[i].Name] = st
		switch st.Status {
		case BackendDown:
			out.Status = "unavailable"
		case BackendDegraded:
			if out.Status == "ready" {
				out.Status = "degraded"
			}
		}
	}
	code := http.StatusOK
	if out.Status == "unavailable" {
		code = http.StatusServiceUnavailable
		s.log.WarnContext(r.Context(), "not ready", "request_id", requestID(r.Context()), "backends", out.Backends)
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, code, out)
}
