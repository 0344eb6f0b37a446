package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Etherscan is an Etherscan-family API client (the v2 multichain API:
// one URL, the chain chosen by the chainid parameter).
type Etherscan struct {
	base    string
	key     string
	http    *http.Client
	retries int
	backoff time.Duration
}

// NewEtherscan returns a client for the API at base with key.
func NewEtherscan(base, key string, hc *http.Client) *Etherscan {
	return &Etherscan{base: base, key: key, http: defaultHTTP(hc), retries: 3, backoff: 400 * time.Millisecond}
}

// etherscanEnvelope is every answer's wrapper: status "1" with a result,
// or status "0" with a message ("NOTOK", "No transactions found") and the
// reason in result.
type etherscanEnvelope struct {
	Status  string          `json:"status"`
	Message string          `json:"message"`
	Result  json.RawMessage `json:"result"`
}

// errNoRecords is a status "0" answer meaning an empty result.
var errNoRecords = errors.New("no records")

// call runs one API call, retrying rate-limit answers ("Max rate limit
// reached", "Max calls per sec rate limit reached (5/sec)") and 5xx.
func (e *Etherscan) call(ctx context.Context, chainID int64, params url.Values) (json.RawMessage, error) {
	q := url.Values{}
	for k, v := range params {
		q[k] = v
	}
	q.Set("chainid", strconv.FormatInt(chainID, 10))
	q.Set("apikey", e.key)
	u := e.base + "?" + q.Encode()
	what := params.Get("module") + "/" + params.Get("action")
	for attempt := 0; ; attempt++ {
		status, body, err := get(ctx, e.http, u)
		retryable := err != nil || status == http.StatusTooManyRequests || status >= 500
		var env etherscanEnvelope
		if !retryable {
			if status != http.StatusOK {
				return nil, fmt.Errorf("%w: etherscan %s: HTTP %d", ErrUnavailable, what, status)
			}
			if err := json.Unmarshal(body, &env); err != nil {
				return nil, fmt.Errorf("%w: etherscan %s: malformed answer", ErrUnavailable, what)
			}
			if env.Status == "1" {
				return env.Result, nil
			}
			reason := env.Message
			var s string
			if json.Unmarshal(env.Result, &s) == nil && s != "" {
				reason = s
			}
			lower := strings.ToLower(reason)
			switch {
			case strings.Contains(lower, "rate limit"):
				retryable = true
				err = ErrRateLimited
			case strings.HasPrefix(strings.ToLower(env.Message), "no ") || strings.Contains(lower, "no data found") || strings.Contains(lower, "no records"):
				return nil, errNoRecords
			default:
				// "Invalid API Key", "Missing or unsupported chainid", …
				// (never echo the key).
				return nil, fmt.Errorf("%w: etherscan %s: %s", ErrUnavailable, what, strings.ReplaceAll(reason, e.key, "***"))
			}
		}
		if attempt >= e.retries {
			if errors.Is(err, ErrRateLimited) || status == http.StatusTooManyRequests {
				return nil, fmt.Errorf("etherscan %s: %w", what, ErrRateLimited)
			}
			if err != nil {
				return nil, fmt.Errorf("etherscan %s: %w", what, err)
			}
			return nil, fmt.Errorf("%w: etherscan %s: HTTP %d", ErrUnavailable, what, status)
		}
		if err := sleep(ctx, e.backoff<<attempt); err != nil {
			return nil, fmt.Errorf("%w: etherscan %s: %w", ErrUnavailable, what, err)
		}
	}
}

// Verification reports whether the explorer has verified source for address.
func (e *Etherscan) Verification(ctx context.Context, chainID int64, address string) (Verification, error) {
	raw, err := e.call(ctx, chainID, url.Values{"module": {"contract"}, "action": {"getsourcecode"}, "address": {address}})
	if err != nil {
		return Verification{}, err
	}
	var items []struct {
		SourceCode   string `json:"SourceCode"`
		ABI          string `json:"ABI"`
		ContractName string `json:"ContractName"`
	}
	if err := json.Unmarshal(raw, &items); err != nil || len(items) == 0 {
		return Verification{}, fmt.Errorf("%w: etherscan getsourcecode: unexpected result", ErrUnavailable)
	}
	it := items[0]
	v := Verification{Source: "etherscan", ContractName: it.ContractName}
	if strings.TrimSpace(it.SourceCode) != "" && !strings.Contains(it.ABI, "not verified") {
		v.Verified, v.Match = true, "verified"
	}
	return v, nil
}

// Creation returns address's creator and creation transaction; ok is false
// when the explorer has no record (e.g. a genesis contract).
func (e *Etherscan) Creation(ctx context.Context, chainID int64, address string) (Creation, bool, error) {
	raw, err := e.call(ctx, chainID, url.Values{"module": {"contract"}, "action": {"getcontractcreation"}, "contractaddresses": {address}})
	if errors.Is(err, errNoRecords) {
		return Creation{}, false, nil
	}
	if err != nil {
		return Creation{}, false, err
	}
	var items []struct {
		ContractAddress string `json:"contractAddress"`
		ContractCreator string `json:"contractCreator"`
		TxHash          string `json:"txHash"`
		Timestamp       string `json:"timestamp"`
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		return Creation{}, false, fmt.Errorf("%w: etherscan getcontractcreation: unexpected result", ErrUnavailable)
	}
	for _, it := range items {
		if strings.EqualFold(it.ContractAddress, address) && it.ContractCreator != "" {
			c := Creation{Creator: it.ContractCreator, TxHash: it.TxHash}
			if sec, err := strconv.ParseInt(it.Timestamp, 10, 64); err == nil && sec > 0 {
				t := time.Unix(sec, 0).UTC()
				c.Timestamp = &t
			}
			return c, true, nil
		}
	}
	return Creation{}, false, nil
}

// Launches returns the contracts creator deployed, from its first
// transactions (at most limit), except the token itself.
func (e *Etherscan) Launches(ctx context.Context, chainID int64, creator, except string, limit int) ([]string, error) {
	raw, err := e.call(ctx, chainID, url.Values{
		"module": {"account"}, "action": {"txlist"}, "address": {creator},
		"startblock": {"0"}, "endblock": {"99999999"}, "page": {"1"},
		"offset": {strconv.Itoa(limit)}, "sort": {"asc"},
	})
	if errors.Is(err, errNoRecords) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	var txs []struct {
		From            string `json:"from"`
		To              string `json:"to"`
		ContractAddress string `json:"contractAddress"`
		IsError         string `json:"isError"`
	}
	if err := json.Unmarshal(raw, &txs); err != nil {
		return nil, fmt.Errorf("%w: etherscan txlist: unexpected result", ErrUnavailable)
	}
	out := []string{}
	for _, tx := range txs {
		if tx.To == "" && tx.ContractAddress != "" && tx.IsError != "1" &&
			strings.EqualFold(tx.From, creator) && !strings.EqualFold(tx.ContractAddress, except) {
			out = append(out, tx.ContractAddress)
		}
	}
	return out, nil
}
