package main

import (
	"log/slog"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/httpapi"
)

// logEvery spaces repeated warnings about one failing backend.
const logEvery = 30 * time.Second

// throttled returns an error callback that logs msg at warn level on the
// first error and then at most once per logEvery, with how many errors
// it did not log, so an outage under load does not flood the log.
func throttled(log *slog.Logger, msg string) func(error) {
	var (
		mu      sync.Mutex
		last    time.Time
		skipped int
	)
	return func(err error) {
		mu.Lock()
		now := time.Now()
		if !last.IsZero() && now.Sub(last) < logEvery {
			skipped++
			mu.Unlock()
			return
		}
		n := skipped
		last, skipped = now, 0
		mu.Unlock()
		log.Warn(msg, "err", httpapi.Redact(err.Error()), "errors_not_logged", n)
	}
}
