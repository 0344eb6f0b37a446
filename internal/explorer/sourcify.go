package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Sourcify reads verification status from a Sourcify server's APIv2
// (GET /v2/contract/{chainId}/{address}).
type Sourcify struct {
	base    string
	http    *http.Client
	retries int
	backoff time.Duration
}

// NewSourcify returns a client for the server at base (e.g.
// https://sourcify.dev/server).
func NewSourcify(base string, hc *http.Client) *Sourcify {
	return &Sourcify{base: strings.TrimRight(base, "/"), http: defaultHTTP(hc), retries: 2, backoff: 300 * time.Millisecond}
}

// sourcifyContract is the minimal APIv2 contract answer.
type sourcifyContract struct {
	Match         *string `json:"match"`
	CreationMatch *string `json:"creationMatch"`
	RuntimeMatch  *string `json:"runtimeMatch"`
	ChainID       string  `json:"chainId"`
	Address       string  `json:"address"`
	VerifiedAt    string  `json:"verifiedAt"`
}

// Verification reports whether address on chainID is verified: a 404 is a
// definite "not verified"; 429 and 5xx are retried, then an error.
func (s *Sourcify) Verification(ctx context.Context, chainID int64, address string) (Verification, error) {
	u := fmt.Sprintf("%s/v2/contract/%d/%s", s.base, chainID, address)
	for attempt := 0; ; attempt++ {
		status, body, err := get(ctx, s.http, u)
		retry := err != nil || status == http.StatusTooManyRequests || status >= 500
		if !retry {
			switch status {
			case http.StatusOK:
				var c sourcifyContract
				if err := json.Unmarshal(body, &c); err != nil {
					return Verification{}, fmt.Errorf("%w: sourcify: malformed answer: %w", ErrUnavailable, err)
				}
				v := Verification{Source: "sourcify"}
				if c.Match != nil && *c.Match != "" {
					v.Verified, v.Match = true, *c.Match
				}
				return v, nil
			case http.StatusNotFound:
				return Verification{Source: "sourcify"}, nil
			default:
				return Verification{}, fmt.Errorf("%w: sourcify: HTTP %d", ErrUnavailable, status)
			}
		}
		if attempt >= s.retries {
			if status == http.StatusTooManyRequests {
				return Verification{}, fmt.Errorf("sourcify: %w", ErrRateLimited)
			}
			if err != nil {
				return Verification{}, fmt.Errorf("sourcify: %w", err)
			}
			return Verification{}, fmt.Errorf("%w: sourcify: HTTP %d", ErrUnavailable, status)
		}
		if err := sleep(ctx, s.backoff<<attempt); err != nil {
			return Verification{}, fmt.Errorf("%w: sourcify: %w", ErrUnavailable, err)
		}
	}
}
