package webhook

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix starts every signing secret (Standard Webhooks).
const SecretPrefix = "whsec_"

// secretBytes is the size of a signing key: 24 bytes, as Standard
// Webhooks' reference implementations generate.
const secretBytes = 24

// NewSecret returns a new signing key and its whsec_ form.
func NewSecret() ([]byte, string) {
	key := make([]byte, secretBytes)
	rand.Read(key) //nolint:errcheck // crypto/rand.Read never fails (Go ≥ 1.24)
	return key, FormatSecret(key)
}

// FormatSecret is key's whsec_ form: the prefix and key in standard base64.
func FormatSecret(key []byte) string {
	return SecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// ParseSecret returns the key of a whsec_ secret.
func ParseSecret(secret string) ([]byte, error) {
	b64, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, errors.New("webhook: secret lacks the whsec_ prefix")
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(key) == 0 {
		return nil, errors.New("webhook: secret is not base64 after whsec_")
	}
	return key, nil
}

// Sign returns the webhook-signature header value of one message: "v1,"
// and the base64 HMAC-SHA256, under key, of "id.timestamp.body".
func Sign(key []byte, id string, at time.Time, body []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(strconv.FormatInt(at.Unix(), 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Sealed secret formats: the first byte says which.
const (
	sealPlain byte = 0 // no sealing key configured: the key as is
	sealGCM   byte = 1 // AES-256-GCM: nonce, then ciphertext and tag
)

// sealer encrypts signing keys for the store with an operator's key, so
// a copy of the database alone cannot forge alerts. Without a key the
// secrets are stored in the clear (marked so, and readable once a key is
// configured).
type sealer struct{ aead cipher.AEAD }

func newSealer(key []byte) (*sealer, error) {
	if len(key) == 0 {
		return &sealer{}, nil
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("webhook: the secret-sealing key must be 32 bytes, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("webhook: sealing key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("webhook: sealing key: %w", err)
	}
	return &sealer{aead: aead}, nil
}

// seal returns the stored form of key; webhookID binds it to its row.
func (s *sealer) seal(key []byte, webhookID string) []byte {
	if s.aead == nil {
		return append([]byte{sealPlain}, key...)
	}
	nonce := make([]byte, s.aead.NonceSize())
	rand.Read(nonce) //nolint:errcheck // never fails
	out := append([]byte{sealGCM}, nonce...)
	return s.aead.Seal(out, nonce, key, []byte(webhookID))
}

// open returns the key of a stored secret.
func (s *sealer) open(sealed []byte, webhookID string) ([]byte, error) {
	if len(sealed) == 0 {
		return nil, errors.New("webhook: empty stored secret")
	}
	switch sealed[0] {
	case sealPlain:
		return sealed[1:], nil
	case sealGCM:
		if s.aead == nil {
			return nil, errors.New("webhook: the secret is sealed but no sealing key is configured")
		}
		n := s.aead.NonceSize()
		if len(sealed) < 1+n {
			return nil, errors.New("webhook: stored secret too short")
		}
		key, err := s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], []byte(webhookID))
		if err != nil {
			return nil, errors.New("webhook: the stored secret does not open with the configured sealing key")
		}
		return key, nil
	default:
		return nil, fmt.Errorf("webhook: unknown stored secret format %d", sealed[0])
	}
}
