package watch_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/evm"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/metrics"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/watch"
)

// published is one event as the publisher received it.
type published struct {
	keyID string
	ev    watch.Event
	at    time.Time
	data  map[string]any
}

// recorder is a Publisher keeping every event, deduplicated by id like the
// outbox.
type recorder struct {
	mu     sync.Mutex
	events []published
	ids    map[string]bool
	notify chan struct{}
	// repeats counts publications of an id already published.
	repeats int
}

func newRecorder() *recorder {
	return &recorder{ids: map[string]bool{}, notify: make(chan struct{}, 1)}
}

func (r *recorder) Publish(_ context.Context, keyID string, ev watch.Event) error {
	var data map[string]any
	if err := json.Unmarshal(ev.Data, &data); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids[ev.ID] {
		r.repeats++
		return nil
	}
	r.ids[ev.ID] = true
	r.events = append(r.events, published{keyID: keyID, ev: ev, at: time.Now(), data: data})
	select {
	case r.notify <- struct{}{}:
	default:
	}
	return nil
}

func (r *recorder) all() []published {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// of returns the events of type typ about address.
func (r *recorder) of(typ, address string) []published {
	var out []published
	for _, p := range r.all() {
		if p.ev.Type == typ && strings.EqualFold(p.data["address"].(string), address) {
			out = append(out, p)
		}
	}
	return out
}

// bench is a devnet, an engine scanning it, a store and a watcher.
type bench struct {
	dn     *devnet.Devnet
	m      devnet.Manifest
	reg    *chains.Registry
	engine *scan.Engine
	st     *sqlite.Store
	pub    *recorder
	mu     sync.Mutex
	offset time.Duration
	logs   *node.Client
	obs    watch.Observer
}

func newBench(t testing.TB) *bench {
	t.Helper()
	if testing.Short() {
		t.Skip("devnet tests are not short")
	}
	ctx := context.Background()
	dn, err := devnet.Start(ctx, devnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dn.Close() })
	reg, err := chains.Parse([]byte(`{"chains":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(dn.Chain())
	engine, err := scan.NewEngine(scan.EngineOptions{
		Adapters: []scan.Adapter{evm.NewAdapter(reg, evm.Options{})}, Registry: reg,
		ScanTimeout: time.Minute, MaxConcurrent: 8, Version: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "watch.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ch, _ := reg.Get(devnet.ChainKey)
	return &bench{dn: dn, m: dn.Manifest(), reg: reg, engine: engine, st: st, pub: newRecorder(),
		logs: node.NewClient(ch.Key, ch.RPC, node.ClientOptions{})}
}

func (b *bench) now() time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return time.Now().Add(b.offset)
}

func (b *bench) advance(d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.offset += d
}

func (b *bench) watcher(t testing.TB, instance string, interval time.Duration, st store.Watchlist, pub watch.Publisher) *watch.Watcher {
	t.Helper()
	w, err := watch.New(watch.Options{
		Store: st, History: b.st, Scanner: b.engine, Publisher: pub, Registry: b.reg,
		Logs:     func(chains.Chain) watch.LogSource { return watch.RPCLogs{Client: b.logs} },
		Interval: interval, RescanInterval: 10 * time.Minute, Instance: instance, Now: b.now, Observer: b.obs,
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// watchKind adds a watchlist entry of key on the zoo token of kind, its
// baseline scanned now and recorded in history, as the API does.
func (b *bench) watchKind(t testing.TB, st store.Watchlist, key, kind string) devnet.ManifestToken {
	t.Helper()
	tok, ok := b.m.Token(kind)
	if !ok {
		t.Fatalf("no zoo token %s", kind)
	}
	ctx := context.Background()
	rep, err := b.engine.Scan(ctx, scan.ScanRequest{Address: tok.Address, Chains: []string{devnet.ChainKey}})
	if err != nil {
		t.Fatalf("baseline of %s: %v", kind, err)
	}
	raw, err := rep.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.st.SaveScan(ctx, store.Scan{ID: rep.ScanID, KeyID: key, Address: rep.Address, Chain: rep.Chain,
		RiskLevel: string(rep.RiskLevel), Score: rep.OverallRiskScore, ScannedAt: b.now(), Report: raw}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.CreateWatch(ctx, store.Watch{ID: store.NewWatchID(), KeyID: key, Address: rep.Address, Chain: rep.Chain,
		CreatedAt: b.now(), BaselineScanID: rep.ScanID, BaselineLevel: string(rep.RiskLevel), BaselineScore: rep.OverallRiskScore}, 1000); err != nil {
		t.Fatal(err)
	}
	return tok
}

func (b *bench) act(t testing.TB, tok devnet.ManifestToken, action string, args ...string) devnet.ActResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := devnet.Act(ctx, b.dn.RPCURL(), b.m, tok.Address, action, args)
	if err != nil {
		t.Fatalf("devnet act %s on %s: %v", action, tok.Kind, err)
	}
	return res
}

func tick(t testing.TB, w *watch.Watcher) watch.TickStats {
	t.Helper()
	st, err := w.TickChain(context.Background(), devnet.ChainKey)
	if err != nil {
		t.Fatalf("tick: %v", err)
	}
	return st
}

// TestEveryEventTypeFromOwnerActions: each owner action sent by `devnet
// act` on the dev chain is detected and published as its event, for every
// entry watching the token, and nothing is published when nothing changed.
func TestEveryEventTypeFromOwnerActions(t *testing.T) {
	b := newBench(t)
	const keyA, keyB = "key_a", "key_b"
	tokens := map[string]devnet.ManifestToken{}
	for _, kind := range []string{"mintable", "pausable", "clean_owned", "max_tx", "lp_unlocked", "proxy_upgradeable", "fee_modifiable", "blacklist"} {
		tokens[kind] = b.watchKind(t, b.st, keyA, kind)
	}
	b.watchKind(t, b.st, keyB, "mintable") // a second key on one token
	m := metrics.New()
	b.obs = m
	w := b.watcher(t, "inst_a", time.Second, b.st, b.pub)

	// The first tick starts at the head and compares a fresh scan of each
	// token with its baseline: nothing moved, nothing is said.
	if st := tick(t, w); !st.Held || st.Tokens != 8 || st.Rescans != 8 {
		t.Fatalf("first tick %+v, want the lease, 8 tokens and 8 re-scans", st)
	}
	if evs := b.pub.all(); len(evs) != 0 {
		for _, e := range evs {
			t.Errorf("false alert with nothing changed: %s %s", e.ev.Type, e.ev.Data)
		}
		t.FailNow()
	}

	// Actions that announce themselves in logs.
	newOwner := "0x00000000000000000000000000000000000b0b0b"
	mint := b.act(t, tokens["mintable"], "mint", "1000000")
	pause := b.act(t, tokens["pausable"], "pause")
	transfer := b.act(t, tokens["clean_owned"], "transfer-owner", newOwner)
	renounce := b.act(t, tokens["max_tx"], "renounce")
	pull := b.act(t, tokens["lp_unlocked"], "remove-liquidity", "60")
	upgrade := b.act(t, tokens["proxy_upgradeable"], "upgrade")
	st := tick(t, w)
	actions := st
	// The six tokens whose logs moved, and those whose privileged
	// address sent the transactions (the owner's nonce moved); no more.
	if st.Logs == 0 || st.Acted == 0 || st.Rescans < 6 || st.Rescans > 8 {
		t.Errorf("tick after six owner actions: %+v, want logs, the owner's transactions seen and 6 to 8 re-scans", st)
	}

	one := func(typ, kind string, tx devnet.ActResult) map[string]any {
		t.Helper()
		evs := b.pub.of(typ, tokens[kind].Address)
		if len(evs) == 0 {
			t.Errorf("%s: no %s event", kind, typ)
			return map[string]any{}
		}
		d := evs[0].data
		if tx.Txs != nil && !slices.ContainsFunc(tx.Txs, func(h common.Hash) bool { tx, _ := d["tx_hash"].(string); return strings.EqualFold(tx, h.Hex()) }) {
			t.Errorf("%s %s names tx %v, want one of the owner's %v", kind, typ, d["tx_hash"], tx.Txs)
		}
		if d["scan_id"] == nil || d["chain"] != devnet.ChainKey || !strings.HasPrefix(d["watch_id"].(string), "wat_") {
			t.Errorf("%s %s data %v: want scan_id, chain and watch_id", kind, typ, d)
		}
		return d
	}
	if d := one(watch.SupplyChanged, "mintable", mint); d["kind"] != "mint" || d["amount"] != "1000000000000000000000000" {
		t.Errorf("mint event %v, want kind mint of 1e24", d)
	}
	if keys := keysOf(b.pub.of(watch.SupplyChanged, tokens["mintable"].Address)); !slices.Equal(keys, []string{keyA, keyB}) {
		t.Errorf("the mint reached keys %v, want both watching keys", keys)
	}
	if d := one(watch.TradingChanged, "pausable", pause); !slices.Contains(anySlice(d["changes"]), "paused") {
		t.Errorf("pause event %v, want changes [paused]", d)
	}
	if d := one(watch.OwnerChanged, "clean_owned", transfer); !strings.EqualFold(d["new_owner"].(string), newOwner) || d["renounced"] != false {
		t.Errorf("transfer event %v, want new_owner %s", d, newOwner)
	}
	if d := one(watch.OwnerChanged, "max_tx", renounce); d["renounced"] != true {
		t.Errorf("renounce event %v, want renounced", d)
	}
	if d := one(watch.LiquidityRemoved, "lp_unlocked", pull); d["drop_pct"] == nil || d["drop_pct"].(float64) < 55 {
		t.Errorf("liquidity event %v, want a drop of about 60%%", d)
	}
	if d := one(watch.ContractUpgraded, "proxy_upgradeable", upgrade); d["implementation"] == nil ||
		strings.EqualFold(d["implementation"].(string), tokens["proxy_upgradeable"].Implementation) {
		t.Errorf("upgrade event %v, want a new implementation", d)
	}

	// Changes no log announces are found within a tick: the owner's
	// transaction moved its nonce, read in the tick's batch.
	if evs := b.pub.of(watch.TradingChanged, tokens["fee_modifiable"].Address); len(evs) != 0 {
		t.Fatalf("a fee event before the fee moved: %v", evs[0].data)
	}
	b.act(t, tokens["fee_modifiable"], "set-fee", "25")
	b.act(t, tokens["blacklist"], "blacklist", tokens["blacklist"].Pair)
	if st := tick(t, w); st.Acted == 0 || st.Rescans < 2 {
		t.Errorf("tick after two silent owner actions: %+v, want the owner seen and its tokens re-scanned", st)
	}
	if len(b.pub.of(watch.TradingChanged, tokens["fee_modifiable"].Address)) == 0 {
		t.Error("the fee change was not noticed within a tick")
	}
	// The periodic re-scan still covers every token.
	b.advance(11 * time.Minute)
	if st := tick(t, w); st.Rescans != 8 {
		t.Errorf("periodic tick %+v, want every token re-scanned", st)
	}
	if d := one(watch.TradingChanged, "fee_modifiable", devnet.ActResult{}); !slices.Contains(anySlice(d["changes"]), "fee_changed") {
		t.Errorf("fee event %v, want fee_changed", d)
	} else if sell := d["sell_tax"].(map[string]any); sell["after"].(float64) < 20 {
		t.Errorf("fee event sell tax %v, want about 25", sell)
	}
	if d := one(watch.TradingChanged, "blacklist", devnet.ActResult{}); !slices.Contains(anySlice(d["changes"]), "honeypot") || (d["can_sell"] != false && d["can_buy"] != false) {
		t.Errorf("blacklisted pool event %v, want honeypot: can_buy or can_sell false", d)
	}
	// Renouncing took the owner's powers away: the level moved.
	if d := one(watch.RiskChanged, "max_tx", devnet.ActResult{}); d["after"] == nil ||
		d["after"].(map[string]any)["risk_level"] == d["before"].(map[string]any)["risk_level"] || len(anySliceAny(d["flags_removed"])) == 0 {
		t.Errorf("risk event %v, want another level and the flags removed", d)
	}

	// A tick with nothing new says nothing new, and a replay of the same
	// logs (a restart before the cursor moved) gives the same ids.
	before := len(b.pub.all())
	tick(t, w)
	if after := len(b.pub.all()); after != before {
		t.Errorf("a quiet tick published %d events", after-before)
	}
	for _, typ := range watch.Types {
		if n := len(filterType(b.pub.all(), typ)); n == 0 {
			t.Errorf("no %s event at all", typ)
		}
	}
	// A restart before the cursor moved reads the same logs again: the
	// same events, with the same ids, which the outbox stores once.
	if err := b.st.AdvanceWatch(context.Background(), devnet.ChainKey, "inst_a", b.now(), actions.From-1); err != nil {
		t.Fatal(err)
	}
	before = len(b.pub.all())
	tick(t, w)
	if after := len(b.pub.all()); after != before || b.pub.repeats < 6 {
		t.Errorf("replaying the actions' blocks: %d new events and %d repeated ids, want 0 new and the 6 log events repeated", after-before, b.pub.repeats)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	// Publications: the two mint events twice each (the replay).
	for _, want := range []string{`tokenrisk_watch_events_total{type="token.supply_changed"} 4`, `tokenrisk_watch_rescans_total{chain="devnet"}`,
		`tokenrisk_watch_tick_duration_seconds_count{chain="devnet"} 6`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func keysOf(evs []published) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.keyID)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func anySlice(v any) []string {
	var out []string
	if s, ok := v.([]any); ok {
		for _, x := range s {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
	}
	return out
}

func anySliceAny(v any) []any {
	s, _ := v.([]any)
	return s
}

func filterType(evs []published, typ string) []published {
	var out []published
	for _, e := range evs {
		if e.ev.Type == typ {
			out = append(out, e)
		}
	}
	return out
}
