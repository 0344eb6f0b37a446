package hook

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// Setter is a function of the hook the probe calls as its owner, and the
// shape of its arguments.
type Setter struct {
	Selector bytecode.Selector
	// Signature is the catalogue's name of the selector, or "" when
	// unknown (the selector is reported).
	Signature string
	Args      []method.Kind
}

// Name is the signature, or the selector when unknown.
func (s Setter) Name() string {
	if s.Signature != "" {
		return s.Signature
	}
	return s.Selector.String()
}

// maxSetters bounds the functions probed (each costs a simulation or a
// search and a few simulations).
const maxSetters = 16

// notProbed are the callbacks the PoolManager calls and the functions
// that only hand the owner's role on (probing them shows nothing a sell
// would feel).
var notProbed = func() map[bytecode.Selector]bool {
	m := map[bytecode.Selector]bool{}
	for _, s := range []string{
		"beforeInitialize(address,(address,address,uint24,int24,address),uint160)",
		"afterInitialize(address,(address,address,uint24,int24,address),uint160,int24)",
		"beforeAddLiquidity(address,(address,address,uint24,int24,address),(int24,int24,int256,bytes32),bytes)",
		"afterAddLiquidity(address,(address,address,uint24,int24,address),(int24,int24,int256,bytes32),int256,int256,bytes)",
		"beforeRemoveLiquidity(address,(address,address,uint24,int24,address),(int24,int24,int256,bytes32),bytes)",
		"afterRemoveLiquidity(address,(address,address,uint24,int24,address),(int24,int24,int256,bytes32),int256,int256,bytes)",
		"beforeSwap(address,(address,address,uint24,int24,address),(bool,int256,uint160),bytes)",
		"afterSwap(address,(address,address,uint24,int24,address),(bool,int256,uint160),int256,bytes)",
		"beforeDonate(address,(address,address,uint24,int24,address),uint256,uint256,bytes)",
		"afterDonate(address,(address,address,uint24,int24,address),uint256,uint256,bytes)",
		"unlockCallback(bytes)",
		"transferOwnership(address)", "renounceOwnership()", "acceptOwnership()",
		"grantRole(bytes32,address)", "revokeRole(bytes32,address)", "renounceRole(bytes32,address)",
		"upgradeTo(address)", "upgradeToAndCall(address,bytes)",
	} {
		m[bytecode.SelectorOf(s)] = true
	}
	return m
}()

// hookSignatures name setters hooks commonly have, for the report only
// (the probe calls every setter whatever its name).
var hookSignatures = func() map[bytecode.Selector]string {
	m := map[bytecode.Selector]string{}
	for _, s := range []string{
		"setSellsBlocked(bool)", "setBlocked(bool)", "setPaused(bool)", "setTradingEnabled(bool)",
		"setFeeBps(uint256)", "setHookFee(uint256)", "setLpFee(uint24)", "setTaxBps(uint256)",
		"setBlacklist(address,bool)", "setBlocked(address,bool)", "setExempt(address,bool)",
		"withdraw(address)", "sweep(address)", "collect(address)", "claimFees(address)",
	} {
		m[bytecode.SelectorOf(s)] = s
	}
	return m
}()

// Setters are the hook's functions worth probing: dispatched, not a
// callback of the PoolManager, not a read-only function (a complete
// analysis that writes nothing), with some path that succeeds, and with
// arguments the probe knows how to fill (none; one number, bool or
// address; two numbers; an address and a bool).
func Setters(rep bytecode.CodeReport) []Setter {
	var out []Setter
	for _, sel := range rep.Selectors {
		if notProbed[sel] || bytecode.IsStandard(sel) {
			continue
		}
		m, ok := rep.Methods.Lookup(sel)
		if !ok || (m.Complete && (!m.Mutates || !m.Reaches)) {
			continue
		}
		kinds := make([]method.Kind, len(m.Args))
		for i, a := range m.Args {
			kinds[i] = a.Kind
		}
		if !probeable(kinds) {
			continue
		}
		s := Setter{Selector: sel, Args: kinds}
		if p := bytecode.LookupPrivileged(sel); len(p) > 0 {
			s.Signature = p[0].Signature
		} else {
			s.Signature = hookSignatures[sel]
		}
		out = append(out, s)
		if len(out) == maxSetters {
			break
		}
	}
	return out
}

func probeable(k []method.Kind) bool {
	num := func(x method.Kind) bool { return x == method.Uint || x == method.Small }
	switch len(k) {
	case 0:
		return true
	case 1:
		return num(k[0]) || k[0] == method.Bool || k[0] == method.Address
	case 2:
		return (num(k[0]) && num(k[1])) || (k[0] == method.Address && k[1] == method.Bool)
	}
	return false
}
