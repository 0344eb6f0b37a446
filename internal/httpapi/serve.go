package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// ServeOptions are the HTTP server's timeouts.
type ServeOptions struct {
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	// ShutdownTimeout bounds how long shutdown waits for in-flight
	// requests (scans finishing and their history rows being written).
	ShutdownTimeout time.Duration
	Logger          *slog.Logger
}

// Serve serves h on ln until ctx is done, then shuts down gracefully:
// it stops accepting connections and waits for every in-flight request
// to finish (up to ShutdownTimeout). Request contexts do not derive from
// ctx, so a shutdown does not cancel scans in flight.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, o ServeOptions) error {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ConnContext:       connContext,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(newAnswerListener(ln)) }()
	select {
	case err := <-errc:
		return fmt.Errorf("httpapi: serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing in-flight requests", "timeout", o.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return fmt.Errorf("httpapi: serve: %w", serr)
	}
	if err != nil {
		return fmt.Errorf("httpapi: shutdown: %w", err)
	}
	log.Info("shut down cleanly")
	return nil
}
