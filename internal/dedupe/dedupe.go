// Package dedupe runs identical work in flight once and hands its result to
// every caller that asked for it meanwhile: in process (memory) or across
// instances (redis).
package dedupe

import "context"

// Group deduplicates work by key. It satisfies scan.Group.
type Group interface {
	// Do runs fn once for all concurrent callers with the same key and
	// returns its result to each; shared is true for callers that got
	// another caller's result. A caller whose ctx ends stops waiting; the
	// work itself stops only when every caller has stopped waiting.
	// Results are not kept once the work is done: Do is no cache.
	Do(ctx context.Context, key string, fn func(ctx context.Context) ([]byte, error)) (v []byte, shared bool, err error)
}
