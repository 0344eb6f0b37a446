// Package method infers, from runtime bytecode alone, what each of a
// contract's dispatcher entries does: the types of its arguments, whether
// it can write the balance mapping or the total supply, and whether such a
// write is reachable only after a check of msg.sender against stored state.
//
// It runs each selector's path from the first instruction on a small
// symbolic stack (the way EVMole and WhatsABI recover argument types), with
// the call data's selector concrete and its arguments symbolic, forking at
// every branch it cannot decide, within fixed step and path budgets. How an
// argument is first used types it: masked to 160 bits → address, tested
// with ISZERO twice → bool, used as a call data offset → dynamic. Storage
// writes keyed by keccak256(key . slot) of a slot balanceOf reads, or to a
// slot totalSupply reads, are the balance and supply writes (the storage
// rules of CRPWarner's rug-pull detector, rebuilt over our own interpreter).
// Nothing here is proof: the probes use it to choose arguments, and a power
// it finds that no probe showed is reported as code evidence.
package method

import (
	"slices"
	"sort"

	"github.com/holiman/uint256"
)

// Kind is an argument's inferred type.
type Kind uint8

// Argument kinds.
const (
	Uint    Kind = iota // a number (or unknown use)
	Address             // masked to 160 bits
	Bool                // tested as a boolean
	Small               // masked to 8 bits (uint8, a percentage, a flag)
	Dynamic             // an offset into call data: an array or bytes
)

func (k Kind) String() string {
	switch k {
	case Address:
		return "address"
	case Bool:
		return "bool"
	case Small:
		return "uint8"
	case Dynamic:
		return "dynamic"
	default:
		return "uint256"
	}
}

// Arg is one inferred argument.
type Arg struct {
	Kind Kind
	// Elem is the element kind of a Dynamic argument whose elements are
	// read from call data (Address when they are masked to 160 bits).
	Elem Kind
}

// Method is what the bytecode says about one selector.
type Method struct {
	Selector [4]byte
	// Args are the arguments the code reads, in call data order; an
	// argument never read is Uint.
	Args []Arg
	// Complete is false when the exploration hit its budget: what was not
	// explored is unknown.
	Complete bool
	// Reaches is true when some path ends in success (not every path
	// reverts whatever the arguments).
	Reaches bool
	// Credit: a successful path raises a balance (or the supply) with no
	// balance lowered on it: tokens created. Debit: a successful path
	// lowers or sets a balance whose key an argument decides (another
	// holder's), with no allowance read on it. Guarded* say the same
	// happens only after an access check on msg.sender.
	Credit, Debit               bool
	GuardedCredit, GuardedDebit bool
	// Guarded: some successful path passed an access check; Open: some
	// successful path passed none. GuardSlots are the fixed storage slots
	// the checks compared msg.sender with; GuardOther says some check
	// compared it with something else (a role mapping, an address in the
	// code), so the slots alone do not decide who passes.
	Guarded, Open bool
	GuardSlots    []uint256.Int
	GuardOther    bool
	// Writes are the fixed storage slots successful paths write; MapWrites
	// says some successful path writes a mapping entry (a computed key);
	// Calls that some successful path calls out.
	Writes    []uint256.Int
	MapWrites bool
	Calls     bool
	// Mutates: some successful path writes storage, calls another
	// contract or self-destructs; a complete method that does not is a
	// read-only function, whatever its name.
	Mutates bool
	// SaleSlots: a successful path lowers the caller's own balance and
	// pays the caller native coin in an amount read from these storage
	// slots (a price): the caller sells tokens to the contract at a
	// stored price.
	SaleSlots []uint256.Int
	// BuySlots: a successful path moves tokens from the contract's own
	// balance to the caller's in an amount read from these storage slots
	// (a price or rate): the contract sells what it holds at a stored
	// price.
	BuySlots []uint256.Int
	// SetSlots: fixed storage slots a successful path writes, after a
	// check of the caller, with a value an argument decides (a
	// privileged setter).
	SetSlots []uint256.Int
	// IssueSlots: a successful path raises the caller's own balance, with
	// no balance lowered, by an amount computed from the native coin sent
	// and these storage slots (a rate): the caller buys newly created
	// tokens at a stored rate.
	IssueSlots []uint256.Int
	// StockOut: a successful path lowers the contract's own balance
	// (tokens it holds) or calls an address an argument chooses (a token
	// to withdraw, the contract's own among them): a candidate for taking
	// what the contract holds.
	StockOut bool
}

// PricedIssue pairs an issue (a function that creates tokens for the
// native coin sent, at a stored rate) with a function that sets that rate
// after a check of the caller: whoever passes the check can raise the
// rate and then create any amount for dust.
type PricedIssue struct {
	Issue, Setter [4]byte
	Slot          uint256.Int
}

// PricedSale pairs a sale (a function that takes the caller's tokens and
// pays native coin at a stored price) with a function that sets that
// price after a check of the caller: whoever passes the check can set
// the price to zero, and holders who sell then hand their tokens over for
// nothing.
//
// Buy marks the other direction: the contract sells the tokens it holds
// (tokens holders sold or sent to it) at the stored price, so whoever sets
// the price can take them for almost nothing.
type PricedSale struct {
	Sale, Setter [4]byte
	Slot         uint256.Int
	Buy          bool
}

// Report is the static analysis of one contract's functions.
type Report struct {
	Methods []Method
	// BalanceSlots are the mapping slots balanceOf reads, SupplySlots the
	// slots totalSupply reads (empty when those functions were not found).
	BalanceSlots []uint256.Int
	SupplySlots  []uint256.Int
	// PricedSales are the sales whose price a guarded setter decides.
	PricedSales []PricedSale
	// PricedIssues are the issues whose rate a guarded setter decides.
	PricedIssues []PricedIssue
	// TransferReads are the fixed storage slots transfer and transferFrom
	// read on the paths explored; TransferRead says both were found and
	// explored completely (else what they read is unknown).
	TransferReads []uint256.Int
	TransferRead  bool
	// TransferCalls are the contracts transfer and transferFrom call on
	// the paths explored whose address is fixed: loaded from a fixed
	// storage slot, or written in the code (an immutable).
	TransferCalls []TransferCall
}

// TransferCall is one contract a transfer calls. Exactly one of Slot
// (the fixed storage slot its address is loaded from) and Code (the
// address, written in the code) is set.
type TransferCall struct {
	Slot *uint256.Int
	Code *uint256.Int
	// Delegate marks a DELEGATECALL (the callee's code runs as the
	// token's), Static a STATICCALL (a read).
	Delegate, Static bool
}

// ReadByTransfers reports whether a transfer may read slot: true when
// what transfers read is unknown.
func (r Report) ReadByTransfers(slot uint256.Int) bool {
	if !r.TransferRead {
		return true
	}
	for _, s := range r.TransferReads {
		if s.Eq(&slot) {
			return true
		}
	}
	return false
}

// Lookup returns the method of a selector.
func (r Report) Lookup(sel [4]byte) (Method, bool) {
	for _, m := range r.Methods {
		if m.Selector == sel {
			return m, true
		}
	}
	return Method{}, false
}

var (
	selBalanceOf   = [4]byte{0x70, 0xa0, 0x82, 0x31}
	selTotalSupply = [4]byte{0x18, 0x16, 0x0d, 0xdd}
	mask160        = func() *uint256.Int {
		m := new(uint256.Int).Lsh(uint256.NewInt(1), 160)
		return m.Sub(m, uint256.NewInt(1))
	}()
	shift96 = new(uint256.Int).Lsh(uint256.NewInt(1), 96)
)

// Analyse explores every given selector. It is pure, bounded and never
// panics on any input.
func Analyse(code []byte, selectors [][4]byte) Report {
	var r Report
	if len(code) == 0 {
		return r
	}
	pr := newProgram(code)
	r.BalanceSlots = readSlots(pr, selBalanceOf, true)
	r.SupplySlots = readSlots(pr, selTotalSupply, false)
	r.TransferReads, r.TransferRead, r.TransferCalls = transferReads(pr)
	pr.balance = map[uint256.Int]bool{}
	for _, b := range r.BalanceSlots {
		pr.balance[b] = true
	}
	left := contractSteps
	for _, sel := range selectors {
		if left <= 0 {
			r.Methods = append(r.Methods, Method{Selector: sel})
			continue
		}
		lim := defaultLimits
		lim.steps = min(lim.steps, left)
		m, used := analyseOne(pr, sel, lim, r.BalanceSlots, r.SupplySlots)
		left -= used
		r.Methods = append(r.Methods, m)
	}
	// Functions that revert on every path without coin (payable only) are
	// explored again with some coin sent, for the tokens they issue or
	// sell from the contract's holdings; the rest of what is known of them
	// stays as read without coin.
	pr.coin = true
	for i := range r.Methods {
		m := &r.Methods[i]
		if left <= 0 || !m.Complete || m.Reaches {
			continue
		}
		lim := defaultLimits
		lim.steps = min(lim.steps, left)
		paid, used := analyseOne(pr, m.Selector, lim, r.BalanceSlots, r.SupplySlots)
		left -= used
		m.IssueSlots, m.BuySlots = paid.IssueSlots, paid.BuySlots
	}
	pr.coin = false
	r.PricedSales = pricedSales(r.Methods)
	r.PricedIssues = pricedIssues(r.Methods)
	return r
}

// pricedSales pairs each sale's price slots with the guarded setters that
// write them (a setter is never the sale itself).
func pricedSales(methods []Method) []PricedSale {
	var out []PricedSale
	pair := func(sale Method, slots []uint256.Int, buy bool) {
		for _, slot := range slots {
			for _, set := range methods {
				if set.Selector == sale.Selector || !set.GuardedSet(slot) {
					continue
				}
				out = append(out, PricedSale{Sale: sale.Selector, Setter: set.Selector, Slot: slot, Buy: buy})
				return
			}
		}
	}
	for _, sale := range methods {
		pair(sale, sale.SaleSlots, false)
		pair(sale, sale.BuySlots, true)
	}
	return out
}

// pricedIssues pairs each issue's rate slots with the guarded setters
// that write them (a setter is never the issue itself).
func pricedIssues(methods []Method) []PricedIssue {
	var out []PricedIssue
	for _, issue := range methods {
		for _, slot := range issue.IssueSlots {
			for _, set := range methods {
				if set.Selector == issue.Selector || !set.GuardedSet(slot) {
					continue
				}
				out = append(out, PricedIssue{Issue: issue.Selector, Setter: set.Selector, Slot: slot})
				break
			}
		}
	}
	return out
}

// GuardedSet reports whether the method writes slot, after a check of the
// caller, with a value an argument decides.
func (m Method) GuardedSet(slot uint256.Int) bool {
	for _, s := range m.SetSlots {
		if s.Eq(&slot) {
			return true
		}
	}
	return false
}

// slotReader collects the storage keys a getter reads.
type slotReader struct {
	mapping bool
	slots   map[uint256.Int]bool
}

func (s *slotReader) op(byte, []*value, *value) {}
func (s *slotReader) end(*path, ending)         {}
func (s *slotReader) sload(key *value) {
	if s.mapping {
		if k, slot, ok := key.mappingKey(); ok && k.argMask&1 != 0 {
			s.slots[*slot] = true
		}
		return
	}
	if key.isConst() {
		s.slots[*key.c] = true
	}
}

var (
	selTransfer     = [4]byte{0xa9, 0x05, 0x9c, 0xbb}
	selTransferFrom = [4]byte{0x23, 0xb8, 0x72, 0xdd}
)

// transferReads collects the fixed slots transfer and transferFrom read
// and the fixed contracts they call; complete is false when either was
// not explored within its limits or has no successful path that writes
// storage (not found: the fallback ran).
func transferReads(pr *program) (slots []uint256.Int, complete bool, calls []TransferCall) {
	complete = true
	seen := map[uint256.Int]bool{}
	for _, sel := range [][4]byte{selTransfer, selTransferFrom} {
		s := &transferReader{slotReader: slotReader{slots: seen}}
		done, _ := pr.explore(sel, limits{steps: 40_000, paths: 400, loopTurns: 2, stack: 1024}, s)
		complete = complete && done && s.wrote
		for _, c := range s.calls {
			if !slices.ContainsFunc(calls, c.same) {
				calls = append(calls, c)
			}
		}
	}
	for k := range seen {
		slots = append(slots, k)
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i].Lt(&slots[j]) })
	return slots, complete, calls
}

func (c TransferCall) same(d TransferCall) bool {
	return c.Delegate == d.Delegate && c.Static == d.Static && sameWord(c.Slot, d.Slot) && sameWord(c.Code, d.Code)
}

func sameWord(a, b *uint256.Int) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Eq(b)
}

// transferReader is a slotReader that also notes a successful path
// writing storage and the fixed contracts the paths call.
type transferReader struct {
	slotReader
	wrote bool
	calls []TransferCall
}

func (t *transferReader) end(p *path, how ending) {
	t.wrote = t.wrote || how == endStop && len(p.writes) > 0
}

// op notes a call whose target is a fixed slot's address or an address
// written in the code (never the token itself or a precompile).
func (t *transferReader) op(op byte, args []*value, _ *value) {
	if op != opCall && op != opStaticcall && op != opDelegatecall && op != 0xf2 || len(args) < 2 {
		return
	}
	c := TransferCall{Delegate: op == opDelegatecall || op == 0xf2, Static: op == opStaticcall}
	to := args[1]
	switch {
	case to.isSelf(4):
		return
	case to.isConst():
		if to.c.BitLen() <= 16 || to.c.BitLen() > 160 {
			return // a precompile, or no address
		}
		c.Code = new(uint256.Int).Set(to.c)
	default:
		loads := to.plainLoads(6)
		if len(loads) != 1 {
			return
		}
		c.Slot = &loads[0]
	}
	t.calls = append(t.calls, c)
}

func readSlots(pr *program, sel [4]byte, mapping bool) []uint256.Int {
	s := &slotReader{mapping: mapping, slots: map[uint256.Int]bool{}}
	pr.explore(sel, limits{steps: 10_000, paths: 32, loopTurns: 2, stack: 1024}, s)
	out := make([]uint256.Int, 0, len(s.slots))
	for k := range s.slots {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Lt(&out[j]) })
	return out
}

// methodObserver types arguments and judges each path's writes.
type methodObserver struct {
	m             *Method
	typed         map[int]Kind
	elem          map[int]Kind
	maxArg        int
	balance       map[uint256.Int]bool
	supply        map[uint256.Int]bool
	allowanceRead bool // on the current path (reset per path end)
}

func (o *methodObserver) note(k int, kind Kind) {
	if _, ok := o.typed[k]; !ok {
		o.typed[k] = kind
	}
}

func (o *methodObserver) op(op byte, args []*value, res *value) {
	for _, a := range args {
		if k, ok := a.isArg(); ok && k > o.maxArg {
			o.maxArg = k
		}
	}
	if k, ok := res.isArg(); ok && k > o.maxArg {
		o.maxArg = k
	}
	switch op {
	case opAnd:
		for i, a := range args {
			other := args[1-i]
			if !other.isConst() {
				continue
			}
			kind := Uint
			switch {
			case other.c.Eq(mask160):
				kind = Address
			case other.c.Eq(uint256.NewInt(0xff)):
				kind = Small
			default:
				continue
			}
			if k, ok := a.isArg(); ok {
				o.note(k, kind)
			} else if a.op == opCalldataload && a.elemOf >= 0 && kind == Address {
				if _, ok := o.elem[a.elemOf]; !ok {
					o.elem[a.elemOf] = Address
				}
			}
		}
	case opDiv:
		// solc before 0.4 cleans an address it packs into storage by
		// shifting it up 96 bits and back down: x * 2**96 / 2**96.
		num, den := args[0], args[1]
		if den.isConst() && den.c.Eq(shift96) && num.op == opMul && len(num.args) == 2 {
			for i, a := range num.args {
				if k, ok := a.isArg(); ok && num.args[1-i].isConst() && num.args[1-i].c.Eq(shift96) {
					o.note(k, Address)
				}
			}
		}
	case opShr:
		// Vyper checks an address by its bits above 160 being zero.
		if args[0].isConst() && args[0].c.Eq(uint256.NewInt(160)) {
			if k, ok := args[1].isArg(); ok {
				o.note(k, Address)
			}
		}
	case opIszero:
		if args[0].op == opIszero && len(args[0].args) == 1 {
			if k, ok := args[0].args[0].isArg(); ok {
				o.note(k, Bool)
			}
		}
	case opCalldataload:
		if res.elemOf >= 0 {
			o.note(res.elemOf, Dynamic)
		}
	case opLT, opGT:
		// Vyper's bool check: x < 2.
		if k, ok := args[0].isArg(); ok && args[1].isConst() && args[1].c.Eq(uint256.NewInt(2)) && op == opLT {
			o.note(k, Bool)
		}
	}
}

func (o *methodObserver) sload(key *value) {
	// An allowance: mapping(owner => mapping(spender => amount)) read with
	// an argument and msg.sender among its keys.
	if outer, inner, ok := nestedKeys(key); ok && (inner.argMask != 0 || outer.argMask != 0) &&
		(inner.taint&taintCaller != 0 || outer.taint&taintCaller != 0) {
		o.allowanceRead = true
	}
}

// nestedKeys splits keccak(k2 . keccak(k1 . slot)) into k2 and k1.
func nestedKeys(key *value) (outer, inner *value, ok bool) {
	if key == nil || key.op != opKeccak || len(key.args) != 2 {
		return nil, nil, false
	}
	for i := range 2 {
		if in, _, ok := key.args[i].mappingKey(); ok {
			return key.args[1-i], in, true
		}
	}
	return nil, nil, false
}

func (o *methodObserver) end(p *path, how ending) {
	allowance := o.allowanceRead
	o.allowanceRead = false
	if how != endStop {
		return
	}
	o.m.Reaches = true
	o.m.Mutates = o.m.Mutates || p.mutates
	if p.guarded {
		o.m.Guarded = true
		for _, sl := range p.guard.slots {
			o.m.GuardSlots = addSlot(o.m.GuardSlots, sl)
		}
		o.m.GuardOther = o.m.GuardOther || p.guard.other
	} else {
		o.m.Open = true
	}
	for _, w := range p.writes {
		if w.key.isConst() {
			o.m.Writes = addSlot(o.m.Writes, *w.key.c)
		} else {
			o.m.MapWrites = true
		}
	}
	o.m.Calls = o.m.Calls || len(p.calls) > 0
	stash := o.ownStash(p)
	credit, debit, debitOther := false, false, false
	guardCredit, guardDebit := false, false
	for _, w := range p.writes {
		dir, other := o.balanceWrite(w)
		switch dir {
		case 1:
			if stash && !other {
				continue // the caller's own tokens moved back from a stash of its own
			}
			credit = true
			guardCredit = guardCredit || w.guarded
		case -1, 2:
			if dir == -1 {
				debit = true
			}
			if other {
				debitOther = true
				guardDebit = guardDebit || w.guarded
			}
			if dir == 2 {
				// A balance set to a chosen value creates tokens too.
				credit = true
				guardCredit = guardCredit || w.guarded
			}
		}
	}
	o.sale(p)
	o.issue(p)
	o.stockOut(p)
	for _, w := range p.writes {
		if w.guarded && w.key.isConst() && w.val.argMask != 0 {
			o.m.SetSlots = addSlot(o.m.SetSlots, *w.key.c)
		}
	}
	if credit && !debit {
		o.m.Credit = true
		o.m.GuardedCredit = o.m.GuardedCredit || guardCredit
	}
	if debitOther && !allowance {
		o.m.Debit = true
		o.m.GuardedDebit = o.m.GuardedDebit || guardDebit
	}
}

// ownStash reports whether a path lowers an entry of a mapping keyed by
// msg.sender alone that is no balance (a frozen, staked or locked amount
// of the caller's own): a credit of the caller's own balance on it moves
// the caller's tokens back, it creates none.
func (o *methodObserver) ownStash(p *path) bool {
	for _, w := range p.writes {
		k, slot, ok := w.key.mappingKey()
		if !ok || o.balance[*slot] || !k.onlyCaller() {
			continue
		}
		if w.val.op == opSub && w.val.refersTo(w.key, 4) || w.val.isConst() && w.val.c.IsZero() {
			return true
		}
	}
	return false
}

// stockOut records a path that lowers the contract's own balance or calls
// an address an argument chooses (with or without a check of the caller:
// some send what the contract holds to the owner whoever asks).
func (o *methodObserver) stockOut(p *path) {
	for _, w := range p.writes {
		if k, slot, ok := w.key.mappingKey(); ok && o.balance[*slot] && k.isSelf(3) && w.val.op == opSub && w.val.refersTo(w.key, 4) {
			o.m.StockOut = true
		}
	}
	for _, c := range p.calls {
		if c.to != nil && c.to.argMask != 0 {
			o.m.StockOut = true
		}
	}
}

// sale records the price slots of a successful path that lowers the
// caller's own balance and sends the caller native coin whose amount
// reads fixed storage slots.
func (o *methodObserver) sale(p *path) {
	selfDebit, stockOut := false, false
	var bought *value
	for _, w := range p.writes {
		k, slot, ok := w.key.mappingKey()
		if !ok || !o.balance[*slot] || !w.val.refersTo(w.key, 4) {
			continue
		}
		switch {
		case k.onlyCaller() && w.val.op == opSub:
			selfDebit = true
		case k.onlyCaller() && w.val.op == opAdd:
			bought = w.val
		case k.isSelf(3) && w.val.op == opSub:
			stockOut = true
		}
	}
	if stockOut && bought != nil {
		for _, s := range bought.plainLoads(6) {
			if !o.balance[s] && !o.supply[s] {
				o.m.BuySlots = addSlot(o.m.BuySlots, s)
			}
		}
	}
	if !selfDebit {
		return
	}
	for _, c := range p.calls {
		if c.to == nil || c.to.taint&taintCaller == 0 || c.value == nil || c.value.isConst() {
			continue
		}
		for _, s := range c.value.plainLoads(6) {
			if !o.balance[s] && !o.supply[s] {
				o.m.SaleSlots = addSlot(o.m.SaleSlots, s)
			}
		}
	}
}

// issue records the rate slots of a path that creates tokens for the
// native coin sent: it raises the caller's own balance by an amount that
// depends on msg.value and on plain storage slots, and lowers no balance
// (tokens from a reserve are a sale, not an issue).
func (o *methodObserver) issue(p *path) {
	var slots []uint256.Int
	for _, w := range p.writes {
		k, slot, ok := w.key.mappingKey()
		if !ok || !o.balance[*slot] {
			continue
		}
		if w.val.op != opAdd || !w.val.refersTo(w.key, 4) {
			return // a balance lowered or set: not a plain issue
		}
		if !k.onlyCaller() || w.val.taint&taintValue == 0 {
			continue
		}
		for _, s := range w.val.plainLoads(8) {
			if !o.balance[s] && !o.supply[s] {
				slots = append(slots, s)
			}
		}
	}
	for _, s := range slots {
		o.m.IssueSlots = addSlot(o.m.IssueSlots, s)
	}
}

func addSlot(slots []uint256.Int, s uint256.Int) []uint256.Int {
	for _, x := range slots {
		if x.Eq(&s) {
			return slots
		}
	}
	return append(slots, s)
}

// balanceWrite classifies a write: 1 raises a balance or the supply, -1
// lowers a balance, 2 sets a balance to a chosen value, 0 is something
// else; other is true when an argument (not msg.sender) picks the key.
func (o *methodObserver) balanceWrite(w write) (int, bool) {
	if w.val.taint&taintValue != 0 {
		return 0, false // bought with the coin sent: an issue (see issue), not a power
	}
	if w.key.isConst() && o.supply[*w.key.c] {
		if w.val.op == opAdd && w.val.refersTo(w.key, 4) {
			return 1, false
		}
		return 0, false
	}
	k, slot, ok := w.key.mappingKey()
	if !ok || !o.balance[*slot] {
		return 0, false
	}
	other := k.argMask != 0 && !k.onlyCaller()
	self := w.val.refersTo(w.key, 4)
	switch {
	case self && w.val.op == opAdd:
		return 1, other
	case self && w.val.op == opSub:
		return -1, other
	case self:
		return 0, other
	case w.val.isConst() || w.val.argMask != 0:
		// Set to a constant (zeroed) or to an amount the caller chose; a
		// value recomputed from storage alone (a reflection exclusion)
		// is bookkeeping.
		return 2, other
	}
	return 0, other
}

func analyseOne(pr *program, sel [4]byte, lim limits, balance, supply []uint256.Int) (Method, int) {
	m := Method{Selector: sel}
	o := &methodObserver{m: &m, typed: map[int]Kind{}, elem: map[int]Kind{}, maxArg: -1,
		balance: map[uint256.Int]bool{}, supply: map[uint256.Int]bool{}}
	for _, s := range balance {
		o.balance[s] = true
	}
	for _, s := range supply {
		o.supply[s] = true
	}
	complete, used := pr.explore(sel, lim, o)
	m.Complete = complete
	// Arguments: every word up to the last one read; a dynamic argument's
	// data words beyond the head are not arguments.
	n := o.maxArg + 1
	for k := range o.typed {
		n = max(n, k+1)
	}
	for k := 0; k < n && k < 10; k++ {
		a := Arg{Kind: o.typed[k]}
		if a.Kind == Dynamic {
			a.Elem = o.elem[k]
		}
		m.Args = append(m.Args, a)
	}
	return m, used
}
