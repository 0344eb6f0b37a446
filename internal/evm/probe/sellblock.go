package probe

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Conditional honeypots (issue 18): one privileged call, then the test
// wallet's sell into the pool fails while its transfer to another wallet
// still goes through. The Prober already measures both around every
// candidate call; this keeps the calls that armed such a block as
// two-step proofs (analysis.EVMSellBlock with the function and caller).
// A call that names the test wallet (a blacklist of one holder), the
// control caller's calls (anyone can make them: no privilege) and a
// call whose effect was taking the wallet's balance or calling it back
// are not sell blocks.

// noteSellBlock records c's call p as a sell block when the sell worked
// in base and failed in m while the wallet transfer worked in both.
func (v *verdicts) noteSellBlock(c probeCaller, p probeCall, base, m proberMeasure) {
	if c.role == RoleAnyone || p.victimArg || p.stock || p.ladder || p.capability == bytecode.CapFeeChange {
		return
	}
	if !base.SellOk || m.SellOk || !base.WalletOk || !m.WalletOk {
		return
	}
	if m.VictimBalance != nil && base.VictimBalance != nil && m.VictimBalance.Cmp(base.VictimBalance) < 0 {
		return // the wallet lost its tokens: a seizure, not a block
	}
	if base.OwnerOk && m.OwnerOk && m.Owner != base.Owner {
		return // ownership moved: the sell now runs under other exemptions
	}
	if base.Hits != nil && m.Hits != nil && m.Hits.Cmp(base.Hits) > 0 {
		return // the token called the wallet back: a hook, not a block
	}
	for _, b := range v.sellBlocks {
		if b.Caller == c.addr.Hex() && b.Function == p.label {
			return
		}
	}
	if len(v.sellBlocks) >= maxSellBlocks {
		return
	}
	v.sellBlocks = append(v.sellBlocks, analysis.EVMSellBlock{Function: p.label, Caller: c.addr.Hex(), Role: c.role})
	v.sellBlockKeys = append(v.sellBlockKeys, callerSelector{c, p.sel})
}

// provenSellBlocks are the sell blocks whose function is not a fee
// setter: a function that also changed the measured tax with other
// arguments sets a fee, and a fee set absurdly high that makes the sell
// revert is that power (OWNER_CAN_CHANGE_FEES with its ceiling), not a
// switch.
func (v *verdicts) provenSellBlocks() []analysis.EVMSellBlock {
	var out []analysis.EVMSellBlock
	for i, b := range v.sellBlocks {
		fee := false
		for _, e := range v.seen[v.sellBlockKeys[i]] {
			fee = fee || e.capability == bytecode.CapFeeChange && !e.blocking
		}
		if !fee {
			out = append(out, b)
		}
	}
	return out
}

// maxSellBlocks bounds the proofs kept (one is enough to flag; a few
// show the others).
const maxSellBlocks = 4
