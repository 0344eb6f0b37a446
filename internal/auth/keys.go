// Package auth issues and checks API keys and holds the plans they map to.
// A key's secret is shown once and stored only as its SHA-256 hash.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mr-tron/base58"
	"github.com/oklog/ulid/v2"

	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// SecretPrefix starts every API key secret.
const SecretPrefix = "trk_"

// secretBytes is the random part of a secret.
const secretBytes = 32

// DisplayPrefixLen is how many leading characters of a secret are kept in
// store.Key.Prefix, to tell keys apart in listings.
const DisplayPrefixLen = len(SecretPrefix) + 8

// maxNameLen bounds a key's name.
const maxNameLen = 100

// NewKeyID returns a new key id: "key_" and a ULID.
func NewKeyID() string { return "key_" + ulid.Make().String() }

// Hash returns the SHA-256 of a secret, the only form in which it is
// stored.
func Hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// ParseSecret checks that s has the shape of a secret: the prefix, then
// base58 decoding to 32 bytes.
func ParseSecret(s string) error {
	rest, ok := strings.CutPrefix(s, SecretPrefix)
	if !ok {
		return fmt.Errorf("auth: secret does not start with %q", SecretPrefix)
	}
	// Bounding the length first keeps base58 decoding cheap on hostile input.
	if len(rest) < 32 || len(rest) > 48 {
		return fmt.Errorf("auth: secret has %d characters after the prefix", len(rest))
	}
	b, err := base58.Decode(rest)
	if err != nil {
		return fmt.Errorf("auth: secret is not base58: %w", err)
	}
	if len(b) != secretBytes {
		return fmt.Errorf("auth: secret decodes to %d bytes, want %d", len(b), secretBytes)
	}
	return nil
}

// Options configures Keys.
type Options struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Rand is the randomness of secrets; nil means crypto/rand.
	Rand io.Reader
	// CacheTTL is how long a successful lookup is trusted without asking
	// the store again (a revocation made through another instance takes up
	// to this long to apply); 0 means 10s, negative disables the cache.
	CacheTTL time.Duration
	// StaleTTL is how long a cached lookup still serves while the store is
	// unreachable, so scans go on during a database outage; 0 means 10m.
	StaleTTL time.Duration
	// CacheSize bounds the cached lookups; 0 means 10 000.
	CacheSize int
}

// Keys creates, authenticates, lists and revokes API keys.
type Keys struct {
	store store.Store
	plans Plans
	now   func() time.Time
	rand  io.Reader
	opts  Options

	mu     sync.Mutex
	cached map[string]cachedKey // by secret hash
}

type cachedKey struct {
	key     store.Key
	fetched time.Time
}

// NewKeys returns the key service over s, checking keys against plans.
func NewKeys(s store.Store, plans Plans, opts Options) *Keys {
	if opts.CacheTTL == 0 {
		opts.CacheTTL = 10 * time.Second
	}
	if opts.StaleTTL == 0 {
		opts.StaleTTL = 10 * time.Minute
	}
	if opts.CacheSize <= 0 {
		opts.CacheSize = 10_000
	}
	k := &Keys{store: s, plans: plans, now: opts.Now, rand: opts.Rand, opts: opts, cached: map[string]cachedKey{}}
	if k.now == nil {
		k.now = time.Now
	}
	if k.rand == nil {
		k.rand = rand.Reader
	}
	return k
}

// Create issues a key on plan. It returns the secret, which is never
// stored and cannot be shown again, and the key's record. An unknown plan
// or a bad name is fault.InvalidRequest.
func (k *Keys) Create(ctx context.Context, plan, name string) (string, store.Key, error) {
	if _, ok := k.plans.Lookup(plan); !ok {
		return "", store.Key{}, fault.Errorf(fault.InvalidRequest, "unknown plan %q (configured: %s)",
			plan, strings.Join(k.plans.Names(), ", "))
	}
	name = strings.TrimSpace(name)
	if len(name) > maxNameLen || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "", store.Key{}, fault.Errorf(fault.InvalidRequest,
			"key name must be at most %d characters without control characters", maxNameLen)
	}
	raw := make([]byte, secretBytes)
	if _, err := io.ReadFull(k.rand, raw); err != nil {
		return "", store.Key{}, fmt.Errorf("auth: generate secret: %w", err)
	}
	secret := SecretPrefix + base58.Encode(raw)
	key := store.Key{
		ID:        NewKeyID(),
		Name:      name,
		Plan:      plan,
		Prefix:    secret[:DisplayPrefixLen],
		CreatedAt: k.now().UTC().Truncate(time.Microsecond),
	}
	if err := k.store.CreateKey(ctx, key, Hash(secret)); err != nil {
		return "", store.Key{}, fmt.Errorf("auth: create key: %w", err)
	}
	return secret, key, nil
}

// Authenticate returns the key and plan of secret. A malformed, unknown or
// revoked secret is fault.Unauthorized; a key whose plan is no longer
// configured is fault.Internal; a store failure is fault.Unavailable unless
// the key was looked up within StaleTTL.
func (k *Keys) Authenticate(ctx context.Context, secret string) (store.Key, Plan, error) {
	if err := ParseSecret(secret); err != nil {
		return store.Key{}, Plan{}, fault.Wrap(err, fault.Unauthorized, "malformed API key")
	}
	key, err := k.lookup(ctx, Hash(secret))
	if err != nil {
		return store.Key{}, Plan{}, err
	}
	// Defence in depth: the stored prefix must be the secret's own.
	if len(key.Prefix) > len(secret) ||
		subtle.ConstantTimeCompare([]byte(key.Prefix), []byte(secret[:len(key.Prefix)])) != 1 {
		return store.Key{}, Plan{}, fault.Errorf(fault.Unauthorized, "unknown API key")
	}
	if key.RevokedAt != nil {
		return store.Key{}, Plan{}, fault.Errorf(fault.Unauthorized, "API key revoked")
	}
	plan, ok := k.plans.Lookup(key.Plan)
	if !ok {
		return store.Key{}, Plan{}, fault.Errorf(fault.Internal, "the key's plan %q is not configured", key.Plan)
	}
	return key, plan, nil
}

// lookup finds the key of a secret's hash: from the cache while fresh,
// else from the store, else (store unreachable) from the cache while not
// stale. The lookup is by hash, so its timing says nothing about the
// secret.
func (k *Keys) lookup(ctx context.Context, hash []byte) (store.Key, error) {
	now := k.now()
	k.mu.Lock()
	c, ok := k.cached[string(hash)]
	k.mu.Unlock()
	if ok && now.Sub(c.fetched) < k.opts.CacheTTL {
		return c.key, nil
	}
	key, err := k.store.KeyByHash(ctx, hash)
	switch {
	case errors.Is(err, store.ErrNotFound):
		k.forget(string(hash))
		return store.Key{}, fault.Wrap(err, fault.Unauthorized, "unknown API key")
	case err != nil:
		if ok && now.Sub(c.fetched) < k.opts.StaleTTL && ctx.Err() == nil {
			return c.key, nil
		}
		return store.Key{}, fault.Wrap(fmt.Errorf("auth: find key: %w", err), fault.Unavailable,
			"key store unavailable")
	}
	if k.opts.CacheTTL > 0 {
		k.mu.Lock()
		if len(k.cached) >= k.opts.CacheSize {
			for h := range k.cached { // full: forget about half, at random
				delete(k.cached, h)
				if len(k.cached) < k.opts.CacheSize/2 {
					break
				}
			}
		}
		k.cached[string(hash)] = cachedKey{key: key, fetched: now}
		k.mu.Unlock()
	}
	return key, nil
}

func (k *Keys) forget(hash string) {
	k.mu.Lock()
	delete(k.cached, hash)
	k.mu.Unlock()
}

// List returns every key, revoked ones included, oldest first.
func (k *Keys) List(ctx context.Context) ([]store.Key, error) {
	keys, err := k.store.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("auth: list keys: %w", err)
	}
	return keys, nil
}

// Revoke revokes the key with id from now on. An unknown id is
// fault.NotFound; revoking a revoked key changes nothing.
func (k *Keys) Revoke(ctx context.Context, id string) error {
	err := k.store.RevokeKey(ctx, id, k.now().UTC().Truncate(time.Microsecond))
	if err == nil {
		// This instance stops accepting the key at once.
		k.mu.Lock()
		for h, c := range k.cached {
			if c.key.ID == id {
				delete(k.cached, h)
			}
		}
		k.mu.Unlock()
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fault.Wrap(err, fault.NotFound, fmt.Sprintf("no key with id %q", id))
	case err != nil:
		return fmt.Errorf("auth: revoke key %s: %w", id, err)
	}
	return nil
}
