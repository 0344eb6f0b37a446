package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/explorer"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// Round trips of a scan (sequential, on the chosen chain unless noted):
//
//  1. detect: one batch per enabled EVM chain, in parallel: the token's
//     code, the latest block, totalSupply/balanceOf, proxy slots, the
//     first storage slots (hidden-owner candidates) and the lens (metadata,
//     owner, every pool with reserves and LP holdings). Detection and
//     collection are one round trip, so choosing among chains by
//     liquidity costs nothing extra.
//  2. simulation (+ cooldown replay) and proxy details; the holder log
//     scan and the explorer requests start beside it.
//  3. privilege probes (owner, stored addresses, creator; donors from the
//     holder scan), holders' code and balances, the creator's account.
//
// A beacon proxy adds one round trip (the implementation's code). The
// verdict (contract, liquidity, simulation) is known after 3 round trips;
// whatever is late at the deadline is reported partial.

// Verifier says whether a contract's source is verified.
type Verifier interface {
	Verification(ctx context.Context, chainID int64, address string) (explorer.Verification, error)
}

// CreationSource is an explorer that also knows contract creators.
type CreationSource interface {
	Verifier
	Creation(ctx context.Context, chainID int64, address string) (explorer.Creation, bool, error)
	Launches(ctx context.Context, chainID int64, creator, except string, limit int) ([]string, error)
}

// Options configure an Adapter; the zero value works offline.
type Options struct {
	// HTTPClient sends RPC requests (nil: a default transport).
	HTTPClient *http.Client
	// Client tunes every chain's RPC client (retries, concurrency cap).
	Client ClientOptions
	// Sourcify and Etherscan are the explorers; nil (or a nil
	// *explorer.Sourcify / *explorer.Etherscan) disables one.
	Sourcify  Verifier
	Etherscan CreationSource
	// ExplorerTimeout bounds the explorer requests of a scan (default 5s).
	ExplorerTimeout time.Duration
	// Deadline bounds a scan (default 12s).
	Deadline time.Duration
	// Upstream is called once per upstream RPC HTTP request.
	Upstream func(chain, method string)
	// Holders bounds the holder rebuild (default 3s, whole history).
	Holders HolderBudget
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Trace, when set, is told when a scan reaches a stage: "detected",
	// "simulated", "verdict" (contract, liquidity and simulation known)
	// and "done".
	Trace func(stage string)
}

// Adapter is the EVM scan.Adapter.
type Adapter struct {
	reg  *chains.Registry
	opts Options

	mu      sync.Mutex
	clients map[string]*Client
}

var _ scan.Adapter = (*Adapter)(nil)

// NewAdapter returns the EVM adapter over reg's enabled EVM chains.
func NewAdapter(reg *chains.Registry, opts Options) *Adapter {
	if opts.Deadline <= 0 {
		opts.Deadline = 12 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Holders.Duration <= 0 {
		opts.Holders.Duration = 3 * time.Second
	}
	if opts.ExplorerTimeout <= 0 {
		opts.ExplorerTimeout = 5 * time.Second
	}
	if s, ok := opts.Sourcify.(*explorer.Sourcify); ok && s == nil {
		opts.Sourcify = nil
	}
	if e, ok := opts.Etherscan.(*explorer.Etherscan); ok && e == nil {
		opts.Etherscan = nil
	}
	if opts.HTTPClient != nil {
		opts.Client.HTTPClient = opts.HTTPClient
	}
	if opts.Upstream != nil {
		opts.Client.Upstream = opts.Upstream
	}
	return &Adapter{reg: reg, opts: opts, clients: map[string]*Client{}}
}

// Kind returns chains.EVM.
func (a *Adapter) Kind() chains.Kind { return chains.EVM }

// Client returns the RPC client of chain ch (created on first use).
func (a *Adapter) Client(ch chains.Chain) *Client {
	a.mu.Lock()
	defer a.mu.Unlock()
	key := ch.Key + "|" + strings.Join(ch.RPC, ",")
	c, ok := a.clients[key]
	if !ok {
		c = NewClient(ch.Key, ch.RPC, a.opts.Client)
		a.clients[key] = c
	}
	return c
}

// sighting is one chain's detection round trip.
type sighting struct {
	chain  chains.Chain
	client *Client
	err    error

	code      hexutil.Bytes
	block     hexutil.Uint64
	supplyRaw hexutil.Bytes
	balRaw    hexutil.Bytes
	supplyOK  bool
	balanceOK bool
	slots     func() (ProxySlots, error)
	stored    func() []common.Address
	plan      *lensPlan
	lens      *LensResult
	lensErr   error
	pools     []Pool
	usd       float64
}

func (s *sighting) found() bool { return s.err == nil && len(s.code) > 0 }

// detect runs round trip 1 on one chain.
func (a *Adapter) detect(ctx context.Context, ch chains.Chain, token common.Address) *sighting {
	s := &sighting{chain: ch, client: a.Client(ch)}
	s.plan = newLensPlan(ch, token, nil)
	lensEl, lensDecode, err := s.plan.req.Call()
	if err != nil {
		s.err = err
		return s
	}
	elems := []rpc.BatchElem{
		CodeElem(token, &s.code),
		BlockNumberElem(&s.block),
		CallElem(CallMsg{To: token, Data: SelTotalSupply.bytes(), Gas: 200_000}, nil, &s.supplyRaw),
		CallElem(CallMsg{To: token, Data: append(SelBalanceOf.bytes(), common.LeftPadBytes(common.HexToAddress("0xdead").Bytes(), 32)...), Gas: 200_000}, nil, &s.balRaw),
		lensEl,
	}
	slotElems, slots := ProxySlotCalls(token)
	storeElems, stored := StorageCandidateCalls(token)
	var plan batchPlan
	plan.add(elems)
	plan.add(slotElems)
	plan.add(storeElems)
	if err := s.client.Batch(ctx, plan.elems); err != nil {
		s.err = err
		return s
	}
	plan.scatter()
	if elems[0].Error != nil {
		s.err = fmt.Errorf("eth_getCode: %w", elems[0].Error)
		return s
	}
	s.supplyOK = elems[2].Error == nil && len(s.supplyRaw) >= 32
	s.balanceOK = elems[3].Error == nil && len(s.balRaw) >= 32
	s.slots, s.stored = slots, stored
	if elems[4].Error != nil {
		s.lensErr = elems[4].Error
	} else {
		s.lens, s.lensErr = lensDecode()
	}
	if s.lensErr != nil && !isRevert(s.lensErr) {
		// A node that refuses or ignores state overrides: run the lens
		// from its creation code instead (one more round trip here only).
		if el, dec, err := s.plan.req.DeploylessCall(); err == nil {
			one := []rpc.BatchElem{el}
			if err := s.client.Batch(ctx, one); err == nil && one[0].Error == nil {
				if res, err := dec(); err == nil {
					s.lens, s.lensErr = res, nil
				}
			}
		}
	}
	if s.lensErr == nil {
		s.pools = s.plan.pools(s.lens)
		for _, p := range s.pools {
			s.usd += p.LiquidityUSD
		}
	}
	return s
}

// Assess scans req.Address on the EVM chains.
func (a *Adapter) Assess(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
	ctx, cancel := context.WithTimeout(ctx, a.opts.Deadline)
	defer cancel()
	token := common.HexToAddress(req.Address.Canonical)

	all := a.reg.Enabled(chains.EVM)
	if len(all) == 0 {
		return nil, fault.Errorf(fault.TokenNotFound, "no EVM chain is enabled")
	}
	sightings := make([]*sighting, len(all))
	var wg sync.WaitGroup
	for i, ch := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sightings[i] = a.detect(ctx, ch, token)
		}()
	}
	wg.Wait()

	chosen, also, warnings, err := a.choose(ctx, sightings, req)
	if err != nil {
		return nil, err
	}
	if !chosen.supplyOK || !chosen.balanceOK {
		return nil, fault.Errorf(fault.NotAToken, "the contract at %s on %s does not answer totalSupply() and balanceOf(): not an ERC-20 token", token.Hex(), chosen.chain.Key)
	}
	if a.opts.Trace != nil {
		a.opts.Trace("detected")
	}
	sc := &scanRun{a: a, s: chosen, token: token, now: a.opts.Now()}
	as := sc.run(ctx)
	if a.opts.Trace != nil {
		a.opts.Trace("done")
	}
	as.AlsoDeployedOn = also
	as.Warnings = append(warnings, as.Warnings...)
	return as, nil
}

// choose applies SPEC §2 to the detection round trip.
func (a *Adapter) choose(ctx context.Context, sightings []*sighting, req scan.Request) (*sighting, []string, []string, error) {
	var found, allowed, failed []*sighting
	for _, s := range sightings {
		switch {
		case s.err != nil:
			failed = append(failed, s)
		case s.found():
			found = append(found, s)
			if slices.Contains(req.Chains, s.chain.Key) {
				allowed = append(allowed, s)
			}
		}
	}
	names := func(ss []*sighting) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.chain.Key)
		}
		sort.Strings(out)
		return out
	}
	if len(found) == 0 {
		if len(failed) == 0 {
			return nil, nil, nil, fault.Errorf(fault.TokenNotFound, "no contract at %s on any enabled EVM chain", req.Address.Canonical)
		}
		code := fault.UpstreamError
		timeouts := 0
		for _, s := range failed {
			var te *TransportError
			if errors.As(s.err, &te) && te.Timeout || errors.Is(s.err, context.DeadlineExceeded) {
				timeouts++
			}
		}
		if timeouts == len(failed) && ctx.Err() != nil {
			code = fault.UpstreamTimeout
		}
		return nil, nil, nil, fault.Wrap(errors.Join(errs(failed)...), code,
			fmt.Sprintf("token not found on the chains that answered; could not ask: %s", strings.Join(names(failed), ", ")))
	}
	if len(allowed) == 0 {
		return nil, nil, nil, fault.Errorf(fault.PlanForbidden, "the token exists on %s, which your plan does not include", strings.Join(names(found), ", "))
	}
	sort.SliceStable(allowed, func(i, j int) bool { return allowed[i].usd > allowed[j].usd })
	chosen := allowed[0]
	var also []string
	for _, s := range found {
		if s != chosen {
			also = append(also, s.chain.Key)
		}
	}
	sort.Strings(also)
	var warnings []string
	if len(failed) > 0 {
		warnings = append(warnings, fmt.Sprintf("detection: could not ask %s; the token may also be deployed there", strings.Join(names(failed), ", ")))
	}
	return chosen, also, warnings, nil
}

// isRevert says whether a call failed by reverting (the code ran).
func isRevert(err error) bool {
	_, ok := RevertData(err)
	return ok
}

func errs(ss []*sighting) []error {
	var out []error
	for _, s := range ss {
		out = append(out, s.err)
	}
	return out
}

// scanRun is one scan on the chosen chain after detection.
type scanRun struct {
	a     *Adapter
	s     *sighting
	token common.Address
	now   time.Time

	warnings []string
	mu       sync.Mutex
}

func (r *scanRun) warn(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings = append(r.warnings, fmt.Sprintf(format, args...))
}

// batch sends elems on the chosen chain; a transport failure is a warning
// (the caller reports what is missing as unknown).
func (r *scanRun) batch(ctx context.Context, what string, elems []rpc.BatchElem) bool {
	if len(elems) == 0 {
		return true
	}
	if err := r.s.client.Batch(ctx, elems); err != nil {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			r.warn("%s: the scan deadline passed before the node answered", what)
		} else {
			r.warn("%s: the node could not be reached (%s)", what, safeErr(err))
		}
		return false
	}
	return true
}

// batchPlan merges several builders' elements into one batch and copies
// the answers back, since each builder's decoder reads its own slice.
type batchPlan struct {
	elems []rpc.BatchElem
	parts [][]rpc.BatchElem
	start []int
}

func (b *batchPlan) add(es []rpc.BatchElem) {
	if len(es) == 0 {
		return
	}
	b.parts = append(b.parts, es)
	b.start = append(b.start, len(b.elems))
	b.elems = append(b.elems, es...)
}

func (b *batchPlan) scatter() {
	for i, p := range b.parts {
		copy(p, b.elems[b.start[i]:b.start[i]+len(p)])
	}
}

// send runs the plan as one batch and copies the answers back.
func (r *scanRun) send(ctx context.Context, what string, b *batchPlan) bool {
	ok := r.batch(ctx, what, b.elems)
	if ok {
		b.scatter()
	}
	return ok
}

// safeErr renders an error for a warning: transport errors never carry
// URLs; RPC messages are bounded.
func safeErr(err error) string {
	msg := err.Error()
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}

// explorerFacts is what the explorers said.
type explorerFacts struct {
	verified       *bool
	verifiedSource string
	creation       *explorer.Creation
	launches       []string
	launchesKnown  bool
	warnings       []string
}

func (a *Adapter) explore(ctx context.Context, ch chains.Chain, token common.Address) explorerFacts {
	var f explorerFacts
	id := ch.ChainID
	if ch.ExplorerChainID != 0 {
		id = ch.ExplorerChainID
	}
	addr := token.Hex()
	if a.opts.Sourcify != nil {
		v, err := a.opts.Sourcify.Verification(ctx, id, addr)
		switch {
		case err != nil:
			f.warnings = append(f.warnings, "contract: Sourcify did not answer ("+safeErr(err)+")")
		case v.Verified:
			t := true
			f.verified, f.verifiedSource = &t, "sourcify"
		case a.opts.Etherscan == nil:
			no := false
			f.verified, f.verifiedSource = &no, "sourcify"
		}
	}
	if a.opts.Etherscan == nil {
		if a.opts.Sourcify == nil {
			f.warnings = append(f.warnings, "deployer: no explorer configured; creator history unknown")
		} else {
			f.warnings = append(f.warnings, "deployer: no Etherscan-family key configured; creator history unknown")
		}
		return f
	}
	if f.verified == nil || !*f.verified {
		v, err := a.opts.Etherscan.Verification(ctx, id, addr)
		if err != nil {
			f.warnings = append(f.warnings, "contract: the explorer did not answer the verification query ("+safeErr(err)+")")
		} else {
			f.verified, f.verifiedSource = &v.Verified, "etherscan"
		}
	}
	c, ok, err := a.opts.Etherscan.Creation(ctx, id, addr)
	switch {
	case err != nil:
		f.warnings = append(f.warnings, "deployer: the explorer did not answer the creation query ("+safeErr(err)+")")
		return f
	case !ok:
		f.warnings = append(f.warnings, "deployer: the explorer has no creation record for the token")
		return f
	}
	f.creation = &c
	l, err := a.opts.Etherscan.Launches(ctx, id, c.Creator, addr, 200)
	if err != nil {
		f.warnings = append(f.warnings, "deployer: the explorer did not list the creator's transactions ("+safeErr(err)+")")
		return f
	}
	f.launches, f.launchesKnown = l, true
	return f
}

type holderOutcome struct {
	scan *HolderScan
	err  error
}

// run does round trips 2 and 3 and assembles the assessment.
func (r *scanRun) run(ctx context.Context) *scan.Assessment {
	s, ch := r.s, r.s.chain
	latest := uint64(s.block)
	lens := s.lens
	if s.lensErr != nil {
		r.warn("lens: the metadata/pool call failed (%s); token metadata, owner and pools are unknown", safeErr(s.lensErr))
	}

	// Beside round trip 2: explorers and the holder rebuild.
	exCh := make(chan explorerFacts, 1)
	go func() {
		ectx, cancel := context.WithTimeout(ctx, r.a.opts.ExplorerTimeout)
		defer cancel()
		exCh <- r.a.explore(ectx, ch, r.token)
	}()
	budget := r.a.opts.Holders
	if dl, ok := ctx.Deadline(); ok {
		if rem := time.Until(dl) - 1500*time.Millisecond; rem < budget.Duration {
			budget.Duration = max(rem, 200*time.Millisecond)
		}
	}
	firstMint := make(chan common.Address, 1)
	budget.FirstMint = func(a common.Address) { firstMint <- a }
	holdCh := make(chan holderOutcome, 1)
	go func() {
		hs, err := RebuildHolders(ctx, s.client, r.token, latest, budget)
		holdCh <- holderOutcome{hs, err}
	}()

	// Code, proxy, owner.
	report := AnalyseCode(s.code)
	var proxy *ProxyInfo
	if slots, err := s.slots(); err != nil {
		r.warn("contract: proxy slots unreadable (%s)", safeErr(err))
	} else {
		proxy = DetectProxy(report, slots)
	}
	var owner *common.Address
	if lens != nil && lens.OwnerFunc && !isBurn(lens.Owner) {
		o := lens.Owner
		owner = &o
	}
	stored := s.stored()

	// Round trip 2: simulation and proxy details.
	var rt2 batchPlan
	simPool, simReq := r.simulationRequest()
	var simDecode func() (*analysis.EVMSimulation, error)
	if simReq != nil {
		se, dec, err := SimulationCall(*simReq)
		if err != nil {
			r.warn("simulation: %s", safeErr(err))
		} else {
			rt2.add(se)
			simDecode = dec
		}
	}
	var proxyDecode func() ([]byte, error)
	if proxy != nil {
		pe, dec := ProxyDetailCalls(proxy)
		rt2.add(pe)
		proxyDecode = dec
	}
	rtt2Start := time.Now()
	rtt2 := r.send(ctx, "simulation", &rt2)
	rtt2Took := time.Since(rtt2Start)
	if r.a.opts.Trace != nil {
		r.a.opts.Trace("simulated")
	}
	var sim *analysis.EVMSimulation
	if simDecode != nil {
		if !rtt2 {
			msg := "the node did not answer the simulation call"
			sim = &analysis.EVMSimulation{Error: &msg}
		} else if res, err := simDecode(); err != nil {
			msg := safeErr(err)
			sim = res
			if sim == nil {
				sim = &analysis.EVMSimulation{}
			}
			if sim.Error == nil {
				sim.Error = &msg
			}
		} else {
			sim = res
		}
		if sim != nil && sim.Pool == "" && simPool != nil {
			sim.Pool = simPool.Address.Hex()
		}
	}
	codeReport := report
	implKnown := proxy == nil
	if proxy != nil && rtt2 {
		impl, err := proxyDecode()
		switch {
		case err != nil:
			r.warn("contract: proxy details unreadable (%s)", safeErr(err))
		case impl == nil && proxy.Implementation != (common.Address{}):
			// A beacon: its implementation's code needs one more trip.
			var code hexutil.Bytes
			if r.batch(ctx, "contract", []rpc.BatchElem{CodeElem(proxy.Implementation, &code)}) {
				codeReport, implKnown = AnalyseCode(code), true
			}
		case impl != nil:
			codeReport, implKnown = AnalyseCode(impl), true
		}
	}
	if !implKnown {
		r.warn("contract: the proxy's implementation code is unknown; the proxy's own code was analysed")
	}

	// The holder scan, if it is ready (it runs beside round trip 2; the
	// probes do not wait long for it: donors are a help, not a need).
	var ho holderOutcome
	holdersReady := false
	grace := time.NewTimer(max(holderGrace, rtt2Took))
	select {
	case ho = <-holdCh:
		holdersReady = true
	case <-grace.C:
	}
	grace.Stop()
	var ex *explorerFacts
	select {
	case f := <-exCh:
		ex = &f
	default:
	}
	creator, creatorSource := r.creator(ex, ho.scan)
	if creator == nil {
		select {
		case a := <-firstMint:
			if !isBurn(a) {
				creator, creatorSource = &a, "first_mint_recipient"
			}
		default:
		}
	}

	// Round trip 3: probes, and the accounts when the holders are known.
	var rt3 batchPlan
	var probeDecode func() (*analysis.EVMProbeFacts, error)
	pr := ProbeRequest{Token: r.token, Code: codeReport, Owner: owner, Stored: stored, Creator: creator}
	if len(s.pools) > 0 {
		pr.Pool = s.pools[0].Address
	}
	for _, p := range s.pools {
		pr.Exclude = append(pr.Exclude, p.Address)
	}
	for _, q := range ch.QuoteTokens {
		pr.Exclude = append(pr.Exclude, common.HexToAddress(q.Address))
	}
	for _, l := range ch.Lockers {
		pr.Exclude = append(pr.Exclude, common.HexToAddress(l.Address))
	}
	if owner != nil {
		pr.Donors = append(pr.Donors, *owner)
	}
	if creator != nil {
		pr.Donors = append(pr.Donors, *creator)
	}
	for _, h := range topHolders(ho.scan) {
		if len(pr.Donors) >= 8 {
			break
		}
		if !slices.Contains(pr.Exclude, h.Address) && !isBurn(h.Address) && !slices.Contains(pr.Donors, h.Address) {
			pr.Donors = append(pr.Donors, h.Address)
		}
	}
	if pe, dec, err := ProbeCalls(pr); err != nil {
		r.warn("contract: probes not built (%s)", safeErr(err))
	} else {
		rt3.add(pe)
		probeDecode = dec
	}
	var acct *accounts
	if holdersReady {
		acct = r.accountCalls(topHolders(ho.scan), creator)
		rt3.add(acct.elems)
	}
	rtt3ok := r.send(ctx, "probes", &rt3)
	if acct != nil && rtt3ok {
		acct.apply()
	}
	var probe *analysis.EVMProbeFacts
	if probeDecode != nil && rtt3ok {
		pf, err := probeDecode()
		if err != nil {
			r.warn("contract: %s", safeErr(err))
		}
		probe = pf
	}
	if r.a.opts.Trace != nil {
		r.a.opts.Trace("verdict")
	}

	// Round trip 4 when the holder scan outlived round trip 3.
	if !holdersReady {
		ho = <-holdCh
		if creator == nil {
			creator, creatorSource = r.creator(ex, ho.scan)
		}
		acct = r.accountCalls(topHolders(ho.scan), creator)
		if r.batch(ctx, "holders", acct.elems) {
			acct.apply()
		}
	}
	if ho.err != nil {
		r.warn("holders: the Transfer log scan failed (%s)", safeErr(ho.err))
	}

	// The explorers, until the deadline.
	if ex == nil {
		select {
		case f := <-exCh:
			ex = &f
		case <-ctx.Done():
			r.warn("explorer: no answer before the scan deadline; verification and creator history unknown")
			ex = &explorerFacts{}
		}
	}
	for _, w := range ex.warnings {
		r.warn("%s", w)
	}
	if ex.creation != nil && (creator == nil || !strings.EqualFold(creator.Hex(), ex.creation.Creator)) {
		// The explorer answered late: read the real creator's account.
		c := common.HexToAddress(ex.creation.Creator)
		creator, creatorSource = &c, "explorer"
		ca := r.accountCalls(nil, creator)
		acct.crBal, acct.crNonce, acct.crTokens, acct.crLP = nil, nil, nil, nil
		if r.batch(ctx, "deployer", ca.elems) {
			ca.apply()
			acct.crBal, acct.crNonce, acct.crTokens, acct.crLP = ca.crBal, ca.crNonce, ca.crTokens, ca.crLP
		}
	}

	return r.assemble(lens, codeReport, proxy, implKnown, owner, sim, simPool, probe, ho.scan, acct, ex, creator, creatorSource)
}

// holderGrace is the least time round trip 3 waits for a holder scan that
// is not done when round trip 2 is (it waits as long as round trip 2 took
// when that is longer: the scan started with it).
const holderGrace = 250 * time.Millisecond

// topHolders are the largest holders of a scan (nil scan: none).
func topHolders(hs *HolderScan) []Holder {
	if hs == nil {
		return nil
	}
	top := hs.Holders()
	if len(top) > 50 {
		top = top[:50]
	}
	return top
}

// creator picks the best creator evidence available now.
func (r *scanRun) creator(ex *explorerFacts, hs *HolderScan) (*common.Address, string) {
	if ex != nil && ex.creation != nil {
		c := common.HexToAddress(ex.creation.Creator)
		return &c, "explorer"
	}
	if hs != nil && hs.FirstMintTo != nil && !isBurn(*hs.FirstMintTo) {
		c := *hs.FirstMintTo
		return &c, "first_mint_recipient"
	}
	return nil, ""
}

// accounts are round trip 3's account reads: the top holders' code and
// balances, the creator's balance, nonce and token balance.
type accounts struct {
	elems   []rpc.BatchElem
	n       int
	codes   []hexutil.Bytes
	bals    []hexutil.Bytes
	creator bool
	cBal    hexutil.Big
	cNonce  hexutil.Uint64
	cTokens hexutil.Bytes
	lp      bool
	cLP     hexutil.Bytes

	isCode   []*bool
	balance  []*big.Int
	crBal    *big.Int
	crNonce  *uint64
	crTokens *big.Int
	// crLP is the creator's LP balance in the main pool.
	crLP *big.Int
}

func (r *scanRun) accountCalls(top []Holder, creator *common.Address) *accounts {
	ac := &accounts{n: min(len(top), analysis.EVMTopHolders)}
	ac.codes = make([]hexutil.Bytes, ac.n)
	ac.bals = make([]hexutil.Bytes, ac.n)
	for i := range ac.n {
		ac.elems = append(ac.elems, CodeElem(top[i].Address, &ac.codes[i]), balanceOfElem(r.token, top[i].Address, &ac.bals[i]))
	}
	if creator != nil {
		ac.creator = true
		ac.elems = append(ac.elems, BalanceElem(*creator, &ac.cBal), NonceElem(*creator, &ac.cNonce), balanceOfElem(r.token, *creator, &ac.cTokens))
		if len(r.s.pools) > 0 && r.s.pools[0].LPSupply != nil {
			ac.lp = true
			ac.elems = append(ac.elems, balanceOfElem(r.s.pools[0].Address, *creator, &ac.cLP))
		}
	}
	return ac
}

// balanceOfElem builds token.balanceOf(holder) as a gas-capped eth_call.
func balanceOfElem(token, holder common.Address, out *hexutil.Bytes) rpc.BatchElem {
	data := append(SelBalanceOf.bytes(), common.LeftPadBytes(holder.Bytes(), 32)...)
	return CallElem(CallMsg{To: token, Data: data, Gas: 200_000}, nil, out)
}

// apply reads the answers (nil where a call failed).
func (ac *accounts) apply() {
	b := ac.elems
	for i := range ac.n {
		var isc *bool
		if b[2*i].Error == nil {
			v := len(ac.codes[i]) > 0
			isc = &v
		}
		ac.isCode = append(ac.isCode, isc)
		var bal *big.Int
		if b[2*i+1].Error == nil && len(ac.bals[i]) >= 32 {
			bal = new(big.Int).SetBytes(ac.bals[i][:32])
		}
		ac.balance = append(ac.balance, bal)
	}
	if ac.creator {
		c := 2 * ac.n
		if b[c].Error == nil {
			ac.crBal = (*big.Int)(&ac.cBal)
		}
		if b[c+1].Error == nil {
			n := uint64(ac.cNonce)
			ac.crNonce = &n
		}
		if b[c+2].Error == nil && len(ac.cTokens) >= 32 {
			ac.crTokens = new(big.Int).SetBytes(ac.cTokens[:32])
		}
		if ac.lp && b[c+3].Error == nil && len(ac.cLP) >= 32 {
			ac.crLP = new(big.Int).SetBytes(ac.cLP[:32])
		}
	}
}

// simulationRequest picks the pool to trade against: the deepest pool with
// liquidity whose kind the simulator supports, bought with the wrapped
// native (directly, or through a wrapped/quote pool).
func (r *scanRun) simulationRequest() (*Pool, *SimulationRequest) {
	s := r.s
	wrapped, ok := s.chain.Wrapped()
	if !ok || s.lens == nil {
		return nil, nil
	}
	wa := common.HexToAddress(wrapped.Address)
	for i := range s.pools {
		p := &s.pools[i]
		if p.QuoteReserve == nil || p.QuoteReserve.Sign() == 0 || p.TokenReserve == nil || p.TokenReserve.Sign() == 0 {
			continue
		}
		kind := p.DEX.Kind
		if kind == "solidly" && p.Report.Stable || kind != "v2" && kind != "v3" && kind != "solidly" {
			continue
		}
		req := &SimulationRequest{
			Token: r.token, Pool: p.Address, PoolKind: kind, Quote: p.QuoteAddress, Wrapped: wa,
			FeeBps: p.DEX.FeeBps, QuoteReserve: p.QuoteReserve,
			BlockTime: s.lens.Timestamp, DelayedSell: DefaultDelayedSell,
		}
		if kind == "v3" && p.Report.Fee != nil {
			req.FeeBps = *p.Report.Fee / 100
		}
		if req.FeeBps == 0 {
			req.FeeBps = 30
		}
		if p.QuoteAddress != wa {
			fund := s.plan.fundPool(s.lens, wa, p.QuoteAddress)
			if fund == nil {
				continue
			}
			req.FundPool = *fund
		}
		return p, req
	}
	return nil, nil
}

// assemble runs the analyses over everything collected.
func (r *scanRun) assemble(lens *LensResult, codeReport CodeReport, proxy *ProxyInfo, implKnown bool,
	owner *common.Address, sim *analysis.EVMSimulation, simPool *Pool, probe *analysis.EVMProbeFacts,
	hs *HolderScan, acct *accounts, ex *explorerFacts, creator *common.Address, creatorSource string) *scan.Assessment {
	s, ch := r.s, r.s.chain
	chainID := ch.ChainID
	as := &scan.Assessment{Chain: ch.Key, ChainID: &chainID}

	// Token identity.
	if lens != nil {
		as.Token = scan.Token{Name: lens.Name, Symbol: lens.Symbol, Decimals: lens.Decimals}
		if lens.TotalSupply != nil {
			ts := lens.TotalSupply.String()
			as.Token.TotalSupply = &ts
		}
		if !lens.NameRaw || !lens.SymbolRaw {
			r.warn("token: name() or symbol() did not answer")
		}
	}
	var supply *big.Int
	if lens != nil {
		supply = lens.TotalSupply
	}
	if supply == nil && len(s.supplyRaw) >= 32 {
		supply = new(big.Int).SetBytes(s.supplyRaw[:32])
		ts := supply.String()
		as.Token.TotalSupply = &ts
	}

	// Contract.
	trusted, _ := ch.IsTrusted(r.token.Hex())
	cf := &analysis.EVMContractFacts{
		Trusted:     trusted.Name,
		Verified:    ex.verified,
		OwnerKnown:  lens != nil,
		OwnerGetter: lens != nil && lens.OwnerFunc,
		Code:        codeFactsOf(codeReport),
		Probe:       probe,
		Simulation:  sim,
	}
	if ex.verified != nil {
		cf.VerifiedSource = ex.verifiedSource
	}
	if owner != nil {
		cf.Owner = owner.Hex()
	}
	if proxy != nil {
		cf.Proxy = proxyReportOf(proxy, codeReport, implKnown)
	}
	if lens != nil {
		if lens.Decimals == nil {
			cf.NonStandard = append(cf.NonStandard, "decimals() does not answer a number")
		}
	}
	contract, cl, cw := analysis.AnalyseEVMContract(cf)
	as.Contract = contract

	// Liquidity.
	ef := &analysis.EVMFacts{
		Chain: ch.Key, Token: r.token.Hex(), TotalSupply: supply, Now: r.now,
		OwnerKnown: lens != nil, BurnAddresses: ch.BurnAddresses, Lockers: map[string]string{},
	}
	if lens != nil {
		ef.Decimals = lens.Decimals
	}
	if owner != nil {
		ef.Owner = owner.Hex()
	}
	for _, l := range ch.Lockers {
		ef.Lockers[l.Address] = l.Name
	}
	ef.Exchanges = map[string]string{}
	for _, e := range ch.Exchanges {
		ef.Exchanges[e.Address] = e.Name
	}
	ef.Liquidity.Searched = lens != nil
	for i, p := range s.pools {
		rep := p.Report
		if i == 0 && acct != nil && acct.crLP != nil {
			rep.LPCreatorPct = dexPct(acct.crLP, p.LPSupply)
		}
		if hs != nil {
			if seen, ok := hs.FirstIn[p.Address]; ok && seen.Time > 0 {
				t := time.Unix(int64(seen.Time), 0).UTC()
				rep.CreatedAt = &t
			}
		}
		ef.Liquidity.Pools = append(ef.Liquidity.Pools, rep)
	}
	liq, lw := analysis.AnalyseEVMLiquidity(ef)
	hasPool := false
	for _, p := range s.pools {
		if p.LiquidityUSD > 0 || (p.QuoteReserve != nil && p.QuoteReserve.Sign() > 0) {
			hasPool = true
		}
	}
	switch {
	case lens == nil:
		// Pools are unknown, not absent: no honeypot verdict is a failure.
		hasPool = true
		msg := "the pool search failed, so there was no pool to trade against"
		sim = &analysis.EVMSimulation{Error: &msg}
	case hasPool && simPool == nil && sim == nil:
		msg := "no pool the simulator supports (V2, V3 or Solidly volatile, bought with the wrapped native)"
		sim = &analysis.EVMSimulation{Error: &msg}
	}
	simFlags, sw := analysis.AnalyseEVMSimulation(sim, hasPool)
	liq.Flags = append(liq.Flags, simFlags...)
	if ev, ok := liq.Evidence.(analysis.EVMLiquidityEvidence); ok {
		ev.Simulation = sim
		liq.Evidence = ev
	}
	if hasPool && (sim == nil || sim.CanBuy == nil) && liq.Status == scan.Complete {
		liq.Status = scan.Partial
	}
	as.Liquidity = liq

	// Holders and deployer.
	if hs != nil {
		hf := &analysis.EVMHolderFacts{
			Complete: hs.Complete, FromBlock: hs.FromBlock, ToBlock: hs.Reached, Transfers: hs.Transfers,
		}
		all := hs.Holders()
		hf.HolderCount = len(all)
		for i, h := range all {
			if i >= 50 {
				break
			}
			hb := analysis.EVMHolderBalance{Address: h.Address.Hex(), Balance: h.Balance}
			if acct != nil && i < len(acct.isCode) {
				hb.IsContract = acct.isCode[i]
				if acct.balance[i] != nil {
					hb.Balance = acct.balance[i] // the token's own answer beats replayed logs
				}
			}
			hf.Top = append(hf.Top, hb)
		}
		sort.SliceStable(hf.Top, func(i, j int) bool { return hf.Top[i].Balance.Cmp(hf.Top[j].Balance) > 0 })
		if hs.FirstMintTo != nil {
			hf.FirstMintRecipient = hs.FirstMintTo.Hex()
		}
		ef.Holders = hf
	}
	ef.Deployer = analysis.EVMDeployerFacts{Native: ch.Native, CreatorSource: creatorSource}
	if creator != nil {
		c := creator.Hex()
		ef.Deployer.Creator = &c
		if acct != nil {
			ef.Deployer.CreatorBalanceWei = acct.crBal
			ef.Deployer.CreatorNonce = acct.crNonce
			ef.Deployer.CreatorTokens = acct.crTokens
		}
	}
	if ex.creation != nil && ex.creation.TxHash != "" {
		tx := ex.creation.TxHash
		ef.Deployer.CreationTx = &tx
	}
	ef.Deployer.OtherLaunches, ef.Deployer.OtherLaunchesKnown = ex.launches, ex.launchesKnown
	if lens != nil && owner != nil {
		ef.Deployer.OwnerTokens = lens.OwnerBalance
	}
	dep, dw := analysis.AnalyseEVMDeployer(ef)
	as.Deployer = dep
	hold, hw := analysis.AnalyseEVMHolders(ef)
	as.Holder = hold

	as.Checklist = scan.Checklist{
		Verified:           cl.Verified,
		NotHoneypot:        analysis.EVMNotHoneypot(sim),
		HealthyHolders:     analysis.EVMHealthyHolders(ef, hold),
		OwnershipRenounced: cl.OwnershipRenounced,
		LiquidityLocked:    analysis.EVMLiquidityLocked(ef),
		NoMint:             cl.NoMint,
	}
	r.mu.Lock()
	as.Warnings = append(as.Warnings, r.warnings...)
	r.mu.Unlock()
	for _, w := range [][]string{cw, lw, sw, dw, hw} {
		as.Warnings = append(as.Warnings, w...)
	}
	return as
}

// codeFactsOf summarises a code report for the contract analysis.
func codeFactsOf(r CodeReport) *analysis.EVMCodeFacts {
	f := &analysis.EVMCodeFacts{
		Size: r.Size, Selectors: len(r.Selectors),
		Selfdestruct: r.HasSelfdestruct, Delegatecall: r.HasDelegatecall || r.HasCallcode,
		StorageTargetCall: r.StorageTargetCall, StorageTargetDelegatecall: r.StorageTargetDelegatecall,
	}
	for _, m := range r.Privileged {
		f.Candidates = append(f.Candidates, analysis.EVMCapability{Name: m.Capability, Evidence: m.Signature + " (" + m.Selector.String() + ")"})
	}
	return f
}

// proxyReportOf is contract_analysis.proxy.
func proxyReportOf(p *ProxyInfo, impl CodeReport, implKnown bool) *analysis.EVMProxy {
	implUpgradable := false
	for _, c := range impl.Capabilities() {
		if c == analysis.EVMCapUpgrade {
			implUpgradable = true
		}
	}
	out := &analysis.EVMProxy{Kind: p.Kind, Implementation: p.Implementation.Hex(), Upgradeable: p.Upgradeable(implUpgradable || !implKnown)}
	if a := p.UpgradeAuthority(); a != nil {
		s := a.Hex()
		out.Admin = &s
	}
	if p.Admin != nil {
		s := p.Admin.Hex()
		out.AdminSlot = &s
	}
	if p.Beacon != nil {
		s := p.Beacon.Hex()
		out.Beacon = &s
	}
	return out
}
