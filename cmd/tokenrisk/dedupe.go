package main

import (
	"log/slog"

	goredis "github.com/redis/go-redis/v9"

	dederedis "github.com/tokenrisk/tokenrisk/internal/dedupe/redis"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// sharedDedupe runs identical in-flight scans once across instances; when
// Redis fails it dedupes within this instance only (logged).
func sharedDedupe(client *goredis.Client, log *slog.Logger) scan.Group {
	return dederedis.New(client, dederedis.Options{
		OnError: func(err error) { log.Warn("redis dedupe failing; deduping in process only", "err", err) },
	})
}
