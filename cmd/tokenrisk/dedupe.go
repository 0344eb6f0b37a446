package main

import (
	"log/slog"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	dederedis "github.com/tokenrisk/tokenrisk/internal/dedupe/redis"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// sharedDedupe runs identical in-flight scans once across instances; when
// Redis fails it dedupes within this instance only (logged, at most once
// per logEvery).
func sharedDedupe(client *goredis.Client, log *slog.Logger) scan.Group {
	return dederedis.New(client, dederedis.Options{
		OnError: throttled(log, "redis dedupe failing; deduping in process only"),
	})
}

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
