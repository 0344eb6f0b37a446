package httpapi

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// storeTimeout bounds the history and usage writes that follow a scan;
// they run detached from the client so a hang-up loses no row.
const storeTimeout = 10 * time.Second

// decodeScanTarget reads a {"address"} request body strictly and checks the
// address is one the key's plan may scan, before anything is charged.
func (s *Server) decodeScanTarget(w http.ResponseWriter, r *http.Request, a *Account) (string, chains.Address, error) {
	if err := checkJSONContentType(r); err != nil {
		return "", chains.Address{}, err
	}
	address, err := decodeScanRequest(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return "", chains.Address{}, err
	}
	addr, err := s.scanner.Allowed(address, a.Chains)
	if err != nil {
		return "", chains.Address{}, err
	}
	return address, addr, nil
}

// scanAndRecord admits a charged scan of address, runs it, encodes the
// report and records its history row and usage before returning: what
// POST /scan answers and what a watchlist entry takes as its baseline.
func (s *Server) scanAndRecord(w http.ResponseWriter, r *http.Request, a *Account, address string) (*scan.Report, []byte, error) {
	release, err := s.admit(w, r, a)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	// From here the scan's row may join a group commit (see recorder).
	saved := s.recorder.expect()
	defer saved()
	rep, err := s.scanner.Scan(r.Context(), scan.ScanRequest{Address: address, Chains: a.Chains, Priority: a.Plan.Priority})
	if err != nil {
		return nil, nil, err
	}
	enc, err := rep.EncodeShared()
	if err != nil {
		return nil, nil, err
	}
	err = s.record(r.Context(), a, rep, enc, r.RemoteAddr)
	saved()
	if err != nil {
		return nil, nil, err
	}
	return rep, enc.JSON, nil
}

// handleScan is POST /api/v1/scan: validate the request before charging
// it, check the plan's quota and rate, scan, then record history and
// usage before answering.
func (s *Server) handleScan(w http.ResponseWriter, r *http.Request, a *Account) {
	address, _, err := s.decodeScanTarget(w, r, a)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	_, b, err := s.scanAndRecord(w, r, a, address)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeWholeJSON(w, r, http.StatusOK, b)
}

// record stores the scan in history and charges it to the key's usage. A
// report answered from a stored encoding is recorded as that encoding
// (stored once for all its answers) and its own splices. client is the
// connection the scan came by (the recorder's measure of who may send
// the next row).
func (s *Server) record(ctx context.Context, a *Account, rep *scan.Report, enc scan.Encoded, client string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	now := s.now().UTC()
	sc := store.Scan{
		ID:        rep.ScanID,
		KeyID:     a.Key.ID,
		Address:   rep.Address,
		Chain:     rep.Chain,
		RiskLevel: string(rep.RiskLevel),
		Score:     rep.OverallRiskScore,
		Cached:    rep.Cached,
		ScannedAt: now,
		Report:    enc.JSON,
	}
	if enc.Base != nil {
		sc.Base = &store.Base{Digest: enc.Digest, Body: enc.Base}
		sc.Edits = make([]store.Edit, len(enc.Splices))
		for i, sp := range enc.Splices {
			sc.Edits[i] = store.Edit{From: sp.From, To: sp.To, With: sp.With}
		}
	}
	err := s.recorder.save(ctx, sc, store.Day(now), client)
	if err != nil {
		return fault.Wrap(err, fault.Unavailable, "the scan could not be recorded; retry")
	}
	return nil
}

// untilMidnight is how long until the UTC day (and the daily quota) turns.
func untilMidnight(now time.Time) time.Duration {
	now = now.UTC()
	next := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 0, 0, time.UTC)
	return next.Sub(now)
}

// seconds rounds d up to whole seconds, at least 1 (for Retry-After).
func seconds(d time.Duration) int64 {
	s := int64(math.Ceil(d.Seconds()))
	if s < 1 {
		s = 1
	}
	return s
}

// admit applies the plan's daily quota and per-minute rate to one scan and
// sets the RateLimit-* headers (of the per-minute window; of the quota
// when that is what refuses). Unlimited plans pass with no headers. An
// admitted scan holds its place in the quota until release, which the
// caller calls once the scan is recorded or has failed.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, a *Account) (release func(), err error) {
	release = func() {}
	h := w.Header()
	if q := a.Plan.DailyQuota; q > 0 {
		now := s.now()
		used, err := s.store.Usage(r.Context(), a.Key.ID, store.Day(now))
		if err != nil {
			return nil, fault.Wrap(fmt.Errorf("read usage: %w", err), fault.Unavailable, "usage could not be read; retry")
		}
		held, ok := s.quota.take(a.Key.ID, used, q)
		if !ok {
			reset := strconv.FormatInt(seconds(untilMidnight(now)), 10)
			h.Set("RateLimit-Limit", strconv.FormatInt(q, 10))
			h.Set("RateLimit-Remaining", "0")
			h.Set("RateLimit-Reset", reset)
			h.Set("Retry-After", reset)
			return nil, fault.Errorf(fault.QuotaExceeded, "the daily quota of %d scans is used up; it resets at 00:00 UTC", q)
		}
		release = held
	}
	if rate := a.Plan.RatePerMinute; rate > 0 {
		limiter := s.limiter
		if l, ok := s.planLimiters[a.Plan.Name]; ok {
			limiter = l
		}
		d, err := limiter.Allow(r.Context(), "scan:"+a.Key.ID, rate, time.Minute)
		if err != nil {
			release()
			return nil, fault.Wrap(fmt.Errorf("rate limit: %w", err), fault.Unavailable, "the rate limiter is unavailable; retry")
		}
		if d.Unchecked {
			// Allowed without a count (fail open): no headers to tell.
			return release, nil
		}
		h.Set("RateLimit-Limit", strconv.FormatInt(d.Limit, 10))
		h.Set("RateLimit-Remaining", strconv.FormatInt(max(d.Remaining, 0), 10))
		h.Set("RateLimit-Reset", strconv.FormatInt(seconds(d.Reset), 10))
		if !d.Allowed {
			h.Set("Retry-After", strconv.FormatInt(seconds(d.RetryAfter), 10))
			release()
			return nil, fault.Errorf(fault.RateLimited, "the plan allows %d scans per minute", rate)
		}
	}
	return release, nil
}
