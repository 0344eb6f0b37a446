package httpapi

import (
	"net/http"
	"path"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// routes is the whole API in one table. Each path also has a method-less
// pattern answering 405 with Allow, and "/" answers 404, both as
// problem+json rather than the mux's plain text.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()

	mux.Handle("POST /api/v1/scan", s.authed(s.handleScan))
	mux.Handle("POST /api/v1/scan/{$}", s.authed(s.handleScan))
	mux.Handle("GET /api/v1/scans", s.authed(s.historyOnly(s.handleListScans)))
	mux.Handle("GET /api/v1/scans/export", s.authed(s.historyOnly(s.handleExport)))
	mux.Handle("GET /api/v1/scans/{scan_id}", s.authed(s.historyOnly(s.handleGetScan)))
	mux.Handle("GET /api/v1/usage", s.authed(s.handleUsage))
	if s.watchlist != nil {
		mux.Handle("POST /api/v1/watchlist", s.authed(s.watchOnly(s.handleCreateWatch)))
		mux.Handle("GET /api/v1/watchlist", s.authed(s.watchOnly(s.handleListWatches)))
		mux.Handle("DELETE /api/v1/watchlist/{id}", s.authed(s.watchOnly(s.handleDeleteWatch)))
	}
	if s.webhooks != nil {
		wh := func(h func(http.ResponseWriter, *http.Request, *Account)) http.Handler {
			return s.authed(s.webhooksOnly(h))
		}
		mux.Handle("POST /api/v1/webhooks", wh(s.handleCreateWebhook))
		mux.Handle("GET /api/v1/webhooks", wh(s.handleListWebhooks))
		mux.Handle("GET /api/v1/webhooks/{id}", wh(s.handleGetWebhook))
		mux.Handle("DELETE /api/v1/webhooks/{id}", wh(s.handleDeleteWebhook))
		mux.Handle("POST /api/v1/webhooks/{id}/rotate-secret", wh(s.handleRotateSecret))
		mux.Handle("POST /api/v1/webhooks/{id}/test", wh(s.handleTestWebhook))
		mux.Handle("GET /api/v1/webhooks/{id}/deliveries", wh(s.handleListDeliveries))
		mux.Handle("POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry", wh(s.handleRetryDelivery))
	}
	mux.HandleFunc("GET /api/v1/flags", s.handleFlags)
	mux.HandleFunc("GET /api/v1/openapi.json", s.handleOpenAPI)
	mux.HandleFunc("GET /healthz", s.handleHealthz)
	mux.HandleFunc("GET /readyz", s.handleReadyz)
	if s.metrics != nil {
		mux.Handle("GET /metrics", s.metrics.Handler())
	}
	if s.pages != nil {
		s.pages.Register(mux) // HTML pages and badges; API paths stay problem+json
	}

	const get = "GET, HEAD"
	allowed := map[string]string{
		"/api/v1/scan":            "POST",
		"/api/v1/scan/{$}":        "POST",
		"/api/v1/scans":           get,
		"/api/v1/scans/{scan_id}": get,
		"/api/v1/usage":           get,
		"/api/v1/flags":           get,
		"/api/v1/openapi.json":    get,
		"/healthz":                get,
		"/readyz":                 get,
		"/metrics":                get,
	}
	if s.watchlist != nil {
		allowed["/api/v1/watchlist"] = "GET, HEAD, POST"
		allowed["/api/v1/watchlist/{id}"] = "DELETE"
	}
	if s.webhooks != nil {
		allowed["/api/v1/webhooks"] = "GET, HEAD, POST"
		allowed["/api/v1/webhooks/{id}"] = "GET, HEAD, DELETE"
		allowed["/api/v1/webhooks/{id}/rotate-secret"] = "POST"
		allowed["/api/v1/webhooks/{id}/test"] = "POST"
		allowed["/api/v1/webhooks/{id}/deliveries"] = get
		allowed["/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry"] = "POST"
	}
	for path, allow := range allowed {
		mux.Handle(path, s.methodNotAllowed(allow))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.writeProblem(w, r, fault.NotFound, "no such endpoint")
	})
	return mux
}

func (s *Server) methodNotAllowed(allow string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		s.writeProblem(w, r, fault.MethodNotAllowed, r.Method+" is not allowed here; use "+allow)
	})
}

// cleanPaths answers a path that is not canonical (dot segments, repeated
// slashes, no leading slash) with a 404 problem before the mux sees it:
// the mux would redirect it, and a redirect (with an HTML body) is not an
// answer of this API.
func (s *Server) cleanPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; r.Method != http.MethodConnect && cleanPath(p) != p {
			s.writeProblem(w, r, fault.NotFound, "no such endpoint: the path must be canonical (no \".\" or \"..\" segments, no repeated slashes)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// cleanPath is the canonical form of p the mux redirects to: rooted, dot
// segments resolved, slashes single, a trailing slash kept.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}
