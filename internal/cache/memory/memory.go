// Package memory is the in-process result cache, tokenrisk's embedded
// default: entries expire after their TTL and the least recently used go
// first when the cache is full.
package memory

import (
	"container/list"
	"context"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/cache"
)

// Options configures a Cache.
type Options struct {
	// MaxEntries bounds the number of entries; 0 means 10 000.
	MaxEntries int
	// MaxBytes bounds the total size of keys and values; 0 means 64 MiB.
	MaxBytes int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Cache is an in-process cache.Cache, safe for concurrent use.
type Cache struct {
	now        func() time.Time
	maxEntries int
	maxBytes   int64

	mu    sync.Mutex
	lru   *list.List // front = most recently used; values are *entry
	items map[string]*list.Element
	bytes int64
}

var _ cache.Cache = (*Cache)(nil)

type entry struct {
	key     string
	value   []byte
	expires time.Time
}

func (e *entry) size() int64 { return int64(len(e.key) + len(e.value)) }

// New returns an empty Cache.
func New(opts Options) *Cache {
	c := &Cache{
		now:        opts.Now,
		maxEntries: opts.MaxEntries,
		maxBytes:   opts.MaxBytes,
		lru:        list.New(),
		items:      make(map[string]*list.Element),
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.maxEntries <= 0 {
		c.maxEntries = 10_000
	}
	if c.maxBytes <= 0 {
		c.maxBytes = 64 << 20
	}
	return c
}

// Get returns a copy of the value stored under key, or false when it is
// absent or expired.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, ok, err := c.View(ctx, key)
	if !ok || err != nil {
		return nil, ok, err
	}
	return append([]byte(nil), v...), true, nil
}

// View returns the value stored under key, shared with the cache (see
// cache.Viewer), or false when it is absent or expired. A stored value is
// never written to: Set stores a new copy.
func (c *Cache) View(_ context.Context, key string) ([]byte, bool, error) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false, nil
	}
	e := el.Value.(*entry)
	if !now.Before(e.expires) {
		c.remove(el)
		return nil, false, nil
	}
	c.lru.MoveToFront(el)
	return e.value[:len(e.value):len(e.value)], true, nil
}

// Set stores a copy of value under key for ttl. A ttl of 0 or less removes
// the key. A value larger than the whole cache is not stored.
func (c *Cache) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.remove(el)
	}
	e := &entry{key: key, value: append([]byte(nil), value...), expires: now.Add(ttl)}
	if ttl <= 0 || e.size() > c.maxBytes {
		return nil
	}
	c.items[key] = c.lru.PushFront(e)
	c.bytes += e.size()
	for len(c.items) > c.maxEntries || c.bytes > c.maxBytes {
		c.remove(c.lru.Back())
	}
	return nil
}

// Len returns the number of entries held, expired ones included until
// they are touched or pushed out.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// remove drops el; the caller holds c.mu.
func (c *Cache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*entry)
	delete(c.items, e.key)
	c.bytes -= e.size()
}
