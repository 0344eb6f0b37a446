package probe

import (
	"bytes"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// Refutations: a catalogue blacklist setter the owner's call ran, with
// the test wallet as its argument (the catalogue signature's own call,
// which turns the power on), after which that wallet still transferred
// is no blacklist the probes could see; its name and the owner's
// passing check are all the code said. 0x6e8b6f2d…'s
// freezeAccount(address,bool) writes a flag no transfer reads. Where the
// measurement could not be made (transfers off before the call, no
// tokens to send, the call refused) the code's word stands.

// refutation is how much of a setter's effect was measured absent.
type refutation int

const (
	notRefuted refutation = iota
	// refutedWallet: the wallet transfer was measured, the sell to the
	// pool was not (no pool, or it failed before the call too).
	refutedWallet
	// refutedAll: the wallet transfer and the sell to the pool.
	refutedAll
)

// refutable are the catalogue capabilities a measured absence refutes:
// their setter names the account it blocks.
var refutable = map[string]bool{bytecode.CapBlacklist: true}

// victimWord is the test wallet's address as an ABI word.
var victimWord = common.LeftPadBytes(ProbeVictim.Bytes(), 32)

// namesVictim says whether a call passes the test wallet's address.
func namesVictim(p probeCall) bool {
	return len(p.data) > 4 && bytes.Contains(p.data[4:], victimWord)
}

// noteRefutation records what the owner's tailored call of a refutable
// setter left of the test wallet's transfers (o went through, complete).
func (v *verdicts) noteRefutation(p probeCall, base proberMeasure, o proberOutcome) {
	if !p.tailored || !refutable[p.capability] || answeredFalse(o.Ret) || !namesVictim(p) {
		return
	}
	if r := measuredRefutation(base, o.M); r > v.refuted[p.sel] {
		v.refuted[p.sel] = r
		v.refutedLabel[p.sel] = p.label
	}
}

// measuredRefutation compares the test wallet's transfers before and
// after the call: each that worked before must still work, delivering
// the same share, from a funded wallet whose balance the call left.
func measuredRefutation(base, m proberMeasure) refutation {
	positive := func(x *big.Int) bool { return x != nil && x.Sign() > 0 }
	if !positive(base.VictimBalance) || m.VictimBalance == nil || m.VictimBalance.Cmp(base.VictimBalance) < 0 {
		return notRefuted
	}
	kept := func(ok0, ok1 bool, sent0, got0, sent1, got1 *big.Int) bool {
		return ok0 && ok1 && positive(sent0) && positive(sent1) && got0 != nil && got1 != nil &&
			!feeChanged(true, sent0, got0, sent1, got1) &&
			new(big.Int).Mul(got1, sent0).Cmp(new(big.Int).Mul(got0, sent1)) >= 0
	}
	if !kept(base.WalletOk, m.WalletOk, base.WalletSent, base.WalletReceived, m.WalletSent, m.WalletReceived) {
		return notRefuted
	}
	switch {
	case kept(base.SellOk, m.SellOk, base.SellSent, base.SellReceived, m.SellSent, m.SellReceived):
		return refutedAll
	case !base.SellOk:
		return refutedWallet
	}
	return notRefuted // the sell broke: the call did something
}

// refutedVerdict is the verdict of capability n, which the owner called
// without a proof, when every selector of n that went through for the
// owner was refuted (nil otherwise).
func (v *verdicts) refutedVerdict(n string) *analysis.EVMCapability {
	sels := v.ownerRan[n]
	if !refutable[n] || len(sels) == 0 || v.owner == nil {
		return nil
	}
	least, label := refutedAll, ""
	for s := range sels {
		r := v.refuted[s]
		if r == notRefuted {
			return nil
		}
		least = min(least, r)
		if label == "" || v.refutedLabel[s] < label {
			label = v.refutedLabel[s]
		}
	}
	c := &analysis.EVMCapability{Name: n, Caller: v.owner.Hex(), Role: RoleOwner, Refuted: true}
	if least == refutedAll {
		c.Proven = new(false)
		c.Evidence = label + ": went through for the owner, and the test wallet it named then still transferred to a wallet and to the pool"
	} else {
		c.Evidence = label + ": went through for the owner, and the test wallet it named then still transferred to a wallet (its sell to the pool could not be measured)"
	}
	return c
}
