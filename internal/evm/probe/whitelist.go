package probe

import (
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// Listing a wallet (issue 18: whitelist and per-address fee). Two fresh
// wallets hold the same tokens (credited by state override); each sells
// a small amount into the pool and moves a large one (3% of the supply)
// to a third wallet. A privileged address then calls a function that
// takes an address, with the first wallet as that address, and both do
// the same again. Only the first wallet's difference counts, the second
// wallet's (unlisted) trades being unchanged:
//
//   - the listed wallet trades where neither could before: only listed
//     wallets can trade (WHITELIST_ONLY);
//   - its sell pays no tax where both paid one, or its large move goes
//     through where both were refused: listing exempts from fees or
//     limits (OWNER_CAN_WHITELIST);
//   - its sell loses more than before while the other's loss is
//     unchanged: the caller set one wallet's fee (PER_ADDRESS_FEE).
//
// Each (function, arguments, caller) is a pair of blocks of its own with
// its own wallets, an hour apart (no cooldown between the two sells).

const (
	maxListingSelectors = 6
	maxListingCallers   = 2
	listingStep         = 3600
)

// listingArgs are the values tried besides the wallet: a flag set, and
// numbers 1, then 2 / 2500 (a tier, basis points), then 25 (percent).
var listingArgs = []struct{ small, number int64 }{{1, 1}, {2, 2500}, {25, 25}}

type listingCase struct {
	caller probeCaller
	sel    bytecode.Selector
	label  string
	// before and after are the two wallets' trades either side of the call.
	before, after listingTrades
	call          ref
	// ownerBefore and ownerAfter are owner() either side of the call: a
	// call that hands the wallet ownership gives it the owner's
	// exemptions, which is no listing.
	ownerBefore, ownerAfter ref
}

type listingTrades struct {
	listed, unlisted walletTrade
}

// walletTrade is one wallet's small sell (with the pool's balance read
// either side) and large move.
type walletTrade struct {
	poolBefore, sell, poolAfter, move ref
}

type listingScript struct {
	s          script
	cases      []listingCase
	sent, move *big.Int
}

func newListingScript(req ProbeRequest, callers []probeCaller) *listingScript {
	ls := &listingScript{}
	if req.Pool == (common.Address{}) || req.Supply == nil || req.Supply.Sign() <= 0 || req.BlockTime == 0 {
		return ls
	}
	privileged := scriptCallers(callers)
	if len(privileged) > maxListingCallers {
		privileged = privileged[:maxListingCallers]
	}
	sels := listingCandidates(req.Code)
	if len(privileged) == 0 || len(sels) == 0 {
		return ls
	}
	credit := new(big.Int).Div(req.Supply, big.NewInt(10))                                   // 10% each: two large moves and the sells
	ls.sent = new(big.Int).Div(req.Supply, big.NewInt(4000))                                 // 0.025%
	ls.move = new(big.Int).Div(new(big.Int).Mul(req.Supply, big.NewInt(3)), big.NewInt(100)) // 3%
	var wallets []common.Address
	type planned struct {
		c    probeCaller
		sel  bytecode.Selector
		m    method.Method
		args struct{ small, number int64 }
	}
	var plan []planned
	for _, sel := range sels {
		m, _ := req.Code.Methods.Lookup(sel)
		seen := map[string]bool{}
		for _, a := range listingArgs {
			data := string(listingInput(sel, m.Args, common.Address{}, a.small, a.number))
			if seen[data] {
				continue
			}
			seen[data] = true
			for _, c := range privileged {
				plan = append(plan, planned{c: c, sel: sel, m: m, args: a})
			}
		}
	}
	for i := range plan {
		wallets = append(wallets, scriptWallet("listed", i), scriptWallet("unlisted", i))
	}
	ov := creditOverride(req, wallets, credit)
	if ov == nil {
		return ls
	}
	at := req.BlockTime
	for i, p := range plan {
		listed, unlisted := scriptWallet("listed", i), scriptWallet("unlisted", i)
		lc := listingCase{caller: p.c, sel: p.sel, label: functionName(p.sel) + " " + describe(p.m.Args, "wallet")}
		at += listingStep
		if i == 0 {
			ls.s.block(at, ov)
		} else {
			ls.s.block(at, nil)
		}
		lc.before.listed = ls.trade(req, listed, scriptWallet("sink", 4*i))
		lc.before.unlisted = ls.trade(req, unlisted, scriptWallet("sink", 4*i+1))
		at += listingStep
		ls.s.block(at, nil)
		lc.ownerBefore = ls.s.call(p.c.addr, req.Token, bytecode.SelOwner.Bytes())
		lc.call = ls.s.call(p.c.addr, req.Token, listingInput(p.sel, p.m.Args, listed, p.args.small, p.args.number))
		lc.ownerAfter = ls.s.call(p.c.addr, req.Token, bytecode.SelOwner.Bytes())
		lc.after.listed = ls.trade(req, listed, scriptWallet("sink", 4*i+2))
		lc.after.unlisted = ls.trade(req, unlisted, scriptWallet("sink", 4*i+3))
		ls.cases = append(ls.cases, lc)
	}
	return ls
}

// trade adds a wallet's small sell and large move.
func (ls *listingScript) trade(req ProbeRequest, w, sink common.Address) walletTrade {
	var t walletTrade
	t.poolBefore = ls.s.call(w, req.Token, balanceOfInput(req.Pool))
	t.sell = ls.s.call(w, req.Token, transferInput(req.Pool, ls.sent))
	t.poolAfter = ls.s.call(w, req.Token, balanceOfInput(req.Pool))
	t.move = ls.s.call(w, req.Token, transferInput(sink, ls.move))
	return t
}

// listingCandidates are the non-standard functions that write state and
// take an address (or an address array) with at most flags and numbers
// beside it.
func listingCandidates(code bytecode.CodeReport) []bytecode.Selector {
	var out []bytecode.Selector
	for _, s := range code.Selectors {
		if bytecode.IsStandard(s) || readOnly(code, s) {
			continue
		}
		m, typed := code.Methods.Lookup(s)
		if !typed || len(m.Args) == 0 || len(m.Args) > 3 {
			continue
		}
		addrs := 0
		for _, a := range m.Args {
			switch {
			case a.Kind == method.Address, a.Kind == method.Dynamic && a.Elem == method.Address:
				addrs++
			case a.Kind == method.Dynamic:
				addrs = 99
			}
		}
		if addrs == 1 && len(out) < maxListingSelectors {
			out = append(out, s)
		}
	}
	return out
}

// listingInput is the call: the wallet for the address, true for flags,
// small and number for the numbers.
func listingInput(sel bytecode.Selector, args []method.Arg, w common.Address, small, number int64) []byte {
	p := argPattern{first: addressWord(w), rest: addressWord(w), number: numWord(number), small: numWord(small), flag: true}
	return append(sel.Bytes(), encodeArgs(args, p)...)
}

func (ls *listingScript) elems() []rpc.BatchElem {
	if len(ls.cases) == 0 {
		return nil
	}
	return []rpc.BatchElem{ls.s.elem()}
}

// tradeReading is what one wallet's trades showed.
type tradeReading struct {
	sold  bool
	tax   float64 // percent, when sold and measured
	taxed bool    // tax measured
	moved bool
}

func (ls *listingScript) read(t walletTrade) tradeReading {
	r := tradeReading{sold: ls.s.ok(t.sell), moved: ls.s.ok(t.move)}
	b0, b1 := ls.s.word(t.poolBefore), ls.s.word(t.poolAfter)
	if r.sold && b0 != nil && b1 != nil && b1.Cmp(b0) >= 0 && ls.sent.Sign() > 0 {
		got := new(big.Int).Sub(b1, b0)
		if got.Cmp(ls.sent) <= 0 {
			f, _ := new(big.Rat).SetFrac(got, ls.sent).Float64()
			r.tax, r.taxed = math.Max(0, 100*(1-f)), true
		}
	}
	return r
}

// decode returns the strongest listing proof and the per-address fee
// proof; both nil when the script did not run, Listed / Proven false
// when it ran and showed nothing.
func (ls *listingScript) decode(elems []rpc.BatchElem) (*analysis.EVMWhitelistProbe, *analysis.EVMPerAddressFeeProbe) {
	if len(ls.cases) == 0 || len(elems) != 1 || !ls.s.answered(elems[0]) {
		return nil, nil
	}
	wl := &analysis.EVMWhitelistProbe{}
	fee := &analysis.EVMPerAddressFeeProbe{}
	rank := 0
	for _, c := range ls.cases {
		if !ls.s.ok(c.call) {
			continue
		}
		if o0, ok0 := ls.s.ownerOf(c.ownerBefore); ok0 {
			if o1, ok1 := ls.s.ownerOf(c.ownerAfter); !ok1 || o1 != o0 {
				continue
			}
		}
		lb, ub := ls.read(c.before.listed), ls.read(c.before.unlisted)
		la, ua := ls.read(c.after.listed), ls.read(c.after.unlisted)
		// The unlisted wallet's trades must be unchanged: otherwise the
		// call changed everyone's terms, not one wallet's.
		if ub.sold != ua.sold || ub.moved != ua.moved || ub.taxed != ua.taxed || (ub.taxed && math.Abs(ua.tax-ub.tax) > 0.2) {
			continue
		}
		if lb.sold != ub.sold || lb.moved != ub.moved {
			continue // the two wallets differed before the call: no fair comparison
		}
		caller := c.caller.addr.Hex() + " (" + c.caller.role + ")"
		switch {
		case !lb.sold && !ub.sold && la.sold && !ua.sold:
			if rank < 3 {
				rank = 3
				*wl = analysis.EVMWhitelistProbe{Function: c.label, Caller: caller, Listed: true, OnlyListed: true}
			}
		case lb.sold && la.sold && lb.taxed && la.taxed && ub.taxed:
			switch {
			case lb.tax >= 0.5 && la.tax <= 0.1 && rank < 2:
				rank = 2
				*wl = analysis.EVMWhitelistProbe{Function: c.label, Caller: caller, Listed: true, Exempt: []string{"fee"}}
			case la.tax >= lb.tax+1 && !fee.Proven:
				before, after := round1(lb.tax), round1(la.tax)
				*fee = analysis.EVMPerAddressFeeProbe{Function: c.label, Caller: caller, Proven: true, TaxBefore: &before, TaxAfter: &after}
			}
		}
		if !lb.moved && !ub.moved && la.moved && !ua.moved && rank < 1 {
			rank = 1
			*wl = analysis.EVMWhitelistProbe{Function: c.label, Caller: caller, Listed: true, Exempt: []string{"limit"}}
		}
	}
	return wl, fee
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
