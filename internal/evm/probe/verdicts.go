package probe

import (
	"math"
	"math/big"
	"sort"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// What the probes prove: each candidate call's measurements before and
// after, turned into effects (a mint, a seizure, a fee, a limit, a
// block) per caller and capability. probe.go builds and runs the calls.

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
	// ownerRan: per catalogue capability, the selectors the owner's calls
	// went through; refuted (refute.go): how much of each refutable
	// setter's effect was measured absent, with the call's label.
	ownerRan     map[string]map[bytecode.Selector]bool
	refuted      map[bytecode.Selector]refutation
	refutedLabel map[bytecode.Selector]string
	// withWallet: selectors a privileged caller called without a revert
	// with the test wallet as an address argument.
	withWallet map[bytecode.Selector]bool
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
		releases: map[callerSelector]*releaseTrack{}, ownerRan: map[string]map[bytecode.Selector]bool{},
		refuted: map[bytecode.Selector]refutation{}, refutedLabel: map[bytecode.Selector]string{}, withWallet: map[bytecode.Selector]bool{}}
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
	if c.role != RoleAnyone && !answeredFalse(o.Ret) && namesVictim(p) {
		v.withWallet[p.sel] = true
	}
	if isOwner && p.capability != "" {
		v.ownerOK[p.capability] = true
		if v.ownerRan[p.capability] == nil {
			v.ownerRan[p.capability] = map[bytecode.Selector]bool{}
		}
		v.ownerRan[p.capability][p.sel] = true
		v.noteRefutation(p, base, o)
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
	if !o.Ok || answeredFalse(o.Ret) || wrappedBelowZero(base, o.M) {
		return // a balance that went below zero (unchecked) rose by nothing
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
		if r := v.refutedVerdict(n); r != nil {
			out = append(out, *r)
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
