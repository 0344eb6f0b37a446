package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client calls one tokenrisk server with one API key. It is safe for
// concurrent use.
type Client struct {
	base    *url.URL
	key     string
	http    *http.Client
	retries int
	maxWait time.Duration
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the client send its requests through hc.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithRetries sets how many times a request refused with 429 or 503 and a
// Retry-After is sent again (default 2; 0 never retries).
func WithRetries(n int) Option { return func(c *Client) { c.retries = max(n, 0) } }

// WithMaxRetryWait bounds one wait for Retry-After (default 10s): a server
// asking for longer (a daily quota, say) gets its problem returned at once.
func WithMaxRetryWait(d time.Duration) Option { return func(c *Client) { c.maxWait = d } }

// New returns a client of the server at baseURL (e.g.
// "https://tokenrisk.example") using the API key.
func New(baseURL, key string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("tokenrisk: server URL %q: want http(s)://host", baseURL)
	}
	c := &Client{base: u, key: key, http: http.DefaultClient, retries: 2, maxWait: 10 * time.Second}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// Scan scans one token address (EVM or Solana) and returns its report.
// An API error is a *Problem (errors.As), with its stable Code.
func (c *Client) Scan(ctx context.Context, address string) (*Report, error) {
	raw, err := c.ScanJSON(ctx, address)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("tokenrisk: decode report: %w", err)
	}
	return &r, nil
}

// ScanJSON is Scan answering the report's JSON exactly as the server sent
// it.
func (c *Client) ScanJSON(ctx context.Context, address string) (json.RawMessage, error) {
	body, err := json.Marshal(struct {
		Address string `json:"address"`
	}{address})
	if err != nil {
		return nil, err
	}
	res, err := c.do(ctx, http.MethodPost, "/api/v1/scan", nil, body)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("tokenrisk: read report: %w", err)
	}
	return raw, nil
}

// Report returns one stored report of the key's history (premium).
func (c *Client) Report(ctx context.Context, scanID string) (*Report, error) {
	var r Report
	if err := c.doJSON(ctx, http.MethodGet, "/api/v1/scans/"+url.PathEscape(scanID), nil, nil, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Usage returns the key's plan and today's use.
func (c *Client) Usage(ctx context.Context) (*Usage, error) {
	var u Usage
	if err := c.doJSON(ctx, http.MethodGet, "/api/v1/usage", nil, nil, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// HistoryFilter selects history rows; zero fields do not filter.
type HistoryFilter struct {
	Chain string
	Level Level
	From  time.Time
	To    time.Time // exclusive
	// PageSize is how many rows one request fetches (1–100; 0 = the
	// server's default).
	PageSize int
}

func (f HistoryFilter) query() url.Values {
	q := url.Values{}
	if f.Chain != "" {
		q.Set("chain", f.Chain)
	}
	if f.Level != "" {
		q.Set("level", string(f.Level))
	}
	if !f.From.IsZero() {
		q.Set("from", f.From.UTC().Format(time.RFC3339Nano))
	}
	if !f.To.IsZero() {
		q.Set("to", f.To.UTC().Format(time.RFC3339Nano))
	}
	if f.PageSize > 0 {
		q.Set("limit", strconv.Itoa(f.PageSize))
	}
	return q
}

// History iterates over the key's scans, newest first, fetching pages by
// cursor as it goes (premium). The iteration stops at the first error,
// which it yields.
func (c *Client) History(ctx context.Context, f HistoryFilter) iter.Seq2[ScanSummary, error] {
	return func(yield func(ScanSummary, error) bool) {
		q := f.query()
		for {
			var page ScanPage
			if err := c.doJSON(ctx, http.MethodGet, "/api/v1/scans", q, nil, &page); err != nil {
				yield(ScanSummary{}, err)
				return
			}
			for _, s := range page.Scans {
				if !yield(s, nil) {
					return
				}
			}
			if page.NextCursor == nil || *page.NextCursor == "" {
				return
			}
			q.Set("cursor", *page.NextCursor)
		}
	}
}

// Export formats.
const (
	CSV    = "csv"
	NDJSON = "ndjson"
)

// Export streams every scan of the key matching f in format (CSV or
// NDJSON) as the server writes it (premium). The caller closes the body.
// A stream the server had to cut ends in an error from Read, never in a
// clean end of file.
func (c *Client) Export(ctx context.Context, format string, f HistoryFilter) (io.ReadCloser, error) {
	q := f.query()
	q.Del("limit")
	q.Set("format", format)
	res, err := c.do(ctx, http.MethodGet, "/api/v1/scans/export", q, nil)
	if err != nil {
		return nil, err
	}
	return res.Body, nil
}

// ExportReports streams the key's full reports (the NDJSON export) to fn
// one at a time, without holding them all in memory.
func (c *Client) ExportReports(ctx context.Context, f HistoryFilter, fn func(*Report) error) error {
	body, err := c.Export(ctx, NDJSON, f)
	if err != nil {
		return err
	}
	defer body.Close()
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r Report
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("tokenrisk: export line: %w", err)
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("tokenrisk: export: %w", err)
	}
	return nil
}

// doJSON sends a request and decodes a 2xx answer into out.
func (c *Client) doJSON(ctx context.Context, method, path string, q url.Values, body []byte, out any) error {
	res, err := c.do(ctx, method, path, q, body)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		return fmt.Errorf("tokenrisk: %s %s: decode answer: %w", method, path, err)
	}
	return nil
}

// do sends a request, waiting out Retry-After on 429 and 503 up to the
// client's bounds, and turns a non-2xx answer into a *Problem.
func (c *Client) do(ctx context.Context, method, path string, q url.Values, body []byte) (*http.Response, error) {
	u := *c.base
	u.Path += path
	u.RawQuery = q.Encode()
	for attempt := 0; ; attempt++ {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
		if err != nil {
			return nil, fmt.Errorf("tokenrisk: %w", err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Authorization", "Bearer "+c.key)
		req.Header.Set("Accept", "application/json")
		res, err := c.http.Do(req)
		if err != nil {
			return nil, fmt.Errorf("tokenrisk: %s %s: %w", method, path, err)
		}
		if res.StatusCode/100 == 2 {
			return res, nil
		}
		p := readProblem(res)
		retriable := res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable
		if !retriable || p.RetryAfter <= 0 || p.RetryAfter > c.maxWait || attempt >= c.retries {
			return nil, p
		}
		t := time.NewTimer(p.RetryAfter)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, errors.Join(ctx.Err(), p)
		case <-t.C:
		}
	}
}

// readProblem reads an error answer; one that is not problem+json still
// becomes a Problem with its status.
func readProblem(res *http.Response) *Problem {
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	p := &Problem{}
	if err := json.Unmarshal(b, p); err != nil || p.Code == "" {
		p = &Problem{Status: res.StatusCode, Title: http.StatusText(res.StatusCode), Detail: strings.TrimSpace(string(b))}
	}
	if p.Status == 0 {
		p.Status = res.StatusCode
	}
	if s, err := strconv.Atoi(strings.TrimSpace(res.Header.Get("Retry-After"))); err == nil && s >= 0 {
		p.RetryAfter = time.Duration(s) * time.Second
	}
	return p
}
