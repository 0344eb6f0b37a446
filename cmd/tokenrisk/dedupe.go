package main

import (
	goredis "github.com/redis/go-redis/v9"

	dedupememory "github.com/tokenrisk/tokenrisk/internal/dedupe/memory"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// sharedDedupe is the in-flight dedupe across instances (in process until
// the Redis group lands).
func sharedDedupe(client *goredis.Client) scan.Group {
	return dedupememory.New()
}
