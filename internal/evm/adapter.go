package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/evm/proxy"

	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/explorer"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// Round trips of a scan (sequential, on the chosen chain unless noted):
//
//  1. detect: one batch per enabled EVM chain, in parallel: the token's
//     code, the latest block, totalSupply/balanceOf, proxy slots, the
//     first storage slots (hidden-owner candidates), the lens (metadata,
//     owner, every pool with reserves and LP holdings) and the Uniswap V4
//     PoolManagers' Initialize logs of the token (v4scan.go). Detection and
//     collection are one round trip, so choosing among chains by
//     liquidity costs nothing extra.
//  2. simulation (+ cooldown replay), the V4 pools' state and their V4
//     simulations, and proxy details; the holder log scan and the
//     explorer requests start beside it.
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
	Client node.ClientOptions
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
	Holders holder.HolderBudget
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
	clients map[string]*node.Client
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
	return &Adapter{reg: reg, opts: opts, clients: map[string]*node.Client{}}
}

// Kind returns chains.EVM.
func (a *Adapter) Kind() chains.Kind { return chains.EVM }

// Client returns the RPC client of chain ch (created on first use).
func (a *Adapter) Client(ch chains.Chain) *node.Client {
	a.mu.Lock()
	defer a.mu.Unlock()
	key := ch.Key + "|" + strings.Join(ch.RPC, ",")
	c, ok := a.clients[key]
	if !ok {
		opts := a.opts.Client
		if ch.RPCMaxBatchBytes != 0 {
			opts.MaxBatchBytes = ch.RPCMaxBatchBytes
		}
		c = node.NewClient(ch.Key, ch.RPC, opts)
		a.clients[key] = c
	}
	return c
}

// sighting is one chain's detection round trip.
type sighting struct {
	chain  chains.Chain
	client *node.Client
	err    error

	code      hexutil.Bytes
	block     hexutil.Uint64
	supplyRaw hexutil.Bytes
	balRaw    hexutil.Bytes
	supplyOK  bool
	balanceOK bool
	// supplyErr and balanceErr are the calls' own errors; lensEmpty says
	// that the lens, which always returns data, came back empty (a node
	// that answers eth_call with nothing).
	supplyErr  error
	balanceErr error
	lensEmpty  bool
	slots      func() (proxy.ProxySlots, error)
	stored     func() []common.Address
	words      func() map[uint64][]byte
	plan       *pool.LensPlan
	lens       *lens.LensResult
	lensErr    error
	pools      []pool.Pool
	usd        float64
	// v4 is the Uniswap V4 pool search (nil without a V4 deployment).
	v4 *v4Search
}

func (s *sighting) found() bool { return s.err == nil && len(s.code) > 0 }

// detect runs round trip 1 on one chain.
func (a *Adapter) detect(ctx context.Context, ch chains.Chain, token common.Address) *sighting {
	s := &sighting{chain: ch, client: a.Client(ch)}
	s.plan = pool.NewLensPlan(ch, token, nil)
	lensEl, lensDecode, err := s.plan.Req.Call()
	if err != nil {
		s.err = err
		return s
	}
	elems := []rpc.BatchElem{
		node.CodeElem(token, &s.code),
		node.BlockNumberElem(&s.block),
		node.CallElem(node.CallMsg{To: token, Data: bytecode.SelTotalSupply.Bytes(), Gas: 200_000}, nil, &s.supplyRaw),
		node.CallElem(node.CallMsg{To: token, Data: append(bytecode.SelBalanceOf.Bytes(), common.LeftPadBytes(common.HexToAddress("0xdead").Bytes(), 32)...), Gas: 200_000}, nil, &s.balRaw),
		lensEl,
	}
	slotElems, slots := proxy.ProxySlotCalls(token)
	storeElems, stored := probe.StorageCandidateCalls(token)
	s.v4 = newV4Search(ch, token)
	var plan batchPlan
	plan.add(elems)
	plan.add(slotElems)
	plan.add(storeElems)
	s.v4.add(&plan)
	if err := s.client.Batch(ctx, plan.elems); err != nil {
		// Every verdict stands on this round trip: after the client's
		// retries it is sent once more (a node failing one request in
		// two fails three in a row one time in eight) before the scan is
		// the node's failure.
		if ctx.Err() != nil || s.client.Batch(ctx, plan.elems) != nil {
			s.err = err
			return s
		}
	}
	plan.scatter()
	s.v4.read()
	if elems[0].Error != nil {
		s.err = fmt.Errorf("eth_getCode: %w", elems[0].Error)
		return s
	}
	if elems[1].Error != nil {
		// The head block bounds the holder rebuild: without it the log
		// scan would read nothing and call that complete. The client has
		// already asked again; still failing, the chain did not answer.
		s.err = fmt.Errorf("eth_blockNumber: %w", elems[1].Error)
		return s
	}
	s.supplyErr, s.balanceErr = elems[2].Error, elems[3].Error
	s.supplyOK = elems[2].Error == nil && len(s.supplyRaw) >= 32
	s.balanceOK = elems[3].Error == nil && len(s.balRaw) >= 32
	s.slots, s.stored, s.words = slots, stored, storageWords(storeElems)
	if elems[4].Error != nil {
		s.lensErr = elems[4].Error
	} else {
		if out, ok := elems[4].Result.(*hexutil.Bytes); ok && len(*out) == 0 {
			s.lensEmpty = true
		}
		s.lens, s.lensErr = lensDecode()
	}
	if s.lensErr != nil && !node.IsRevert(s.lensErr) {
		// A node that refuses or ignores state overrides: run the lens
		// from its creation code instead (one more round trip here only).
		if el, dec, err := s.plan.Req.DeploylessCall(); err == nil {
			one := []rpc.BatchElem{el}
			if err := s.client.Batch(ctx, one); err == nil && one[0].Error == nil {
				if res, err := dec(); err == nil {
					s.lens, s.lensErr = res, nil
				}
			}
		}
	}
	if s.lensErr == nil {
		s.pools = s.plan.Pools(s.lens)
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
		if err := a.confirmNotToken(ctx, chosen, token); err != nil {
			return nil, err
		}
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

// notFoundDetail says, for a token found on no chain while some could
// not be asked, which chains did not answer and what the others said:
// never "not found on the chains that answered" when none answered.
func notFoundDetail(code fault.Code, failed []string, answered int) string {
	why := "failed"
	if code == fault.UpstreamTimeout {
		why = "did not answer before the deadline"
	}
	if answered == 0 {
		return fmt.Sprintf("no EVM chain could be asked whether the token exists: %s %s", strings.Join(failed, ", "), why)
	}
	return fmt.Sprintf("no contract at this address on the %d chain(s) that answered; %s %s, so whether the token exists there is unknown",
		answered, strings.Join(failed, ", "), why)
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
			var te *node.TransportError
			if errors.As(s.err, &te) && te.Timeout || errors.Is(s.err, context.DeadlineExceeded) {
				timeouts++
			}
		}
		if timeouts == len(failed) && ctx.Err() != nil {
			code = fault.UpstreamTimeout
		}
		return nil, nil, nil, fault.Wrap(errors.Join(errs(failed)...), code, notFoundDetail(code, names(failed), len(sightings)-len(failed)))
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

// erc20Answer is how a contract answered totalSupply() or balanceOf().
type erc20Answer int

// The answers from most to least telling.
const (
	erc20Answered   erc20Answer = iota // 32 bytes or more
	erc20Executed                      // the code ran and failed (revert, invalid opcode, out of gas)
	erc20Empty                         // success with less than a word
	erc20Unanswered                    // the node or provider failed the call
)

func classifyERC20(err error, out []byte) erc20Answer {
	switch {
	case err == nil && len(out) >= 32:
		return erc20Answered
	case err == nil:
		return erc20Empty
	case executionFailure(err):
		return erc20Executed
	}
	return erc20Unanswered
}

// confirmNotToken decides what a contract that did not answer
// totalSupply() and balanceOf() is. Only answers prove "not a token": a
// revert or an empty result from code that has no such function. A call
// the node failed, or an empty result for a function the dispatcher has
// (or from a node whose eth_call returns nothing at all), is asked once
// more and then is the node's failure (502), never a verdict. Code that
// delegates answers for its implementation, so the implementation's
// dispatcher is read too (its slots in the same retry, its code in one
// more call: this path only runs for contracts that did not answer).
func (a *Adapter) confirmNotToken(ctx context.Context, s *sighting, token common.Address) error {
	report := bytecode.AnalyseCode(s.code)
	supply, balance := classifyERC20(s.supplyErr, s.supplyRaw), classifyERC20(s.balanceErr, s.balRaw)
	// Code that forwards calls answers for its implementation: an empty
	// answer proves nothing until the implementation's code is known.
	var impl *common.Address
	if unsettled(supply) || unsettled(balance) {
		var slotElems []rpc.BatchElem
		var slots func() (proxy.ProxySlots, error)
		if report.MinimalProxyTarget == nil && (report.HasDelegatecall || report.HasCallcode) {
			slotElems, slots = proxy.ProxySlotCalls(token)
		}
		// Each call keeps its most telling answer over the rounds: a node
		// can fail a call or answer it empty, it cannot make up a revert.
		// A node that fails or empties some calls (a lagging or
		// rate-limited backend behind a load balancer) is asked a few
		// times, the two calls in turn, while neither answer is telling;
		// the proxy slots ride the first round.
		for round := 0; round < confirmRounds && (unsettled(supply) || unsettled(balance)); round++ {
			var sup, bal hexutil.Bytes
			pair := []rpc.BatchElem{
				node.CallElem(node.CallMsg{To: token, Data: bytecode.SelTotalSupply.Bytes(), Gas: 200_000}, nil, &sup),
				node.CallElem(node.CallMsg{To: token, Data: append(bytecode.SelBalanceOf.Bytes(), common.LeftPadBytes(common.HexToAddress("0xdead").Bytes(), 32)...), Gas: 200_000}, nil, &bal),
			}
			si, bi := 0, 1
			if round%2 == 1 {
				pair[0], pair[1] = pair[1], pair[0]
				si, bi = 1, 0
			}
			var plan batchPlan
			plan.add(pair)
			if round == 0 {
				plan.add(slotElems)
			}
			if err := s.client.Batch(ctx, plan.elems); err != nil {
				if round == 0 {
					return fault.Wrap(err, upstreamCode(ctx, err), fmt.Sprintf("%s: the node could not say whether the contract at %s is a token", s.chain.Key, token.Hex()))
				}
				break // the answers so far decide
			}
			plan.scatter()
			if v := classifyERC20(pair[si].Error, sup); v < supply {
				supply, s.supplyRaw = v, sup
			}
			if v := classifyERC20(pair[bi].Error, bal); v < balance {
				balance, s.balRaw = v, bal
			}
		}
		if supply == erc20Answered && balance == erc20Answered {
			s.supplyOK, s.balanceOK = true, true
			return nil
		}
		switch {
		case report.MinimalProxyTarget != nil:
			impl = report.MinimalProxyTarget
		case slots != nil:
			v, err := slots()
			if err != nil {
				return fault.Wrap(err, fault.UpstreamError, fmt.Sprintf("%s: the node could not say whether the proxy at %s is a token", s.chain.Key, token.Hex()))
			}
			if p := proxy.DetectProxy(report, v); p != nil && p.Implementation != (common.Address{}) {
				impl = &p.Implementation
			}
		}
	}
	has := report.HasSelector
	if impl != nil {
		var code hexutil.Bytes
		if err := s.client.Call(ctx, &code, "eth_getCode", *impl, "latest"); err != nil {
			return fault.Wrap(err, upstreamCode(ctx, err), fmt.Sprintf("%s: the node could not give the code of %s, the implementation behind %s", s.chain.Key, impl.Hex(), token.Hex()))
		}
		implReport := bytecode.AnalyseCode(code)
		has = func(sel bytecode.Selector) bool { return report.HasSelector(sel) || implReport.HasSelector(sel) }
	}
	dubious := func(v erc20Answer, sel bytecode.Selector) bool {
		return v == erc20Unanswered || v == erc20Empty && (s.lensEmpty || has(sel))
	}
	if dubious(supply, bytecode.SelTotalSupply) || dubious(balance, bytecode.SelBalanceOf) {
		return fault.Errorf(fault.UpstreamError, "%s: the node failed or answered nothing to totalSupply()/balanceOf() of the contract at %s; whether it is a token is unknown", s.chain.Key, token.Hex())
	}
	return fault.Errorf(fault.NotAToken, "the contract at %s on %s does not answer totalSupply() and balanceOf(): not an ERC-20 token", token.Hex(), s.chain.Key)
}

// confirmRounds is how many times confirmNotToken asks totalSupply() and
// balanceOf() again while their answers are not telling.
const confirmRounds = 4

// unsettled says an answer may still change on asking again: the node
// failed the call or answered it empty.
func unsettled(v erc20Answer) bool { return v == erc20Empty || v == erc20Unanswered }

// upstreamCode is upstream_timeout when the deadline passed, else
// upstream_error.
func upstreamCode(ctx context.Context, err error) fault.Code {
	var te *node.TransportError
	if ctx.Err() != nil || errors.As(err, &te) && te.Timeout {
		return fault.UpstreamTimeout
	}
	return fault.UpstreamError
}

// executionFailure says whether a call's error is the EVM's own answer:
// the code ran and reverted or failed (geth: code 3 with data, or -32000
// "execution reverted", "invalid opcode", "out of gas", …).
func executionFailure(err error) bool {
	if node.IsRevert(err) {
		return true
	}
	var re *node.RPCError
	if !errors.As(err, &re) {
		return false
	}
	if re.Code == 3 {
		return true
	}
	msg := strings.ToLower(re.Message)
	for _, w := range []string{"revert", "invalid opcode", "out of gas", "stack underflow", "stack overflow",
		"invalid jump", "write protection", "execution"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

func errs(ss []*sighting) []error {
	var out []error
	for _, s := range ss {
		out = append(out, s.err)
	}
	return out
}
