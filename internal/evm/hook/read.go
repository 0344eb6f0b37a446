package hook

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/evm/proxy"
)

// ownerGetters are asked in this order; the first that answers an address
// is the hook's owner (as for a token).
var ownerGetters = []bytecode.Selector{bytecode.SelOwner, bytecode.SelGetOwner, bytecode.SelectorOf("admin()")}

// maxStoredCallers bounds the addresses read from the hook's storage that
// the probe also tries as callers (an owner kept outside owner()).
const maxStoredCallers = 2

// Read is the read of one hook's code, proxy slots, owner getters and
// first storage slots: every element needs only the hook's address, so it
// joins the round trip of the V4 simulation.
type Read struct {
	hook        common.Address
	code        hexutil.Bytes
	owners      []hexutil.Bytes
	elems       []rpc.BatchElem
	codeAt      int
	ownerAt     int
	slotsAt     int
	proxySlots  func() (proxy.ProxySlots, error)
	storedSlots func() []common.Address
}

// NewRead builds the read of hook.
func NewRead(hook common.Address) *Read {
	r := &Read{hook: hook, owners: make([]hexutil.Bytes, len(ownerGetters))}
	r.codeAt = len(r.elems)
	r.elems = append(r.elems, node.CodeElem(hook, &r.code))
	r.ownerAt = len(r.elems)
	for i, sel := range ownerGetters {
		r.elems = append(r.elems, node.CallElem(node.CallMsg{To: hook, Data: sel.Bytes(), Gas: 100_000}, nil, &r.owners[i]))
	}
	slots, decodeSlots := proxy.ProxySlotCalls(hook)
	r.slotsAt = len(r.elems)
	r.elems = append(r.elems, slots...)
	r.proxySlots = func() (proxy.ProxySlots, error) {
		copy(slots, r.elems[r.slotsAt:r.slotsAt+len(slots)])
		return decodeSlots()
	}
	stored, decodeStored := probe.StorageCandidateCalls(hook)
	storedAt := len(r.elems)
	r.elems = append(r.elems, stored...)
	r.storedSlots = func() []common.Address {
		copy(stored, r.elems[storedAt:storedAt+len(stored)])
		return decodeStored()
	}
	return r
}

// Elems are the batch elements to send (the batch writes its answers back
// into this slice).
func (r *Read) Elems() []rpc.BatchElem { return r.elems }

// Code is what reading a hook established. A nil pointer is unknown.
type Code struct {
	Address     common.Address
	Permissions Permissions
	// Size is the runtime code's length; Report its static analysis (of
	// the proxy itself when the hook is a proxy).
	Size   int
	Report bytecode.CodeReport
	// Proxy is nil when the hook is no proxy (ProxyRead) or when its
	// slots could not be read (!ProxyRead).
	Proxy     *proxy.ProxyInfo
	ProxyRead bool
	// Upgradeable is nil when unknown: a proxy whose code can be replaced,
	// or code that delegates to an address a setter can change.
	Upgradeable   *bool
	UpgradeReason string
	// OwnerKnown is true when an owner getter answered (Owner nil then
	// means renounced: the zero or a burn address) or the code has none.
	OwnerKnown bool
	Owner      *common.Address
	// Stored are other addresses in the hook's first storage slots (the
	// PoolManager, the pool's currencies and the owner left out).
	Stored []common.Address
	// Setters are the functions the probe calls.
	Setters []Setter
}

// Decode reads the answers. An error means the hook's code is unknown
// (the node refused eth_getCode); everything else degrades to unknown
// fields.
func (r *Read) Decode(exclude ...common.Address) (*Code, error) {
	if e := r.elems[r.codeAt]; e.Error != nil {
		return nil, fmt.Errorf("hook %s: code: %w", r.hook.Hex(), e.Error)
	}
	if len(r.code) == 0 {
		return nil, fmt.Errorf("hook %s: no code at the hook's address", r.hook.Hex())
	}
	c := &Code{Address: r.hook, Permissions: FromAddress(r.hook), Size: len(r.code)}
	c.Report = bytecode.AnalyseCode(r.code)
	if slots, err := r.proxySlots(); err == nil {
		c.ProxyRead = true
		c.Proxy = proxy.DetectProxy(c.Report, slots)
	}
	c.Upgradeable, c.UpgradeReason = upgradeable(c)
	c.OwnerKnown, c.Owner = r.owner(c.Report)
	skip := map[common.Address]bool{{}: true}
	for _, a := range exclude {
		skip[a] = true
	}
	if c.Owner != nil {
		skip[*c.Owner] = true
	}
	for _, a := range r.storedSlots() {
		if !skip[a] && !holder.IsBurn(a) && len(c.Stored) < maxStoredCallers {
			c.Stored = append(c.Stored, a)
		}
	}
	c.Setters = Setters(c.Report)
	return c, nil
}

// owner is the first getter that answers an address. With none answering
// and none in the code the hook has no owner getter (known, no owner);
// with one in the code that did not answer, the owner is unknown.
func (r *Read) owner(rep bytecode.CodeReport) (bool, *common.Address) {
	inCode := false
	for i, sel := range ownerGetters {
		inCode = inCode || rep.HasSelector(sel)
		e := r.elems[r.ownerAt+i]
		if e.Error != nil || len(r.owners[i]) != 32 {
			continue
		}
		w := r.owners[i]
		if !isAddressWord(w) {
			continue
		}
		a := common.BytesToAddress(w[12:])
		if a == (common.Address{}) || holder.IsBurn(a) {
			return true, nil
		}
		return true, &a
	}
	return !inCode, nil
}

func isAddressWord(w []byte) bool {
	for _, b := range w[:12] {
		if b != 0 {
			return false
		}
	}
	return true
}

// upgradeable decides whether the hook's code can change: a proxy (by
// its kind and admin), or code that delegates to an address read from
// storage. Unknown when the proxy slots could not be read.
func upgradeable(c *Code) (*bool, string) {
	yes, no := true, false
	switch {
	case c.Proxy != nil:
		implUpgrade := c.Report.HasSelector(bytecode.SelectorOf("upgradeTo(address)")) ||
			c.Report.HasSelector(bytecode.SelectorOf("upgradeToAndCall(address,bytes)"))
		// A storage-slot proxy's implementation is not read for a hook:
		// its code may write the slot.
		if c.Proxy.Upgradeable(implUpgrade) || c.Proxy.Kind == proxy.ProxyStorageSlot {
			return &yes, fmt.Sprintf("%s proxy (implementation %s)", c.Proxy.Kind, c.Proxy.Implementation.Hex())
		}
		return &no, fmt.Sprintf("%s proxy whose implementation cannot be replaced", c.Proxy.Kind)
	case c.Report.StorageTargetDelegatecall:
		return &yes, "delegates to an address read from its storage"
	case !c.ProxyRead:
		return nil, ""
	}
	return &no, ""
}

// ErrNoCode is returned by a probe asked for a hook whose code is unknown.
var ErrNoCode = errors.New("hook: code unknown")
