package probe

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"

	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
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
// first storage slots, creator), chunked when long, all in one batch (the
// calls testing what the token contract holds in one of their own, whose
// override also credits the contract tokens: see ProbeRequest.Stock). The
// call goes from the caller TO the caller, whose code is replaced by
// state override with the Prober contract: so every call the prober makes
// to the token carries the caller as msg.sender (and tx.origin), and the
// prober can read the token's state before and after in the same call.
// Each candidate call runs in a frame that reverts after measuring, so the
// probes do not see each other's effects. A victim wallet (a forwarder
// that runs the caller's Prober code in the victim's account:
// forwarder.go) gets tokens from a donor (a forwarder too), so the large
// Prober code is carried once a call,
// and the measurements include whether it
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
	Code bytecode.CodeReport
	// Owner is the live owner (nil when renounced, absent or unknown).
	Owner *common.Address
	// Guards are the addresses in the slots the code compares msg.sender
	// with (see GuardSlotCalls), probed before Stored, the other
	// addresses read from the token's first slots (hidden owner
	// candidates; see StorageCandidateCalls); Creator the deployer.
	Guards  []Guard
	Stored  []common.Address
	Creator *common.Address
	// Donors hold tokens that can fund the victim (owner, creator, top
	// holders); callers are tried first.
	Donors []common.Address
	// Holders are the largest holders (pools excluded): their balances
	// are watched around every probe, and the first one that is not a
	// caller is the third party whose tokens the probes try to take.
	Holders []common.Address
	// Exclude are addresses never used as callers or donors (pools,
	// quote tokens, lockers).
	Exclude []common.Address
	// Wrapped and FeeBps let the probes buy the victim tokens from Pool
	// (a V2 pool against the wrapped native) when no donor can give any.
	Wrapped common.Address
	FeeBps  int
	// Stock is how many tokens the token contract is credited, by state
	// override of its balance slots (Code.Methods.BalanceSlots), for the
	// calls that test whether a caller can take what the contract holds:
	// a token that refuses transfers to itself cannot be given any by
	// the victim, yet holds fees or tokens credited some other way (nil:
	// only the victim's gift).
	Stock *big.Int
	// Grant is how many tokens the victim is credited by state override
	// of its balance slots (see grant.go): set when the token's transfers
	// are off on the current state, so no donor can fund it (nil: none).
	Grant *big.Int
	// GasPerCall caps each candidate call; MaxSelectors bounds how many
	// dispatcher selectors are probed.
	GasPerCall   uint64
	MaxSelectors int
	// BlockTime is the head block's time and Supply the total supply
	// (0 / nil: unknown; the scripted probes that need them do not run).
	BlockTime uint64
	Supply    *big.Int
	// Renounced says the owner getter answered zero: the probes ran on
	// a renounced token, so every power they prove survived it.
	Renounced bool
}

// StorageCandidateCalls reads token's first StorageCandidateSlots storage
// slots; the decoder returns the distinct values that look like addresses.
func StorageCandidateCalls(token common.Address) ([]rpc.BatchElem, func() []common.Address) {
	out := make([]hexutil.Bytes, StorageCandidateSlots)
	elems := make([]rpc.BatchElem, StorageCandidateSlots)
	for i := range elems {
		elems[i] = node.StorageElem(token, common.BigToHash(big.NewInt(int64(i))), &out[i])
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
	Balances       []*big.Int
	PoolOther      *big.Int
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

type probeCaller struct {
	addr common.Address
	role string
	// slot is where a guard's address was read (zero for the others).
	slot common.Hash
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
	callers := ProbeCallers(req)
	sc := NewScene(req, callers)
	calls := BuildProbeCalls(req.Code, maxSel, sc)
	facts := &analysis.EVMProbeFacts{Callers: []analysis.EVMProbeCaller{}}
	facts.Functions, facts.Unprobed = probeCoverage(req.Code, calls)
	if len(calls) == 0 || len(callers) == 0 {
		for _, c := range callers {
			facts.Callers = append(facts.Callers, analysis.EVMProbeCaller{Address: c.addr.Hex(), Role: c.role, Ran: true})
		}
		facts.Funded, facts.Complete = true, true // nothing to observe, nothing missed
		return nil, func() (*analysis.EVMProbeFacts, error) { return facts, nil }, nil
	}
	donors := probeDonors(req, callers)
	// The Prober's code sits at the caller only: the victim and the
	// donors run it in their own accounts through a forwarder to the
	// caller (forwarder.go), so each call carries the large code once.

	type chunk struct {
		caller int
		calls  []probeCall
		out    *hexutil.Bytes
		elem   int
		input  []byte
	}
	var elems []rpc.BatchElem
	var chunks []chunk
	type funding struct {
		Wrapped common.Address
		FeeBps  *big.Int
	}
	fund := funding{Wrapped: req.Wrapped, FeeBps: big.NewInt(int64(req.FeeBps))}
	rich := (*hexutil.Big)(new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil))
	type plan struct {
		Watch  []common.Address
		Groups []*big.Int
		Stock  []bool
	}
	stockOv := stockOverride(req)
	grant := grantDiff(req)
	for ci, c := range callers {
		forward := forwarderCode(c.addr)
		ov := node.StateOverride{c.addr: {Code: prober.DeployedBytecode, Balance: rich}, ProbeVictim: {Code: forward}}
		for _, d := range donors {
			if d == c.addr {
				// The caller runs the Prober, donor or not. A caller that
				// is a donor (every caller is, unless excluded) keeps the
				// chain's native balance: its override has always been
				// the donors', without the rich balance above.
				ov[c.addr] = node.OverrideAccount{Code: prober.DeployedBytecode}
				continue
			}
			ov[d] = node.OverrideAccount{Code: forward}
		}
		ov = withGrant(ov, req.Token, grant)
		// With a stock to credit, the stock calls (last) run in calls of
		// their own, whose override also credits the token contract.
		mine := callsFor(calls, c.role)
		segments := []probeSegment{{calls: mine, ov: ov}}
		if stockOv != nil {
			split := len(mine)
			for split > 0 && mine[split-1].stock {
				split--
			}
			stockCallOv := node.StateOverride{}
			for k, v := range ov {
				stockCallOv[k] = v
			}
			stockCallOv[req.Token] = *stockOv
			stockCallOv = withGrant(stockCallOv, req.Token, grant)
			segments = []probeSegment{{calls: mine[:split], ov: ov}, {calls: mine[split:], ov: stockCallOv}}
		}
		for _, seg := range segments {
			per := callsPerChunk(grant)
			for start := 0; start < len(seg.calls); start += per {
				part := seg.calls[start:min(start+per, len(seg.calls))]
				data := make([][]byte, len(part))
				pl := plan{Watch: sc.watch, Groups: make([]*big.Int, len(part)), Stock: make([]bool, len(part))}
				for i, p := range part {
					data[i] = p.data
					pl.Groups[i] = big.NewInt(int64(p.group))
					pl.Stock[i] = p.stock
				}
				input, err := prober.ABI.Pack("run", req.Token, ProbeVictim, ProbeSink, req.Pool, donors, fund,
					new(big.Int).SetUint64(gasPerCall), data, pl)
				if err != nil {
					return nil, nil, fmt.Errorf("probe: pack: %w", err)
				}
				out := new(hexutil.Bytes)
				from := c.addr
				chunks = append(chunks, chunk{caller: ci, calls: part, out: out, elem: len(elems), input: input})
				elems = append(elems, node.CallElem(node.CallMsg{From: &from, To: c.addr, Gas: probeCallGas, Data: input}, seg.ov, out))
			}
		}
	}

	scripted, scriptDecode := scriptCalls(req, callers, sc)
	scriptStart := len(elems)
	elems = append(elems, scripted...)
	var replay []replayChunk
	for _, ch := range chunks {
		if slices.ContainsFunc(ch.calls, func(p probeCall) bool { return !p.stock }) {
			replay = append(replay, replayChunk{caller: ch.caller, calls: ch.calls, input: ch.input})
		}
	}
	rr := newRenounceReplay(req, callers, replay, donors, prober, grant)
	replayStart := len(elems)
	elems = append(elems, rr.elems()...)

	decode := func() (*analysis.EVMProbeFacts, error) {
		armed := scriptDecode(elems[scriptStart:replayStart], facts)
		ran := make([]bool, len(callers))
		errs := make([]string, len(callers))
		for i := range ran {
			ran[i] = true
		}
		v := newVerdicts(req.Owner, sc)
		for _, ch := range chunks {
			c := callers[ch.caller]
			if err := elems[ch.elem].Error; err != nil {
				ran[ch.caller] = false
				errs[ch.caller] = "probe call failed: " + revert.CallFailure(err)
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
			// One more outcome than calls: the baseline of the stock
			// calls, measured once the token contract held tokens.
			var stockBase *proberMeasure
			if len(outs) > len(ch.calls) && outs[len(ch.calls)].Complete {
				stockBase = &outs[len(ch.calls)].M
			}
			for i, o := range outs {
				switch {
				case i >= len(ch.calls):
				case ch.calls[i].stock && stockBase != nil:
					v.observe(c, ch.calls[i], *stockBase, o)
				case !ch.calls[i].stock:
					v.observe(c, ch.calls[i], base, o)
				}
			}
		}
		for i, c := range callers {
			facts.Callers = append(facts.Callers, analysis.EVMProbeCaller{Address: c.addr.Hex(), Role: c.role, Ran: ran[i], Error: errs[i]})
		}
		facts.Capabilities = v.capabilities()
		facts.SellBlocks = v.provenSellBlocks()
		facts.Privileged = v.privileged()
		rr.apply(elems[replayStart:], prober, req, callers, sc, facts.Privileged)
		mergeArmed(facts, armed)
		facts.Exercised = map[string]bool{}
		for s := range v.ran {
			facts.Exercised[s.String()] = true
		}
		facts.Complete = allTrue(ran)
		if !anyTrue(ran) {
			return facts, errors.New("probe: no caller could be probed")
		}
		return facts, nil
	}
	return elems, decode, nil
}

// probeSegment is a run of one caller's calls that share a state
// override.
type probeSegment struct {
	calls []probeCall
	ov    node.StateOverride
}

// stockOverride credits the token contract req.Stock tokens in each of
// its balance mappings, at the key of its own address (solc's and
// vyper's mapping layouts both); nil when there is nothing to credit or
// no balance mapping is known.
func stockOverride(req ProbeRequest) *node.OverrideAccount {
	if req.Stock == nil || req.Stock.Sign() <= 0 || len(req.Code.Methods.BalanceSlots) == 0 {
		return nil
	}
	key := common.LeftPadBytes(req.Token.Bytes(), 32)
	amount := common.BigToHash(req.Stock)
	diff := map[common.Hash]common.Hash{}
	for _, slot := range req.Code.Methods.BalanceSlots {
		sw := slot.Bytes32()
		diff[crypto.Keccak256Hash(key, sw[:])] = amount
		diff[crypto.Keccak256Hash(sw[:], key)] = amount
	}
	return &node.OverrideAccount{StateDiff: diff}
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

// ProbeCallers lists who to probe from: the live owner, the guards (most
// used slot first) then the other stored addresses (maxStoredCallers of
// them together), the creator (each once, never a burn or excluded
// address), and last the control caller.
func ProbeCallers(req ProbeRequest) []probeCaller {
	seen := map[common.Address]bool{req.Token: true, req.Pool: true, ProbeVictim: true, ProbeSink: true, ProbeAnyone: true}
	for _, a := range req.Exclude {
		seen[a] = true
	}
	var out []probeCaller
	add := func(c probeCaller) bool {
		if seen[c.addr] || holder.IsBurn(c.addr) || isPrecompile(c.addr) {
			return false
		}
		seen[c.addr] = true
		out = append(out, c)
		return true
	}
	if req.Owner != nil {
		add(probeCaller{addr: *req.Owner, role: RoleOwner})
	}
	n := 0
	for _, g := range req.Guards {
		if n < maxStoredCallers && add(probeCaller{addr: g.Addr, role: RoleGuard, slot: g.Slot}) {
			n++
		}
	}
	for _, a := range req.Stored {
		if n < maxStoredCallers && add(probeCaller{addr: a, role: RoleStored}) {
			n++
		}
	}
	if req.Creator != nil {
		add(probeCaller{addr: *req.Creator, role: RoleCreator})
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
		if !seen[d] && !holder.IsBurn(d) && !isPrecompile(d) && len(out) < 8 {
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
	if err := revert.SafeConvert(vals[1], &base); err != nil {
		return common.Address{}, proberMeasure{}, nil, err
	}
	if err := revert.SafeConvert(vals[2], &outs); err != nil {
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
	inert     bool
} {
	w := func(v int64) []byte { return common.LeftPadBytes(big.NewInt(v).Bytes(), 32) }
	victim := common.LeftPadBytes(ProbeVictim.Bytes(), 32)
	return []struct {
		name      string
		args      [][]byte
		victimArg bool
		inert     bool
	}{
		{"(victim,1)", [][]byte{victim, w(1)}, true, false},
		{"(1,1,1)", [][]byte{w(1), w(1), w(1)}, false, false},
		{"(0,0,0)", [][]byte{w(0), w(0), w(0)}, false, true},
		{"([victim],true)", [][]byte{w(0x40), w(1), w(1), victim}, true, false},
	}
}

// tailoredCall encodes a catalogue signature with arguments that make its
// effect visible: the victim for addresses, an amount that moves supply
// for mints, a cap of one unit for limits, a mid-range fee for fees.
func tailoredCall(p bytecode.Privileged) ([]byte, bool, bool) {
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
	case bytecode.CapMint:
		amount = new(big.Int).Exp(big.NewInt(10), big.NewInt(24), nil)
	case bytecode.CapFeeChange:
		amount = big.NewInt(25)
	case bytecode.CapCooldown:
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
			vals = append(vals, p.Capability != bytecode.CapTradingSwitch || !strings.Contains(strings.ToLower(p.Signature), "disable"))
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
	sel := bytecode.SelectorOf(p.Signature)
	return append(sel[:], packed...), victimArg, true
}

// verdicts accumulates what the probes showed, per capability and caller.
type verdicts struct {
	owner *common.Address
	sc    scene
	// seen collects each (caller, selector)'s effects before they are
	// attributed; ownerTried/ownerOK track catalogue capabilities the live
	// owner tried (all reverted → refused).
	seen       map[callerSelector][]labelledEffect
	order      []callerSelector
	ownerTried map[string]string // capability → label
	ownerOK    map[string]bool
	// fees: per (caller, selector), the highest tax measured after a call
	// went through (percent), and whether a ladder rung ran.
	fees map[callerSelector]*feeReading
	// ran: selectors some privileged caller called without a revert.
	ran map[bytecode.Selector]bool
	// releases: per (caller, selector), the reserve-release proof (see
	// release.go).
	releases map[callerSelector]*releaseTrack
	// sellBlocks: calls after which sells failed and wallet transfers
	// did not (sellblock.go).
	sellBlocks    []analysis.EVMSellBlock
	sellBlockKeys []callerSelector
}

type feeReading struct {
	max    float64
	ladder bool
}

type callerSelector struct {
	caller probeCaller
	sel    bytecode.Selector
}

type labelledEffect struct {
	effect
	label string
}

func newVerdicts(owner *common.Address, sc scene) *verdicts {
	return &verdicts{owner: owner, sc: sc, seen: map[callerSelector][]labelledEffect{},
		ownerTried: map[string]string{}, ownerOK: map[string]bool{}, fees: map[callerSelector]*feeReading{}, ran: map[bytecode.Selector]bool{},
		releases: map[callerSelector]*releaseTrack{}}
}

// observe compares one outcome with the baseline.
func (v *verdicts) observe(c probeCaller, p probeCall, base proberMeasure, o proberOutcome) {
	if !o.Complete {
		return // the probe ran out of gas or was skipped: it proves nothing either way
	}
	if p.transfer {
		v.observeTransfer(c, p, base, o)
		return
	}
	isOwner := c.role == RoleOwner
	if isOwner && p.capability != "" {
		if _, ok := v.ownerTried[p.capability]; !ok {
			v.ownerTried[p.capability] = p.label
		}
	}
	v.trackRelease(callerSelector{c, p.sel}, p, base, o)
	if !o.Ok {
		return
	}
	v.noteSellBlock(c, p, base, o.M)
	// A call with zero amounts, or one the function answered false
	// (refused, as old tokens do instead of reverting), did not put the
	// function to the test: what the code shows it can do still counts.
	if c.role != RoleAnyone && !p.inert && !answeredFalse(o.Ret) {
		v.ran[p.sel] = true
	}
	if isOwner && p.capability != "" {
		v.ownerOK[p.capability] = true
	}
	key := callerSelector{c, p.sel}
	if _, ok := v.seen[key]; !ok {
		v.order = append(v.order, key)
		v.seen[key] = nil
	}
	if tax, ok := measuredTax(base, o.M); ok {
		f := v.fees[key]
		if f == nil {
			f = &feeReading{}
			v.fees[key] = f
		}
		f.max = math.Max(f.max, tax)
		f.ladder = f.ladder || p.ladder
	}
	for _, e := range classify(p, base, o.M, c, v.sc) {
		v.seen[key] = append(v.seen[key], labelledEffect{e, p.label})
	}
}

// observeTransfer keeps what a caller's own transfer proves: tokens
// credited from nowhere (a mint hidden in transfer). Anything else it
// changes (the victim now holds a tenth of the supply: limits, fees) is
// the transfer, not a power.
func (v *verdicts) observeTransfer(c probeCaller, p probeCall, base proberMeasure, o proberOutcome) {
	if !o.Ok || answeredFalse(o.Ret) {
		return
	}
	for _, e := range classify(p, base, o.M, c, v.sc) {
		if e.capability != bytecode.CapMint {
			continue
		}
		key := callerSelector{c, p.sel}
		if _, ok := v.seen[key]; !ok {
			v.order = append(v.order, key)
		}
		e.what = "tokens credited from nowhere when the caller transfers: " + e.what
		v.seen[key] = append(v.seen[key], labelledEffect{e, p.label})
	}
}

// answeredFalse says whether a call returned exactly one word, zero: a
// function's false.
func answeredFalse(ret []byte) bool {
	return len(ret) == 32 && new(big.Int).SetBytes(ret).Sign() == 0
}

// measuredTax is the share (percent) of a test transfer or sell that did
// not arrive, the higher of the two; a transfer that worked before the
// call and fails after it reads 100.
func measuredTax(base, m proberMeasure) (float64, bool) {
	lost := func(ok0, ok1 bool, sent, got *big.Int) (float64, bool) {
		switch {
		case ok0 && !ok1:
			return 100, true
		case !ok1 || sent == nil || got == nil || sent.Sign() == 0:
			return 0, false
		}
		r, _ := new(big.Rat).SetFrac(got, sent).Float64()
		return math.Max(0, 100*(1-r)), true
	}
	w, wok := lost(base.WalletOk, m.WalletOk, m.WalletSent, m.WalletReceived)
	s, sok := lost(base.SellOk, m.SellOk, m.SellSent, m.SellReceived)
	return math.Max(w, s), wok || sok
}

// effect is one change a call caused; blocking marks transfers that
// stopped working.
type effect struct {
	capability, what string
	blocking         bool
}

// balanceDeltas compares every watched balance (and the caller's and the
// token contract's) before and after a call: the tokens credited, the
// tokens debited, and the largest debit of a third party (not the caller,
// not the token contract), with its address. Changes within tolerance
// (rounding of reflection tokens) are ignored.
func balanceDeltas(base, m proberMeasure, c probeCaller, sc scene) (credit, debit, seized *big.Int, from common.Address) {
	credit, debit, seized = new(big.Int), new(big.Int), new(big.Int)
	tol := new(big.Int)
	if base.TotalSupply != nil {
		tol.Div(base.TotalSupply, big.NewInt(10_000_000))
	}
	account := func(before, after *big.Int) *big.Int {
		if before == nil || after == nil {
			return nil
		}
		d := new(big.Int).Sub(after, before)
		if new(big.Int).Abs(d).Cmp(tol) <= 0 {
			return nil
		}
		if d.Sign() > 0 {
			credit.Add(credit, d)
		} else {
			debit.Sub(debit, d)
		}
		return d
	}
	account(base.CallerBalance, m.CallerBalance)
	account(base.TokenBalance, m.TokenBalance)
	tradedWithPool := sc.pool != (common.Address{}) && base.PoolOther != nil && m.PoolOther != nil && m.PoolOther.Cmp(base.PoolOther) > 0
	for i, a := range sc.watch {
		if a == c.addr || i >= len(base.Balances) || i >= len(m.Balances) {
			continue
		}
		d := account(base.Balances[i], m.Balances[i])
		if d == nil || d.Sign() >= 0 {
			continue
		}
		if a == sc.pool && tradedWithPool {
			continue // the pool was paid for what left it: a trade (a buy-back), not a seizure
		}
		if fall := new(big.Int).Neg(d); fall.Cmp(seized) > 0 {
			seized, from = fall, a
		}
	}
	return credit, debit, seized, from
}

// stockTaken is how many of the tokens the token contract held a stock
// call took out (nil: none beyond rounding, or a swap with the pool that
// paid for them). A drop within rounding still counts when the caller
// received it, to 1%: a function that hands the caller a fixed small
// amount of what the contract holds (one token a call) takes it all in
// as many calls.
func stockTaken(p probeCall, base, m proberMeasure, sc scene) *big.Int {
	if !p.stock || base.TokenBalance == nil || m.TokenBalance == nil || base.TokenBalance.Sign() == 0 {
		return nil
	}
	drop := new(big.Int).Sub(base.TokenBalance, m.TokenBalance)
	tol := new(big.Int)
	if base.TotalSupply != nil {
		tol.Div(base.TotalSupply, big.NewInt(10_000_000))
	}
	if drop.Sign() <= 0 || (drop.Cmp(tol) <= 0 && !callerReceived(drop, base, m)) {
		return nil
	}
	if sc.pool != (common.Address{}) && base.PoolOther != nil && m.PoolOther != nil && m.PoolOther.Cmp(base.PoolOther) < 0 {
		return nil // the pool paid out its other token: the contract sold (a swap-back), it did not give
	}
	return drop
}

// callerReceived reports whether the caller's balance rose by amount,
// less at most 1% (a transfer fee).
func callerReceived(amount *big.Int, base, m proberMeasure) bool {
	if base.CallerBalance == nil || m.CallerBalance == nil {
		return false
	}
	gain := new(big.Int).Sub(m.CallerBalance, base.CallerBalance)
	floor := new(big.Int).Mul(amount, big.NewInt(99))
	return gain.Cmp(amount) <= 0 && new(big.Int).Mul(gain, big.NewInt(100)).Cmp(floor) >= 0
}

// classify names what a call changed.
func classify(p probeCall, base, m proberMeasure, c probeCaller, sc scene) []effect {
	var out []effect
	if base.OwnerOk && m.OwnerOk && m.Owner != base.Owner && m.Owner == ProbeVictim {
		// Ownership moved to the test wallet: its transfers now run with
		// owner exemptions, so they no longer show what the call did to
		// holders. Only a caller that is not the owner learns something.
		if c.role != RoleOwner {
			out = append(out, effect{capability: bytecode.CapOwnershipReclaim, what: "owner() moved to an address the caller chose"})
		}
		return out
	}
	cmp := func(a, b *big.Int) int {
		if a == nil || b == nil {
			return 0
		}
		return a.Cmp(b)
	}
	credit, debit, seized, from := balanceDeltas(base, m, c, sc)
	if seized.Sign() == 0 {
		if b, who := burnedFrom(base, m, c, sc); b != nil {
			seized, from = b, who
		}
	}
	switch {
	case cmp(m.TotalSupply, base.TotalSupply) > 0:
		out = append(out, effect{capability: bytecode.CapMint, what: "total supply rose"})
	case credit.Cmp(debit) > 0:
		// Tokens credited that nobody watched was debited: created,
		// whatever the supply getter says (a hidden mint).
		out = append(out, effect{capability: bytecode.CapMint, what: "balances rose by " + credit.String() + " with " + debit.String() + " debited: tokens credited from nowhere"})
	}
	if seized.Sign() > 0 {
		who := "a holder"
		switch from {
		case ProbeVictim:
			who = "the test wallet"
		case sc.pool:
			who = "the pool"
		}
		out = append(out, effect{capability: bytecode.CapSeize, what: who + " lost " + seized.String() + " tokens without any allowance (" + from.Hex() + ")"})
	}
	if taken := stockTaken(p, base, m, sc); taken != nil {
		out = append(out, effect{capability: bytecode.CapSeizeStock, what: "the token contract's own holdings fell by " + taken.String() +
			" (tokens it held: fees, tokens holders sent it), and no trade with the pool paid for them"})
	}
	if base.OwnerOk && m.OwnerOk && m.Owner != base.Owner && m.Owner == c.addr && c.role != RoleOwner {
		out = append(out, effect{capability: bytecode.CapOwnershipReclaim, what: "owner() became the caller"})
	}
	hooked := p.victimArg && (base.Hits == nil || base.Hits.Sign() == 0) && m.Hits != nil && m.Hits.Sign() > 0
	if hooked {
		out = append(out, effect{capability: bytecode.CapExternalTarget, what: "transfers then called the address it was given"})
	}
	walletBlocked := base.WalletOk && !m.WalletOk
	sellBlocked := base.SellOk && !m.SellOk
	tinyBlocked := base.TinyOk && !m.TinyOk
	unblocked := (!base.WalletOk && m.WalletOk) || (!base.SellOk && m.SellOk)
	transferCaps := map[string]bool{bytecode.CapBlacklist: true, bytecode.CapWhitelist: true, bytecode.CapPause: true, bytecode.CapLimitTx: true, bytecode.CapTradingSwitch: true, bytecode.CapCooldown: true}
	// A victim whose balance was taken cannot transfer what it lost: that
	// is the seizure, not a block.
	victimEmptied := m.VictimBalance != nil && base.VictimBalance != nil && m.VictimBalance.Cmp(base.VictimBalance) < 0
	if (walletBlocked || sellBlocked) && !hooked && !victimEmptied {
		capability := p.capability
		switch {
		case capability != "":
			// A named power that blocks transfers as a side effect (a fee
			// set absurdly high) is still that power.
		case p.ladder:
			capability = bytecode.CapFeeChange
		case p.victimArg:
			capability = bytecode.CapBlacklist
		case !tinyBlocked:
			capability = bytecode.CapLimitTx
		case sellBlocked && !walletBlocked:
			capability = bytecode.CapTradingSwitch
		default:
			capability = bytecode.CapPause
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
			capability = bytecode.CapTradingSwitch
			if !base.WalletOk && m.WalletOk && p.victimArg {
				capability = bytecode.CapWhitelist
			}
		}
		out = append(out, effect{capability: capability, what: "blocked transfers then went through"})
	}
	// Balances the call itself moved make the test transfers' loss
	// meaningless (a pool credited reads as a negative tax).
	moved := false
	for _, e := range out {
		moved = moved || e.capability == bytecode.CapMint || e.capability == bytecode.CapSeize || e.capability == bytecode.CapSeizeStock
	}
	if !moved && (feeChanged(base.WalletOk && m.WalletOk, base.WalletSent, base.WalletReceived, m.WalletSent, m.WalletReceived) ||
		feeChanged(base.SellOk && m.SellOk, base.SellSent, base.SellReceived, m.SellSent, m.SellReceived)) {
		out = append(out, effect{capability: bytecode.CapFeeChange, what: "the transfer tax changed"})
	}
	return out
}

// feeChanged reports whether the share lost in transfer moved by more
// than a tenth of a percentage point.
func feeChanged(both bool, sent0, got0, sent1, got1 *big.Int) bool {
	if !both || sent0 == nil || sent1 == nil || sent0.Sign() == 0 || sent1.Sign() == 0 || got0 == nil || got1 == nil ||
		got0.Cmp(sent0) > 0 || got1.Cmp(sent1) > 0 {
		return false // more arrived than was sent: not a tax
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
		target, minted, seized := false, false, false
		for _, e := range effects {
			target = target || e.capability == bytecode.CapExternalTarget
			minted = minted || e.capability == bytecode.CapMint
			seized = seized || e.capability == bytecode.CapSeize
		}
		if minted && seized {
			// One function that both credits and debits holders at will
			// sets balances.
			effects = append(effects, labelledEffect{effect{capability: bytecode.CapBalanceChange, what: "it both credits and debits holders at will"}, effects[0].label})
		}
		for _, e := range effects {
			name := e.capability
			if target && e.blocking {
				name = bytecode.CapExternalTarget
			}
			dup := false
			for _, x := range proven[name] {
				dup = dup || x.Caller == key.caller.addr.Hex()
			}
			if dup {
				continue
			}
			c := analysis.EVMCapability{
				Name: name, Proven: new(true), Caller: key.caller.addr.Hex(), Role: key.caller.role,
				Evidence: e.label + ": " + e.what + " (as " + key.caller.role + ")",
				Selector: key.sel.String(),
			}
			v.withRelease(&c, key)
			if f := v.fees[key]; name == bytecode.CapFeeChange && f != nil && f.ladder {
				ceiling := math.Round(f.max*10) / 10
				c.Ceiling = &ceiling
			}
			proven[name] = append(proven[name], c)
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
			c.Proven = new(false)
			c.Evidence += ": reverted when called by the owner"
		}
		out = append(out, c)
	}
	return out
}
