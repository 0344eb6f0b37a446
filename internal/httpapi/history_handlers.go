package httpapi

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

const (
	defaultPageSize = 20
	maxPageSize     = 100
	// exportDeadline is how long one export may stream, past the server's
	// write timeout.
	exportDeadline = 10 * time.Minute
)

// ScanSummary is one row of GET /api/v1/scans.
type ScanSummary struct {
	ScanID           string    `json:"scan_id"`
	Address          string    `json:"address"`
	Chain            string    `json:"chain"`
	RiskLevel        string    `json:"risk_level"`
	OverallRiskScore float64   `json:"overall_risk_score"`
	Cached           bool      `json:"cached"`
	CreatedAt        time.Time `json:"created_at"`
}

// ScanPage is the answer of GET /api/v1/scans.
type ScanPage struct {
	Scans      []ScanSummary `json:"scans"`
	NextCursor *string       `json:"next_cursor"`
}

func summary(sc store.Scan) ScanSummary {
	return ScanSummary{
		ScanID: sc.ID, Address: sc.Address, Chain: sc.Chain, RiskLevel: sc.RiskLevel,
		OverallRiskScore: sc.Score, Cached: sc.Cached, CreatedAt: sc.ScannedAt.UTC(),
	}
}

// historyOnly refuses plans without history and export.
func (s *Server) historyOnly(next func(http.ResponseWriter, *http.Request, *Account)) func(http.ResponseWriter, *http.Request, *Account) {
	return func(w http.ResponseWriter, r *http.Request, a *Account) {
		if !a.Plan.History {
			s.writeProblem(w, r, fault.PlanForbidden, "scan history and export need the premium plan")
			return
		}
		next(w, r, a)
	}
}

// filterParams are the parameters of a scan filter; pageParams those of
// a page of them.
var (
	filterParams = []string{"chain", "level", "from", "to"}
	pageParams   = []string{"cursor", "limit"}
)

// parseFilter reads chain, level, from, to (RFC 3339; to is exclusive),
// cursor and limit from the query.
func parseFilter(q query, keyID string, paged bool) (store.ScanFilter, error) {
	f := store.ScanFilter{KeyID: keyID, Chain: q["chain"], Level: q["level"]}
	if f.Level != "" && risk.LevelOf(levelScore(f.Level)) != risk.Level(f.Level) {
		return f, fault.Errorf(fault.InvalidRequest, "level must be minimal, low, medium, high or critical")
	}
	for name, dst := range map[string]*time.Time{"from": &f.From, "to": &f.To} {
		if v := q[name]; v != "" {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return f, fault.Errorf(fault.InvalidRequest, "%s must be an RFC 3339 time such as 2026-11-21T10:00:00Z", name)
			}
			*dst = t.UTC()
		}
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		return f, fault.Errorf(fault.InvalidRequest, "from must be before to")
	}
	if !paged {
		return f, nil
	}
	f.Cursor = q["cursor"]
	f.Limit = defaultPageSize
	if v := q["limit"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPageSize {
			return f, fault.Errorf(fault.InvalidRequest, "limit must be a whole number from 1 to %d", maxPageSize)
		}
		f.Limit = n
	}
	return f, nil
}

// levelScore is a score inside level's band, to validate level names
// against the one definition of the bands.
func levelScore(level string) float64 {
	switch risk.Level(level) {
	case risk.Minimal:
		return 0
	case risk.LevelLow:
		return 20
	case risk.LevelMedium:
		return 40
	case risk.LevelHigh:
		return 60
	case risk.LevelCritical:
		return 80
	}
	return -1
}

func (s *Server) handleListScans(w http.ResponseWriter, r *http.Request, a *Account) {
	q, err := parseQuery(r.URL.RawQuery, slices.Concat(filterParams, pageParams)...)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f, err := parseFilter(q, a.Key.ID, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rows, next, err := s.store.FindScans(r.Context(), f)
	if err != nil {
		s.writeError(w, r, storeError(err, "list scans"))
		return
	}
	page := ScanPage{Scans: make([]ScanSummary, 0, len(rows))}
	for _, sc := range rows {
		page.Scans = append(page.Scans, summary(sc))
	}
	if next != "" {
		page.NextCursor = &next
	}
	s.writeJSON(w, r, http.StatusOK, page)
}

func (s *Server) handleGetScan(w http.ResponseWriter, r *http.Request, a *Account) {
	sc, err := s.store.FindScan(r.Context(), a.Key.ID, r.PathValue("scan_id"))
	if err != nil {
		s.writeError(w, r, storeError(err, "find scan"))
		return
	}
	s.writeRawJSON(w, http.StatusOK, scan.Historical(sc.Report))
}

// storeError keeps a store's fault codes (a bad cursor is invalid_request)
// and turns not-found into a 404.
func storeError(err error, op string) error {
	if errors.Is(err, store.ErrNotFound) {
		return fault.Wrap(err, fault.NotFound, "no such scan for this key")
	}
	if fault.CodeOf(err) != fault.Internal {
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
}

// csvHeader is the export's CSV columns.
var csvHeader = []string{"scan_id", "created_at", "address", "chain", "risk_level", "overall_risk_score", "cached"}

// handleExport streams every scan of the key matching the filters, as CSV
// (one summary row per scan) or NDJSON (one full report per line). Rows go
// out as the store yields them; nothing is held in memory.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request, a *Account) {
	q, err := parseQuery(r.URL.RawQuery, append([]string{"format"}, filterParams...)...)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	format := q["format"]
	if format != "csv" && format != "ndjson" {
		s.writeProblem(w, r, fault.InvalidRequest, "format must be csv or ndjson")
		return
	}
	f, err := parseFilter(q, a.Key.ID, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(exportDeadline))

	bw := bufio.NewWriterSize(w, 32<<10)
	cw := csv.NewWriter(bw)
	started, rows := false, 0
	// The file's headers go out with its first row, so that an export
	// failing before it is a plain problem document, not an attachment.
	start := func() {
		if !started {
			started = true
			h := w.Header()
			h.Set("Cache-Control", "no-store")
			if format == "csv" {
				h.Set("Content-Type", "text/csv; charset=utf-8")
			} else {
				h.Set("Content-Type", "application/x-ndjson")
			}
			h.Set("Content-Disposition", `attachment; filename="tokenrisk-scans.`+format+`"`)
			w.WriteHeader(http.StatusOK)
			if format == "csv" {
				_ = cw.Write(csvHeader)
			}
		}
	}
	err = s.store.ExportScans(r.Context(), f, func(sc store.Scan) error {
		start()
		rows++
		if format == "csv" {
			cw.Write([]string{sc.ID, sc.ScannedAt.UTC().Format(time.RFC3339Nano), sc.Address, sc.Chain, sc.RiskLevel,
				strconv.FormatFloat(sc.Score, 'f', -1, 64), strconv.FormatBool(sc.Cached)})
			cw.Flush()
			if err := cw.Error(); err != nil {
				return err
			}
		} else {
			if _, err := bw.Write(scan.Historical(sc.Report)); err != nil {
				return err
			}
			if err := bw.WriteByte('\n'); err != nil {
				return err
			}
		}
		if rows%500 == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
			_ = rc.Flush()
		}
		return nil
	})
	if err != nil {
		if !started {
			s.writeError(w, r, storeError(err, "export scans"))
			return
		}
		// Headers are gone: cut the stream so the client sees it is
		// incomplete rather than a short but well-formed file.
		s.log.ErrorContext(r.Context(), "export aborted", "request_id", requestID(r.Context()), "rows", rows, "err", redact(err.Error()))
		panic(http.ErrAbortHandler)
	}
	start()
	cw.Flush()
	_ = bw.Flush()
}
