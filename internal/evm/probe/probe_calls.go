package probe

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"

	"bytes"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// Argument-aware probe calls.
//
// Each non-standard selector is called with arguments typed by the
// bytecode's own use of them (package method) and valued to make an
// effect visible: the victim, a top holder, the pool or the caller for
// addresses; a tenth of the supply, a holder's or the pool's balance, 0,
// 1 and the maximum for numbers. Amounts only known once the victim is
// funded are placeholders the Prober fills in. A function whose arguments
// are all numbers also gets a fee ladder: values from 10000 down, tried in
// turn until one goes through, so the highest fee the caller can set is
// the one measured.

// probeCall is one candidate call and what it was meant to test.
type probeCall struct {
	sel  bytecode.Selector
	data []byte
	// label names the call in evidence: a signature or selector+pattern.
	label string
	// capability is the catalogue's name for the selector ("" unknown).
	capability string
	victimArg  bool
	// group ties the rungs of one fee ladder (0: none); ladder marks them.
	group  int
	ladder bool
	// full: only privileged callers get this call (the control caller
	// gets the first patterns only).
	full bool
	// inert: every number the call passes is zero (a zero amount), so
	// it cannot show what the function does to balances even when it
	// goes through.
	inert bool
	// stock: the call runs after the token contract was given tokens
	// (Prober Plan.stock), to show whether the caller can take what the
	// contract holds; stock calls come last.
	stock bool
	// transfer: the caller's own ERC-20 transfer to the victim
	// (transferCalls); it only ever proves a mint.
	transfer bool
	// tailored: the catalogue signature's own call (tailoredCall), which
	// turns the power on against the victim.
	tailored bool
}

// placeholderPrefix opens a call data word the Prober replaces (Prober.sol
// PLACEHOLDER): the low 4 bytes say with what.
var placeholderPrefix = crypto.Keccak256([]byte("tokenrisk.prober.placeholder"))[:28]

const (
	fillSupply      = 1
	fillSupplyTenth = 2
	fillCaller      = 3
	fillStock       = 4     // the token contract's own balance
	fillBalance     = 0x100 // + index in the watch list
)

func placeholder(code uint32) []byte {
	w := append(append([]byte(nil), placeholderPrefix...), 0, 0, 0, 0)
	w[28], w[29], w[30], w[31] = byte(code>>24), byte(code>>16), byte(code>>8), byte(code)
	return w
}

// feeLadder are the values a fee setter is tried with, highest first: they
// cover percent, per-mille and basis-point units.
var feeLadder = []int64{10000, 5000, 2500, 1000, 500, 100, 50, 25, 20, 15, 10, 5}

// scene is who the probes watch: the victim, top holders, the pool, the
// creator and the callers, in the order the Prober reports their balances.
type scene struct {
	token  common.Address
	watch  []common.Address
	holder common.Address // the third party whose tokens the probes try to take
	pool   common.Address
}

func NewScene(req ProbeRequest, callers []probeCaller) scene {
	sc := scene{token: req.Token, pool: req.Pool}
	seen := map[common.Address]bool{req.Token: true, {}: true}
	add := func(a common.Address) {
		if !seen[a] && !holder.IsBurn(a) && len(sc.watch) < 12 {
			seen[a] = true
			sc.watch = append(sc.watch, a)
		}
	}
	add(ProbeVictim)
	add(req.Pool)
	isCaller := map[common.Address]bool{}
	for _, c := range callers {
		isCaller[c.addr] = true
	}
	for _, h := range req.Holders {
		if sc.holder == (common.Address{}) && !isCaller[h] && h != req.Pool && !holder.IsBurn(h) {
			sc.holder = h
		}
		add(h)
	}
	if req.Creator != nil {
		add(*req.Creator)
	}
	for _, c := range callers {
		if c.role != RoleAnyone {
			add(c.addr)
		}
	}
	for _, d := range req.Donors {
		add(d)
	}
	if sc.holder == (common.Address{}) {
		sc.holder = ProbeVictim
	}
	return sc
}

func (sc scene) index(a common.Address) int {
	for i, w := range sc.watch {
		if w == a {
			return i
		}
	}
	return -1
}

// balanceWord is the placeholder for a's balance (a literal 1 when a is
// not watched).
func (sc scene) balanceWord(a common.Address) []byte {
	if i := sc.index(a); i >= 0 {
		return placeholder(uint32(fillBalance + i))
	}
	return numWord(1)
}

func numWord(v int64) []byte { return common.LeftPadBytes(big.NewInt(v).Bytes(), 32) }

func addressWord(a common.Address) []byte { return common.LeftPadBytes(a.Bytes(), 32) }

var maxWord = bytes.Repeat([]byte{0xff}, 32)

// argPattern values every argument of one kind.
type argPattern struct {
	name string
	// first is the first address argument, rest the others (a recipient).
	first, rest []byte
	number      []byte
	small       []byte
	flag        bool
	full        bool
	needsAddr   bool // only for functions that take an address
	numbersOnly bool // only for functions that take no address
	needsSmall  bool // only for functions that take a small number (a mode)
	zero        bool // every number is zero
}

func (sc scene) patterns() []argPattern {
	victim := addressWord(ProbeVictim)
	holder := addressWord(sc.holder)
	caller := placeholder(fillCaller)
	ps := []argPattern{
		{name: "victim, supply/10", first: victim, rest: victim, number: placeholder(fillSupplyTenth), small: numWord(100), flag: true},
		{name: "holder, holder's balance", first: holder, rest: caller, number: sc.balanceWord(sc.holder), small: numWord(100), flag: true, needsAddr: true},
		{name: "victim, 0", first: victim, rest: victim, number: numWord(0), small: numWord(0), flag: false, full: true, zero: true},
		{name: "victim, 1", first: victim, rest: victim, number: numWord(1), small: numWord(1), flag: true, full: true},
		{name: "caller, supply", first: caller, rest: caller, number: placeholder(fillSupply), small: numWord(255), flag: true, full: true, needsAddr: true},
		{name: "victim, mode 2", first: victim, rest: victim, number: numWord(2), small: numWord(2), flag: true, full: true, needsSmall: true},
		{name: "max", first: victim, rest: victim, number: maxWord, small: numWord(255), flag: true, full: true, numbersOnly: true},
	}
	if sc.pool != (common.Address{}) {
		ps = append(ps, argPattern{name: "pool, pool's balance", first: addressWord(sc.pool), rest: caller,
			number: sc.balanceWord(sc.pool), small: numWord(100), flag: true, full: true, needsAddr: true})
	}
	return ps
}

// encodeArgs lays out one call's arguments: static words in the head,
// dynamic ones as one-element arrays in the tail.
func encodeArgs(args []method.Arg, p argPattern) []byte {
	head := make([]byte, 0, 32*len(args))
	var tail []byte
	addrSeen := false
	addr := func() []byte {
		if addrSeen {
			return p.rest
		}
		addrSeen = true
		return p.first
	}
	for _, a := range args {
		switch a.Kind {
		case method.Address:
			head = append(head, addr()...)
		case method.Bool:
			if p.flag {
				head = append(head, numWord(1)...)
			} else {
				head = append(head, numWord(0)...)
			}
		case method.Small:
			head = append(head, p.small...)
		case method.Dynamic:
			head = append(head, numWord(int64(32*len(args)+len(tail)))...)
			tail = append(tail, numWord(1)...)
			if a.Elem == method.Uint {
				tail = append(tail, p.number...)
			} else {
				tail = append(tail, addr()...)
			}
		default:
			head = append(head, p.number...)
		}
	}
	return append(head, tail...)
}

// takesNumber reports whether a function takes an amount: a number, a
// small number or an array of numbers.
func takesNumber(args []method.Arg) bool {
	for _, a := range args {
		if a.Kind == method.Uint || a.Kind == method.Small || (a.Kind == method.Dynamic && a.Elem == method.Uint) {
			return true
		}
	}
	return false
}

func hasKind(args []method.Arg, k method.Kind) bool {
	for _, a := range args {
		if a.Kind == k || (a.Kind == method.Dynamic && a.Elem != method.Uint && k == method.Address) {
			return true
		}
	}
	return false
}

// buildProbeCalls turns the dispatcher's non-standard selectors into
// candidate calls: tailored arguments for catalogue signatures, then the
// argument patterns over the inferred argument types (the untyped generic
// patterns when the code could not be read). Catalogue matches come first.
func BuildProbeCalls(code bytecode.CodeReport, maxSelectors int, sc scene) []probeCall {
	var known, unknown []bytecode.Selector
	for _, s := range code.Selectors {
		if bytecode.IsStandard(s) || readOnly(code, s) {
			continue
		}
		if len(bytecode.LookupPrivileged(s)) > 0 {
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
	group := 0
	for _, s := range sels {
		capability := ""
		label := s.String()
		seen := map[string]bool{}
		add := func(c probeCall) {
			if !seen[string(c.data)] {
				seen[string(c.data)] = true
				calls = append(calls, c)
			}
		}
		for _, p := range bytecode.LookupPrivileged(s) {
			capability, label = p.Capability, p.Signature
			if data, victimArg, ok := tailoredCall(p); ok {
				add(probeCall{sel: s, data: data, label: p.Signature, capability: p.Capability, victimArg: victimArg, tailored: true})
			}
			break
		}
		m, typed := code.Methods.Lookup(s)
		if !typed || (!m.Complete && len(m.Args) == 0) {
			for i, g := range genericPatterns() {
				data := append([]byte(nil), s[:]...)
				for _, a := range g.args {
					data = append(data, a...)
				}
				add(probeCall{sel: s, data: data, label: label + " " + g.name, capability: capability, victimArg: g.victimArg, full: i > 1,
					inert: g.inert})
			}
			continue
		}
		takesAddr := hasKind(m.Args, method.Address)
		for _, p := range sc.patterns() {
			if (p.needsAddr && !takesAddr) || (p.numbersOnly && (takesAddr || len(m.Args) == 0)) || (p.needsSmall && !hasKind(m.Args, method.Small)) {
				continue
			}
			data := append(s.Bytes(), encodeArgs(m.Args, p)...)
			add(probeCall{sel: s, data: data, label: label + " " + describe(m.Args, p.name), capability: capability,
				victimArg: takesAddr, full: p.full, inert: p.zero && takesNumber(m.Args)})
		}
		if numeric(m.Args) {
			group++
			for _, v := range feeLadder {
				data := s.Bytes()
				for _, a := range m.Args {
					if a.Kind == method.Small && v > 255 {
						data = append(data, numWord(255)...)
					} else {
						data = append(data, numWord(v)...)
					}
				}
				add(probeCall{sel: s, data: data, label: label + " " + describe(m.Args, "fee ladder"), capability: capability,
					group: group, ladder: true, full: true})
			}
		}
	}
	calls = append(calls, transferCalls(code, sc)...)
	return append(calls, stockCalls(code, sels, sc)...)
}

// transferSelector is ERC-20 transfer(address,uint256).
var transferSelector = bytecode.SelectorOf("transfer(address,uint256)")

// transferCalls test for a mint hidden in transfer: each caller sends the
// victim a tenth of the supply with the token's own transfer. A caller
// that holds it is debited what the victim is credited; a transfer that
// credits the victim more than it debits the caller (or goes through
// though the caller holds less) created tokens: the caller's power when
// it is privileged, a bug anyone can use when the control caller does it
// too. Standard selectors are otherwise never candidates, so this is the
// only call that puts transfer itself to the test.
func transferCalls(code bytecode.CodeReport, sc scene) []probeCall {
	if !slices.Contains(code.Selectors, transferSelector) {
		return nil
	}
	data := append(transferSelector.Bytes(), addressWord(ProbeVictim)...)
	data = append(data, placeholder(fillSupplyTenth)...)
	return []probeCall{{sel: transferSelector, data: data, label: "transfer(address,uint256) (victim, supply/10)", victimArg: true, transfer: true}}
}

// stockCalls test whether a caller can take the tokens the token contract
// itself holds (tokens holders sent or sold to it): each function the
// code shows moving the contract's own balance, or calling an address an
// argument chooses, is called once the contract holds tokens, with the
// token's own address and the contract's balance for arguments. The
// control caller makes these calls too: a function that sends what the
// contract holds to the owner whoever calls it is a public function, not
// a hidden owner's power.
func stockCalls(code bytecode.CodeReport, sels []bytecode.Selector, sc scene) []probeCall {
	p := argPattern{name: "token, token's own balance", first: addressWord(sc.token), rest: placeholder(fillCaller),
		number: placeholder(fillStock), small: numWord(100), flag: true}
	var out []probeCall
	for _, s := range sels {
		m, ok := code.Methods.Lookup(s)
		if !ok || !m.StockOut {
			continue
		}
		label := functionName(s)
		out = append(out, probeCall{sel: s, data: append(s.Bytes(), encodeArgs(m.Args, p)...),
			label: label + " " + describe(m.Args, p.name), victimArg: hasKind(m.Args, method.Address), stock: true})
	}
	return out
}

// readOnly reports whether the code shows a selector never writes
// storage, calls out or self-destructs on any path: a getter, not worth a
// probe. A method explored incompletely is never read-only.
func readOnly(code bytecode.CodeReport, s bytecode.Selector) bool {
	m, ok := code.Methods.Lookup(s)
	return ok && m.Complete && !m.Mutates
}

// numeric reports whether a function takes one to four numbers and
// nothing else: a fee or limit setter's shape.
func numeric(args []method.Arg) bool {
	if len(args) == 0 || len(args) > 4 {
		return false
	}
	for _, a := range args {
		if a.Kind != method.Uint && a.Kind != method.Small {
			return false
		}
	}
	return true
}

func describe(args []method.Arg, pattern string) string {
	s := "("
	for i, a := range args {
		if i > 0 {
			s += ","
		}
		s += a.Kind.String()
		if a.Kind == method.Dynamic && a.Elem == method.Address {
			s = s[:len(s)-len("dynamic")] + "address[]"
		}
	}
	return s + ") " + pattern
}

// callsFor are the calls a caller makes: all of them for privileged
// callers, the first patterns only for the control caller (it shows
// whether a power is public, not what it can do).
func callsFor(calls []probeCall, role string) []probeCall {
	if role != RoleAnyone {
		return calls
	}
	var out []probeCall
	for _, c := range calls {
		if !c.full {
			out = append(out, c)
		}
	}
	return out
}

// probeCoverage counts the non-standard functions the probes call, and
// those they cannot (beyond the selector budget); read-only functions are
// in neither count.
func probeCoverage(code bytecode.CodeReport, calls []probeCall) (probed, unprobed int) {
	called := map[bytecode.Selector]bool{}
	for _, c := range calls {
		called[c.sel] = true
	}
	for _, s := range code.Selectors {
		if bytecode.IsStandard(s) || readOnly(code, s) {
			continue
		}
		if called[s] {
			probed++
		} else {
			unprobed++
		}
	}
	return probed, unprobed
}

// codePowers are the mint and seize powers the bytecode's storage writes
// show behind a caller check (package method), as code evidence, and the
// sales whose price a guarded setter decides (a two-step seizure: the
// setter zeroes the price, holders who sell then give their tokens away)
// and the issues whose rate one decides (a two-step mint: the setter
// raises the rate, the caller then buys any amount for dust).
func CodePowers(r bytecode.CodeReport) []analysis.EVMCapability {
	var out []analysis.EVMCapability
	for _, ps := range r.Methods.PricedSales {
		sale, setter := bytecode.Selector(ps.Sale), bytecode.Selector(ps.Setter)
		ev := functionName(sale) + " takes the seller's tokens and pays native coin at the price in storage slot " + ps.Slot.Dec() +
			", which " + functionName(setter) + " sets after a check of the caller: set to zero, holders who sell give their tokens away"
		if ps.Buy {
			ev = functionName(sale) + " hands out the tokens the contract holds at the price in storage slot " + ps.Slot.Dec() +
				", which " + functionName(setter) + " sets after a check of the caller: priced at almost nothing, the privileged caller takes them all"
		}
		out = append(out, analysis.EVMCapability{Name: bytecode.CapSeize, Code: true, TwoStep: true, Selector: sale.String(), Evidence: ev})
	}
	for _, pi := range r.Methods.PricedIssues {
		issue, setter := bytecode.Selector(pi.Issue), bytecode.Selector(pi.Setter)
		out = append(out, analysis.EVMCapability{Name: bytecode.CapMint, Code: true, TwoStep: true, Selector: issue.String(),
			Evidence: functionName(issue) + " creates tokens for the native coin sent at the rate in storage slot " + pi.Slot.Dec() +
				", which " + functionName(setter) + " sets after a check of the caller: raised, the caller creates any amount for dust"})
	}
	for _, m := range r.Methods.Methods {
		sel := bytecode.Selector(m.Selector)
		name := functionName(sel)
		if m.GuardedCredit {
			out = append(out, analysis.EVMCapability{Name: bytecode.CapMint, Code: true, Selector: sel.String(),
				Evidence: name + " raises a balance or the supply with no balance lowered, after a check of the caller"})
		}
		if m.GuardedDebit {
			out = append(out, analysis.EVMCapability{Name: bytecode.CapSeize, Code: true, Selector: sel.String(),
				Evidence: name + " lowers or sets a balance an argument chooses, without an allowance, after a check of the caller"})
		}
	}
	return out
}

// functionName is a selector's catalogue signature with the selector, or
// the selector alone.
func functionName(sel bytecode.Selector) string {
	for _, p := range bytecode.LookupPrivileged(sel) {
		return p.Signature + " (" + sel.String() + ")"
	}
	return sel.String()
}
