package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/tokenrisk/tokenrisk/internal/admission"
	"github.com/tokenrisk/tokenrisk/internal/cache"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/reputation"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Group runs identical work in flight once and shares its result
// (internal/dedupe implements it, in process or across instances).
type Group interface {
	Do(ctx context.Context, key string, fn func(context.Context) ([]byte, error)) ([]byte, bool, error)
}

// Observer receives the engine's measurements (*metrics.Metrics implements
// it). Every method must be safe for concurrent use.
type Observer interface {
	ScanDuration(chain string, d time.Duration)
	QueueDepth(priority string, n int)
	// ScanLimit is the adaptive limit on uncached scans, when recomputed.
	ScanLimit(n int)
	CacheLookup(hit bool)
	DedupeShared()
}

// EngineOptions configures an Engine. Zero values get working defaults
// except Adapters and Registry.
type EngineOptions struct {
	Adapters []Adapter
	// Registry says which chains of each kind are enabled; it must not
	// change after NewEngine.
	Registry  *chains.Registry
	Catalogue *risk.Catalogue
	// Cache holds complete reports for CacheTTL (degraded ones are never
	// cached); nil or a zero TTL disables it.
	Cache    cache.Cache
	CacheTTL time.Duration
	// Dedupe shares identical scans in flight; nil runs each scan itself.
	Dedupe Group
	// ScanTimeout bounds one adapter assessment (default 20s).
	ScanTimeout time.Duration
	// MaxConcurrent and MinConcurrent bound how many uncached scans run at
	// once (defaults 32 and 4): the limit adapts between them to the
	// latency scans are measured at (see internal/admission).
	MaxConcurrent, MinConcurrent int
	// PremiumReserve is the share of that limit only high-priority scans
	// may use (default 0.25; negative means none).
	PremiumReserve float64
	// LatencyTolerance is how much slower than at no load scans may run
	// before the limit shrinks (default 1.25).
	LatencyTolerance float64
	// QueueLimit is how many low or normal priority scans may wait each
	// (default 64; negative means none may wait).
	QueueLimit int
	// PremiumTolerance is how much slower than their own no-load latency
	// high-priority scans may run before low and normal ones are held
	// back and low ones shed (default 1.3; negative turns it off; see
	// internal/admission).
	PremiumTolerance float64
	Version          string
	Now              func() time.Time
	// NewID returns a fresh scan id (default "scn_" + ULID).
	NewID    func() string
	Observer Observer
	// Record keeps every uncached scan's verdict with its creator, and
	// gives each scan the creator's other tokens (one query); nil keeps
	// no record (creator_history stays as the adapter says).
	Record store.Reputation
	// Alerts, if not nil, is told when a recorded verdict newly condemns
	// the tokens linked to it (their watchers get
	// token.reputation_changed). Its errors are its own to report.
	Alerts reputation.Alerts
}

// Engine runs scans: address parsing, plan check, cache, in-flight dedupe,
// admission, the adapter's assessment under a deadline, and scoring.
type Engine struct {
	adapters map[chains.Kind]Adapter
	// kindOf and enabled index the registry once (it must not change
	// after NewEngine): every chain's kind, and the enabled chain keys of
	// each kind.
	kindOf    map[string]chains.Kind
	enabled   map[chains.Kind][]string
	chainKeys []string
	cat       *risk.Catalogue
	cache     cache.Cache
	ttl       time.Duration
	dedupe    Group
	timeout   time.Duration
	admission *admission.Controller
	version   string
	now       func() time.Time
	newID     func() string
	obs       Observer
	decoded   *reportMemo
	parsed    *addressMemo
	// reputation judges each assessed token beside the adapter
	// (impersonation of the registry's major tokens).
	reputation *reputation.Checker
	alerts     reputation.Alerts
}

// ScanRequest is one scan as a client asked for it.
type ScanRequest struct {
	// Address is the raw address (whitespace is trimmed).
	Address string
	// Chains are the chain keys the caller's plan may use.
	Chains   []string
	Priority Priority
	// Fresh skips the cache and any identical scan in flight: the caller
	// (the watcher) knows the chain moved since. Its result is cached.
	Fresh bool
}

// NewEngine builds an engine from opts.
func NewEngine(opts EngineOptions) (*Engine, error) {
	if opts.Registry == nil {
		return nil, errors.New("scan: engine needs a chain registry")
	}
	e := &Engine{
		adapters: map[chains.Kind]Adapter{},
		kindOf:   map[string]chains.Kind{},
		enabled:  map[chains.Kind][]string{},
		cat:      opts.Catalogue,
		cache:    opts.Cache,
		ttl:      opts.CacheTTL,
		dedupe:   opts.Dedupe,
		timeout:  opts.ScanTimeout,
		version:  opts.Version,
		now:      opts.Now,
		newID:    opts.NewID,
		obs:      opts.Observer,
		decoded:  &reportMemo{m: map[string]memoEntry{}},
		parsed:   &addressMemo{m: map[string]chains.Address{}},

		reputation: reputation.New(opts.Registry, opts.Record),
		alerts:     opts.Alerts,
	}
	for _, c := range opts.Registry.All() {
		e.kindOf[c.Key] = c.Kind
		e.chainKeys = append(e.chainKeys, c.Key)
		if !c.Disabled {
			e.enabled[c.Kind] = append(e.enabled[c.Kind], c.Key)
		}
	}
	slices.Sort(e.chainKeys)
	for _, a := range opts.Adapters {
		if _, dup := e.adapters[a.Kind()]; dup {
			return nil, fmt.Errorf("scan: two adapters for kind %s", a.Kind())
		}
		e.adapters[a.Kind()] = a
	}
	if e.cat == nil {
		e.cat = risk.NewCatalogue()
	}
	if e.timeout <= 0 {
		e.timeout = 20 * time.Second
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.newID == nil {
		e.newID = NewScanID
	}
	if e.obs == nil {
		e.obs = nopObserver{}
	}
	if e.version == "" {
		e.version = "dev"
	}
	e.admission = admission.New(admission.Options{
		MinLimit:         opts.MinConcurrent,
		MaxLimit:         opts.MaxConcurrent,
		Reserve:          opts.PremiumReserve,
		Tolerance:        opts.LatencyTolerance,
		QueueLimit:       opts.QueueLimit,
		PremiumTolerance: opts.PremiumTolerance,
		Depth:            func(c admission.Class, n int) { e.obs.QueueDepth(priorityOf(c).String(), n) },
		OnLimit:          e.obs.ScanLimit,
		Now:              e.now,
	})
	return e, nil
}

// NewScanID returns a new scan id: "scn_" and a ULID (time-ordered).
func NewScanID() string { return "scn_" + ulid.Make().String() }

// Version returns the engine version written in every report.
func (e *Engine) Version() string { return e.version }

// Catalogue returns the flag catalogue the engine scores with.
func (e *Engine) Catalogue() *risk.Catalogue { return e.cat }

// Allowed checks, before any I/O, that the plan's chains include a chain
// of the address's kind (else plan_forbidden) and that one of them is
// enabled here with an adapter (else unavailable). It returns the parsed
// address.
func (e *Engine) Allowed(address string, planChains []string) (chains.Address, error) {
	addr, err := e.parsed.parse(address)
	if err != nil {
		return chains.Address{}, err
	}
	// The plan first: a plan without any chain of this kind is refused
	// whether or not this server enables one.
	inPlan := false
	for _, key := range planChains {
		if e.kindOf[key] == addr.Kind {
			inPlan = true
			break
		}
	}
	if !inPlan {
		return addr, fault.Errorf(fault.PlanForbidden, "your plan includes no %s chain", addr.Kind)
	}
	enabled := false // no allocation here: Allowed runs on every cached scan
	for _, key := range e.enabled[addr.Kind] {
		if slices.Contains(planChains, key) {
			enabled = true
			break
		}
	}
	if _, ok := e.adapters[addr.Kind]; !ok || !enabled {
		return addr, fault.Wrap(fault.NotServed, fault.Unavailable, fmt.Sprintf("no %s chain of your plan is enabled on this server", addr.Kind))
	}
	return addr, nil
}

// asked are the enabled chains of kind that planChains allow: those a
// scan of that kind asks (for messages; Allowed checks without a slice).
func (e *Engine) asked(kind chains.Kind, planChains []string) []string {
	var out []string
	for _, key := range e.enabled[kind] {
		if slices.Contains(planChains, key) {
			out = append(out, key)
		}
	}
	return out
}

// Scan answers one scan request with a scored report.
//
// A cache hit answers with the original scan's facts, scores and
// scanned_at (the time the facts were read), a fresh scan_id, cached=true
// and this request's duration_ms. A scan sharing an identical one in
// flight gets a fresh scan_id too, with cached=false. Cache hits and
// shared scans do not take an admission slot.
func (e *Engine) Scan(ctx context.Context, req ScanRequest) (*Report, error) {
	start := e.now()
	addr, err := e.Allowed(req.Address, req.Chains)
	if err != nil {
		return nil, err
	}
	adapter := e.adapters[addr.Kind]
	planChains := slices.Clone(req.Chains)
	slices.Sort(planChains)
	planChains = slices.Compact(planChains)
	// The engine version is part of the key: instances of two versions
	// sharing a cache (a rolling upgrade) never serve each other's reports.
	key := "scan:v1:" + e.version + ":" + addr.Canonical + ":" + strings.Join(planChains, ",")

	if e.cache != nil && e.ttl > 0 && !req.Fresh {
		if b, ok, err := e.cached(ctx, key); err == nil && ok {
			r, err := e.decoded.decode(key, b)
			if err == nil {
				e.obs.CacheLookup(true)
				r.ScanID = e.newID()
				r.Cached = true
				r.DurationMS = e.now().Sub(start).Milliseconds()
				return r, nil
			}
		}
		e.obs.CacheLookup(false)
	}

	run := func(ctx context.Context) ([]byte, error) {
		return e.assess(ctx, adapter, addr, planChains, key, req.Priority)
	}
	var b []byte
	shared := false
	if e.dedupe != nil && !req.Fresh {
		// Only scans of one priority share: a premium scan that joined a
		// free one in flight would wait in the free queue with it.
		b, shared, err = e.dedupe.Do(ctx, key+":"+req.Priority.String(), run)
	} else {
		b, err = run(ctx)
	}
	if err != nil {
		return nil, err
	}
	if shared {
		e.obs.DedupeShared()
	}
	r, err := decodeReport(b)
	if err != nil {
		return nil, err
	}
	r.stored = newStored(b)
	r.ScanID = e.newID()
	r.DurationMS = e.now().Sub(start).Milliseconds()
	if !shared {
		e.record(ctx, r)
	}
	return r, nil
}

// assess runs the adapter under admission and the scan deadline and
// returns the report as JSON (what the cache and dedupe share).
func (e *Engine) assess(ctx context.Context, a Adapter, addr chains.Address, planChains []string, key string, p Priority) ([]byte, error) {
	// Waiting is bounded too: past the scan deadline a waiting request is
	// answered overloaded rather than left to the server's write timeout.
	wctx, wcancel := context.WithTimeout(ctx, e.timeout)
	release, err := e.admission.Acquire(wctx, p.class())
	wcancel()
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, fault.Wrap(err, fault.Overloaded, "waited too long for a scan slot; retry shortly")
		}
		return nil, err
	}
	outcome := admission.Ignored
	defer func() { release(outcome) }()
	// The scan outlives a client that hangs up: others may share it and
	// its result is cached.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.timeout)
	defer cancel()
	start := e.now()
	as, err := safeAssess(actx, a, Request{Address: addr, Chains: planChains})
	// The admission limit learns from the time scans take: a whole scan
	// is a sample, one that ran out of time a sign of overload.
	switch {
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		outcome = admission.TimedOut
	case err == nil:
		outcome = admission.Succeeded
	}
	if err != nil {
		var fe *fault.Error
		if !errors.As(err, &fe) && errors.Is(actx.Err(), context.DeadlineExceeded) {
			return nil, fault.Wrap(err, fault.UpstreamTimeout, fmt.Sprintf("the scan deadline (%s) passed before a verdict: no answer in time from %s",
				e.timeout, strings.Join(e.asked(addr.Kind, planChains), ", ")))
		}
		return nil, fmt.Errorf("scan %s: %w", addr.Canonical, err)
	}
	if as == nil {
		return nil, fmt.Errorf("scan %s: adapter returned no assessment", addr.Canonical)
	}
	e.judge(actx, addr, as)
	r := Build(e.cat, addr, as)
	r.ScannedAt = start.UTC().Truncate(time.Millisecond)
	d := e.now().Sub(start)
	r.DurationMS = d.Milliseconds()
	r.EngineVersion = e.version
	e.obs.ScanDuration(r.Chain, d)
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("scan %s: encode report: %w", addr.Canonical, err)
	}
	// A degraded report is never cached: the next scan asks the chain
	// again, and its complete result is the one cached.
	if e.cache != nil && e.ttl > 0 && r.Completeness == AllChecked {
		// A cache that fails to store costs a future scan, not this one.
		_ = e.cache.Set(actx, key, b, e.ttl)
	}
	return b, nil
}

// judge adds the reputation checks' flags and evidence to as: the
// contract analysis gains impersonates (null when the token copies no
// listed token, or when the check is not configured); with a record
// kept, the deployer analysis gains creator_tokens and creator_record,
// and creator_history is no longer not configured.
func (e *Engine) judge(ctx context.Context, addr chains.Address, as *Assessment) {
	keys := creatorKeysOf(as.Deployer.Evidence)
	v := e.reputation.Judge(ctx, reputation.Facts{
		Chain: as.Chain, Address: addr.Canonical, Name: as.Token.Name, Symbol: as.Token.Symbol,
		Creator: keys.Creator, PoolCreator: keys.PoolCreator, Launches: launchesOf(as.Deployer.Evidence),
		Code: as.CodePrint.Code, Dispatcher: as.CodePrint.Dispatcher,
	})
	as.Contract.Flags = append(as.Contract.Flags, v.Flags...)
	as.NotConfigured = append(as.NotConfigured, v.NotConfigured...)
	as.Unchecked = append(as.Unchecked, v.Unchecked...)
	as.Warnings = append(as.Warnings, v.Warnings...)
	as.Contract.Evidence = extend(as.Contract.Evidence, evidenceField{"impersonates", v.Impersonates}, evidenceField{"code_twins", v.CodeTwins})
	if !e.reputation.Keeps() {
		return
	}
	as.NotConfigured = slices.DeleteFunc(as.NotConfigured, func(c string) bool { return c == risk.CheckCreatorHistory })
	var record *string
	if v.CreatorRecord != "" {
		record = &v.CreatorRecord
	}
	as.Deployer.Evidence = extend(as.Deployer.Evidence, evidenceField{"creator_keys", keys},
		evidenceField{"creator_tokens", v.CreatorTokens}, evidenceField{"creator_record", record})
}

// record keeps the verdict of an uncached scan r on the record, under
// the creator keys its scan read the record by. A record that cannot be
// written costs later scans their evidence, not this one its answer.
func (e *Engine) record(ctx context.Context, r *Report) {
	if !e.reputation.Keeps() {
		return
	}
	var keys CreatorKeys
	if m, ok := r.DeployerAnalysis.Evidence.(map[string]json.RawMessage); ok {
		_ = json.Unmarshal(m["creator_keys"], &keys)
	}
	var twins struct{ Fingerprint, Dispatcher string }
	if m, ok := r.ContractAnalysis.Evidence.(map[string]json.RawMessage); ok {
		_ = json.Unmarshal(m["code_twins"], &twins)
	}
	var pools int
	if m, ok := r.LiquidityAnalysis.Evidence.(map[string]json.RawMessage); ok {
		var ps []json.RawMessage
		if json.Unmarshal(m["pools"], &ps) == nil {
			pools = len(ps)
		}
	}
	ctx = context.WithoutCancel(ctx)
	f, err := e.reputation.Record(ctx, reputation.Outcome{
		Facts: reputation.Facts{Chain: r.Chain, Address: r.Address, Name: r.TokenName, Symbol: r.TokenSymbol,
			Creator: keys.Creator, PoolCreator: keys.PoolCreator, Code: twins.Fingerprint, Dispatcher: twins.Dispatcher},
		ScanID: r.ScanID, Level: string(r.RiskLevel), Flags: r.RiskFlags, ScannedAt: r.ScannedAt, Pools: pools,
	})
	if err != nil || !f.Condemns() || e.alerts == nil {
		return
	}
	// The record changed once, for this scan alone (its read and write are
	// atomic): the alerts go out from here or not at all.
	_ = e.alerts.Condemned(ctx, f)
}

// safeAssess turns an adapter panic into an error: scans may run on a
// goroutine of their own (shared in flight), where a panic would end the
// process.
func safeAssess(ctx context.Context, a Adapter, req Request) (as *Assessment, err error) {
	defer func() {
		if v := recover(); v != nil {
			as, err = nil, fmt.Errorf("adapter %s panicked: %v\n%s", a.Kind(), v, debug.Stack())
		}
	}()
	return a.Assess(ctx, req)
}

// cached looks key up in the cache, without a copy when the cache can
// lend its value: the report is only read (decoded, or written out
// around its per-answer fields) and never modified.
func (e *Engine) cached(ctx context.Context, key string) ([]byte, bool, error) {
	if v, ok := e.cache.(cache.Viewer); ok {
		return v.View(ctx, key)
	}
	return e.cache.Get(ctx, key)
}

func decodeReport(b []byte) (*Report, error) {
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("scan: decode report: %w", err)
	}
	return &r, nil
}

// addressMemo remembers the addresses parsed lately. An EVM address's
// canonical form takes a Keccak-256 (its EIP-55 checksum), and a scan
// request parses its address twice (the handler's check before charging,
// then Scan): for a hot token, that was most of a cached scan's
// parsing. Only valid addresses are remembered.
type addressMemo struct {
	mu sync.Mutex
	m  map[string]chains.Address
}

// parse is chains.ParseAddress, remembered.
func (m *addressMemo) parse(s string) (chains.Address, error) {
	m.mu.Lock()
	a, ok := m.m[s]
	m.mu.Unlock()
	if ok {
		return a, nil
	}
	a, err := chains.ParseAddress(s)
	if err != nil {
		return a, err
	}
	m.mu.Lock()
	if len(m.m) >= memoSize {
		clear(m.m)
	}
	m.m[s] = a
	m.mu.Unlock()
	return a, nil
}

// reportMemo remembers the last decoding of each cached report, so that
// a hit on a hot entry costs a comparison instead of a JSON decode. An
// entry is reused only while the cache returns the very same bytes.
type reportMemo struct {
	mu sync.Mutex
	m  map[string]memoEntry
}

type memoEntry struct {
	raw []byte
	rep Report
}

// memoSize bounds the memo; past it, it starts afresh.
const memoSize = 1024

// decode returns a copy of the report in b. The copy shares its slices
// and evidence with the memo: callers change only scalar fields.
func (m *reportMemo) decode(key string, b []byte) (*Report, error) {
	m.mu.Lock()
	ent, ok := m.m[key]
	m.mu.Unlock()
	if ok && sameBytes(ent.raw, b) {
		r := ent.rep
		return &r, nil
	}
	r, err := decodeReport(b)
	if err != nil {
		return nil, err
	}
	r.stored = newStored(b)
	m.mu.Lock()
	if len(m.m) >= memoSize {
		clear(m.m)
	}
	m.m[key] = memoEntry{raw: b, rep: *r}
	m.mu.Unlock()
	return r, nil
}

// sameBytes reports whether a and b hold the same bytes, at once when
// they are the same slice (a value the cache lent again).
func sameBytes(a, b []byte) bool {
	if len(a) == len(b) && len(a) > 0 && &a[0] == &b[0] {
		return true
	}
	return bytes.Equal(a, b)
}

type nopObserver struct{}

func (nopObserver) ScanDuration(string, time.Duration) {}
func (nopObserver) QueueDepth(string, int)             {}
func (nopObserver) ScanLimit(int)                      {}
func (nopObserver) CacheLookup(bool)                   {}
func (nopObserver) DedupeShared()                      {}

// Queued returns how many scans wait for admission.
func (e *Engine) Queued() int {
	s := e.admission.Stats()
	n := 0
	for _, w := range s.Waiting {
		n += w
	}
	return n
}

// ChainKeys returns every configured chain's key (enabled or not), sorted,
// which plans' "*" expands to. The slice is shared: do not modify it.
func (e *Engine) ChainKeys() []string { return e.chainKeys }
