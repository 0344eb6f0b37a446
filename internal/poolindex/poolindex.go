// Package poolindex asks an operator's pool index which pool accounts
// trade a Solana mint, so that a scan can read those pools directly
// instead of searching every DEX program with getProgramAccounts (which
// public nodes often refuse on the largest programs).
//
// The index is the operator's own service (TOKENRISK_SOLANA_POOL_INDEX).
// Protocol: GET <url>?mint=<base58 mint> answers 200 with
//
//	{"mint": "<base58 mint>", "pools": ["<base58 pool account>", ...]}
//
// An empty list means the index knows no pool of the mint. Anything else
// (another status, a body that is not that document, a mint other than the
// one asked, an address that is not base58 of 32 bytes, more than MaxPools
// pools) is an error: the caller then knows nothing about the pools. The
// index is never trusted for facts: every pool it names is read and
// verified on-chain by the caller.
package poolindex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/mr-tron/base58"
)

// MaxPools bounds the pools one answer may name.
const MaxPools = 100

// maxBody bounds the answer read.
const maxBody = 1 << 20

// Client asks one pool index.
type Client struct {
	base *url.URL
	http *http.Client
}

// New returns a client of the index at rawURL; hc nil means
// http.DefaultClient.
func New(rawURL string, hc *http.Client) (*Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("poolindex: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("poolindex: %q is not an http(s) URL", rawURL)
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{base: u, http: hc}, nil
}

// answer is the index's document.
type answer struct {
	Mint  string   `json:"mint"`
	Pools []string `json:"pools"`
}

// Pools returns the pool accounts the index names for mint (base58, as
// given), each checked to be a 32-byte base58 address, without
// duplicates.
func (c *Client) Pools(ctx context.Context, mint string) ([]string, error) {
	u := *c.base
	q := u.Query()
	q.Set("mint", mint)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("poolindex: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("poolindex: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
		return nil, fmt.Errorf("poolindex: status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("poolindex: reading the answer: %w", err)
	}
	return parse(body, mint)
}

// parse checks an answer to a question about mint.
func parse(body []byte, mint string) ([]string, error) {
	if len(body) > maxBody {
		return nil, fmt.Errorf("poolindex: answer larger than %d bytes", maxBody)
	}
	var a answer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("poolindex: malformed answer: %w", err)
	}
	if a.Mint != mint {
		return nil, fmt.Errorf("poolindex: answer about %q, not %s", a.Mint, mint)
	}
	if a.Pools == nil {
		return nil, errors.New("poolindex: answer without a pools list")
	}
	if len(a.Pools) > MaxPools {
		return nil, fmt.Errorf("poolindex: %d pools named, at most %d read", len(a.Pools), MaxPools)
	}
	seen := map[string]bool{}
	out := make([]string, 0, len(a.Pools))
	for _, p := range a.Pools {
		raw, err := base58.Decode(p)
		if err != nil || len(raw) != 32 {
			return nil, fmt.Errorf("poolindex: %q is not a Solana address", p)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}
