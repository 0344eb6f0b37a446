package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/client"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// contentSecurityPolicy allows nothing but this origin's own stylesheet,
// script, images and API calls: no inline script or style, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// webKeyID is the history key of scans run from the page without a key.
const webKeyID = "web"

// pageScanTimeout bounds the history write of a page scan.
const pageScanTimeout = 5 * time.Second

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"levelWords": levelWords,
	"pct":        percent,
}).ParseFS(templateFS, "templates/*.html"))

// levels are the level names and what each means for a buyer (SPEC §3).
var levels = map[client.Level]string{
	client.Minimal:  "Nothing found that could hurt a buyer.",
	client.Low:      "Nothing found that could hurt a buyer; minor findings.",
	client.Medium:   "Real but bounded powers, or thin evidence.",
	client.High:     "A privileged party can trap or dilute you.",
	client.Critical: "Likely to lose money now.",
}

func levelWords(l client.Level) string {
	if w, ok := levels[l]; ok {
		return w
	}
	return "Unknown level."
}

// registerPages adds the HTML routes.
func (p *Pages) registerPages(mux *http.ServeMux) {
	protect := http.NewCrossOriginProtection()
	mux.HandleFunc("GET /{$}", p.handleHome)
	mux.HandleFunc("GET /scan", p.handleScanForm)
	mux.HandleFunc("GET /token/{address}", p.handleToken)
	mux.Handle("POST /token/{address}", protect.Handler(http.HandlerFunc(p.handleRescan)))
	assets, _ := fs.Sub(assetFS, "assets")
	files := http.StripPrefix("/assets/", http.FileServerFS(assets))
	mux.Handle("GET /assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Files only: a directory (the embedded tree's listing) is not found.
		name := strings.TrimPrefix(r.URL.Path, "/assets/")
		if fi, err := fs.Stat(assets, name); name == "" || err != nil || fi.IsDir() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	}))
}

// page is what every template gets.
type page struct {
	Title string
	// Status is the HTTP status the page is answered with.
	Status int
	Error  string
	// Address is the form's value.
	Address string
	CanScan bool
	Token   *tokenView
	// Examples are tokens to try (home page, dev chain).
	Examples []Example
	// start is when the handler began (for Server-Timing); zero means
	// when rendering began.
	start time.Time
}

func (p *Pages) render(w http.ResponseWriter, r *http.Request, name string, pg page) {
	start := pg.start
	if start.IsZero() {
		start = time.Now()
	}
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, pg); err != nil {
		p.d.Logger.ErrorContext(r.Context(), "web: render", "page", name, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	h.Set("Server-Timing", fmt.Sprintf("page;dur=%.3f", float64(time.Since(start).Microseconds())/1000))
	status := pg.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes()) //nolint:errcheck // the client went away
}

func (p *Pages) handleHome(w http.ResponseWriter, r *http.Request) {
	p.render(w, r, "home.html", page{Title: "Token risk scanner", CanScan: p.d.Rate > 0, Examples: p.d.Examples})
}

// handleScanForm is the form's target: a valid address goes to its page.
func (p *Pages) handleScanForm(w http.ResponseWriter, r *http.Request) {
	raw := strings.TrimSpace(r.URL.Query().Get("address"))
	addr, err := chains.ParseAddress(raw)
	if err != nil {
		p.render(w, r, "home.html", page{Title: "Token risk scanner", Status: http.StatusBadRequest,
			Error: fault.MessageOf(err), Address: raw, CanScan: p.d.Rate > 0})
		return
	}
	http.Redirect(w, r, "/token/"+url.PathEscape(addr.Canonical), http.StatusSeeOther)
}

// handleToken shows the newest stored verdict of the address with its
// age, or scans it (under the IP's allowance) when none is stored.
func (p *Pages) handleToken(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	addr, ok := p.address(w, r)
	if !ok {
		return
	}
	sc, err := p.d.Store.LatestScan(r.Context(), addr.Canonical)
	switch {
	case err == nil:
		p.renderScan(w, r, scan.Historical(sc.Report), true, start)
		return
	case !errors.Is(err, store.ErrNotFound):
		p.d.Logger.WarnContext(r.Context(), "web: latest scan", "err", err)
	}
	if p.d.Rate <= 0 {
		p.render(w, r, "error.html", page{Title: "Not scanned yet", Status: http.StatusNotFound, Address: addr.Canonical,
			Error: "No verdict is stored for this address, and scans from this page are turned off on this server. Use the API with a key."})
		return
	}
	b, err := p.scan(w, r, addr)
	if err != nil {
		p.renderError(w, r, addr.Canonical, err)
		return
	}
	p.renderScan(w, r, b, false, time.Time{})
}

// handleRescan runs a new scan and shows the page again (a POST, so that
// a reload or a crawler does not spend the allowance).
func (p *Pages) handleRescan(w http.ResponseWriter, r *http.Request) {
	addr, ok := p.address(w, r)
	if !ok {
		return
	}
	if p.d.Rate <= 0 {
		p.renderError(w, r, addr.Canonical, fault.Errorf(fault.PlanForbidden, "scans from this page are turned off on this server; use the API with a key"))
		return
	}
	if _, err := p.scan(w, r, addr); err != nil {
		p.renderError(w, r, addr.Canonical, err)
		return
	}
	http.Redirect(w, r, "/token/"+url.PathEscape(addr.Canonical), http.StatusSeeOther)
}

// address parses the path's address, answering an error page if it is
// not one.
func (p *Pages) address(w http.ResponseWriter, r *http.Request) (chains.Address, bool) {
	raw := r.PathValue("address")
	addr, err := chains.ParseAddress(raw)
	if err != nil {
		p.renderError(w, r, raw, err)
		return chains.Address{}, false
	}
	return addr, true
}

// scan runs one keyless scan under the client IP's allowance and records
// it, so that badges and later visits show it.
func (p *Pages) scan(w http.ResponseWriter, r *http.Request, addr chains.Address) ([]byte, error) {
	if _, err := p.d.Scanner.Allowed(addr.Canonical, p.d.Chains); err != nil {
		return nil, err
	}
	d, err := p.d.Limiter.Allow(r.Context(), "web:"+clientIP(r, p.d.TrustedProxies), p.d.Rate, time.Minute)
	if err != nil {
		return nil, fault.Wrap(fmt.Errorf("web rate limit: %w", err), fault.Unavailable, "the rate limiter is unavailable; retry")
	}
	if !d.Allowed && !d.Unchecked {
		w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(max(d.RetryAfter.Seconds(), 1))), 10))
		return nil, fault.Errorf(fault.RateLimited, "this page allows %d scans per minute from one address; retry in a minute, or use the API with a key", p.d.Rate)
	}
	rep, err := p.d.Scanner.Scan(r.Context(), scan.ScanRequest{Address: addr.Canonical, Chains: p.d.Chains, Priority: p.d.Priority})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return nil, fmt.Errorf("web: encode report: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), pageScanTimeout)
	defer cancel()
	err = p.d.Store.SaveScan(ctx, store.Scan{
		ID: rep.ScanID, KeyID: webKeyID, Address: rep.Address, Chain: rep.Chain, RiskLevel: string(rep.RiskLevel),
		Score: rep.OverallRiskScore, Cached: rep.Cached, ScannedAt: p.d.Now().UTC(), Report: b,
	})
	if err != nil {
		// The verdict is still shown; only later visits miss it.
		p.d.Logger.WarnContext(r.Context(), "web: record page scan", "err", err)
	}
	return b, nil
}

// clientIP is the address a page scan is counted against: the
// connection's, unless it comes from a trusted proxy; then the rightmost
// X-Forwarded-For entry that is not itself a trusted proxy (entries to its
// left are the client's own claims and cannot be believed). A malformed
// entry stops the walk at the last hop that could be believed.
func clientIP(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	hop, err := netip.ParseAddr(host)
	if err != nil || !isTrusted(hop, trusted) {
		return host
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		hop = a.Unmap()
		if !isTrusted(hop, trusted) {
			break
		}
	}
	return hop.String()
}

// isTrusted reports whether a is one of the trusted proxies.
func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	a = a.Unmap()
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func (p *Pages) renderError(w http.ResponseWriter, r *http.Request, address string, err error) {
	code := fault.CodeOf(err)
	if level, ok := httpapi.LogLevelOf(err); ok {
		p.d.Logger.Log(r.Context(), level, "web: page failed", "code", code, "err", httpapi.Redact(err.Error()))
	}
	title := map[fault.Code]string{
		fault.InvalidAddress: "Not an address", fault.InvalidChecksum: "Checksum mismatch",
		fault.TokenNotFound: "No token at this address", fault.NotAToken: "Not a token",
		fault.RateLimited: "Too many scans", fault.PlanForbidden: "Not available here",
	}[code]
	if title == "" {
		title = "The scan could not be completed"
	}
	p.render(w, r, "error.html", page{Title: title, Status: httpapi.StatusOf(code), Error: fault.MessageOf(err), Address: address})
}

// renderScan shows a report; stored says it came from history (its age
// is shown first).
func (p *Pages) renderScan(w http.ResponseWriter, r *http.Request, b []byte, stored bool, start time.Time) {
	v, err := p.tokenView(b, stored)
	if err != nil {
		p.renderError(w, r, "", fmt.Errorf("web: stored report: %w", err))
		return
	}
	p.render(w, r, "token.html", page{
		Title:   fmt.Sprintf("%s (%s): %s risk", v.Name(), v.Report.Chain, v.Report.RiskLevel),
		Address: v.Report.Address, CanScan: p.d.Rate > 0, Token: v, start: start,
	})
}
