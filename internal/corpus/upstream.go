package corpus

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// Upstream is what one scan asked of the node: HTTP requests and the
// bytes of their bodies (JSON-RPC batches as sent, before any transport
// compression).
type Upstream struct {
	Requests int64
	Bytes    int64
}

// upstreamMeter counts each scan's requests into the counter its context
// carries: scans run side by side, so a global count could not tell them
// apart.
type upstreamMeter struct {
	next http.RoundTripper
}

type meterKey struct{}

type meterCounts struct {
	requests, bytes atomic.Int64
}

func withMeter(ctx context.Context) (context.Context, *meterCounts) {
	m := &meterCounts{}
	return context.WithValue(ctx, meterKey{}, m), m
}

func (u upstreamMeter) RoundTrip(req *http.Request) (*http.Response, error) {
	if m, ok := req.Context().Value(meterKey{}).(*meterCounts); ok {
		m.requests.Add(1)
		if req.ContentLength > 0 {
			m.bytes.Add(req.ContentLength)
		}
	}
	return u.next.RoundTrip(req)
}

// meteredClient is an HTTP client whose requests are counted per scan.
func meteredClient() *http.Client {
	return &http.Client{Transport: upstreamMeter{next: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     90 * time.Second,
	}}}
}
