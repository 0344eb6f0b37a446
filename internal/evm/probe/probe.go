package probe

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"

	"bytes"
	"errors"
	"fmt"
	"math/big"
	"slices"
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
		facts.CalledWithWallet = map[string]bool{}
		for s := range v.withWallet {
			facts.CalledWithWallet[s.String()] = true
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
