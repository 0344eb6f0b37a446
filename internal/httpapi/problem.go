package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

// statusOf is the one map from error codes to HTTP statuses.
var statusOf = map[fault.Code]int{
	fault.InvalidJSON:          http.StatusBadRequest,
	fault.InvalidAddress:       http.StatusBadRequest,
	fault.InvalidChecksum:      http.StatusBadRequest,
	fault.InvalidRequest:       http.StatusBadRequest,
	fault.InvalidWebhookURL:    http.StatusBadRequest,
	fault.Unauthorized:         http.StatusUnauthorized,
	fault.PlanForbidden:        http.StatusForbidden,
	fault.NotFound:             http.StatusNotFound,
	fault.TokenNotFound:        http.StatusNotFound,
	fault.MethodNotAllowed:     http.StatusMethodNotAllowed,
	fault.RequestTimeout:       http.StatusRequestTimeout,
	fault.BodyTooLarge:         http.StatusRequestEntityTooLarge,
	fault.UnsupportedMediaType: http.StatusUnsupportedMediaType,
	fault.NotAToken:            http.StatusUnprocessableEntity,
	fault.RateLimited:          http.StatusTooManyRequests,
	fault.QuotaExceeded:        http.StatusTooManyRequests,
	fault.Overloaded:           http.StatusServiceUnavailable,
	fault.Unavailable:          http.StatusServiceUnavailable,
	fault.UpstreamError:        http.StatusBadGateway,
	fault.UpstreamTimeout:      http.StatusGatewayTimeout,
	fault.Internal:             http.StatusInternalServerError,
}

// StatusOf returns the HTTP status of an error code.
func StatusOf(c fault.Code) int {
	if s, ok := statusOf[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Problem is an RFC 9457 problem document with tokenrisk's code and
// request id.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
}

// problemType is the type URI of a code's problem.
func problemType(c fault.Code) string { return "urn:tokenrisk:problem:" + string(c) }

// writeError answers err as problem+json. Errors without a fault code are
// logged and answered as a bare 500, so that no cause, URL or stack
// reaches the client. overloaded answers carry Retry-After.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := fault.CodeOf(err)
	if r.Context().Err() != nil && (code == fault.Internal || errors.Is(err, context.Canceled)) {
		// The client hung up: nobody reads an answer, and it is no
		// failure of ours; the access log and metrics count it as
		// StatusClientClosed.
		s.log.DebugContext(r.Context(), "request cancelled by client", "request_id", requestID(r.Context()), "err", redact(err.Error()))
		return
	}
	if level, ok := LogLevelOf(err); ok {
		s.log.Log(r.Context(), level, "request failed", "request_id", requestID(r.Context()), "code", code, "err", redact(err.Error()))
	}
	if code == fault.Overloaded && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", strconv.Itoa(int(overloadedRetry/time.Second)))
	}
	s.writeProblem(w, r, code, fault.MessageOf(err))
}

// LogLevelOf says whether an error answered to a client gets a log line of
// its own besides the access log (which names every request's status and
// code), and at which level. ERROR is for what the operator must act on:
// an internal fault, a node that failed or timed out (502/504), a store
// or limiter that is down (503). A client's mistake (every 4xx) and a
// refusal by configuration (a chain this server does not enable, 503
// marked fault.NotServed) get none: the access log's INFO line is the
// record. An overloaded answer (503 overloaded) is load, not a fault: the
// admission metrics count it.
func LogLevelOf(err error) (slog.Level, bool) {
	switch fault.CodeOf(err) {
	case fault.Internal, fault.UpstreamError, fault.UpstreamTimeout:
		return slog.LevelError, true
	case fault.Unavailable:
		if errors.Is(err, fault.NotServed) {
			return 0, false
		}
		return slog.LevelError, true
	}
	return 0, false
}

// urlPattern finds URLs, which may carry credentials (RPC provider keys
// in paths, passwords in DSNs).
var urlPattern = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"']+`)

// redact removes URLs from an error before it is logged: upstream
// clients should not put them in errors, and this makes sure.
func redact(msg string) string {
	return urlPattern.ReplaceAllStringFunc(msg, func(u string) string {
		scheme, _, _ := strings.Cut(u, "://")
		return scheme + "://<redacted>"
	})
}

// Redact removes URLs (which may carry credentials) from an error
// message, for logs written outside this package.
func Redact(msg string) string { return redact(msg) }

// overloadedRetry is the Retry-After of a 503 overloaded answer: scans
// take about a second, so a slot frees within it.
const overloadedRetry = 1 * time.Second

func (s *Server) writeProblem(w http.ResponseWriter, r *http.Request, code fault.Code, detail string) {
	status := StatusOf(code)
	if code == fault.Unauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tokenrisk"`)
	}
	p := Problem{
		Type:      problemType(code),
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    detail,
		Code:      string(code),
		RequestID: requestID(r.Context()),
	}
	b, err := json.Marshal(p)
	if err != nil {
		s.log.ErrorContext(r.Context(), "encode problem", "err", err)
		b = []byte(`{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"internal error","code":"internal","request_id":""}`)
		status = http.StatusInternalServerError
	}
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeJSON answers v as JSON with status.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeRawJSON(w, status, b)
}

func (s *Server) writeRawJSON(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(b)
	_, _ = w.Write([]byte{'\n'})
}
