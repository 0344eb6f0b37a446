package auth_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// keyStore is the key half of a store.Store, in memory; the scan half is
// not used by auth and panics.
type keyStore struct {
	store.Store
	mu     sync.Mutex
	keys   map[string]store.Key // by id
	hashes map[string]string    // hash → id
	down   bool
	reads  int
}

func newKeyStore() *keyStore {
	return &keyStore{keys: map[string]store.Key{}, hashes: map[string]string{}}
}

func (s *keyStore) CreateKey(_ context.Context, k store.Key, h []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys[k.ID] = k
	s.hashes[string(h)] = k.ID
	return nil
}

func (s *keyStore) KeyByHash(_ context.Context, h []byte) (store.Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	if s.down {
		return store.Key{}, errors.New("connection refused")
	}
	id, ok := s.hashes[string(h)]
	if !ok {
		return store.Key{}, store.ErrNotFound
	}
	return s.keys[id], nil
}

func (s *keyStore) ListKeys(context.Context) ([]store.Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.Key
	for _, k := range s.keys {
		out = append(out, k)
	}
	return out, nil
}

func (s *keyStore) RevokeKey(_ context.Context, id string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.keys[id]
	if !ok {
		return store.ErrNotFound
	}
	if k.RevokedAt == nil {
		k.RevokedAt = &at
	}
	s.keys[id] = k
	return nil
}

func TestCreateThenAuthenticate(t *testing.T) {
	ctx := context.Background()
	st := newKeyStore()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	keys := auth.NewKeys(st, auth.DefaultPlans(), auth.Options{Now: func() time.Time { return now }})
	for _, plan := range []string{"free", "pro", "premium"} {
		t.Run(plan, func(t *testing.T) {
			secret, key, err := keys.Create(ctx, plan, "  bot "+plan+" ")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(secret, "trk_") || auth.ParseSecret(secret) != nil {
				t.Errorf("secret %q does not have the key shape", secret)
			}
			if !strings.HasPrefix(key.ID, "key_") || key.Plan != plan || key.Name != "bot "+plan ||
				!strings.HasPrefix(secret, key.Prefix) || !key.CreatedAt.Equal(now) {
				t.Errorf("key record %+v", key)
			}
			for h := range st.hashes {
				if strings.Contains(h, secret) || bytes.Contains([]byte(h), []byte(secret[4:])) {
					t.Fatal("the secret itself was stored")
				}
			}
			got, p, err := keys.Authenticate(ctx, secret)
			if err != nil {
				t.Fatalf("Authenticate: %v", err)
			}
			if got.ID != key.ID || p.Name != plan {
				t.Errorf("Authenticate = %s on %s, want %s on %s", got.ID, p.Name, key.ID, plan)
			}
		})
	}
}

func TestSecretsAreUnique(t *testing.T) {
	keys := auth.NewKeys(newKeyStore(), auth.DefaultPlans(), auth.Options{})
	seen := map[string]bool{}
	for range 200 {
		s, k, err := keys.Create(context.Background(), "free", "")
		if err != nil {
			t.Fatal(err)
		}
		if seen[s] || seen[k.ID] {
			t.Fatalf("duplicate secret or id after %d keys", len(seen)/2)
		}
		seen[s], seen[k.ID] = true, true
	}
}

func TestAuthenticateRejects(t *testing.T) {
	ctx := context.Background()
	st := newKeyStore()
	keys := auth.NewKeys(st, auth.DefaultPlans(), auth.Options{})
	valid, _, err := keys.Create(ctx, "pro", "")
	if err != nil {
		t.Fatal(err)
	}
	revoked, rk, err := keys.Create(ctx, "pro", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := keys.Revoke(ctx, rk.ID); err != nil {
		t.Fatal(err)
	}
	orphan, _, err := keys.Create(ctx, "free", "")
	if err != nil {
		t.Fatal(err)
	}
	noFree := auth.DefaultPlans()
	delete(noFree, "free")
	tests := []struct {
		name   string
		keys   *auth.Keys
		secret string
		want   fault.Code
	}{
		{"empty", keys, "", fault.Unauthorized},
		{"no prefix", keys, valid[4:], fault.Unauthorized},
		{"wrong prefix", keys, "sk_" + valid[4:], fault.Unauthorized},
		{"not base58", keys, valid[:20] + "0OIl" + valid[24:], fault.Unauthorized},
		{"truncated", keys, valid[:len(valid)-5], fault.Unauthorized},
		{"unknown", keys, "trk_" + strings.Repeat("2", 44), fault.Unauthorized},
		{"one character changed", keys, valid[:len(valid)-1] + flip(valid[len(valid)-1]), fault.Unauthorized},
		{"revoked", keys, revoked, fault.Unauthorized},
		{"plan no longer configured", auth.NewKeys(st, noFree, auth.Options{}), orphan, fault.Internal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := tc.keys.Authenticate(ctx, tc.secret)
			if got := fault.CodeOf(err); err == nil || got != tc.want {
				t.Errorf("Authenticate: %v (code %s), want code %s", err, got, tc.want)
			}
		})
	}
	st.down = true
	if _, _, err := keys.Authenticate(ctx, valid); fault.CodeOf(err) != fault.Unavailable {
		t.Errorf("store down: %v, want code unavailable", err)
	}
}

func flip(c byte) string {
	if c == 'a' {
		return "b"
	}
	return "a"
}

func TestCreateRejects(t *testing.T) {
	keys := auth.NewKeys(newKeyStore(), auth.DefaultPlans(), auth.Options{})
	tests := []struct{ name, plan, keyName string }{
		{"unknown plan", "gold", ""},
		{"name too long", "free", strings.Repeat("x", 101)},
		{"control character", "free", "a\x00b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := keys.Create(context.Background(), tc.plan, tc.keyName)
			if fault.CodeOf(err) != fault.InvalidRequest {
				t.Errorf("Create(%q, %q): %v, want invalid_request", tc.plan, tc.keyName, err)
			}
		})
	}
}

func TestRevoke(t *testing.T) {
	ctx := context.Background()
	keys := auth.NewKeys(newKeyStore(), auth.DefaultPlans(), auth.Options{})
	if err := keys.Revoke(ctx, "key_nope"); fault.CodeOf(err) != fault.NotFound {
		t.Errorf("revoke unknown: %v, want not_found", err)
	}
	secret, k, err := keys.Create(ctx, "free", "")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // revoking twice is fine
		if err := keys.Revoke(ctx, k.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := keys.Authenticate(ctx, secret); fault.CodeOf(err) != fault.Unauthorized {
		t.Errorf("revoked key authenticated: %v", err)
	}
	list, err := keys.List(ctx)
	if err != nil || len(list) != 1 || list[0].RevokedAt == nil {
		t.Errorf("List = %+v, %v; want the one key, revoked", list, err)
	}
}

func FuzzParseSecret(f *testing.F) {
	for _, s := range []string{"", "trk_", "trk_" + strings.Repeat("1", 32), "trk_3yZe7d", "trk_" + strings.Repeat("z", 44),
		"trk_4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if auth.ParseSecret(s) != nil {
			return
		}
		if !strings.HasPrefix(s, auth.SecretPrefix) || len(s) > len(auth.SecretPrefix)+48 {
			t.Fatalf("accepted %q", s)
		}
	})
}

func (s *keyStore) setDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

func TestLookupCache(t *testing.T) {
	ctx := context.Background()
	st := newKeyStore()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a := auth.NewKeys(st, auth.DefaultPlans(), auth.Options{Now: clock, CacheTTL: 10 * time.Second, StaleTTL: time.Minute})
	b := auth.NewKeys(st, auth.DefaultPlans(), auth.Options{Now: clock}) // another instance
	secret, key, err := a.Create(ctx, "free", "")
	if err != nil {
		t.Fatal(err)
	}
	mustAuth := func(what string, k *auth.Keys, want fault.Code) {
		t.Helper()
		_, _, err := k.Authenticate(ctx, secret)
		if want == "" && err != nil {
			t.Fatalf("%s: %v, want accepted", what, err)
		}
		if want != "" && fault.CodeOf(err) != want {
			t.Fatalf("%s: %v, want %s", what, err, want)
		}
	}
	for range 100 {
		mustAuth("repeated", a, "")
	}
	if st.reads != 1 {
		t.Errorf("100 authentications within the TTL read the store %d times, want 1", st.reads)
	}

	st.setDown(true)
	now = now.Add(30 * time.Second)
	mustAuth("store down, cached 30s ago", a, "")
	now = now.Add(time.Minute)
	mustAuth("store down, cached 90s ago (past StaleTTL)", a, fault.Unavailable)
	st.setDown(false)
	mustAuth("store back", a, "")

	if err := b.Revoke(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	mustAuth("revoked elsewhere, within the TTL", a, "")
	now = now.Add(10 * time.Second)
	mustAuth("revoked elsewhere, TTL passed", a, fault.Unauthorized)

	secret2, key2, err := a.Create(ctx, "pro", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Authenticate(ctx, secret2); err != nil {
		t.Fatal(err)
	}
	if err := a.Revoke(ctx, key2.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Authenticate(ctx, secret2); fault.CodeOf(err) != fault.Unauthorized {
		t.Errorf("revoked on this instance: %v, want unauthorized at once", err)
	}
}
