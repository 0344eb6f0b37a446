package hook

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/revert"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
)

// raisedBy is how much a measured cut must exceed the cut now to count as
// raised (in percentage points): rounding of the simulator's amounts.
const raisedBy = 0.05

// Known is a chains-file entry for a known launchpad hook.
type Known struct {
	Name  string
	Takes string
}

// Judgment is what the adapter knows of one hook.
type Judgment struct {
	Pool v4.Pool
	// Code is nil when the read failed (ReadErr).
	Code    *Code
	ReadErr error
	// Probe is nil when the probe did not run (ProbeErr).
	Probe    *ProbeCall
	ProbeErr error
	// Known is the chains file's entry, if any.
	Known *Known
	// Verified is nil when no explorer answered.
	Verified *bool
	// VerifyNote says why Verified is nil.
	VerifyNote string
}

// Facts turns the judgment into the report's hook facts. Every question
// the read or the probe could not answer is null with its reason.
func (j Judgment) Facts() analysis.EVMHook {
	addr := j.Pool.Key.Hooks
	perms := FromAddress(addr)
	h := analysis.EVMHook{
		Address: addr.Hex(), PoolID: j.Pool.ID.Hex(),
		Permissions: perms.Names(), TakesCut: perms.TakesCut(), CutBy: perms.CutBits(),
		Verified: j.Verified, Setters: []string{}, Callers: []string{},
	}
	if j.Known != nil {
		name, takes := j.Known.Name, j.Known.Takes
		h.Name = &name
		if takes != "" {
			h.Takes = &takes
		}
	}
	if j.Verified == nil {
		note := j.VerifyNote
		if note == "" {
			note = "no explorer answered"
		}
		h.Unknown = append(h.Unknown, "source verification unknown ("+note+")")
	}
	if j.Code == nil {
		reason := "the hook's code could not be read"
		if j.ReadErr != nil {
			reason += ": " + j.ReadErr.Error()
		}
		h.Unknown = append(h.Unknown, reason+"; its owner, upgradeability and powers are unknown")
		return h
	}
	c := j.Code
	if c.OwnerKnown {
		o := ""
		if c.Owner != nil {
			o = c.Owner.Hex()
		}
		h.Owner = &o
	} else {
		h.Unknown = append(h.Unknown, "owner unknown (an owner getter is in the code but did not answer)")
	}
	h.Upgradeable, h.UpgradeBy = c.Upgradeable, c.UpgradeReason
	if c.Upgradeable == nil {
		h.Unknown = append(h.Unknown, "upgradeability unknown (the proxy slots could not be read)")
	}
	for _, s := range c.Setters {
		h.Setters = append(h.Setters, s.Name())
	}
	if j.Probe == nil {
		reason := "the probe did not run"
		if j.ProbeErr != nil {
			reason += ": " + j.ProbeErr.Error()
		}
		h.Unknown = append(h.Unknown, reason+"; the cut now and what its owner can do are unknown")
		return h
	}
	for _, a := range j.Probe.Callers {
		h.Callers = append(h.Callers, a.Hex())
	}
	judgeProbe(&h, j.Probe, c.OwnerKnown)
	return h
}

// judgeProbe reads the probe's outcomes into h.
func judgeProbe(h *analysis.EVMHook, pc *ProbeCall, ownerKnown bool) {
	outs, errs := pc.decode()
	for _, e := range errs {
		h.Unknown = append(h.Unknown, e.Error())
	}
	var base *outcome
	for i := range outs {
		if outs[i].cand.setter == nil {
			base = &outs[i]
		}
	}
	if base == nil || base.sim == nil {
		reason := "the baseline simulation through the pool did not answer"
		if base != nil && base.err != nil {
			reason += ": " + base.err.Error()
		}
		h.Unknown = append(h.Unknown, reason+"; the cut now and what its owner can do are unknown")
		return
	}
	bs := base.sim
	buyNow, sellNow := cuts(bs)
	h.BuyCutPct, h.SellCutPct = buyNow, sellNow
	if !bs.BuyOK {
		h.Unknown = append(h.Unknown, "the simulated buy through the pool failed ("+revertText(bs.BuyError)+"); sells and the owner's powers over them are unknown")
		return
	}
	blocked := !bs.SellOK
	h.SellsBlocked = &blocked
	if blocked {
		h.CanBlockSells = &blocked
		h.BlockBy = "no call: sells fail now (" + revertText(bs.SellError) + ")"
	}
	now := maxCut(buyNow, sellNow)
	complete := len(errs) == 0 && ownerKnown
	var ceiling *float64
	if now != nil {
		v := *now
		ceiling = &v
	}
	for _, o := range outs {
		if o.cand.setter == nil || !o.called {
			continue
		}
		label := fmt.Sprintf("%s by %s", describe(o), o.cand.caller.Hex())
		if len(o.drain) > 0 && h.DrainBy == "" {
			t := true
			h.CanDrain, h.DrainBy = &t, label+" (the PoolManager lost "+strings.Join(o.drain, ", ")+")"
		}
		if o.sim == nil {
			complete = false
			continue
		}
		if !blocked && o.sim.BuyOK && !o.sim.SellOK && h.BlockBy == "" {
			t := true
			h.CanBlockSells, h.BlockBy = &t, label
		}
		if c := maxCut(cuts(o.sim)); c != nil && (ceiling == nil || *c > *ceiling) {
			v := *c
			ceiling, h.FeeBy = &v, label
		}
	}
	h.FeeCeilingPct = ceiling
	switch {
	case ceiling != nil && now != nil && *ceiling > *now+raisedBy:
		t := true
		h.FeeChangeable = &t
	case complete && ceiling != nil:
		f := false
		h.FeeChangeable = &f
	default:
		h.Unknown = append(h.Unknown, "whether its owner can raise its cut is unknown (a probe did not complete)")
	}
	if h.CanBlockSells == nil {
		if complete {
			f := false
			h.CanBlockSells = &f
		} else {
			h.Unknown = append(h.Unknown, "whether its owner can block sells is unknown (a probe did not complete)")
		}
	}
	if h.CanDrain == nil {
		if complete {
			f := false
			h.CanDrain = &f
		} else {
			h.Unknown = append(h.Unknown, "whether its owner can take the pool's funds is unknown (a probe did not complete)")
		}
	}
}

// cuts are the hook's cut of the buy's and the sell's output against the
// hook-free twin, in percent; nil where the twin is missing or the swap
// did not run (the simulator prices the twin only after the pool's swap
// succeeded, so a positive twin means the swap ran, whatever it paid: a
// cut of everything leaves a buy that "delivered no token").
func cuts(s *v4.Simulation) (buy, sell *float64) {
	if s == nil || !s.TwinOK {
		return nil, nil
	}
	return simulation.LossPct(s.BuyCredit, s.BuyTwin), simulation.LossPct(s.SellCredit, s.SellTwin)
}

func maxCut(a, b *float64) *float64 {
	switch {
	case a == nil:
		return b
	case b == nil || *a >= *b:
		return a
	}
	return b
}

// describe names a probe's call: the setter and, for a search, the value.
func describe(o outcome) string {
	if len(o.cand.probe.ValueWords) > 0 && o.value != nil {
		return fmt.Sprintf("%s with %s", o.cand.setter.Name(), o.value.String())
	}
	return o.cand.label
}

// wrappedError is v4-core's CustomRevert.WrappedError(address target,
// bytes4 selector, bytes reason, bytes details): how the PoolManager
// reports a hook's revert.
var (
	wrappedError     = bytecode.SelectorOf("WrappedError(address,bytes4,bytes,bytes)")
	wrappedErrorArgs = abi.Arguments{{Type: revert.MustType("address")}, {Type: revert.MustType("bytes4")},
		{Type: revert.MustType("bytes")}, {Type: revert.MustType("bytes")}}
)

// revertText renders a revert, unwrapping the PoolManager's WrappedError
// to the hook's own reason.
func revertText(data []byte) string {
	if len(data) >= 4 && bytecode.Selector(data[:4]) == wrappedError {
		if vals, err := wrappedErrorArgs.Unpack(data[4:]); err == nil && len(vals) == 4 {
			target, _ := vals[0].(common.Address)
			inner, _ := vals[2].([]byte)
			return fmt.Sprintf("%s reverted: %s", target.Hex(), revert.RevertReason(inner))
		}
	}
	return revert.RevertReason(data)
}
