package proxy

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// Proxy storage slots (EIP-1967, EIP-1822, and the legacy OpenZeppelin
// "zeppelinos" unstructured-storage slots that USDC's FiatTokenProxy and
// other pre-EIP-1967 proxies use: keccak256 of
// "org.zeppelinos.proxy.implementation" and "org.zeppelinos.proxy.admin").
var (
	SlotEIP1967Implementation    = common.HexToHash("0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc")
	SlotEIP1967Admin             = common.HexToHash("0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103")
	SlotEIP1967Beacon            = common.HexToHash("0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50")
	SlotEIP1822Proxiable         = common.HexToHash("0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7")
	SlotZeppelinOSImplementation = common.HexToHash("0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3")
	SlotZeppelinOSAdmin          = common.HexToHash("0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b")
)

// Proxy kinds, as reported in contract_analysis.proxy.kind.
const (
	ProxyEIP1967 = "eip1967"
	ProxyEIP1822 = "eip1822"
	ProxyBeacon  = "beacon"
	ProxyEIP1167 = "eip1167"
	// ProxyZeppelinOS is a legacy OpenZeppelin (zos) proxy: implementation
	// and admin in the org.zeppelinos.proxy.* slots (USDC's FiatTokenProxy).
	ProxyZeppelinOS = "zeppelinos"
	// ProxyStorageSlot is a proxy whose fallback delegates to an address
	// it keeps at a constant slot of its own naming (not a standard one):
	// found in the code (bytecode.DelegateSlot), the slot read in round
	// trip 2.
	ProxyStorageSlot = "storage_slot"
)

// ProxySlots are the raw proxy slot values of a contract (zero when empty).
type ProxySlots struct {
	Implementation common.Address
	Admin          common.Address
	Beacon         common.Address
	Proxiable      common.Address
	// ZeppelinOSImplementation and ZeppelinOSAdmin are the legacy
	// org.zeppelinos.proxy.* slots.
	ZeppelinOSImplementation common.Address
	ZeppelinOSAdmin          common.Address
}

// ProxySlotCalls returns the eth_getStorageAt elements reading addr's proxy
// slots and the decoder of their values (valid after the batch ran).
func ProxySlotCalls(addr common.Address) ([]rpc.BatchElem, func() (ProxySlots, error)) {
	slots := []common.Hash{SlotEIP1967Implementation, SlotEIP1967Admin, SlotEIP1967Beacon, SlotEIP1822Proxiable,
		SlotZeppelinOSImplementation, SlotZeppelinOSAdmin}
	out := make([]hexutil.Bytes, len(slots))
	elems := make([]rpc.BatchElem, len(slots))
	for i, s := range slots {
		elems[i] = node.StorageElem(addr, s, &out[i])
	}
	decode := func() (ProxySlots, error) {
		var v [6]common.Address
		for i := range elems {
			if elems[i].Error != nil {
				return ProxySlots{}, fmt.Errorf("proxy slot %s: %w", slots[i].Hex(), elems[i].Error)
			}
			// A storage word is always 32 bytes: anything else (an empty
			// "0x" from a faulty node) is unreadable, never a zero slot.
			if len(out[i]) != 32 {
				return ProxySlots{}, fmt.Errorf("proxy slot %s: %d-byte word", slots[i].Hex(), len(out[i]))
			}
			v[i] = common.BytesToAddress(out[i])
		}
		return ProxySlots{Implementation: v[0], Admin: v[1], Beacon: v[2], Proxiable: v[3],
			ZeppelinOSImplementation: v[4], ZeppelinOSAdmin: v[5]}, nil
	}
	return elems, decode
}

// ProxyInfo is what is known of a token's proxy.
type ProxyInfo struct {
	Kind string
	// Implementation is the code that runs (for a beacon: known only after
	// ProxyDetailCalls ran; zero until then).
	Implementation common.Address
	// Admin is the EIP-1967 (or zeppelinos) admin of a transparent proxy;
	// nil for UUPS, beacons and clones.
	Admin *common.Address
	// AdminIsContract and AdminOwner describe an admin contract (a
	// ProxyAdmin): its owner() is who can upgrade.
	AdminIsContract *bool
	AdminOwner      *common.Address
	// Beacon is the beacon of a beacon proxy.
	Beacon *common.Address
	// Slot is where a storage-slot proxy keeps its implementation's
	// address; SlotWritten whether the proxy's own code may write it.
	Slot        *common.Hash
	SlotWritten bool
}

// Upgradeable reports whether the proxy's code can be replaced: clones
// cannot; a beacon can (through its owner); an EIP-1967 proxy with a live
// admin can; otherwise (UUPS) only when the implementation itself has an
// upgrade function (implUpgradable).
func (p *ProxyInfo) Upgradeable(implUpgradable bool) bool {
	switch p.Kind {
	case ProxyEIP1167:
		return false
	case ProxyBeacon:
		return true
	case ProxyStorageSlot:
		if p.SlotWritten {
			return true
		}
	case ProxyEIP1967, ProxyZeppelinOS:
		if p.Admin != nil && !holder.IsBurn(*p.Admin) {
			return true
		}
	}
	return implUpgradable
}

// UpgradeAuthority is who can upgrade: the admin contract's owner, else
// the admin, else nil (decided by the implementation's own access control).
func (p *ProxyInfo) UpgradeAuthority() *common.Address {
	if p.AdminOwner != nil {
		return p.AdminOwner
	}
	return p.Admin
}

// DetectProxy decides whether code (analysed as report) with slots is a
// proxy. Slot values only count when the code can delegate: a stray value
// in a slot of a contract that never delegates is not a proxy.
func DetectProxy(report bytecode.CodeReport, slots ProxySlots) *ProxyInfo {
	if report.MinimalProxyTarget != nil {
		return &ProxyInfo{Kind: ProxyEIP1167, Implementation: *report.MinimalProxyTarget}
	}
	if !report.HasDelegatecall && !report.HasCallcode {
		return nil
	}
	zero := common.Address{}
	switch {
	case slots.Implementation != zero:
		p := &ProxyInfo{Kind: ProxyEIP1967, Implementation: slots.Implementation}
		if slots.Admin != zero {
			a := slots.Admin
			p.Admin = &a
		}
		return p
	case slots.Beacon != zero:
		b := slots.Beacon
		return &ProxyInfo{Kind: ProxyBeacon, Beacon: &b}
	case slots.Proxiable != zero:
		return &ProxyInfo{Kind: ProxyEIP1822, Implementation: slots.Proxiable}
	case slots.ZeppelinOSImplementation != zero:
		p := &ProxyInfo{Kind: ProxyZeppelinOS, Implementation: slots.ZeppelinOSImplementation}
		if slots.ZeppelinOSAdmin != zero {
			a := slots.ZeppelinOSAdmin
			p.Admin = &a
		}
		return p
	}
	if report.DelegateSlot != nil {
		s := *report.DelegateSlot
		return &ProxyInfo{Kind: ProxyStorageSlot, Slot: &s, SlotWritten: report.DelegateSlotWritten}
	}
	return nil
}

// ProxyDetailCalls returns the elements that complete p, the proxy at
// token: the beacon's implementation() with that implementation's code
// (beaconReader; on a node refusing state overrides the code needs one
// more round trip), the admin's code and owner(), the
// implementation's code, and for a storage-slot proxy its slot with the
// code of the address in it (slotReader). The decoder fills p and returns
// the implementation's code (nil when not yet known; for a storage-slot
// proxy empty, not nil, when the address has no code).
func ProxyDetailCalls(token common.Address, p *ProxyInfo) ([]rpc.BatchElem, func() ([]byte, error)) {
	var (
		elems              []rpc.BatchElem
		beaconOut, ownOut  hexutil.Bytes
		adminCode, impCode hexutil.Bytes
		slotOut, readOut   hexutil.Bytes
		beaconIdx, ownIdx  = -1, -1
		adminIdx, impIdx   = -1, -1
		slotIdx            = -1
		beaconCode         []byte
	)
	if p.Slot != nil {
		slotIdx = len(elems)
		elems = append(elems, node.StorageElem(token, *p.Slot, &slotOut),
			node.CallElem(node.CallMsg{To: token, Gas: 1_000_000}, node.StateOverride{token: {Code: slotReader(*p.Slot)}}, &readOut))
	}
	if p.Beacon != nil {
		beaconIdx = len(elems)
		elems = append(elems, node.CallElem(node.CallMsg{To: *p.Beacon, Data: bytecode.SelImplementation[:], Gas: 100_000}, nil, &beaconOut),
			node.CallElem(node.CallMsg{To: token, Gas: 1_000_000}, node.StateOverride{token: {Code: beaconReader(*p.Beacon)}}, &readOut))
	}
	if p.Admin != nil {
		adminIdx = len(elems)
		elems = append(elems, node.CodeElem(*p.Admin, &adminCode))
		ownIdx = len(elems)
		elems = append(elems, node.CallElem(node.CallMsg{To: *p.Admin, Data: bytecode.SelOwner[:], Gas: 100_000}, nil, &ownOut))
	}
	if p.Implementation != (common.Address{}) {
		impIdx = len(elems)
		elems = append(elems, node.CodeElem(p.Implementation, &impCode))
	}
	decode := func() ([]byte, error) {
		if slotIdx >= 0 {
			return decodeSlot(p, elems[slotIdx:slotIdx+2], slotOut, readOut)
		}
		if beaconIdx >= 0 {
			if err := elems[beaconIdx].Error; err != nil {
				return nil, fmt.Errorf("beacon implementation(): %w", err)
			}
			if len(beaconOut) < 32 {
				return nil, fmt.Errorf("beacon implementation(): %d-byte answer", len(beaconOut))
			}
			p.Implementation = common.BytesToAddress(beaconOut[:32])
			// The implementation's code, read beside: no round trip of
			// its own (nil, fetched later, when the node refused it).
			if e := elems[beaconIdx+1]; e.Error == nil && len(readOut) >= 32 && common.BytesToAddress(readOut[:32]) == p.Implementation {
				beaconCode = append([]byte{}, readOut[32:]...)
			}
		}
		if adminIdx >= 0 && elems[adminIdx].Error == nil {
			isContract := len(adminCode) > 0
			p.AdminIsContract = &isContract
			if isContract && elems[ownIdx].Error == nil && len(ownOut) >= 32 {
				o := common.BytesToAddress(ownOut[:32])
				p.AdminOwner = &o
			}
		}
		if impIdx >= 0 {
			if err := elems[impIdx].Error; err != nil {
				return nil, fmt.Errorf("implementation code: %w", err)
			}
			return impCode, nil
		}
		return beaconCode, nil
	}
	return elems, decode
}

// codeReader is code run in an eth_call (in the proxy's place for a
// storage-slot proxy: a state override keeps its storage) that returns
// the implementation's address and its code: load leaves the address on
// the stack, then mstore(0, it), extcodecopy(it, 32, 0, extcodesize(it)),
// return(0, 32+size). One eth_call beside the proxy's other details, in
// the same round trip: no request of its own.
func codeReader(load []byte) []byte {
	return append(append([]byte{}, load...),
		0x80, 0x60, 0x00, // DUP1 PUSH1 0
		0x52,       // MSTORE
		0x80, 0x3b, // DUP1 EXTCODESIZE
		0x80, 0x60, 0x00, 0x60, 0x20, // DUP1 PUSH1 0 PUSH1 32
		0x84, 0x3c, // DUP5 EXTCODECOPY
		0x60, 0x20, 0x01, // PUSH1 32 ADD
		0x60, 0x00, 0xf3, // PUSH1 0 RETURN
	)
}

// slotReader reads the address at slot: sload(slot).
func slotReader(slot common.Hash) []byte {
	return codeReader(append(append([]byte{0x7f}, slot.Bytes()...), 0x54)) // PUSH32 slot SLOAD
}

// beaconReader reads the beacon's implementation(): a STATICCALL whose
// failure (or an answer shorter than a word) reverts.
func beaconReader(beacon common.Address) []byte {
	load := []byte{0x63}
	load = append(load, bytecode.SelImplementation[:]...)   // PUSH4 implementation()
	load = append(load, 0x60, 0xe0, 0x1b, 0x60, 0x00, 0x52, // PUSH1 0xe0 SHL PUSH1 0 MSTORE
		0x60, 0x20, 0x60, 0x00, 0x60, 0x04, 0x60, 0x00, 0x73) // PUSH1 32 PUSH1 0 PUSH1 4 PUSH1 0 PUSH20
	load = append(load, beacon.Bytes()...)
	load = append(load, 0x5a, 0xfa, // GAS STATICCALL
		0x15, 0x3d, 0x60, 0x20, 0x11, 0x17, // ISZERO RETURNDATASIZE PUSH1 32 GT OR: failed or short
		0x60, 0x00, 0x57, // PUSH1 <revert> JUMPI (patched below)
		0x60, 0x00, 0x51) // PUSH1 0 MLOAD
	at := len(load) - 5 // the JUMPI's target byte
	code := codeReader(load)
	code[at] = byte(len(code))
	return append(code, 0x5b, 0x60, 0x00, 0x80, 0xfd) // JUMPDEST PUSH1 0 DUP1 REVERT
}

// decodeSlot reads a storage-slot proxy's slot and the reader's answer:
// the implementation's address from either, its code only from the
// reader (a node that refuses state overrides leaves it unread: an
// error, never an empty implementation).
func decodeSlot(p *ProxyInfo, elems []rpc.BatchElem, slotOut, readOut hexutil.Bytes) ([]byte, error) {
	var slotErr error
	switch {
	case elems[0].Error != nil:
		slotErr = fmt.Errorf("proxy slot %s: %w", p.Slot.Hex(), elems[0].Error)
	case len(slotOut) != 32:
		slotErr = fmt.Errorf("proxy slot %s: %d-byte word", p.Slot.Hex(), len(slotOut))
	default:
		p.Implementation = common.BytesToAddress(slotOut)
	}
	if elems[1].Error == nil && len(readOut) >= 32 {
		p.Implementation = common.BytesToAddress(readOut[:32])
		return append([]byte{}, readOut[32:]...), nil
	}
	if slotErr != nil {
		return nil, slotErr
	}
	why := "no answer"
	if elems[1].Error != nil {
		why = elems[1].Error.Error()
	}
	return nil, fmt.Errorf("the code at %s (proxy slot %s) is unread: the state-overridden read failed (%s)", p.Implementation.Hex(), p.Slot.Hex(), why)
}
