package corpus

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// Slot is a storage word and the byte offset a value sits at in it
// (packed variables share a word).
type Slot struct {
	Key   common.Hash
	Shift uint // bytes from the low end
}

// place returns word with v written at the slot's offset (the rest kept).
func (sl Slot) place(word common.Hash, v *big.Int, width uint) common.Hash {
	w := new(big.Int).SetBytes(word.Bytes())
	mask := new(big.Int).Lsh(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 8*width), big.NewInt(1)), 8*sl.Shift)
	w.AndNot(w, mask)
	w.Or(w, new(big.Int).Lsh(v, 8*sl.Shift))
	return common.BigToHash(w)
}

// Mapping is a balance mapping: its slot, its hashing order and, when its
// values are structs, the balance's word within the entry.
type Mapping struct {
	Slot      common.Hash
	SlotFirst bool   // Vyper: keccak256(slot . key)
	Field     uint64 // words after the entry's first
	// History says the entry is a checkpoint history (a dynamic array
	// of (block, value) pairs, the value read from the last one), not
	// the balance itself.
	History bool
}

// History is a value kept as a checkpoint history (MiniMe's balances and
// supply): a dynamic array whose length is at its base key and whose
// entries, from keccak256(base), each pack the block it took effect in
// (low 128 bits) with the value (high 128 bits); a getter answers the
// last entry's value.
type History struct {
	Base common.Hash
}

// entries is where a history's first entry sits.
func (h History) entries() common.Hash { return crypto.Keccak256Hash(h.Base.Bytes()) }

// write makes v the history's only entry, in effect since block 0.
func (h History) write(sb *sandbox, v *big.Int) {
	sb.set(h.Base, common.BigToHash(big.NewInt(1)))
	sb.set(h.entries(), common.BigToHash(new(big.Int).Lsh(v, 128)))
}

// clear empties the history.
func (h History) clear(sb *sandbox) {
	sb.set(h.Base, common.Hash{})
	sb.set(h.entries(), common.Hash{})
}

// writeBalance seeds a's balance through the mapping found.
func (m Mapping) writeBalance(sb *sandbox, a common.Address, v *big.Int) {
	if m.History {
		History{m.Key(a)}.write(sb, v)
		return
	}
	sb.set(m.Key(a), common.BigToHash(v))
}

// historyAnswers tries h with marker as its value and reports whether
// get then answers marker; the history is cleared either way.
func historyAnswers(sb *sandbox, h History, marker *big.Int, get func() (*big.Int, error)) bool {
	if len(marker.Bytes()) > 16 {
		return false
	}
	h.write(sb, marker)
	got, err := get()
	h.clear(sb)
	return err == nil && got.Cmp(marker) == 0
}

// maxField bounds the struct field a balance may sit in.
const maxField = 16

// Key is the storage key of a's balance.
func (m Mapping) Key(a common.Address) common.Hash {
	k := new(big.Int).SetBytes(mappingKey(m.Slot, m.SlotFirst, a).Bytes())
	k.Add(k, new(big.Int).SetUint64(m.Field))
	return common.BigToHash(new(big.Int).And(k, math.MaxBig256))
}

// Layout is what tracing the standard getters found of a token's storage.
type Layout struct {
	// Owner holds the address owner(), getOwner() or admin() answers.
	Owner *Slot
	// OwnerGetter is the getter that revealed Owner ("" when found by
	// the caller checks alone).
	OwnerGetter string
	// Guard is a word privileged functions compare with the caller, set
	// to the owner too when no getter reads it (a hidden or getter-less
	// owner).
	Guard *Slot
	// Balance is the mapping balanceOf reads.
	Balance *Mapping
	// Supply holds what totalSupply() answers; nil when it answers a
	// constant (FixedSupply) or nothing was found. SupplyHistory is set
	// instead when the supply is a checkpoint history.
	Supply        *Slot
	SupplyHistory *History
	// FixedSupply is a non-zero totalSupply() answered from code alone.
	FixedSupply *big.Int
	// Roles are mapping entries keyed by the owner (a minter or admin
	// role) set to true: the roles a constructor gives its deployer.
	Roles []common.Hash
	// Decimals is what decimals() answers once seeded (18 when unknown).
	Decimals uint8
	// DecimalsSlot is where decimals() reads them, when they had to be set.
	DecimalsSlot *Slot
	// Notes say what could not be found and why.
	Notes []string
}

func (l *Layout) note(format string, args ...any) {
	l.Notes = append(l.Notes, fmt.Sprintf(format, args...))
}

// Well-known getters tried in order (the engine's owner getters).
var ownerGetters = []string{"owner()", "getOwner()", "admin()"}

func selector(sig string) []byte { return crypto.Keccak256([]byte(sig))[:4] }

func withAddress(sig string, a common.Address) []byte {
	return append(selector(sig), common.LeftPadBytes(a.Bytes(), 32)...)
}

// bystander is the caller of getters: an address nothing is seeded for.
var bystander = common.HexToAddress("0x00000000000000000000000000000000b15ede75")

// distinct returns keys without repeats, in first-seen order.
func distinct(keys []common.Hash) []common.Hash {
	var out []common.Hash
	for _, k := range keys {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// discover traces the token's getters in sb and writes into sb's storage
// what it found: the owner set to owner, decimals where they read 0.
func discover(sb *sandbox, owner common.Address) *Layout {
	l := &Layout{Decimals: 18}
	// Caller checks first, on an empty state: once the owner slot is set
	// they pass and later checks (a pool, a router) would be counted.
	discoverGuard(sb, l, owner)
	discoverOwner(sb, l, owner)
	if l.Owner != nil && l.Guard != nil && l.Owner.Key == l.Guard.Key {
		l.Guard = nil
	}
	discoverDecimals(sb, l)
	discoverSupply(sb, l)
	discoverBalance(sb, l)
	discoverRoles(sb, l, owner)
	return l
}

// maxRoles bounds how many role entries discoverRoles sets.
const maxRoles = 4

// discoverRoles gives the owner the roles a constructor gives its
// deployer (a minters or admins mapping, AccessControl's role members):
// the runtime code alone starts with nobody in them, so every function
// they gate reverts for everyone. Each non-standard function that still
// reverts for the owner is traced; each zero mapping entry it read whose
// key hashes the owner's address (roles[owner], roles[role][owner]) is set
// to true and kept when the call then succeeds or runs further before it
// reverts (the check passed). The balance entry is never one of them.
func discoverRoles(sb *sandbox, l *Layout, owner common.Address) {
	word := common.BytesToHash(owner.Bytes())
	var balance common.Hash
	if l.Balance != nil {
		balance = l.Balance.Key(owner)
	}
	one := common.BigToHash(big.NewInt(1))
	for _, sel := range bytecode.AnalyseCode(sb.state.GetCode(sb.token)).Selectors {
		if len(l.Roles) >= maxRoles {
			return
		}
		if standardSelectors[sel] {
			continue
		}
		data := append(sel[:], guardArgs...)
		if _, err := sb.call(owner, data); err == nil {
			continue
		}
		progress := sb.seen.ops
		for _, k := range ownerKeys(sb.seen, word) {
			if k == balance || slices.Contains(l.Roles, k) || sb.get(k) != (common.Hash{}) {
				continue
			}
			sb.set(k, one)
			if _, err := sb.call(owner, data); err == nil || sb.seen.ops > progress {
				l.Roles = append(l.Roles, k)
				l.note("role: mapping entry %s (keyed by the owner) set to true", k.Hex())
				break
			}
			sb.set(k, common.Hash{})
		}
	}
}

// ownerKeys are the storage keys the last call read that are mapping
// entries of the owner's address (the address hashed with a slot or an
// inner mapping's key, either order), in the order read.
func ownerKeys(seen observed, word common.Hash) []common.Hash {
	hashed := map[common.Hash]bool{}
	for _, in := range seen.hashes {
		if len(in) == 64 && (common.BytesToHash(in[:32]) == word || common.BytesToHash(in[32:]) == word) {
			hashed[crypto.Keccak256Hash(in)] = true
		}
	}
	var out []common.Hash
	for _, k := range distinct(seen.sloads) {
		if hashed[k] {
			out = append(out, k)
		}
	}
	return out
}

// probeSlot tries each key read by the last call, at each byte offset up
// to maxShift, writing v (width bytes) there and keeping the first
// placement for which check says the getter now answers v.
func probeSlot(sb *sandbox, keys []common.Hash, v *big.Int, width, maxShift uint, check func() bool) *Slot {
	for i := len(keys) - 1; i >= 0; i-- {
		k := keys[i]
		old := sb.get(k)
		for shift := uint(0); shift+width <= 32 && shift <= maxShift; shift++ {
			sl := Slot{Key: k, Shift: shift}
			sb.set(k, sl.place(old, v, width))
			if check() {
				return &sl
			}
		}
		sb.set(k, old)
	}
	return nil
}

func discoverOwner(sb *sandbox, l *Layout, owner common.Address) {
	want := common.BytesToHash(owner.Bytes())
	for _, g := range ownerGetters {
		if _, err := sb.word(bystander, selector(g)); err != nil {
			continue
		}
		keys := distinct(sb.seen.sloads)
		sl := probeSlot(sb, keys, new(big.Int).SetBytes(owner.Bytes()), 20, 12, func() bool {
			w, err := sb.word(bystander, selector(g))
			return err == nil && w == want
		})
		if sl != nil {
			l.Owner, l.OwnerGetter = sl, g
			return
		}
	}
	l.note("no owner slot: none of %v answers from storage", ownerGetters)
}

// standardSelectors are ERC-20 functions whose caller checks are about
// the holder (a pool, an exempt wallet), not an owner.
var standardSelectors = map[bytecode.Selector]bool{
	bytecode.SelTransfer: true, bytecode.SelTransferFrom: true, bytecode.SelApprove: true,
	bytecode.SelBalanceOf: true, bytecode.SelAllowance: true, bytecode.SelTotalSupply: true,
}

// guardArgs are the arguments every function is called with while looking
// for caller checks: zero words (a modifier checks before it reads them).
var guardArgs = make([]byte, 6*32)

// discoverGuard calls every non-standard function of the dispatcher as
// owner and keeps the storage word most of them compare with the caller
// (the onlyOwner check), verified by writing owner there: the comparison
// must then hold.
func discoverGuard(sb *sandbox, l *Layout, owner common.Address) {
	caller := common.BytesToHash(owner.Bytes())
	votes := map[common.Hash]int{}
	first := map[common.Hash][]byte{} // a call that compares the key
	var order []common.Hash
	for _, sel := range bytecode.AnalyseCode(sb.state.GetCode(sb.token)).Selectors {
		if standardSelectors[sel] {
			continue
		}
		data := append(sel[:], guardArgs...)
		_, _ = sb.call(owner, data)
		seen := map[common.Hash]bool{}
		for _, c := range sb.seen.compares {
			if c.value == caller || seen[c.loaded] || len(sb.seen.sloads) == 0 {
				continue
			}
			seen[c.loaded] = true
			if votes[c.loaded] == 0 {
				order = append(order, c.loaded)
				first[c.loaded] = data
			}
			votes[c.loaded]++
		}
	}
	if len(order) == 0 {
		return
	}
	best := order[0]
	for _, k := range order {
		if votes[k] > votes[best] {
			best = k
		}
	}
	probe := first[best]
	sl := probeSlot(sb, []common.Hash{best}, new(big.Int).SetBytes(owner.Bytes()), 20, 12, func() bool {
		_, _ = sb.call(owner, probe)
		for _, c := range sb.seen.compares {
			if c.value == caller {
				return true
			}
		}
		return false
	})
	if sl == nil {
		l.note("caller checks read slot %s but writing the owner there does not pass them", best.Hex())
		return
	}
	l.Guard = sl
}

func discoverDecimals(sb *sandbox, l *Layout) {
	w, err := sb.word(bystander, selector("decimals()"))
	if err != nil {
		l.note("decimals() does not answer: 18 assumed")
		return
	}
	if d := new(big.Int).SetBytes(w.Bytes()); d.Sign() > 0 {
		if d.Cmp(big.NewInt(36)) <= 0 {
			l.Decimals = uint8(d.Uint64())
		} else {
			l.note("decimals() answers %s: 18 assumed", d)
		}
		return
	}
	keys := distinct(sb.seen.sloads)
	eighteen := big.NewInt(18)
	sl := probeSlot(sb, keys, eighteen, 1, 31, func() bool {
		w, err := sb.word(bystander, selector("decimals()"))
		return err == nil && new(big.Int).SetBytes(w.Bytes()).Cmp(eighteen) == 0
	})
	if sl != nil {
		l.DecimalsSlot = sl
		return
	}
	l.note("decimals() answers 0 and reads no settable slot")
	l.Decimals = 0
}

func discoverSupply(sb *sandbox, l *Layout) {
	w, err := sb.word(bystander, selector("totalSupply()"))
	if err != nil {
		l.note("totalSupply() does not answer")
		return
	}
	if v := new(big.Int).SetBytes(w.Bytes()); v.Sign() > 0 {
		l.FixedSupply = v
		return
	}
	marker := new(big.Int).Lsh(big.NewInt(0x5eed), 80)
	sl := probeSlot(sb, distinct(sb.seen.sloads), marker, 32, 0, func() bool {
		w, err := sb.word(bystander, selector("totalSupply()"))
		return err == nil && new(big.Int).SetBytes(w.Bytes()).Cmp(marker) == 0
	})
	if sl == nil {
		supply := func() (*big.Int, error) {
			w, err := sb.word(bystander, selector("totalSupply()"))
			return new(big.Int).SetBytes(w.Bytes()), err
		}
		for _, k := range distinct(sb.seen.sloads) {
			if h := (History{k}); plainKey(k) && historyAnswers(sb, h, marker, supply) {
				l.SupplyHistory = &h
				return
			}
		}
		l.note("no total supply slot: totalSupply() answers 0 whatever it reads")
		return
	}
	sb.set(sl.Key, common.Hash{})
	l.Supply = sl
}

// balanceProbe is the holder whose balanceOf call reveals the mapping.
var balanceProbe = common.HexToAddress("0x00000000000000000000000000000000ba1a4ce5")

func discoverBalance(sb *sandbox, l *Layout) {
	call := func() (*big.Int, error) {
		w, err := sb.word(bystander, withAddress("balanceOf(address)", balanceProbe))
		return new(big.Int).SetBytes(w.Bytes()), err
	}
	if _, err := call(); err != nil {
		if !openGetter(sb, l, func() bool { _, err := call(); return err == nil }) {
			l.note("balanceOf reverts on an empty state: %v", err)
			if cr := bytecode.AnalyseCode(sb.state.GetCode(sb.token)); cr.MinimalProxyTarget != nil || cr.StorageTargetDelegatecall {
				l.note("a proxy: its implementation's code is not in the corpus")
			}
			return
		}
		_, _ = call() // trace it again on the opened state
	}
	key := common.BytesToHash(balanceProbe.Bytes())
	hashed := func() []Mapping {
		var out []Mapping
		for _, in := range sb.seen.hashes {
			if len(in) != 64 {
				continue
			}
			switch {
			case common.BytesToHash(in[:32]) == key:
				out = append(out, Mapping{Slot: common.BytesToHash(in[32:])})
			case common.BytesToHash(in[32:]) == key:
				out = append(out, Mapping{Slot: common.BytesToHash(in[:32]), SlotFirst: true})
			}
		}
		return out
	}
	candidates := hashed()
	if len(candidates) == 0 {
		// A balanceOf that answers 0 before looking at any balance until
		// a flag is on (balances hidden until launch): open it as a
		// reverting getter is opened, the flag being what its
		// constructor or controller sets.
		if openGetter(sb, l, func() bool { _, err := call(); return err == nil && len(hashed()) > 0 }) {
			_, _ = call()
			candidates = hashed()
		}
	}
	loads := sb.seen.sloads
	marker := new(big.Int).Lsh(big.NewInt(0xba1), 64)
	var fields []Mapping
	for _, m := range candidates {
		// The entry's words read: the first, or a struct's later field.
		base := new(big.Int).SetBytes(m.Key(balanceProbe).Bytes())
		for _, k := range distinct(loads) {
			off := new(big.Int).Sub(new(big.Int).SetBytes(k.Bytes()), base)
			if off.Sign() >= 0 && off.Cmp(big.NewInt(maxField)) < 0 {
				f := m
				f.Field = off.Uint64()
				fields = append(fields, f)
			}
		}
	}
	for _, m := range fields {
		k := m.Key(balanceProbe)
		old := sb.get(k)
		sb.set(k, common.BigToHash(marker))
		got, err := call()
		sb.set(k, old)
		if err == nil && got.Cmp(marker) == 0 {
			l.Balance = &m
			return
		}
	}
	for _, m := range candidates {
		if historyAnswers(sb, History{m.Key(balanceProbe)}, marker, call) {
			m.History = true
			l.Balance = &m
			return
		}
	}
	l.note("no plain balance mapping: balanceOf hashed %d candidate key(s), none answers the value written", len(candidates))
}

// maxGetterChanges bounds how many storage words openGetter may set.
const maxGetterChanges = 2

// openGetter gives a getter that reverts on the empty state the state
// its constructor left: a flag it checks (initialized, active), often
// packed above an address in the same word. Each plain word the failing
// call read (never a mapping entry) is tried with true, or with a true
// flag in each free byte above what it holds; the first write that lets
// the getter answer is kept, up to maxGetterChanges writes (a write that
// does not is undone). It reports whether the getter now answers.
func openGetter(sb *sandbox, l *Layout, answers func() bool) bool {
	one := []common.Hash{common.BigToHash(big.NewInt(1))}
	for range maxGetterChanges {
		read := distinct(sb.seen.sloads)
		for _, k := range read {
			if !plainKey(k) {
				continue
			}
			old := sb.get(k)
			for _, v := range candidates(old, one) {
				sb.set(k, v)
				if answers() {
					l.note("getter opened: slot %s set to %s", k.Hex(), v.Hex())
					return true
				}
			}
			sb.set(k, old)
		}
		// No single write helped: keep none and stop (a second write
		// would only guess).
		return false
	}
	return false
}
