package httpapi

import (
	"errors"
	"net/http"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// WatchEntry is one watchlist entry as the API answers it.
type WatchEntry struct {
	ID        string        `json:"id"`
	Address   string        `json:"address"`
	Chain     string        `json:"chain"`
	Baseline  WatchBaseline `json:"baseline"`
	CreatedAt time.Time     `json:"created_at"`
}

// WatchBaseline is the scan a watchlist entry started from.
type WatchBaseline struct {
	ScanID           string  `json:"scan_id"`
	RiskLevel        string  `json:"risk_level"`
	OverallRiskScore float64 `json:"overall_risk_score"`
}

// WatchList is the answer of GET /api/v1/watchlist.
type WatchList struct {
	Watches []WatchEntry `json:"watches"`
	Limit   int          `json:"limit"`
}

func watchEntry(w store.Watch) WatchEntry {
	return WatchEntry{
		ID: w.ID, Address: w.Address, Chain: w.Chain, CreatedAt: w.CreatedAt.UTC(),
		Baseline: WatchBaseline{ScanID: w.BaselineScanID, RiskLevel: w.BaselineLevel, OverallRiskScore: w.BaselineScore},
	}
}

// watchOnly refuses plans without a watchlist, and servers without one.
func (s *Server) watchOnly(next func(http.ResponseWriter, *http.Request, *Account)) func(http.ResponseWriter, *http.Request, *Account) {
	return func(w http.ResponseWriter, r *http.Request, a *Account) {
		if a.Plan.WatchLimit <= 0 {
			s.writeProblem(w, r, fault.PlanForbidden, "watchlists and alerts need the premium plan")
			return
		}
		next(w, r, a)
	}
}

// handleCreateWatch is POST /api/v1/watchlist: scan the token (or reuse a
// cached scan) as the entry's baseline, record that scan in history like
// any other, then add the entry within the plan's watch limit. Watching a
// token the key already watches answers the existing entry with 200.
func (s *Server) handleCreateWatch(w http.ResponseWriter, r *http.Request, a *Account) {
	address, addr, err := s.decodeScanTarget(w, r, a)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// An entry the key has is answered as is; a full list is refused
	// before paying for a scan.
	existing, err := s.watchlist.ListWatches(r.Context(), a.Key.ID)
	if err != nil {
		s.writeError(w, r, storeError(err, "list watches"))
		return
	}
	for _, e := range existing {
		if e.Address == addr.Canonical {
			s.writeJSON(w, r, http.StatusOK, watchEntry(e))
			return
		}
	}
	if len(existing) >= a.Plan.WatchLimit {
		s.writeError(w, r, watchLimitError(a.Plan.WatchLimit))
		return
	}
	rep, _, err := s.scanAndRecord(w, r, a, address)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	entry, created, err := s.watchlist.CreateWatch(r.Context(), store.Watch{
		ID: store.NewWatchID(), KeyID: a.Key.ID, Address: rep.Address, Chain: rep.Chain, CreatedAt: s.now().UTC(),
		BaselineScanID: rep.ScanID, BaselineLevel: string(rep.RiskLevel), BaselineScore: rep.OverallRiskScore,
	}, a.Plan.WatchLimit)
	if errors.Is(err, store.ErrWatchLimit) {
		s.writeError(w, r, watchLimitError(a.Plan.WatchLimit))
		return
	}
	if err != nil {
		s.writeError(w, r, storeError(err, "create watch"))
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK
	} else {
		w.Header().Set("Location", "/api/v1/watchlist/"+entry.ID)
	}
	s.writeJSON(w, r, status, watchEntry(entry))
}

func watchLimitError(limit int) error {
	return fault.Errorf(fault.PlanForbidden, "your plan allows %d watched tokens and they are all in use; delete one first", limit)
}

// handleListWatches is GET /api/v1/watchlist: the key's entries, oldest
// first.
func (s *Server) handleListWatches(w http.ResponseWriter, r *http.Request, a *Account) {
	list, err := s.watchlist.ListWatches(r.Context(), a.Key.ID)
	if err != nil {
		s.writeError(w, r, storeError(err, "list watches"))
		return
	}
	out := WatchList{Watches: make([]WatchEntry, 0, len(list)), Limit: a.Plan.WatchLimit}
	for _, e := range list {
		out.Watches = append(out.Watches, watchEntry(e))
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, r, http.StatusOK, out)
}

// handleDeleteWatch is DELETE /api/v1/watchlist/{id}: 204, or 404 when the
// key has no such entry.
func (s *Server) handleDeleteWatch(w http.ResponseWriter, r *http.Request, a *Account) {
	err := s.watchlist.DeleteWatch(r.Context(), a.Key.ID, r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		s.writeProblem(w, r, fault.NotFound, "no such watchlist entry for this key")
		return
	}
	if err != nil {
		s.writeError(w, r, storeError(err, "delete watch"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
