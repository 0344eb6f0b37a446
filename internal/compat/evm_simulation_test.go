package compat_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
)

// TestSimulationOnRealUniswap runs the honeypot simulation against the real
// Uniswap V2 pair and V3 pool (npm bytecode) on anvil: a plain ERC-20 must
// be buyable and sellable at no tax on both, cooldown check included
// (anvil's eth_simulateV1).
func TestSimulationOnRealUniswap(t *testing.T) {
	modules, bin := env(t)
	a := startAnvil(t, bin)
	u := deployUniswap(t, a, modules)
	c := node.NewClient("anvil", []string{a.URL}, node.ClientOptions{})

	v2Token := a.deploy(t, u.erc20, ether(1_000_000))
	pair := u.addV2LiquidityETH(t, a, v2Token, ether(100_000), ether(10))
	v3Token := a.deploy(t, u.erc20, ether(1_000_000))
	pool := u.addV3LiquidityETH(t, a, v3Token, 3000, ether(100_000), ether(10))

	head, err := a.Client.HeaderByNumber(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name        string
		token, pool common.Address
		kind        string
	}{
		{"uniswap v2", v2Token, pair, "v2"},
		{"uniswap v3", v3Token, pool, "v3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var wethBal hexutil.Bytes
			balData := append(common.Hex2Bytes("70a08231"), common.LeftPadBytes(tt.pool.Bytes(), 32)...)
			if err := c.Batch(context.Background(), []rpc.BatchElem{node.CallElem(node.CallMsg{To: u.WETH, Data: balData}, nil, &wethBal)}); err != nil {
				t.Fatal(err)
			}
			elems, decode, err := simulation.SimulationCall(simulation.SimulationRequest{
				Token: tt.token, Pool: tt.pool, PoolKind: tt.kind, Quote: u.WETH, Wrapped: u.WETH, FeeBps: 30,
				QuoteReserve: new(big.Int).SetBytes(wethBal), BlockTime: head.Time, DelayedSell: time.Hour,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Batch(context.Background(), elems); err != nil {
				t.Fatal(err)
			}
			sim, err := decode()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: can_buy=%v can_sell=%v buy_tax=%v sell_tax=%v transfer_tax=%v buy_gas=%v sell_gas=%v cooldown=%v error=%v",
				tt.name, deref(sim.CanBuy), deref(sim.CanSell), deref(sim.BuyTax), deref(sim.SellTax), deref(sim.TransferTax),
				deref(sim.BuyGas), deref(sim.SellGas), deref(sim.Cooldown), deref(sim.Error))
			if !analysis.EVMNotHoneypot(sim) {
				t.Errorf("not_honeypot = false for a plain ERC-20 on the real %s", tt.name)
			}
			for name, tax := range map[string]*float64{"buy": sim.BuyTax, "sell": sim.SellTax, "transfer": sim.TransferTax} {
				if tax == nil || *tax > 1 {
					t.Errorf("%s tax = %v, want < 1", name, deref(tax))
				}
			}
			if sim.Cooldown == nil || *sim.Cooldown {
				t.Errorf("cooldown = %v, want false (the delayed sell ran)", deref(sim.Cooldown))
			}
		})
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestProbesOnAnvil runs the privilege probes on anvil (revm, not geth):
// the prober placed by state override at the caller's own address, called
// from that address, must run, and prove nothing on a plain ERC-20.
func TestProbesOnAnvil(t *testing.T) {
	modules, bin := env(t)
	a := startAnvil(t, bin)
	u := deployUniswap(t, a, modules)
	c := node.NewClient("anvil", []string{a.URL}, node.ClientOptions{})
	token := a.deploy(t, u.erc20, ether(1_000_000))
	pair := u.addV2LiquidityETH(t, a, token, ether(100_000), ether(10))
	code, err := c.CodeAt(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	report := bytecode.AnalyseCode(code)
	// The npm ERC-20 has only standard functions: probe a made-up
	// selector so that the prober really runs.
	report.Selectors = append(report.Selectors, bytecode.Selector{0x12, 0x34, 0x56, 0x78})
	owner := a.From
	elems, decode, err := probe.ProbeCalls(probe.ProbeRequest{Token: token, Pool: pair, Code: report, Owner: &owner,
		Donors: []common.Address{owner}, Wrapped: u.WETH, FeeBps: 30})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatal(err)
	}
	facts, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	if !facts.Complete || len(facts.Callers) != 2 || facts.Callers[0].Role != probe.RoleOwner || !facts.Callers[0].Ran {
		t.Fatalf("callers = %+v, want the owner (and the control caller) probed", facts.Callers)
	}
	if !facts.Funded {
		t.Error("the probe wallet was not funded by the owner")
	}
	for _, cp := range facts.Capabilities {
		if cp.Proven != nil && *cp.Proven {
			t.Errorf("%s proven on a plain ERC-20: %s", cp.Name, cp.Evidence)
		}
	}
}
