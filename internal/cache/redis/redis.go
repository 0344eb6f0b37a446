// Package redis is the result cache shared by every instance, on Redis.
package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/cache"
)

// Options configures a Cache.
type Options struct {
	// Prefix starts every Redis key the cache writes; "" means
	// "tokenrisk:".
	Prefix string
}

// Cache is a cache.Cache on Redis; expiry is Redis's own.
type Cache struct {
	client goredis.Cmdable
	prefix string
}

var _ cache.Cache = (*Cache)(nil)

// New returns a Cache on client.
func New(client goredis.Cmdable, opts Options) *Cache {
	c := &Cache{client: client, prefix: opts.Prefix}
	if c.prefix == "" {
		c.prefix = "tokenrisk:"
	}
	return c
}

func (c *Cache) key(k string) string { return c.prefix + "cache:" + k }

// Get returns the value under key, or false on a miss.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, err := c.client.Get(ctx, c.key(key)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cache/redis: get: %w", err)
	}
	return v, true, nil
}

// Set stores value under key for ttl (millisecond precision). A ttl under
// a millisecond removes the key.
func (c *Cache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	var err error
	if ttl < time.Millisecond {
		err = c.client.Del(ctx, c.key(key)).Err()
	} else {
		err = c.client.Set(ctx, c.key(key), value, ttl).Err()
	}
	if err != nil {
		return fmt.Errorf("cache/redis: set: %w", err)
	}
	return nil
}
