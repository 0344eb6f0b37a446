package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/evm/proxy"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"

	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

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
			r.warn("%s: the node could not be reached (%s)", what, node.SafeErr(err))
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

type holderOutcome struct {
	scan *holder.HolderScan
	err  error
}

// run does round trips 2 and 3 and assembles the assessment.
func (r *scanRun) run(ctx context.Context) *scan.Assessment {
	s, ch := r.s, r.s.chain
	latest := uint64(s.block)
	lens := s.lens
	if s.lensErr != nil {
		r.warn("lens: the metadata/pool call failed (%s); token metadata, owner and pools are unknown", node.SafeErr(s.lensErr))
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
		hs, err := holder.RebuildHolders(ctx, s.client, r.token, latest, budget)
		holdCh <- holderOutcome{hs, err}
	}()

	// Code, proxy, owner.
	report := bytecode.AnalyseCode(s.code)
	var px *proxy.ProxyInfo
	slots, slotsErr := s.slots()
	if slotsErr != nil {
		r.warn("contract: px slots unreadable (%s)", node.SafeErr(slotsErr))
	} else {
		px = proxy.DetectProxy(report, slots)
	}
	var owner *common.Address
	if lens != nil && lens.OwnerFunc && !holder.IsBurn(lens.Owner) {
		o := lens.Owner
		owner = &o
	}
	stored := s.stored()

	// The V4 pool search's refused ranges, again in windows (one batch,
	// sent only when the node refused a range in round trip 1).
	s.v4.searchWindows(ctx, s.client, latest)

	// Round trip 2: simulation and proxy details.
	var rt2 batchPlan
	simPool, simReq := r.simulationRequest()
	var simDecode func() (*analysis.EVMSimulation, error)
	if simReq != nil {
		se, dec, err := simulation.SimulationCall(*simReq)
		if err != nil {
			r.warn("simulation: %s", node.SafeErr(err))
		} else {
			rt2.add(se)
			simDecode = dec
		}
	}
	var proxyDecode func() ([]byte, error)
	var dump *probe.SlotDump
	if px != nil {
		pe, dec := proxy.ProxyDetailCalls(r.token, px)
		rt2.add(pe)
		proxyDecode = dec
		// The implementation's guards past the first slots, read before
		// its code names them (probe/slotdump.go).
		dump = probe.SlotDumpCall(r.token, px.Implementation)
		rt2.add(dump.Elems())
	}
	known := map[uint64][]byte{}
	if s.words != nil {
		known = s.words()
	}
	guardElems, guardDecode := probe.GuardSlotCalls(r.token, report, known)
	rt2.add(guardElems)
	v4r := r.v4Calls(&rt2)
	hr := r.hookReads(ctx, &rt2)
	rtt2Start := time.Now()
	rtt2 := r.send(ctx, "simulation", &rt2)
	rtt2Took := time.Since(rtt2Start)
	if r.a.opts.Trace != nil {
		r.a.opts.Trace("simulated")
	}
	sim := simulationResult(simDecode, rtt2, simPool)
	v4f := r.v4Apply(v4r, rtt2)
	sim, simPool = r.chooseSimulation(sim, simPool, v4f)
	codeReport, implKnown := report, px == nil
	var implCode []byte
	if px != nil && rtt2 {
		codeReport, implCode, implKnown = r.implementation(ctx, px, proxyDecode, report)
	}
	dump.Apply(rtt2, implCode)
	if !implKnown {
		r.warn("contract: the px's implementation code is unknown; the px's own code was analysed")
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
			if !holder.IsBurn(a) {
				creator, creatorSource = &a, "first_mint_recipient"
			}
		default:
		}
	}

	// Round trip 3: probes, and the accounts when the holders are known.
	var rt3 batchPlan
	var probeDecode func() (*analysis.EVMProbeFacts, error)
	pr := r.probeRequest(codeReport, owner, stored, creator, holder.TopHolders(ho.scan))
	guards, unreadSlots := guardDecode(codeReport, dump)
	pr.Guards = guards
	unread := slotNames(unreadSlots)
	r.warnUnreadGuards(unread, px != nil, dump)
	pr.Grant = probeGrant(sim, lens)
	if pe, dec, err := probe.ProbeCalls(pr); err != nil {
		r.warn("contract: probes not built (%s)", node.SafeErr(err))
	} else {
		rt3.add(pe)
		probeDecode = dec
	}
	var acct *accounts
	var iq *holder.InsiderQuery
	var sells *holderSellsPlan
	privileged := func() []common.Address {
		out := slices.Clone(stored)
		for _, g := range pr.Guards {
			out = append(out, g.Addr)
		}
		for _, a := range []*common.Address{owner, creator} {
			if a != nil {
				out = append(out, *a)
			}
		}
		return out
	}
	if holdersReady {
		acct = r.accountCalls(holder.TopHolders(ho.scan), creator)
		rt3.add(acct.elems)
		if iq = r.insiderQuery(ho.scan, latest); iq != nil {
			rt3.add(iq.Elems)
		}
		if sells = r.holderSells(simReq, v4f, sim, ho.scan, privileged()); sells != nil {
			rt3.add(sells.elems)
		}
	}
	// A role-governed token without an owner getter: does the creator
	// still hold AccessControl's DEFAULT_ADMIN_ROLE?
	var roleOut hexutil.Bytes
	var roleElems []rpc.BatchElem
	if owner == nil && creator != nil && roleGoverned(codeReport) {
		roleElems = []rpc.BatchElem{node.CallElem(node.CallMsg{To: r.token, Gas: 100_000,
			Data: append(append(bytecode.SelectorOf("hasRole(bytes32,address)").Bytes(), make([]byte, 32)...), common.LeftPadBytes(creator.Bytes(), 32)...)}, nil, &roleOut)}
		rt3.add(roleElems)
	}
	r.hookProbes(hr, rtt2, &rt3)
	var words map[uint64][]byte
	if r.s.words != nil {
		words = r.s.words()
	}
	xc := r.externalCalls(codeReport, words, &rt3)
	rtt3ok := r.send(ctx, "probes", &rt3)
	hooks := r.hookFacts(hr, rtt3ok)
	iq.Read(rtt3ok)
	sells.apply(r, sim, rtt3ok)
	var roleAdmin *common.Address
	if rtt3ok && len(roleElems) == 1 && roleElems[0].Error == nil && len(roleOut) == 32 && new(big.Int).SetBytes(roleOut).Cmp(big.NewInt(1)) == 0 {
		roleAdmin = creator
	}
	if acct != nil && rtt3ok {
		acct.apply()
		acct.read = true
	}
	var probe *analysis.EVMProbeFacts
	if probeDecode != nil && rtt3ok {
		pf, err := probeDecode()
		if err != nil {
			r.warn("contract: %s", node.SafeErr(err))
		}
		probe = pf
		if probe != nil {
			probe.UnreadGuards = unread
		}
	}
	external := xc.facts(r, codeReport, probe, rtt3ok)
	if r.a.opts.Trace != nil {
		r.a.opts.Trace("verdict")
	}

	// Round trip 4 when the holder scan outlived round trip 3.
	if !holdersReady {
		ho = <-holdCh
		if creator == nil {
			creator, creatorSource = r.creator(ex, ho.scan)
		}
		acct = r.accountCalls(holder.TopHolders(ho.scan), creator)
		var rt4 batchPlan
		rt4.add(acct.elems)
		if iq = r.insiderQuery(ho.scan, latest); iq != nil {
			rt4.add(iq.Elems)
		}
		if sells = r.holderSells(simReq, v4f, sim, ho.scan, privileged()); sells != nil {
			rt4.add(sells.elems)
		}
		sent := r.send(ctx, "holders", &rt4)
		iq.Read(sent)
		sells.apply(r, sim, sent)
		if sent {
			acct.apply()
			acct.read = true
		}
	}
	if ho.err != nil {
		r.warn("holders: the Transfer log scan failed (%s)", node.SafeErr(ho.err))
	}

	// The explorers, until the deadline.
	if ex == nil {
		select {
		case f := <-exCh:
			ex = &f
		case <-ctx.Done():
			r.warn("explorer: no answer before the scan deadline; verification and creator history unknown")
			ex = &explorerFacts{historyFailed: true}
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
		acct.read = false
		if r.batch(ctx, "deployer", ca.elems) {
			ca.apply()
			acct.crBal, acct.crNonce, acct.crTokens, acct.crLP = ca.crBal, ca.crNonce, ca.crTokens, ca.crLP
			acct.read = true
		}
	}

	return r.assemble(collected{
		lens: lens, code: codeReport, proxy: px, implKnown: implKnown, owner: owner, roleAdmin: roleAdmin,
		sim: sim, simPool: simPool, probe: probe, holders: ho.scan, accounts: acct, insiders: iq,
		explorer: ex, creator: creator, creatorSource: creatorSource, slotsFailed: slotsErr != nil, v4: v4f, hooks: hooks,
		external: external,
	})
}

// simulationResult decodes the simulation after round trip 2; a call the
// node did not answer is a failed simulation, never a pass.
func simulationResult(decode func() (*analysis.EVMSimulation, error), answered bool, pool *pool.Pool) *analysis.EVMSimulation {
	if decode == nil {
		return nil
	}
	var sim *analysis.EVMSimulation
	if !answered {
		msg := "the node did not answer the simulation call"
		sim = &analysis.EVMSimulation{Error: &msg}
	} else if res, err := decode(); err != nil {
		msg := node.SafeErr(err)
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
	if sim == nil {
		msg := "the simulation returned no result"
		sim = &analysis.EVMSimulation{Error: &msg}
	}
	if sim.Pool == "" && pool != nil {
		sim.Pool = pool.Address.Hex()
	}
	return sim
}

// implementation analyses a proxy's implementation code (a beacon's needs
// one more round trip on a node that refuses state overrides); it
// returns the proxy's own report when unknown, and the implementation's
// code when it arrived in round trip 2.
func (r *scanRun) implementation(ctx context.Context, px *proxy.ProxyInfo, decode func() ([]byte, error), own bytecode.CodeReport) (bytecode.CodeReport, []byte, bool) {
	impl, err := decode()
	switch {
	case err != nil:
		r.warn("contract: px details unreadable (%s)", node.SafeErr(err))
	case px.Kind == proxy.ProxyStorageSlot:
		return r.slotImplementation(px, impl, own)
	case impl == nil && px.Implementation != (common.Address{}):
		var code hexutil.Bytes
		if r.batch(ctx, "contract", []rpc.BatchElem{node.CodeElem(px.Implementation, &code)}) {
			return bytecode.AnalyseCode(code), nil, true
		}
	case impl != nil:
		return bytecode.AnalyseCode(impl), impl, true
	}
	return own, nil, false
}

// slotImplementation decides which code a storage-slot proxy runs: none
// behind an address without code (the proxy's own, known); the
// implementation's when the proxy defines no ERC-20 of its own; its own
// when it does (its functions run there, the rest is delegated: the
// implementation's part is not analysed, unknown).
func (r *scanRun) slotImplementation(px *proxy.ProxyInfo, impl []byte, own bytecode.CodeReport) (bytecode.CodeReport, []byte, bool) {
	switch {
	case len(impl) == 0:
		r.warn("contract: the proxy's slot %s names %s, which has no code; the proxy's own code was analysed", px.Slot.Hex(), px.Implementation.Hex())
		return own, nil, true
	case own.HasSelector(bytecode.SelTransfer):
		r.warn("contract: the proxy answers transfer() with its own code and delegates the rest to %s (slot %s), whose code was not analysed", px.Implementation.Hex(), px.Slot.Hex())
		return own, nil, false
	}
	return bytecode.AnalyseCode(impl), impl, true
}

// probeRequest describes the privilege probes: callers are the owner,
// addresses stored in the token and the creator; donors (who can fund the
// probes' test wallet) the owner, the creator and the top holders; pools,
// quote tokens and lockers are never used as either.
func (r *scanRun) probeRequest(code bytecode.CodeReport, owner *common.Address, stored []common.Address, creator *common.Address, top []holder.Holder) probe.ProbeRequest {
	s, ch := r.s, r.s.chain
	pr := probe.ProbeRequest{Token: r.token, Code: code, Owner: owner, Stored: stored, Creator: creator}
	if s.lens != nil {
		pr.BlockTime, pr.Supply = s.lens.Timestamp, s.lens.TotalSupply
		pr.Renounced = s.lens.OwnerFunc && holder.IsBurn(s.lens.Owner)
	}
	if len(s.pools) > 0 {
		deepest := s.pools[0]
		pr.Pool = deepest.Address
		// The probes can buy test tokens themselves from a V2 pool against
		// the wrapped native when no donor holds any.
		if deepest.DEX.Kind == "v2" && deepest.Quote.Wrapped {
			pr.Wrapped = deepest.QuoteAddress
			pr.FeeBps = deepest.DEX.FeeBps
		}
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
	for _, h := range top {
		if !slices.Contains(pr.Exclude, h.Address) && !holder.IsBurn(h.Address) && len(pr.Holders) < 5 {
			if len(pr.Holders) == 0 && h.Balance != nil {
				// The token contract holds a tenth of the largest
				// holder's tokens for the stock calls.
				pr.Stock = new(big.Int).Div(h.Balance, big.NewInt(10))
			}
			pr.Holders = append(pr.Holders, h.Address)
		}
		if len(pr.Donors) >= 8 {
			continue
		}
		if !slices.Contains(pr.Exclude, h.Address) && !holder.IsBurn(h.Address) && !slices.Contains(pr.Donors, h.Address) {
			pr.Donors = append(pr.Donors, h.Address)
		}
	}
	return pr
}

// probeGrant is what the probes' victim is credited by state override
// when the simulation could not buy (transfers off on the current state,
// so no donor can fund it): a thousandth of the supply; nil otherwise.
func probeGrant(sim *analysis.EVMSimulation, l *lens.LensResult) *big.Int {
	if sim != nil && sim.CanBuy != nil && *sim.CanBuy {
		return nil
	}
	if l == nil || l.TotalSupply == nil || l.TotalSupply.Sign() <= 0 {
		return nil
	}
	return new(big.Int).Div(l.TotalSupply, big.NewInt(1000))
}

// holderGrace is the least time round trip 3 waits for a holder scan that
// is not done when round trip 2 is (it waits as long as round trip 2 took
// when that is longer: the scan started with it).
const holderGrace = 250 * time.Millisecond

// creator picks the best creator evidence available now.
func (r *scanRun) creator(ex *explorerFacts, hs *holder.HolderScan) (*common.Address, string) {
	if ex != nil && ex.creation != nil {
		c := common.HexToAddress(ex.creation.Creator)
		return &c, "explorer"
	}
	if hs != nil && hs.FirstMintTo != nil && !holder.IsBurn(*hs.FirstMintTo) {
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
	// read says the node answered the batch (each answer may still be an
	// error of its own call).
	read bool
}

func (r *scanRun) accountCalls(top []holder.Holder, creator *common.Address) *accounts {
	ac := &accounts{n: min(len(top), analysis.EVMTopHolders)}
	ac.codes = make([]hexutil.Bytes, ac.n)
	ac.bals = make([]hexutil.Bytes, ac.n)
	for i := range ac.n {
		ac.elems = append(ac.elems, node.CodeElem(top[i].Address, &ac.codes[i]), balanceOfElem(r.token, top[i].Address, &ac.bals[i]))
	}
	if creator != nil {
		ac.creator = true
		ac.elems = append(ac.elems, node.BalanceElem(*creator, &ac.cBal), node.NonceElem(*creator, &ac.cNonce), balanceOfElem(r.token, *creator, &ac.cTokens))
		if len(r.s.pools) > 0 && r.s.pools[0].LPSupply != nil {
			ac.lp = true
			ac.elems = append(ac.elems, balanceOfElem(r.s.pools[0].Address, *creator, &ac.cLP))
		}
	}
	return ac
}

// balanceOfElem builds token.balanceOf(holder) as a gas-capped eth_call.
func balanceOfElem(token, holder common.Address, out *hexutil.Bytes) rpc.BatchElem {
	data := append(bytecode.SelBalanceOf.Bytes(), common.LeftPadBytes(holder.Bytes(), 32)...)
	return node.CallElem(node.CallMsg{To: token, Data: data, Gas: 200_000}, nil, out)
}

// holdersRead says the node answered every top holder's code query (a
// holder whose code is unknown may be a pool or a contract wallet: the
// concentration figures are then not established).
func (ac *accounts) holdersRead() bool {
	if len(ac.isCode) < ac.n {
		return false
	}
	for _, c := range ac.isCode[:ac.n] {
		if c == nil {
			return false
		}
	}
	return true
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

// SolidlyMaxFeeBps is the fee assumed for a Solidly-style (Aerodrome,
// Velodrome) pool when the DEX has no fee_bps configured: their factories
// set each pool's fee (getFee(pool, stable)) up to 3%. Assuming the maximum
// is safe: the simulator then asks the pool for less than it would pay, and
// taxes are measured against what was asked, so they are unchanged; a fee
// assumed too low makes the pool refuse the swap (a false honeypot).
const SolidlyMaxFeeBps = 300

// simulationRequest picks the pool to trade against: the deepest pool with
// liquidity whose kind the simulator supports, bought with the wrapped
// native (directly, or through a wrapped/quote pool).
func (r *scanRun) simulationRequest() (*pool.Pool, *simulation.SimulationRequest) {
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
		req := &simulation.SimulationRequest{
			Token: r.token, Pool: p.Address, PoolKind: kind, Quote: p.QuoteAddress, Wrapped: wa,
			FeeBps: p.DEX.FeeBps, QuoteReserve: p.QuoteReserve, TokenReserve: p.TokenReserve,
			BlockTime: s.lens.Timestamp, DelayedSell: simulation.DefaultDelayedSell, BlockNumber: uint64(s.block),
		}
		if kind == "v2" && common.IsHexAddress(p.DEX.Router) {
			req.Router = common.HexToAddress(p.DEX.Router)
		}
		if kind == "v3" && p.Report.Fee != nil {
			req.FeeBps = *p.Report.Fee / 100
		}
		if req.FeeBps == 0 {
			req.FeeBps = 30
			if kind == "solidly" {
				req.FeeBps = SolidlyMaxFeeBps
			}
		}
		if p.QuoteAddress != wa {
			fund := s.plan.FundPool(s.lens, wa, p.QuoteAddress)
			if fund == nil {
				continue
			}
			req.FundPool = *fund
		}
		return p, req
	}
	return nil, nil
}

// insiderQuery is the scan's insider query, if one is needed; a trusted
// token has none (its holders are exchanges and bridges, its history too
// long to ask for).
func (r *scanRun) insiderQuery(hs *holder.HolderScan, latest uint64) *holder.InsiderQuery {
	if _, trusted := r.s.chain.IsTrusted(r.token.Hex()); trusted {
		return nil
	}
	return holder.NewInsiderQuery(r.token, hs, r.s.pools, latest)
}
