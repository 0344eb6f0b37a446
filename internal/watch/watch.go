// Package watch keeps watchlists: per chain, one log query per tick over
// every watched token and its main pool, a full re-scan of the tokens whose
// logs moved (and a slow periodic re-scan of all, for changes no event
// announces), and the differences turned into events for the webhook
// outbox. One instance watches a chain at a time (a lease in the store).
// Scans also feed it: ReputationAlerts tells the keys watching a token's
// creator-mates and code twins when a scan newly finds one harmful.
package watch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Scanner runs a scan (*scan.Engine implements it).
type Scanner interface {
	Scan(ctx context.Context, req scan.ScanRequest) (*scan.Report, error)
}

// History finds a stored scan (store.Store implements it): a new entry's
// baseline is the first state the watcher compares with.
type History interface {
	FindScan(ctx context.Context, keyID, scanID string) (store.Scan, error)
}

// Options configure a Watcher.
type Options struct {
	Store     store.Watchlist
	History   History
	Scanner   Scanner
	Publisher Publisher
	Registry  *chains.Registry
	// Logs returns the log source of an EVM chain; nil (or a nil result)
	// means periodic re-scans only (Solana).
	Logs func(c chains.Chain) LogSource
	// Interval is the tick; 0 means 15s.
	Interval time.Duration
	// RescanInterval is how often every watched token is re-scanned even
	// when its logs are quiet; 0 means 10 minutes.
	RescanInterval time.Duration
	// MaxRescans bounds the periodic re-scans per chain and tick (tokens
	// whose logs moved are always re-scanned); 0 means 50.
	MaxRescans int
	// Parallel bounds the re-scans running at once; 0 means 8.
	Parallel int
	// MaxBlocks bounds the block range of one log query; 0 means 2000.
	MaxBlocks uint64
	// LiquidityDropPct is the main pool's quote reserve drop that raises
	// token.liquidity_removed; 0 means 20.
	LiquidityDropPct float64
	// Instance names this instance in leases; "" means a random id.
	Instance string
	Now      func() time.Time
	Logger   *slog.Logger
	// Observer, if not nil, sees every tick and event (*metrics.Metrics).
	Observer Observer
}

// Observer is told what the watcher does.
type Observer interface {
	WatchTick(chain string, rescans int, d time.Duration)
	WatchEvent(typ string)
}

// Watcher runs change detection.
type Watcher struct {
	o Options

	mu sync.Mutex
	// snaps are the decoded last scans by chain and scan id, so a tick
	// reads from the store only the reports of scans it has not seen.
	snaps map[string]map[string]*snapshot
	// nonces are the privileged addresses' transaction counts by chain,
	// as the last tick read them (in memory: after a restart the first
	// tick reads them afresh, and the periodic re-scan covers the gap).
	nonces map[string]map[common.Address]uint64
}

// New returns a Watcher.
func New(o Options) (*Watcher, error) {
	if o.Store == nil || o.Scanner == nil || o.Publisher == nil || o.Registry == nil {
		return nil, errors.New("watch: Store, Scanner, Publisher and Registry are required")
	}
	if o.Interval <= 0 {
		o.Interval = 15 * time.Second
	}
	if o.RescanInterval <= 0 {
		o.RescanInterval = 10 * time.Minute
	}
	if o.MaxRescans <= 0 {
		o.MaxRescans = 50
	}
	if o.Parallel <= 0 {
		o.Parallel = 8
	}
	if o.MaxBlocks == 0 {
		o.MaxBlocks = 2000
	}
	if o.LiquidityDropPct <= 0 {
		o.LiquidityDropPct = 20
	}
	if o.Instance == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		o.Instance = "inst_" + hex.EncodeToString(b[:])
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Watcher{o: o, snaps: map[string]map[string]*snapshot{}, nonces: map[string]map[common.Address]uint64{}}, nil
}

// Instance is this watcher's lease owner id.
func (w *Watcher) Instance() string { return w.o.Instance }

// Run ticks until ctx is done, then releases its leases.
func (w *Watcher) Run(ctx context.Context) error {
	t := time.NewTicker(w.o.Interval)
	defer t.Stop()
	for {
		if err := w.Tick(ctx); err != nil && ctx.Err() == nil {
			w.o.Logger.Warn("watch tick failed", "err", err)
		}
		select {
		case <-ctx.Done():
			w.release()
			return nil
		case <-t.C:
		}
	}
}

func (w *Watcher) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	keys, err := w.o.Store.WatchedChains(ctx)
	if err != nil {
		return
	}
	for _, k := range keys {
		_ = w.o.Store.ReleaseWatch(ctx, k, w.o.Instance)
	}
}

// Tick watches every chain with watched tokens once. Chains are
// independent: one failing does not stop the others.
func (w *Watcher) Tick(ctx context.Context) error {
	keys, err := w.o.Store.WatchedChains(ctx)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	var errs []error
	for _, k := range keys {
		if _, err := w.TickChain(ctx, k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// leaseFor is how long a lease lasts: three ticks, and at least a minute
// so a slow tick keeps it.
func (w *Watcher) leaseFor() time.Duration { return max(3*w.o.Interval, time.Minute) }

// token is one watched token during a tick.
type token struct {
	addr    string
	watches []store.Watch
	state   *store.WatchedToken
	before  *snapshot
	moved   bool
	// changes raised from logs this tick, and their types.
	changes []change
	seen    map[string]bool
	// pool and the reserve reference (nil when unknown).
	pool         common.Address
	quoteIsOne   bool
	reserveRef   *big.Int
	reserveMoved bool
	// after the re-scan
	scanned *scan.Report
	encoded []byte
	scanErr error
}

// TickStats says what one chain's tick did.
type TickStats struct {
	Held   bool
	Tokens int
	Logs   int
	// Acted counts the privileged addresses that sent a transaction
	// since the last tick (their tokens are re-scanned).
	Acted    int
	Rescans  int
	Events   int
	From, To uint64
}

// TickChain watches one chain once: lease, logs, re-scans, events, state.
func (w *Watcher) TickChain(ctx context.Context, key string) (TickStats, error) {
	var st TickStats
	ch, ok := w.o.Registry.Get(key)
	if !ok || ch.Disabled {
		return st, nil
	}
	now := w.o.Now()
	held, cursor, err := w.o.Store.LeaseWatch(ctx, key, w.o.Instance, now, now.Add(w.leaseFor()))
	if err != nil || !held {
		return st, err
	}
	st.Held = true
	start := time.Now()
	defer func() {
		if w.o.Observer != nil {
			w.o.Observer.WatchTick(key, st.Rescans, time.Since(start))
		}
		w.o.Logger.Debug("watch tick", "chain", key, "tokens", st.Tokens, "from", st.From, "to", st.To,
			"logs", st.Logs, "rescans", st.Rescans, "events", st.Events)
	}()
	tokens, err := w.load(ctx, key)
	if err != nil {
		return st, err
	}
	st.Tokens = len(tokens)
	next := cursor
	var src LogSource
	if w.o.Logs != nil && ch.Kind == chains.EVM {
		src = w.o.Logs(ch)
	}
	if src != nil && len(tokens) > 0 {
		head, err := src.Head(ctx)
		if err != nil {
			return st, err
		}
		if cursor == 0 || cursor > head {
			cursor = head // start watching from now
		}
		from, to := cursor+1, min(head, cursor+w.o.MaxBlocks)
		next = max(cursor, to)
		st.From, st.To = from, to
		var logs []types.Log
		ns, ok := src.(NonceSource)
		accounts, holders := privilegedAccounts(tokens)
		switch {
		case ok && len(accounts) > 0:
			// Read even with no new block: the first tick's nonces are
			// the reference the next one compares with.
			var nonces []uint64
			if logs, nonces, err = ns.LogsAndNonces(ctx, from, to, watchedAddresses(tokens), Topics, accounts); err != nil {
				return st, err
			}
			st.Acted = w.acted(key, accounts, nonces, holders)
		case from <= to:
			if logs, err = src.Logs(ctx, from, to, watchedAddresses(tokens), Topics); err != nil {
				return st, err
			}
		}
		st.Logs = len(logs)
		w.classify(ch, tokens, logs)
	}
	rescans := w.pick(tokens, now)
	st.Rescans = len(rescans)
	w.rescan(ctx, key, rescans)
	n, err := w.publish(ctx, key, tokens)
	st.Events = n
	if err != nil {
		return st, err
	}
	if err := w.save(ctx, key, tokens, now); err != nil {
		return st, err
	}
	if err := w.o.Store.AdvanceWatch(ctx, key, w.o.Instance, w.o.Now(), next); err != nil {
		return st, fmt.Errorf("watch %s: %w", key, err)
	}
	return st, nil
}

// load groups the chain's entries by token and attaches each token's
// state, seeding new tokens from their baseline scan.
func (w *Watcher) load(ctx context.Context, key string) ([]*token, error) {
	watches, err := w.o.Store.WatchesOn(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", key, err)
	}
	states, err := w.o.Store.WatchedTokens(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", key, err)
	}
	byAddr := map[string]*store.WatchedToken{}
	for i := range states {
		byAddr[strings.ToLower(states[i].Address)] = &states[i]
	}
	var tokens []*token
	index := map[string]*token{}
	for _, wt := range watches {
		k := strings.ToLower(wt.Address)
		t := index[k]
		if t == nil {
			t = &token{addr: wt.Address, state: byAddr[k], seen: map[string]bool{}}
			index[k] = t
			tokens = append(tokens, t)
		}
		t.watches = append(t.watches, wt)
	}
	w.mu.Lock()
	known := w.snaps[key]
	w.mu.Unlock()
	kept := map[string]*snapshot{}
	for _, t := range tokens {
		if t.state == nil {
			t.state = w.seed(ctx, key, t)
			t.moved = true // compare a fresh scan with the baseline now
		}
		if t.state == nil {
			continue
		}
		snap := known[t.state.ScanID]
		if snap == nil {
			report := t.state.Report
			if report == nil {
				if report, err = w.o.Store.WatchedReport(ctx, key, t.state.Address); err != nil {
					return nil, fmt.Errorf("watch %s: %w", key, err)
				}
			}
			if snap, err = decodeSnapshot(report); err != nil {
				w.o.Logger.Warn("watch: stored report unreadable; re-scanning", "address", t.addr, "err", err)
				t.moved = true
				continue
			}
			snap.ScanID = t.state.ScanID
		}
		kept[t.state.ScanID] = snap
		t.before = snap
		pool, kind, quote, reserve := snap.mainPool()
		if pool != "" && common.IsHexAddress(pool) && (kind == "" || kind == "v2" || kind == "solidly") {
			t.pool = common.HexToAddress(pool)
			t.quoteIsOne = strings.ToLower(t.addr) < strings.ToLower(quote)
		}
		ref := t.state.QuoteReserve
		if ref == "" {
			ref = reserve
		}
		if v, ok := new(big.Int).SetString(ref, 10); ok {
			t.reserveRef = v
		}
	}
	w.mu.Lock()
	w.snaps[key] = kept
	w.mu.Unlock()
	return tokens, nil
}

// seed is a new token's first state: the baseline scan of its first
// entry, nil when that scan is not (yet) in history.
func (w *Watcher) seed(ctx context.Context, key string, t *token) *store.WatchedToken {
	if w.o.History == nil {
		return nil
	}
	first := t.watches[0]
	sc, err := w.o.History.FindScan(ctx, first.KeyID, first.BaselineScanID)
	if err != nil {
		return nil
	}
	return &store.WatchedToken{Chain: key, Address: t.addr, ScanID: sc.ID, Report: sc.Report, ScannedAt: time.Time{}}
}

// privilegedAccounts are the privileged addresses of the tokens' last
// scans, each with the tokens it holds powers over.
func privilegedAccounts(tokens []*token) ([]common.Address, map[common.Address][]*token) {
	var accounts []common.Address
	holders := map[common.Address][]*token{}
	for _, t := range tokens {
		if t.before == nil {
			continue
		}
		for _, a := range t.before.privileged() {
			if holders[a] == nil {
				accounts = append(accounts, a)
			}
			holders[a] = append(holders[a], t)
		}
	}
	return accounts, holders
}

// acted compares the accounts' nonces with the last tick's: an account
// that sent a transaction marks its tokens moved (re-scanned now, the
// re-scan deciding whether anything changed). It returns how many did.
func (w *Watcher) acted(key string, accounts []common.Address, nonces []uint64, holders map[common.Address][]*token) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	last := w.nonces[key]
	next := make(map[common.Address]uint64, len(accounts))
	n := 0
	for i, a := range accounts {
		next[a] = nonces[i]
		if before, ok := last[a]; ok && nonces[i] > before {
			n++
			for _, t := range holders[a] {
				t.moved = true
			}
			w.o.Logger.Debug("watch: a privileged address sent a transaction", "chain", key, "address", a.Hex(),
				"nonce", nonces[i], "tokens", len(holders[a]))
		}
	}
	w.nonces[key] = next
	return n
}

func watchedAddresses(tokens []*token) []common.Address {
	var out []common.Address
	for _, t := range tokens {
		if common.IsHexAddress(t.addr) {
			out = append(out, common.HexToAddress(t.addr))
		}
		if t.pool != (common.Address{}) {
			out = append(out, t.pool)
		}
	}
	return out
}

// classify turns the tick's logs into changes and marks the tokens to
// re-scan.
func (w *Watcher) classify(ch chains.Chain, tokens []*token, logs []types.Log) {
	byToken, byPool := map[common.Address]*token{}, map[common.Address]*token{}
	for _, t := range tokens {
		if common.IsHexAddress(t.addr) {
			byToken[common.HexToAddress(t.addr)] = t
		}
		if t.pool != (common.Address{}) {
			byPool[t.pool] = t
		}
	}
	secured := map[common.Address]bool{}
	for _, a := range ch.BurnAddresses {
		if common.IsHexAddress(a) {
			secured[common.HexToAddress(a)] = true
		}
	}
	for _, l := range ch.Lockers {
		if common.IsHexAddress(l.Address) {
			secured[common.HexToAddress(l.Address)] = true
		}
	}
	delete(secured, common.Address{}) // LP minted from zero is not LP leaving a burn
	for _, l := range logs {
		if l.Removed || len(l.Topics) == 0 {
			continue
		}
		if t := byToken[l.Address]; t != nil {
			w.tokenLog(t, l)
		}
		if t := byPool[l.Address]; t != nil {
			w.poolLog(t, l, secured)
		}
	}
}

func logParts(typ string, l types.Log) []string {
	return []string{typ, "log", l.TxHash.Hex(), fmt.Sprint(l.Index)}
}

func logCommon(l types.Log) func(Common) Common {
	block, tx := l.BlockNumber, l.TxHash.Hex()
	return func(c Common) Common {
		c.BlockNumber, c.TxHash = &block, &tx
		return c
	}
}

func (w *Watcher) tokenLog(t *token, l types.Log) {
	at := logCommon(l)
	switch l.Topics[0] {
	case topicTransfer:
		if len(l.Topics) != 3 {
			return
		}
		from, to := topicAddress(l.Topics[1]), topicAddress(l.Topics[2])
		var kind string
		var account common.Address
		switch {
		case from == (common.Address{}) && to != (common.Address{}):
			kind, account = "mint", to
		case to == (common.Address{}) && from != (common.Address{}):
			kind, account = "burn", from
		default:
			return // trading: not a change
		}
		amount := new(big.Int).SetBytes(l.Data).String()
		acct := account.Hex()
		var before *string
		if t.before != nil {
			before = t.before.TotalSupply
		}
		t.add(change{typ: SupplyChanged, idParts: logParts(SupplyChanged, l), fill: func(c Common) any {
			return SupplyChangedData{Common: at(c), Kind: kind, Amount: &amount, Account: &acct, TotalSupplyBefore: before}
		}})
	case topicOwnershipTransferred:
		if len(l.Topics) != 3 {
			return
		}
		prev, next := topicAddress(l.Topics[1]).Hex(), topicAddress(l.Topics[2]).Hex()
		renounced := isZeroAddress(next)
		reclaimed := isZeroAddress(prev) && !renounced
		t.add(change{typ: OwnerChanged, idParts: logParts(OwnerChanged, l), fill: func(c Common) any {
			return OwnerChangedData{Common: at(c), PreviousOwner: &prev, NewOwner: &next, Renounced: renounced, Reclaimed: reclaimed}
		}})
	case topicUpgraded:
		if len(l.Topics) != 2 {
			return
		}
		impl := topicAddress(l.Topics[1]).Hex()
		var prev *string
		if t.before != nil && t.before.implementation() != "" {
			p := t.before.Contract.Proxy.Implementation
			prev = &p
		}
		t.add(change{typ: ContractUpgraded, idParts: logParts(ContractUpgraded, l), fill: func(c Common) any {
			return ContractUpgradedData{Common: at(c), PreviousImplementation: prev, Implementation: impl}
		}})
	case topicPaused, topicUnpaused:
		what := "paused"
		if l.Topics[0] == topicUnpaused {
			what = "unpaused"
		}
		t.moved = true
		t.changes = append(t.changes, change{typ: TradingChanged, idParts: logParts(TradingChanged, l), fill: func(c Common) any {
			return TradingChangedData{Common: at(c), Changes: []string{what}}
		}})
	}
}

// add records a change read from a log: the token is re-scanned and the
// scans' difference does not raise the same type again.
func (t *token) add(c change) {
	t.moved = true
	t.seen[c.typ] = true
	t.changes = append(t.changes, c)
}

func (w *Watcher) poolLog(t *token, l types.Log, secured map[common.Address]bool) {
	at := logCommon(l)
	pool := t.pool.Hex()
	switch l.Topics[0] {
	case topicSync:
		r0, r1, ok := syncReserves(l.Data)
		if !ok {
			return
		}
		quote := r0
		if t.quoteIsOne {
			quote = r1
		}
		if t.reserveRef == nil || quote.Cmp(t.reserveRef) > 0 {
			t.reserveRef, t.reserveMoved = quote, true
			return
		}
		before := t.reserveRef.String()
		drop, ok := reserveDrop(before, quote.String())
		if !ok || drop < w.o.LiquidityDropPct {
			return
		}
		after := quote.String()
		t.reserveRef, t.reserveMoved = quote, true
		t.add(change{typ: LiquidityRemoved, idParts: logParts(LiquidityRemoved, l), fill: func(c Common) any {
			return LiquidityRemovedData{Common: at(c), Pool: pool, QuoteReserveBefore: &before, QuoteReserveAfter: &after, DropPct: &drop}
		}})
	case topicBurn:
		t.moved = true // liquidity left the pool: re-scan
	case topicTransfer:
		if len(l.Topics) != 3 || !secured[topicAddress(l.Topics[1])] {
			return
		}
		from := topicAddress(l.Topics[1]).Hex()
		amount := new(big.Int).SetBytes(l.Data).String()
		t.add(change{typ: LiquidityRemoved, idParts: logParts(LiquidityRemoved, l), fill: func(c Common) any {
			return LiquidityRemovedData{Common: at(c), Pool: pool, LPUnlocked: true, LPFrom: &from, LPAmount: &amount}
		}})
	}
}

// pick returns the tokens to re-scan: every token whose logs moved, then
// the ones longest without a scan that are due, up to MaxRescans.
func (w *Watcher) pick(tokens []*token, now time.Time) []*token {
	var out, due []*token
	for _, t := range tokens {
		switch {
		case t.moved || t.state == nil:
			out = append(out, t)
		case now.Sub(t.state.ScannedAt) >= w.o.RescanInterval:
			due = append(due, t)
		}
	}
	slices.SortStableFunc(due, func(a, b *token) int { return a.state.ScannedAt.Compare(b.state.ScannedAt) })
	return append(out, due[:min(len(due), w.o.MaxRescans)]...)
}

// rescan scans the tokens afresh, Parallel at a time.
func (w *Watcher) rescan(ctx context.Context, key string, tokens []*token) {
	sem := make(chan struct{}, w.o.Parallel)
	var wg sync.WaitGroup
	for _, t := range tokens {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			rep, err := w.o.Scanner.Scan(ctx, scan.ScanRequest{Address: t.addr, Chains: []string{key}, Priority: scan.PriorityNormal, Fresh: true})
			if err == nil {
				t.encoded, err = rep.Encode()
			}
			if err != nil {
				t.scanErr = err
				w.o.Logger.Warn("watch: re-scan failed", "chain", key, "address", t.addr, "err", err)
				return
			}
			t.scanned = rep
		}()
	}
	wg.Wait()
}

// publish sends every change of every token to each of its entries.
func (w *Watcher) publish(ctx context.Context, key string, tokens []*token) (int, error) {
	now := w.o.Now().UTC()
	n := 0
	for _, t := range tokens {
		changes := t.changes
		var scanID *string
		if t.scanned != nil {
			id := t.scanned.ScanID
			scanID = &id
			if t.before != nil {
				after, err := decodeSnapshot(t.encoded)
				if err != nil {
					return n, err
				}
				after.ScanID = id
				changes = append(changes, diffScans(t.before, after, t.seen, w.o.LiquidityDropPct)...)
			}
		}
		for _, c := range changes {
			for _, wt := range t.watches {
				data, err := json.Marshal(c.fill(Common{WatchID: wt.ID, Address: t.addr, Chain: key, ScanID: scanID}))
				if err != nil {
					return n, fmt.Errorf("watch: encode %s: %w", c.typ, err)
				}
				ev := Event{ID: eventID(append([]string{wt.ID}, c.idParts...)...), Type: c.typ, Timestamp: now, Data: data}
				if err := w.o.Publisher.Publish(ctx, wt.KeyID, ev); err != nil {
					return n, fmt.Errorf("watch: publish %s: %w", c.typ, err)
				}
				n++
				if w.o.Observer != nil {
					w.o.Observer.WatchEvent(c.typ)
				}
			}
		}
	}
	return n, nil
}

// save stores the state of every token that was re-scanned or whose
// reserve reference moved.
func (w *Watcher) save(ctx context.Context, key string, tokens []*token, now time.Time) error {
	for _, t := range tokens {
		if t.scanned == nil && !t.reserveMoved {
			continue
		}
		next := store.WatchedToken{Chain: key, Address: t.addr}
		if t.state != nil {
			next = *t.state
		}
		if t.scanned != nil {
			after, err := decodeSnapshot(t.encoded)
			if err != nil {
				return err
			}
			next.ScanID, next.Report, next.ScannedAt = t.scanned.ScanID, t.encoded, now
			after.ScanID = t.scanned.ScanID
			w.remember(key, after)
			pool, _, _, reserve := after.mainPool()
			next.Pool = pool
			// The reference follows the reserve up; after a drop the
			// scan's reserve is the new reference.
			if v, ok := new(big.Int).SetString(reserve, 10); ok {
				if t.reserveRef == nil || v.Cmp(t.reserveRef) > 0 || t.before == nil || dropped(t.before, after, w.o.LiquidityDropPct) || t.seen[LiquidityRemoved] {
					t.reserveRef = v
				}
			}
		}
		next.QuoteReserve = ""
		if t.reserveRef != nil {
			next.QuoteReserve = t.reserveRef.String()
		}
		if err := w.o.Store.SaveWatchedToken(ctx, next); err != nil {
			return fmt.Errorf("watch %s: %w", key, err)
		}
	}
	return nil
}

// remember keeps a scan's snapshot for the next tick.
func (w *Watcher) remember(key string, s *snapshot) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.snaps[key] == nil {
		w.snaps[key] = map[string]*snapshot{}
	}
	w.snaps[key][s.ScanID] = s
}

func dropped(before, after *snapshot, pct float64) bool {
	_, ok := liquidityDiff(before, after, pct)
	return ok
}
