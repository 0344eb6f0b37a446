package evm

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Privilege probes.
//
// Design: one eth_call per caller (owner, addresses stored in the token's
// first storage slots, creator), chunked when long, all in one batch. The
// call goes from the caller TO the caller, whose code is replaced by
// state override with the Prober contract: so every call the prober makes
// to the token carries the caller as msg.sender (and tx.origin), and the
// prober can read the token's state before and after in the same call.
// Each candidate call runs in a frame that reverts after measuring, so the
// probes do not see each other's effects. A victim wallet (prober code
// too) gets tokens from a donor, and the measurements include whether it
// can still transfer to a wallet and to the pool, at what loss, and
// whether the token called it back. The effect proves the power, whatever
// the function is named; the catalogue only names what was seen.

// Throwaway addresses of the probes (hash-derived: nobody lives there).
var (
	ProbeVictim = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.probe.victim"))[12:])
	ProbeSink   = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.probe.sink"))[12:])
	// ProbeAnyone is the control caller: an address with no privilege, so
	// what it can do anyone can (a public function, not an owner's power).
	ProbeAnyone = common.BytesToAddress(crypto.Keccak256([]byte("tokenrisk.probe.anyone"))[12:])
)

// Probe defaults.
const (
	DefaultProbeGasPerCall = 1_000_000
	DefaultProbeSelectors  = 40
	// probesPerCall bounds one eth_call's candidate calls (gas: each
	// probe costs its call plus a measurement).
	probesPerCall = 48
	probeCallGas  = 45_000_000
	// StorageCandidateSlots is how many leading storage slots are read
	// for addresses that may hold hidden owner powers.
	StorageCandidateSlots = 12
	maxStoredCallers      = 4
)

// Probe caller roles.
const (
	RoleOwner   = "owner"
	RoleStored  = "stored"
	RoleCreator = "creator"
	RoleAnyone  = "anyone"
)

// ProbeRequest describes the privilege probes of one token.
type ProbeRequest struct {
	Token common.Address
	// Pool is the token's deepest pool (zero: sells are not checked).
	Pool common.Address
	// Code is the analysis of the code that runs: the implementation's
	// for a proxy (calls still go to the token's address).
	Code CodeReport
	// Owner is the live owner (nil when renounced, absent or unknown).
	Owner *common.Address
	// Stored are addresses read from the token's storage (hidden owner
	// candidates; see StorageCandidateCalls); Creator the deployer.
	Stored  []common.Address
	Creator *common.Address
	// Donors hold tokens that can fund the victim (owner, creator, top
	// holders); callers are tried first.
	Donors []common.Address
	// Exclude are addresses never used as callers or donors (pools,
	// quote tokens, lockers).
	Exclude []common.Address
	// Wrapped and FeeBps let the probes buy the victim tokens from Pool
	// (a V2 pool against the wrapped native) when no donor can give any.
	Wrapped common.Address
	FeeBps  int
	// GasPerCall caps each candidate call; MaxSelectors bounds how many
	// dispatcher selectors are probed.
	GasPerCall   uint64
	MaxSelectors int
}

// StorageCandidateCalls reads token's first StorageCandidateSlots storage
// slots; the decoder returns the distinct values that look like addresses.
func StorageCandidateCalls(token common.Address) ([]rpc.BatchElem, func() []common.Address) {
	out := make([]hexutil.Bytes, StorageCandidateSlots)
	elems := make([]rpc.BatchElem, StorageCandidateSlots)
	for i := range elems {
		elems[i] = StorageElem(token, common.BigToHash(big.NewInt(int64(i))), &out[i])
	}
	decode := func() []common.Address {
		var words [][]byte
		for i := range elems {
			if elems[i].Error == nil {
				words = append(words, out[i])
			}
		}
		return AddressesInWords(words)
	}
	return elems, decode
}

// AddressesInWords extracts what looks like an address from storage words:
// the low 20 bytes, or the 20 bytes above a packed bool or small integer
// in the lowest byte, when at least 4 of the address's top 6 bytes are
// non-zero (a number or a short string almost never gives that) and the
// bytes around it hold no more than packed flags. Between the two
// placements, the one leaving fewer bytes above 1 wins.
func AddressesInWords(words [][]byte) []common.Address {
	seen := map[common.Address]bool{}
	var out []common.Address
	for _, w := range words {
		if len(w) > 32 {
			continue
		}
		word := common.LeftPadBytes(w, 32)
		best, bestScore := -1, 1<<30
		for _, offset := range []int{0, 1} {
			addr := word[12-offset : 32-offset]
			rest := append(append([]byte{}, word[:12-offset]...), word[32-offset:]...)
			nonzero := 0
			for _, b := range addr[:6] {
				if b != 0 {
					nonzero++
				}
			}
			if nonzero < 4 || bytes.Count(rest, []byte{0}) < len(rest)-2 {
				continue
			}
			score := 0
			for _, b := range rest {
				if b > 1 {
					score++
				}
			}
			if score < bestScore {
				best, bestScore = offset, score
			}
		}
		if best < 0 {
			continue
		}
		addr := common.BytesToAddress(word[12-best : 32-best])
		if !seen[addr] {
			seen[addr] = true
			out = append(out, addr)
		}
	}
	return out
}

// proberMeasure mirrors Prober.Measure.
type proberMeasure struct {
	TotalSupply    *big.Int
	VictimBalance  *big.Int
	OwnerOk        bool
	Owner          common.Address
	WalletOk       bool
	WalletSent     *big.Int
	WalletReceived *big.Int
	SellOk         bool
	SellSent       *big.Int
	SellReceived   *big.Int
	TinyOk         bool
	Hits           *big.Int
	CallerBalance  *big.Int
	TokenBalance   *big.Int
}

type proberOutcome struct {
	Complete bool
	Ok       bool
	GasUsed  *big.Int
	Ret      []byte
	M        proberMeasure
}

var proberContract = sync.OnceValues(func() (contracts.Compiled, error) {
	return contracts.Artifact("Prober")
})

// probeCall is one candidate call and what it was meant to test.
type probeCall struct {
	sel  Selector
	data []byte
	// label names the call in evidence: a signature or selector+pattern.
	label string
	// capability is the catalogue's name for the selector ("" unknown).
	capability string
	victimArg  bool
}

type probeCaller struct {
	addr common.Address
	role string
}

// ProbeCalls builds the probes' batch elements and the decoder of their
// verdicts (valid after the batch ran).
func ProbeCalls(req ProbeRequest) ([]rpc.BatchElem, func() (*analysis.EVMProbeFacts, error), error) {
	prober, err := proberContract()
	if err != nil {
		return nil, nil, fmt.Errorf("probe: %w", err)
	}
	gasPerCall := req.GasPerCall
	if gasPerCall == 0 {
		gasPerCall = DefaultProbeGasPerCall
	}
	maxSel := req.MaxSelectors
	if maxSel == 0 {
		maxSel = DefaultProbeSelectors
	}
	calls := buildProbeCalls(req.Code, maxSel)
	callers := probeCallers(req)
	facts := &analysis.EVMProbeFacts{Callers: []analysis.EVMProbeCaller{}}
	if len(calls) == 0 || len(callers) == 0 {
		for _, c := range callers {
			facts.Callers = append(facts.Callers, analysis.EVMProbeCaller{Address: c.addr.Hex(), Role: c.role, Ran: true})
		}
		facts.Funded, facts.Complete = true, true // nothing to observe, nothing missed
		return nil, func() (*analysis.EVMProbeFacts, error) { return facts, nil }, nil
	}
	donors := probeDonors(req, callers)
	overrides := StateOverride{ProbeVictim: {Code: prober.DeployedBytecode}}
	for _, d := range donors {
		overrides[d] = OverrideAccount{Code: prober.DeployedBytecode}
	}

	type chunk struct {
		caller int
		calls  []probeCall
		out    *hexutil.Bytes
		elem   int
	}
	var elems []rpc.BatchElem
	var chunks []chunk
	type funding struct {
		Wrapped common.Address
		FeeBps  *big.Int
	}
	fund := funding{Wrapped: req.Wrapped, FeeBps: big.NewInt(int64(req.FeeBps))}
	rich := (*hexutil.Big)(new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil))
	for ci, c := range callers {
		ov := StateOverride{c.addr: {Code: prober.DeployedBytecode, Balance: rich}}
		for k, v := range overrides {
			ov[k] = v
		}
		for start := 0; start < len(calls); start += probesPerCall {
			part := calls[start:min(start+probesPerCall, len(calls))]
			data := make([][]byte, len(part))
			for i, p := range part {
				data[i] = p.data
			}
			input, err := prober.ABI.Pack("run", req.Token, ProbeVictim, ProbeSink, req.Pool, donors, fund,
				new(big.Int).SetUint64(gasPerCall), data)
			if err != nil {
				return nil, nil, fmt.Errorf("probe: pack: %w", err)
			}
			out := new(hexutil.Bytes)
			from := c.addr
			chunks = append(chunks, chunk{caller: ci, calls: part, out: out, elem: len(elems)})
			elems = append(elems, CallElem(CallMsg{From: &from, To: c.addr, Gas: probeCallGas, Data: input}, ov, out))
		}
	}

	decode := func() (*analysis.EVMProbeFacts, error) {
		ran := make([]bool, len(callers))
		errs := make([]string, len(callers))
		for i := range ran {
			ran[i] = true
		}
		v := newVerdicts(req.Owner)
		for _, ch := range chunks {
			c := callers[ch.caller]
			if err := elems[ch.elem].Error; err != nil {
				ran[ch.caller] = false
				errs[ch.caller] = "probe call failed: " + callFailure(err)
				continue
			}
			funder, base, outs, err := decodeProberRun(prober.ABI, *ch.out)
			if err != nil {
				ran[ch.caller] = false
				errs[ch.caller] = "probe result unreadable"
				continue
			}
			if funder != (common.Address{}) {
				facts.Funded = true
			}
			for i, o := range outs {
				if i < len(ch.calls) {
					v.observe(c, ch.calls[i], base, o)
				}
			}
		}
		for i, c := range callers {
			facts.Callers = append(facts.Callers, analysis.EVMProbeCaller{Address: c.addr.Hex(), Role: c.role, Ran: ran[i], Error: errs[i]})
		}
		facts.Capabilities = v.capabilities()
		facts.Complete = allTrue(ran)
		if !anyTrue(ran) {
			return facts, errors.New("probe: no caller could be probed")
		}
		return facts, nil
	}
	return elems, decode, nil
}

func allTrue(b []bool) bool {
	for _, x := range b {
		if !x {
			return false
		}
	}
	return true
}

func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}

// probeCallers lists who to probe from: the live owner, stored addresses,
// the creator (each once, never a burn or excluded address), and last the
// control caller.
func probeCallers(req ProbeRequest) []probeCaller {
	seen := map[common.Address]bool{req.Token: true, req.Pool: true, ProbeVictim: true, ProbeSink: true, ProbeAnyone: true}
	for _, a := range req.Exclude {
		seen[a] = true
	}
	var out []probeCaller
	add := func(a common.Address, role string) bool {
		if seen[a] || isBurn(a) || isPrecompile(a) {
			return false
		}
		seen[a] = true
		out = append(out, probeCaller{addr: a, role: role})
		return true
	}
	if req.Owner != nil {
		add(*req.Owner, RoleOwner)
	}
	n := 0
	for _, a := range req.Stored {
		if n < maxStoredCallers && add(a, RoleStored) {
			n++
		}
	}
	if req.Creator != nil {
		add(*req.Creator, RoleCreator)
	}
	return append(out, probeCaller{addr: ProbeAnyone, role: RoleAnyone})
}

func isPrecompile(a common.Address) bool {
	return new(big.Int).SetBytes(a[:]).Cmp(big.NewInt(0x1_0000)) < 0
}

// probeDonors: callers first (an owner is usually fee- and limit-exempt),
// then the given donors.
func probeDonors(req ProbeRequest, callers []probeCaller) []common.Address {
	seen := map[common.Address]bool{req.Token: true, req.Pool: true, ProbeVictim: true, ProbeSink: true}
	for _, a := range req.Exclude {
		seen[a] = true
	}
	var out []common.Address
	for _, c := range callers {
		if !seen[c.addr] {
			seen[c.addr] = true
			out = append(out, c.addr)
		}
	}
	for _, d := range req.Donors {
		if !seen[d] && !isBurn(d) && !isPrecompile(d) && len(out) < 8 {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func decodeProberRun(parsed abi.ABI, data []byte) (common.Address, proberMeasure, []proberOutcome, error) {
	vals, err := parsed.Methods["run"].Outputs.Unpack(data)
	if err != nil || len(vals) != 3 {
		return common.Address{}, proberMeasure{}, nil, fmt.Errorf("unpack run: %v", err)
	}
	funder, _ := vals[0].(common.Address)
	var base proberMeasure
	var outs []proberOutcome
	if err := safeConvert(vals[1], &base); err != nil {
		return common.Address{}, proberMeasure{}, nil, err
	}
	if err := safeConvert(vals[2], &outs); err != nil {
		return common.Address{}, proberMeasure{}, nil, err
	}
	return funder, base, outs, nil
}

// Generic argument patterns for selectors whatever their signature (extra
// call data is ignored by solc and vyper, so one encoding fits several
// signatures):
//   - (victim, 1): f(address), f(address,bool=true), f(address,uint256=1)
//   - (1, 1, 1): f(bool=true), f(uint256=1) … up to three numbers
//   - (0, 0, 0): f(bool=false), f(uint256=0) …
//   - (0x40, 1, 1, victim): f(address[]=[victim]), f(address[],bool=true)
func genericPatterns() []struct {
	name      string
	args      [][]byte
	victimArg bool
} {
	w := func(v int64) []byte { return common.LeftPadBytes(big.NewInt(v).Bytes(), 32) }
	victim := common.LeftPadBytes(ProbeVictim.Bytes(), 32)
	return []struct {
		name      string
		args      [][]byte
		victimArg bool
	}{
		{"(victim,1)", [][]byte{victim, w(1)}, true},
		{"(1,1,1)", [][]byte{w(1), w(1), w(1)}, false},
		{"(0,0,0)", [][]byte{w(0), w(0), w(0)}, false},
		{"([victim],true)", [][]byte{w(0x40), w(1), w(1), victim}, true},
	}
}

// buildProbeCalls turns the dispatcher's non-standard selectors into
// candidate calls: tailored arguments for catalogue signatures, the
// generic patterns for every selector. Catalogue matches come first.
func buildProbeCalls(code CodeReport, maxSelectors int) []probeCall {
	var known, unknown []Selector
	for _, s := range code.Selectors {
		if IsStandard(s) {
			continue
		}
		if len(LookupPrivileged(s)) > 0 {
			known = append(known, s)
		} else {
			unknown = append(unknown, s)
		}
	}
	sels := append(known, unknown...)
	if len(sels) > maxSelectors {
		sels = sels[:maxSelectors]
	}
	var calls []probeCall
	for _, s := range sels {
		capability := ""
		label := s.String()
		for _, p := range LookupPrivileged(s) {
			capability, label = p.Capability, p.Signature
			if data, victimArg, ok := tailoredCall(p); ok {
				calls = append(calls, probeCall{sel: s, data: data, label: p.Signature, capability: p.Capability, victimArg: victimArg})
			}
			break
		}
		for _, g := range genericPatterns() {
			data := append([]byte(nil), s[:]...)
			for _, a := range g.args {
				data = append(data, a...)
			}
			calls = append(calls, probeCall{sel: s, data: data, label: label + " " + g.name, capability: capability, victimArg: g.victimArg})
		}
	}
	return calls
}

// tailoredCall encodes a catalogue signature with arguments that make its
// effect visible: the victim for addresses, an amount that moves supply
// for mints, a cap of one unit for limits, a mid-range fee for fees.
func tailoredCall(p Privileged) ([]byte, bool, bool) {
	open := strings.IndexByte(p.Signature, '(')
	if open < 0 || !strings.HasSuffix(p.Signature, ")") {
		return nil, false, false
	}
	inner := p.Signature[open+1 : len(p.Signature)-1]
	var types []string
	if inner != "" {
		types = strings.Split(inner, ",")
	}
	var args abi.Arguments
	var vals []any
	victimArg := false
	amount := big.NewInt(1)
	switch p.Capability {
	case CapMint:
		amount = new(big.Int).Exp(big.NewInt(10), big.NewInt(24), nil)
	case CapFeeChange:
		amount = big.NewInt(25)
	case CapCooldown:
		amount = big.NewInt(3600)
	}
	for _, t := range types {
		typ, err := abi.NewType(t, "", nil)
		if err != nil {
			return nil, false, false
		}
		args = append(args, abi.Argument{Type: typ})
		switch t {
		case "address":
			vals = append(vals, ProbeVictim)
			victimArg = true
		case "address[]":
			vals = append(vals, []common.Address{ProbeVictim})
			victimArg = true
		case "uint256":
			vals = append(vals, new(big.Int).Set(amount))
		case "uint256[]":
			vals = append(vals, []*big.Int{new(big.Int).Set(amount)})
		case "int256":
			vals = append(vals, new(big.Int).Set(amount))
		case "bool":
			vals = append(vals, p.Capability != CapTradingSwitch || !strings.Contains(strings.ToLower(p.Signature), "disable"))
		case "bytes":
			vals = append(vals, []byte{})
		default:
			return nil, false, false
		}
	}
	packed, err := args.Pack(vals...)
	if err != nil {
		return nil, false, false
	}
	sel := SelectorOf(p.Signature)
	return append(sel[:], packed...), victimArg, true
}

// verdicts accumulates what the probes showed, per capability and caller.
type verdicts struct {
	owner *common.Address
	// seen collects each (caller, selector)'s effects before they are
	// attributed; ownerTried/ownerOK track catalogue capabilities the live
	// owner tried (all reverted → refused).
	seen       map[callerSelector][]labelledEffect
	order      []callerSelector
	ownerTried map[string]string // capability → label
	ownerOK    map[string]bool
}

type callerSelector struct {
	caller probeCaller
	sel    Selector
}

type labelledEffect struct {
	effect
	label string
}

func newVerdicts(owner *common.Address) *verdicts {
	return &verdicts{owner: owner, seen: map[callerSelector][]labelledEffect{},
		ownerTried: map[string]string{}, ownerOK: map[string]bool{}}
}

// observe compares one outcome with the baseline.
func (v *verdicts) observe(c probeCaller, p probeCall, base proberMeasure, o proberOutcome) {
	if !o.Complete {
		return // the probe ran out of gas: it proves nothing either way
	}
	isOwner := c.role == RoleOwner
	if isOwner && p.capability != "" {
		if _, ok := v.ownerTried[p.capability]; !ok {
			v.ownerTried[p.capability] = p.label
		}
	}
	if !o.Ok {
		return
	}
	if isOwner && p.capability != "" {
		v.ownerOK[p.capability] = true
	}
	key := callerSelector{c, p.sel}
	if _, ok := v.seen[key]; !ok {
		v.order = append(v.order, key)
		v.seen[key] = nil
	}
	for _, e := range classify(p, base, o.M, c) {
		v.seen[key] = append(v.seen[key], labelledEffect{e, p.label})
	}
}

// effect is one change a call caused; blocking marks transfers that
// stopped working.
type effect struct {
	capability, what string
	blocking         bool
}

// classify names what a call changed.
func classify(p probeCall, base, m proberMeasure, c probeCaller) []effect {
	var out []effect
	if base.OwnerOk && m.OwnerOk && m.Owner != base.Owner && m.Owner == ProbeVictim {
		// Ownership moved to the test wallet: its transfers now run with
		// owner exemptions, so they no longer show what the call did to
		// holders. Only a caller that is not the owner learns something.
		if c.role != RoleOwner {
			out = append(out, effect{capability: CapOwnershipReclaim, what: "owner() moved to an address the caller chose"})
		}
		return out
	}
	cmp := func(a, b *big.Int) int {
		if a == nil || b == nil {
			return 0
		}
		return a.Cmp(b)
	}
	supplyUp := cmp(m.TotalSupply, base.TotalSupply) > 0
	if supplyUp {
		out = append(out, effect{capability: CapMint, what: "total supply rose"})
	}
	if d := cmp(m.VictimBalance, base.VictimBalance); d != 0 {
		rise := new(big.Int).Sub(m.VictimBalance, base.VictimBalance)
		minted := supplyUp && new(big.Int).Sub(m.TotalSupply, base.TotalSupply).Cmp(rise) == 0
		// Tokens the caller or the contract itself sent (an airdrop, a
		// multisend) are a transfer, not a power over balances.
		sent := d > 0 && (fell(base.CallerBalance, m.CallerBalance, rise) || fell(base.TokenBalance, m.TokenBalance, rise))
		if !minted && !sent {
			what := "a holder's balance rose without a transfer"
			if d < 0 {
				what = "a holder's balance fell without a transfer"
			}
			out = append(out, effect{capability: CapBalanceChange, what: what})
		}
	}
	if base.OwnerOk && m.OwnerOk && m.Owner != base.Owner && m.Owner == c.addr && c.role != RoleOwner {
		out = append(out, effect{capability: CapOwnershipReclaim, what: "owner() became the caller"})
	}
	hooked := p.victimArg && (base.Hits == nil || base.Hits.Sign() == 0) && m.Hits != nil && m.Hits.Sign() > 0
	if hooked {
		out = append(out, effect{capability: CapExternalTarget, what: "transfers then called the address it was given"})
	}
	walletBlocked := base.WalletOk && !m.WalletOk
	sellBlocked := base.SellOk && !m.SellOk
	tinyBlocked := base.TinyOk && !m.TinyOk
	unblocked := (!base.WalletOk && m.WalletOk) || (!base.SellOk && m.SellOk)
	transferCaps := map[string]bool{CapBlacklist: true, CapWhitelist: true, CapPause: true, CapLimitTx: true, CapTradingSwitch: true, CapCooldown: true}
	if (walletBlocked || sellBlocked) && !hooked {
		capability := p.capability
		switch {
		case capability != "":
			// A named power that blocks transfers as a side effect (a fee
			// set absurdly high) is still that power.
		case p.victimArg:
			capability = CapBlacklist
		case !tinyBlocked:
			capability = CapLimitTx
		case sellBlocked && !walletBlocked:
			capability = CapTradingSwitch
		default:
			capability = CapPause
		}
		what := "the test wallet's transfers then failed"
		if sellBlocked && !walletBlocked {
			what = "the test wallet's sells then failed"
		}
		out = append(out, effect{capability, what, true})
	}
	if unblocked {
		capability := p.capability
		if !transferCaps[capability] {
			capability = CapTradingSwitch
			if !base.WalletOk && m.WalletOk && p.victimArg {
				capability = CapWhitelist
			}
		}
		out = append(out, effect{capability: capability, what: "blocked transfers then went through"})
	}
	if feeChanged(base.WalletOk && m.WalletOk, base.WalletSent, base.WalletReceived, m.WalletSent, m.WalletReceived) ||
		feeChanged(base.SellOk && m.SellOk, base.SellSent, base.SellReceived, m.SellSent, m.SellReceived) {
		out = append(out, effect{capability: CapFeeChange, what: "the transfer tax changed"})
	}
	return out
}

// fell reports whether a balance fell by at least by.
func fell(before, after, by *big.Int) bool {
	if before == nil || after == nil {
		return false
	}
	return new(big.Int).Sub(before, after).Cmp(by) >= 0
}

// feeChanged reports whether the share lost in transfer moved by more
// than a tenth of a percentage point.
func feeChanged(both bool, sent0, got0, sent1, got1 *big.Int) bool {
	if !both || sent0 == nil || sent1 == nil || sent0.Sign() == 0 || sent1.Sign() == 0 {
		return false
	}
	r0, _ := new(big.Rat).SetFrac(got0, sent0).Float64()
	r1, _ := new(big.Rat).SetFrac(got1, sent1).Float64()
	d := r0 - r1
	return d > 0.001 || d < -0.001
}

// capabilities returns the verdicts: every proof (one per capability and
// caller), then for catalogue capabilities the live owner tried without
// proof: null when one call went through (callable, effect not visible),
// false when all reverted.
func (v *verdicts) capabilities() []analysis.EVMCapability {
	proven := map[string][]analysis.EVMCapability{}
	for _, key := range v.order {
		effects := v.seen[key]
		// A selector that points transfers at an address it is given is a
		// target setter: the transfers its other argument patterns broke
		// (a garbage target) are the same power, not a blacklist or pause.
		target := false
		for _, e := range effects {
			target = target || e.capability == CapExternalTarget
		}
		for _, e := range effects {
			name := e.capability
			if target && e.blocking {
				name = CapExternalTarget
			}
			dup := false
			for _, x := range proven[name] {
				dup = dup || x.Caller == key.caller.addr.Hex()
			}
			if dup {
				continue
			}
			proven[name] = append(proven[name], analysis.EVMCapability{
				Name: name, Proven: refOf(true), Caller: key.caller.addr.Hex(), Role: key.caller.role,
				Evidence: e.label + ": " + e.what + " (as " + key.caller.role + ")",
			})
		}
	}
	out := []analysis.EVMCapability{}
	names := make([]string, 0, len(proven))
	for n := range proven {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, proven[n]...)
	}
	tried := make([]string, 0, len(v.ownerTried))
	for n := range v.ownerTried {
		tried = append(tried, n)
	}
	sort.Strings(tried)
	for _, n := range tried {
		if len(proven[n]) > 0 || v.owner == nil {
			continue
		}
		c := analysis.EVMCapability{Name: n, Evidence: v.ownerTried[n], Caller: v.owner.Hex(), Role: RoleOwner}
		if v.ownerOK[n] {
			c.Evidence += ": callable by the owner, effect not observed"
		} else {
			c.Proven = refOf(false)
			c.Evidence += ": reverted when called by the owner"
		}
		out = append(out, c)
	}
	return out
}
