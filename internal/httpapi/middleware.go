package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/tokenrisk/tokenrisk/internal/fault"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	accountKey
)

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// validRequestID accepts a client's X-Request-ID only when it is short,
// plain and does not look like a secret, so that it can be echoed and
// logged safely: a client that put its API key there (trk_…) or any
// long base58/hex token (32 or more letters and digits in a row: a key,
// a hash, a session secret) gets a request id of ours instead.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	if len(id) >= 4 && strings.EqualFold(id[:4], "trk_") {
		return false
	}
	run := 0
	for _, c := range id {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			run++
			if run >= secretRun {
				return false
			}
		case c == '-', c == '_', c == '.', c == ':':
			run = 0
		default:
			return false
		}
	}
	return true
}

// secretRun is the length of a run of letters and digits that reads as a
// secret: 128 bits in hex, less than 32 bytes in base58. UUIDs (runs of
// 12) and ULIDs (26) stay below it.
const secretRun = 32

// StatusClientClosed is the status logged and counted for a request
// whose client hung up before it was answered (nginx's 499): nobody got
// an answer, and it is no failure of the server.
const StatusClientClosed = 499

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusRecorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach Flush and deadlines.
func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe gives every request an id, recovers panics as a bare 500, logs
// one line per request and counts it by route pattern and status.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-ID")
		if !validRequestID(id) {
			id = "req_" + ulid.Make().String()
		}
		w.Header().Set("X-Request-ID", id)
		holder := &Account{}
		ctx := context.WithValue(r.Context(), requestIDKey, id)
		r = r.WithContext(context.WithValue(ctx, accountKey, holder))
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
			v := recover()
			// A handler cuts a response it cannot finish (an export whose
			// store failed) with ErrAbortHandler: it is logged and counted
			// like any request, then passed on for net/http to drop the
			// connection.
			aborted := v == http.ErrAbortHandler
			if v != nil && !aborted {
				s.log.ErrorContext(r.Context(), "handler panic", "request_id", id, "panic", redact(fmt.Sprint(v)), "stack", string(debug.Stack()))
				if rec.status == 0 {
					s.writeProblem(rec, r, fault.Internal, "internal error")
				}
			}
			route := r.Pattern
			if route == "" {
				route = "unmatched"
			}
			status := rec.status
			if v == nil && r.Context().Err() != nil && (status == 0 || status >= 500) {
				status = StatusClientClosed
			}
			d := time.Since(start)
			if s.metrics != nil {
				s.metrics.Request(route, status, d)
			}
			var buf [9]slog.Attr // on the stack: no slice to allocate
			attrs := append(buf[:0], slog.String("request_id", id), slog.String("method", r.Method),
				slog.String("route", route), slog.Int("status", status),
				slog.Float64("duration_ms", float64(d.Microseconds())/1000), slog.Int64("bytes", rec.bytes))
			if holder.Key.ID != "" {
				attrs = append(attrs, slog.String("key_id", holder.Key.ID), slog.String("plan", holder.Plan.Name))
			}
			if aborted {
				attrs = append(attrs, slog.Bool("aborted", true))
			}
			s.accessLog(r.Context(), attrs)
			if aborted {
				panic(v)
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// accessLog writes a request's line straight to the logger's handler,
// as Logger.LogAttrs would but without recording the caller's program
// counter (the access log has one call site; runtime.Callers was a
// quarter of the line's cost) or boxing each value in an interface.
func (s *Server) accessLog(ctx context.Context, attrs []slog.Attr) {
	h := s.log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	rec := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
	rec.AddAttrs(attrs...)
	_ = h.Handle(ctx, rec) // a log that cannot be written has nowhere to say so
}

// authed requires a valid bearer key and puts its account in the context.
// The key itself is never logged or echoed.
func (s *Server) authed(next func(http.ResponseWriter, *http.Request, *Account)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		scheme, secret, ok := strings.Cut(h, " ")
		secret = strings.TrimSpace(secret)
		if !ok || !strings.EqualFold(scheme, "Bearer") || secret == "" {
			s.writeProblem(w, r, fault.Unauthorized, "send your API key as Authorization: Bearer <key>")
			return
		}
		key, plan, err := s.auth.Authenticate(r.Context(), secret)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		a := &Account{Key: key, Plan: plan, Chains: plan.AllowedChains(s.scanner.ChainKeys())}
		// The access log reads the account from the outermost request;
		// sharing the pointer through the context keeps it visible there.
		if holder, ok := r.Context().Value(accountKey).(*Account); ok && holder != nil {
			*holder = *a
			a = holder
		}
		next(w, r, a)
	})
}
