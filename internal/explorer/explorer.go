// Package explorer reads contract verification and creation facts from
// block explorers: Sourcify (APIv2) and Etherscan-family APIs (v2,
// multichain by chainid).
package explorer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config says which explorers to use. Empty URLs disable an explorer; the
// Etherscan client also needs a key.
type Config struct {
	// EtherscanAPIKey is TOKENRISK_ETHERSCAN_API_KEY.
	EtherscanAPIKey string
	// EtherscanURL is TOKENRISK_ETHERSCAN_URL, e.g.
	// https://api.etherscan.io/v2/api.
	EtherscanURL string
	// SourcifyURL is TOKENRISK_SOURCIFY_URL, e.g. https://sourcify.dev/server.
	SourcifyURL string
}

// Default explorer endpoints, used when a variable is unset (not empty).
const (
	DefaultEtherscanURL = "https://api.etherscan.io/v2/api"
	DefaultSourcifyURL  = "https://sourcify.dev/server"
)

// ConfigFromEnv reads the TOKENRISK_* explorer variables. An unset URL
// gets its default; a URL set to "" disables that explorer.
func ConfigFromEnv(lookup func(string) (string, bool)) Config {
	get := func(name, def string) string {
		v, ok := lookup(name)
		if !ok {
			return def
		}
		return strings.TrimSpace(v)
	}
	return Config{
		EtherscanAPIKey: get("TOKENRISK_ETHERSCAN_API_KEY", ""),
		EtherscanURL:    get("TOKENRISK_ETHERSCAN_URL", DefaultEtherscanURL),
		SourcifyURL:     get("TOKENRISK_SOURCIFY_URL", DefaultSourcifyURL),
	}
}

// Clients builds the configured clients; a disabled explorer is nil.
func (c Config) Clients(hc *http.Client) (*Sourcify, *Etherscan) {
	var s *Sourcify
	var e *Etherscan
	if c.SourcifyURL != "" {
		s = NewSourcify(c.SourcifyURL, hc)
	}
	if c.EtherscanURL != "" && c.EtherscanAPIKey != "" {
		e = NewEtherscan(c.EtherscanURL, c.EtherscanAPIKey, hc)
	}
	return s, e
}

// Verification is a contract's source verification status.
type Verification struct {
	Verified bool
	// Source names the explorer that answered ("sourcify", "etherscan").
	Source string
	// Match is the explorer's match quality ("exact_match", "match") when
	// known.
	Match        string
	ContractName string
}

// Creation is how a contract was created.
type Creation struct {
	Creator string
	TxHash  string
	// Timestamp is the creation time where the explorer gives it.
	Timestamp *time.Time
}

// ErrRateLimited says the explorer kept refusing for rate limits.
var ErrRateLimited = errors.New("explorer: rate limited")

// ErrUnavailable wraps an explorer's failure to answer.
var ErrUnavailable = errors.New("explorer: unavailable")

func defaultHTTP(hc *http.Client) *http.Client {
	if hc != nil {
		return hc
	}
	return &http.Client{Timeout: 10 * time.Second}
}

// get fetches u and returns the status and (bounded) body. Errors never
// contain the URL (it may carry an API key).
func get(ctx context.Context, hc *http.Client, u string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: bad URL", ErrUnavailable)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return 0, nil, fmt.Errorf("%w: read: %w", ErrUnavailable, err)
	}
	return resp.StatusCode, body, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
