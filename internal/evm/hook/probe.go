package hook

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
)

// Probe limits. A numeric setter costs a search (about 62 calls of the
// setter) and up to five simulations; every other probe one simulation.
const (
	// DefaultCallGas caps each call of a setter.
	DefaultCallGas = 500_000
	// probeCallGas is each eth_call's gas; unitsPerCall bounds the
	// simulations one eth_call runs (a simulation through a hooked pool
	// with its hook-free twin costs about 1.5M gas).
	probeCallGas = 45_000_000
	unitsPerCall = 16
	searchUnits  = 6
)

// Request is the probe of one hook in one pool.
type Request struct {
	Code *Code
	Pool v4.Pool
	// Token is the scanned token (one of the pool's currencies).
	Token common.Address
	// AmountIn is the simulated buy's quote amount (nil: the simulator
	// sizes it from the pool's state).
	AmountIn *big.Int
	CallGas  uint64
}

// prober mirrors HookProber's structs for the ABI.
type proberProbe struct {
	Data       []byte
	ValueWords []*big.Int
}

type proberParams struct {
	Hook       common.Address
	Manager    common.Address
	Currency0  common.Address
	Currency1  common.Address
	Simulator  common.Address
	Simulation []byte
	CallGas    *big.Int
	Probes     []proberProbe
}

type proberOutcome struct {
	Probe          *big.Int
	Value          *big.Int
	Called         bool
	CallError      []byte
	Manager0Before *big.Int
	Manager0After  *big.Int
	Manager1Before *big.Int
	Manager1After  *big.Int
	Simulated      bool
	Simulation     []byte
}

// candidate is one probe: who calls, which setter, what data.
type candidate struct {
	caller common.Address
	setter *Setter // nil: the baseline (no call)
	label  string
	probe  proberProbe
}

// call is one eth_call of the prober at one caller's address.
type call struct {
	caller     common.Address
	candidates []candidate
	out        hexutil.Bytes
}

// ProbeCall is the probe's batch: one eth_call per caller and chunk.
type ProbeCall struct {
	req   Request
	calls []*call
	elems []rpc.BatchElem
	// Callers are who the probe called the setters as (the owner first).
	Callers []common.Address
}

// NewProbeCall builds the probe of req: the baseline (no call: the pool
// as it is now) and every setter the read found, called by the owner and
// by the addresses stored in the hook.
func NewProbeCall(req Request) (*ProbeCall, error) {
	if req.Code == nil {
		return nil, ErrNoCode
	}
	prober, err := contracts.Artifact("HookProber")
	if err != nil {
		return nil, fmt.Errorf("hook probe: %w", err)
	}
	sim, err := contracts.Artifact("V4Simulator")
	if err != nil {
		return nil, fmt.Errorf("hook probe: %w", err)
	}
	simData, err := v4.SimulationData(v4.SimulationRequest{Pool: req.Pool, Token: req.Token, AmountIn: req.AmountIn})
	if err != nil {
		return nil, fmt.Errorf("hook probe: %w", err)
	}
	if req.CallGas == 0 {
		req.CallGas = DefaultCallGas
	}
	pc := &ProbeCall{req: req}
	if req.Code.Owner != nil {
		pc.Callers = append(pc.Callers, *req.Code.Owner)
	}
	pc.Callers = append(pc.Callers, req.Code.Stored...)
	baseline := candidate{caller: probe.ProbeAnyone, label: "baseline"}
	if len(pc.Callers) > 0 {
		baseline.caller = pc.Callers[0]
	}
	all := []candidate{baseline}
	for _, caller := range pc.Callers {
		for i := range req.Code.Setters {
			for _, c := range candidates(&req.Code.Setters[i], req.Pool.Key) {
				c.caller = caller
				all = append(all, c)
			}
		}
	}
	var cur *call
	units := 0
	for _, c := range all {
		cost := 1
		if len(c.probe.ValueWords) > 0 {
			cost = searchUnits
		}
		if cur == nil || cur.caller != c.caller || units+cost > unitsPerCall {
			cur, units = &call{caller: c.caller}, 0
			pc.calls = append(pc.calls, cur)
		}
		cur.candidates = append(cur.candidates, c)
		units += cost
	}
	for _, c := range pc.calls {
		probes := make([]proberProbe, len(c.candidates))
		for i, cd := range c.candidates {
			probes[i] = cd.probe
		}
		k := req.Pool.Key
		data, err := prober.ABI.Pack("probe", proberParams{
			Hook: req.Code.Address, Manager: req.Pool.Manager, Currency0: k.Currency0, Currency1: k.Currency1,
			Simulator: v4.SimulatorAddress, Simulation: simData, CallGas: new(big.Int).SetUint64(req.CallGas), Probes: probes,
		})
		if err != nil {
			return nil, fmt.Errorf("hook probe: pack: %w", err)
		}
		overrides := node.StateOverride{
			c.caller:            {Code: prober.DeployedBytecode},
			v4.SimulatorAddress: {Code: sim.DeployedBytecode},
		}
		from := c.caller
		pc.elems = append(pc.elems, node.CallElem(node.CallMsg{From: &from, To: c.caller, Data: data, Gas: probeCallGas}, overrides, &c.out))
	}
	return pc, nil
}

// Elems are the batch elements to send (the batch writes its answers back
// into this slice).
func (pc *ProbeCall) Elems() []rpc.BatchElem { return pc.elems }

// candidates are the probes of one setter: a numeric one searched, a bool
// both ways, an address as the simulator (the trader the hook sees) and
// as each currency (a withdrawal), an address with a bool both ways.
func candidates(s *Setter, key v4.Key) []candidate {
	sel := s.Selector.Bytes()
	word := func(v any) []byte {
		switch x := v.(type) {
		case bool:
			if x {
				return common.LeftPadBytes([]byte{1}, 32)
			}
			return make([]byte, 32)
		case common.Address:
			return common.LeftPadBytes(x.Bytes(), 32)
		}
		return make([]byte, 32)
	}
	build := func(label string, words ...any) candidate {
		data := append([]byte(nil), sel...)
		for _, w := range words {
			data = append(data, word(w)...)
		}
		return candidate{setter: s, label: label, probe: proberProbe{Data: data, ValueWords: []*big.Int{}}}
	}
	num := func(k method.Kind) bool { return k == method.Uint || k == method.Small }
	var out []candidate
	switch {
	case len(s.Args) == 0:
		out = append(out, build(s.Name()+"()"))
	case len(s.Args) == 1 && num(s.Args[0]), len(s.Args) == 2 && num(s.Args[0]) && num(s.Args[1]):
		c := build(s.Name()+" at its highest accepted value", make([]any, len(s.Args))...)
		for i := range s.Args {
			c.probe.ValueWords = append(c.probe.ValueWords, big.NewInt(int64(i)))
		}
		out = append(out, c)
	case len(s.Args) == 1 && s.Args[0] == method.Bool:
		out = append(out, build(s.Name()+"(true)", true), build(s.Name()+"(false)", false))
	case len(s.Args) == 1 && s.Args[0] == method.Address:
		out = append(out, build(s.Name()+"(trader)", v4.SimulatorAddress))
		for _, c := range []common.Address{key.Currency0, key.Currency1} {
			out = append(out, build(fmt.Sprintf("%s(%s)", s.Name(), c.Hex()), c))
		}
	case len(s.Args) == 2 && s.Args[0] == method.Address && s.Args[1] == method.Bool:
		out = append(out, build(s.Name()+"(trader, true)", v4.SimulatorAddress, true),
			build(s.Name()+"(trader, false)", v4.SimulatorAddress, false))
	}
	return out
}

// outcome is one decoded probe outcome.
type outcome struct {
	cand   candidate
	value  *big.Int
	called bool
	drain  []string // currencies the PoolManager lost during the call
	sim    *v4.Simulation
	err    error
}

// decode reads every call's answer; a call the node refused leaves its
// candidates unknown (returned as errors).
func (pc *ProbeCall) decode() ([]outcome, []error) {
	prober, err := contracts.Artifact("HookProber")
	if err != nil {
		return nil, []error{fmt.Errorf("hook probe: %w", err)}
	}
	var outs []outcome
	var errs []error
	k := pc.req.Pool.Key
	for i, c := range pc.calls {
		if e := pc.elems[i].Error; e != nil {
			errs = append(errs, fmt.Errorf("hook probe as %s: %w", c.caller.Hex(), e))
			continue
		}
		vals, err := prober.ABI.Methods["probe"].Outputs.Unpack(c.out)
		if err != nil || len(vals) != 1 {
			errs = append(errs, fmt.Errorf("hook probe as %s: unpack: %v", c.caller.Hex(), err))
			continue
		}
		raw, ok := abi.ConvertType(vals[0], new([]proberOutcome)).(*[]proberOutcome)
		if !ok {
			errs = append(errs, errors.New("hook probe: unexpected answer shape"))
			continue
		}
		for _, o := range *raw {
			idx := int(o.Probe.Int64())
			if idx < 0 || idx >= len(c.candidates) {
				errs = append(errs, fmt.Errorf("hook probe: outcome of probe %d of %d", idx, len(c.candidates)))
				continue
			}
			out := outcome{cand: c.candidates[idx], value: o.Value, called: o.Called}
			if o.Manager0After.Cmp(o.Manager0Before) < 0 {
				out.drain = append(out.drain, currencyName(k.Currency0))
			}
			if o.Manager1After.Cmp(o.Manager1Before) < 0 {
				out.drain = append(out.drain, currencyName(k.Currency1))
			}
			switch {
			case !o.Called:
			case !o.Simulated:
				out.err = errors.New("the simulation reverted")
			default:
				out.sim, out.err = v4.DecodeSimulation(o.Simulation)
			}
			outs = append(outs, out)
		}
	}
	return outs, errs
}

func currencyName(c common.Address) string {
	if c == (common.Address{}) {
		return "native"
	}
	return c.Hex()
}
