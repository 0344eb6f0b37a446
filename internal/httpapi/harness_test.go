package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/cache/memory"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/httpapi"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/ratelimit"
	ratememory "github.com/tokenrisk/tokenrisk/internal/ratelimit/memory"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/webhook"
)

const (
	pepe      = "0x6982508145454Ce325dDbE47a25d4ec3d2311933"
	pepeLower = "0x6982508145454ce325ddbe47a25d4ec3d2311933"
	bonk      = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"
)

// fakeAdapter is a scan.Adapter made of function fields.
type fakeAdapter struct {
	kind   chains.Kind
	assess func(ctx context.Context, req scan.Request) (*scan.Assessment, error)
}

var _ scan.Adapter = (*fakeAdapter)(nil)

func (f *fakeAdapter) Kind() chains.Kind { return f.kind }
func (f *fakeAdapter) Assess(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
	return f.assess(ctx, req)
}

// evidence is a plausible contract analysis evidence object.
type evidence struct {
	Verified *bool   `json:"verified"`
	Owner    *string `json:"owner"`
}

func okAssessment(_ context.Context, req scan.Request) (*scan.Assessment, error) {
	dec, supply, id := 18, "420690000000000000000000000000000", int64(1)
	return &scan.Assessment{
		Chain: "ethereum", ChainID: &id, Token: scan.Token{Name: "Pepe", Symbol: "PEPE", Decimals: &dec, TotalSupply: &supply},
		Contract: scan.Section{Status: scan.Complete, Evidence: evidence{},
			Flags: []risk.Flag{risk.NewFlag(risk.OwnerNotRenounced, "Owner not renounced", "owner is an EOA")}},
		Liquidity: scan.Section{Status: scan.Complete, Flags: []risk.Flag{risk.NewFlag(risk.SellTaxHigh, "Sell tax is 24%", "").WithValue(24)}},
		Deployer:  scan.Section{Status: scan.Partial},
		Holder:    scan.Section{Status: scan.Unavailable},
		Warnings:  []string{"deployer: no explorer key configured; creator history unknown"},
	}, nil
}

type harness struct {
	t       *testing.T
	handler http.Handler
	store   *sqlite.Store
	keys    *auth.Keys
	engine  *scan.Engine
	metrics *metrics.Metrics
	// webhooks is the server's webhook service; tests run its worker.
	webhooks *webhook.Service
	logs     *lockedBuffer
	mu       sync.Mutex
	now      time.Time
	// assess is the EVM adapter's behaviour; tests may swap it before
	// requests.
	assess func(ctx context.Context, req scan.Request) (*scan.Assessment, error)
}

type harnessOptions struct {
	plans         auth.Plans
	maxConcurrent int
	queueLimit    int
	cacheTTL      time.Duration
	limiter       ratelimit.Limiter
	planLimiters  map[string]ratelimit.Limiter
	checks        []httpapi.Check
	// wrapStore, if set, puts a store between the server and SQLite.
	wrapStore func(store.Store) store.Store
	// webhookGuard is the webhooks' SSRF guard (default: the strict one).
	webhookGuard webhook.Guard
}

func newHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	h := &harness{t: t, now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), assess: okAssessment}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tokenrisk.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.store = st
	plans := o.plans
	if plans == nil {
		plans = auth.DefaultPlans()
	}
	h.keys = auth.NewKeys(st, plans, auth.Options{Now: h.clock})
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	h.metrics = metrics.New()
	evm := &fakeAdapter{kind: chains.EVM, assess: func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
		h.mu.Lock()
		f := h.assess
		h.mu.Unlock()
		return f(ctx, req)
	}}
	h.engine, err = scan.NewEngine(scan.EngineOptions{
		Adapters: []scan.Adapter{evm}, Registry: reg,
		Cache: memory.New(memory.Options{}), CacheTTL: o.cacheTTL,
		MaxConcurrent: o.maxConcurrent, QueueLimit: o.queueLimit, Version: "test", Observer: h.metrics,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.logs = &lockedBuffer{}
	limiter := o.limiter
	if limiter == nil {
		limiter = ratememory.New(ratememory.Options{Now: h.clock})
	}
	var served store.Store = st
	if o.wrapStore != nil {
		served = o.wrapStore(st)
	}
	h.webhooks, err = webhook.New(webhook.Options{Store: st, Guard: o.webhookGuard, Now: h.clock, Jitter: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := httpapi.NewServer(httpapi.Deps{
		Scanner: h.engine, Store: served, Auth: h.keys,
		Limiter: limiter, PlanLimiters: o.planLimiters, Checks: o.checks, Metrics: h.metrics, Now: h.clock, Watchlist: st, Webhooks: h.webhooks,
		Logger: slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	h.handler = srv
	return h
}

// lockedBuffer collects log output from concurrent handlers.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.now = h.now.Add(d)
}

func (h *harness) setAssess(f func(ctx context.Context, req scan.Request) (*scan.Assessment, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.assess = f
}

// holdScans makes every scan that reaches the adapter signal started
// (buffered for n) and wait there until release (safe to call twice).
func (h *harness) holdScans(n int) (started <-chan struct{}, release func()) {
	ch := make(chan struct{}, n)
	held := make(chan struct{})
	var once sync.Once
	h.setAssess(func(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
		ch <- struct{}{}
		<-held
		return okAssessment(ctx, req)
	})
	return ch, func() { once.Do(func() { close(held) }) }
}

// key creates a key on plan through the same code path as `keys create`.
func (h *harness) key(plan string) string {
	h.t.Helper()
	secret, _, err := h.keys.Create(context.Background(), plan, "test "+plan)
	if err != nil {
		h.t.Fatal(err)
	}
	return secret
}

type response struct {
	*http.Response
	body []byte
}

func (r response) problem(t *testing.T) httpapi.Problem {
	t.Helper()
	var p httpapi.Problem
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json (body %s)", ct, r.body)
	}
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("problem body %s: %v", r.body, err)
	}
	return p
}

func (r response) report(t *testing.T) scan.Report {
	t.Helper()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", r.StatusCode, r.body)
	}
	var rep scan.Report
	if err := json.Unmarshal(r.body, &rep); err != nil {
		t.Fatalf("report %s: %v", r.body, err)
	}
	return rep
}

// request sends one request through the whole handler. headers are
// name/value pairs; "Content-Type" defaults to application/json when a
// body is given.
func (h *harness) request(method, path, key, body string, headers ...string) response {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.handler.ServeHTTP(rec, req)
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return response{res, b}
}

func (h *harness) scan(key, address string) response {
	h.t.Helper()
	b, _ := json.Marshal(map[string]string{"address": address})
	return h.request(http.MethodPost, "/api/v1/scan/", key, string(b))
}

var _ store.Store = (*sqlite.Store)(nil)
