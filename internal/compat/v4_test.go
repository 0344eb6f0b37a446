package compat_test

import (
	"context"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/evm"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// requireV4Build skips without the Uniswap V4 build (contracts/v4/out),
// or fails when TOKENRISK_REQUIRE_V4=1 (CI builds it).
func requireV4Build(t *testing.T) {
	t.Helper()
	if contracts.UniswapV4Built() {
		return
	}
	if os.Getenv("TOKENRISK_REQUIRE_V4") == "1" {
		t.Fatalf("TOKENRISK_REQUIRE_V4=1 but %v", contracts.ErrNotBuilt)
	}
	t.Skipf("compatibility tier, Uniswap V4: %v; the V4 kinds are not scanned", contracts.ErrNotBuilt)
}

// compiled converts an embedded artifact for anvil's deploy.
func compiled(t *testing.T) func(contracts.Compiled, error) npmArtifact {
	return func(c contracts.Compiled, err error) npmArtifact {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return npmArtifact{ABI: c.ABI, Bytecode: c.Bytecode}
	}
}

// v4Key is a V4 PoolKey as go-ethereum packs the tuple.
type v4Key struct {
	Currency0   common.Address
	Currency1   common.Address
	Fee         *big.Int
	TickSpacing *big.Int
	Hooks       common.Address
}

// TestV4KindsOnAnvil deploys the real Uniswap V4 PoolManager (compiled
// from npm by contracts/v4/build.sh) on anvil, with a plain npm ERC-20 on
// each of the V4 kinds' pools (native ETH against the token, one token
// on a V2 pool too; the hooks are
// the devnet's TaxHook at CREATE2 addresses carrying their permission
// bits), and scans each through the whole adapter: the pool is found and
// simulated through V4, and the hook is judged by simulation (the capped
// hook's ceiling 5% reads low and cannot close sells; the open hook's
// owner can take 100% and close sells; the trap hook's sells fail now).
func TestV4KindsOnAnvil(t *testing.T) {
	modules, bin := env(t)
	requireV4Build(t)
	a := startAnvil(t, bin)
	u := deployUniswap(t, a, modules)
	usd := a.deploy(t, u.erc20, ether(10_000_000))
	u.addV2LiquidityETH(t, a, usd, ether(30_000), ether(10)) // 1 ETH = 3000 USD

	art := compiled(t)
	pmArt := art(contracts.UniswapV4("PoolManager"))
	manager := a.deploy(t, pmArt, a.From)
	routerArt := art(contracts.Artifact("V4Router"))
	router := a.deploy(t, routerArt, manager)
	factoryArt := art(contracts.Artifact("HookFactory"))
	factory := a.deploy(t, factoryArt)
	hookArt := art(contracts.Artifact("TaxHook"))

	launch := func(feeBps, maxBps int64, blocked, closable, hooked, v2 bool) (common.Address, common.Address) {
		token := a.deploy(t, u.erc20, ether(1_000_000))
		if v2 {
			// A shallower V2 pool at the V4 pool's price (25 000 per ETH).
			u.addV2LiquidityETH(t, a, token, ether(300_000), ether(12))
		}
		var hook common.Address
		if hooked {
			args, err := hookArt.ABI.Pack("", manager, token, a.From, big.NewInt(feeBps), big.NewInt(maxBps), blocked, closable)
			if err != nil {
				t.Fatal(err)
			}
			initCode := append(append([]byte{}, hookArt.Bytecode...), args...)
			var salt [32]byte
			hash := crypto.Keccak256(initCode)
			for i := uint64(0); ; i++ {
				new(big.Int).SetUint64(i).FillBytes(salt[:])
				hook = crypto.CreateAddress2(factory, salt, hash)
				if (uint16(hook[18])<<8|uint16(hook[19]))&(1<<14-1) == 1<<7|1<<6|1<<2 {
					break
				}
			}
			a.transact(t, factory, factoryArt.ABI, nil, "deploy", salt, initCode)
		}
		key := v4Key{Currency1: token, Fee: big.NewInt(3000), TickSpacing: big.NewInt(60), Hooks: hook}
		eth, amount := ether(20), ether(500_000)
		sqrtPrice := new(big.Int).Sqrt(new(big.Int).Div(new(big.Int).Lsh(amount, 192), eth))
		liquidity := new(big.Int).Sqrt(new(big.Int).Mul(eth, amount))
		liquidity.Mul(liquidity, big.NewInt(999)).Div(liquidity, big.NewInt(1000))
		a.transact(t, manager, pmArt.ABI, nil, "initialize", key, sqrtPrice)
		a.transact(t, token, u.erc20.ABI, nil, "approve", router, amount)
		a.transact(t, router, routerArt.ABI, eth, "addLiquidity", key, big.NewInt(-887220), big.NewInt(887220), liquidity)
		return token, hook
	}
	kinds := []struct {
		kind                          string
		feeBps, maxBps                int64
		blocked, closable, hooked, v2 bool
	}{
		{"v4_clean", 0, 0, false, false, false, false},
		{"v4_hook_fee_capped", 300, 500, false, false, true, false},
		{"v4_hook_sell_blocked", 0, 0, true, true, true, false},
		{"v4_hook_fee_changeable", 100, 10_000, false, true, true, false},
		{"v2_and_v4", 0, 0, false, false, false, true},
	}
	ch := chains.Chain{
		Key: "anvil", Kind: chains.EVM, ChainID: 31337, Native: "ETH", RPC: []string{a.URL},
		DEXes: []chains.DEX{
			{Name: "uniswap_v2", Kind: "v2", Factory: u.V2Factory.Hex(), FeeBps: 30},
			{Name: "uniswap_v4", Kind: "v4", PoolManager: manager.Hex()},
		},
		QuoteTokens: []chains.QuoteToken{
			{Symbol: "WETH", Address: u.WETH.Hex(), Decimals: 18, Wrapped: true},
			{Symbol: "USD", Address: usd.Hex(), Decimals: 18, USDStable: true},
		},
		BurnAddresses: []string{"0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dEaD"},
	}
	tokens := map[string][2]common.Address{}
	for _, k := range kinds {
		tok, hook := launch(k.feeBps, k.maxBps, k.blocked, k.closable, k.hooked, k.v2)
		tokens[k.kind] = [2]common.Address{tok, hook}
	}
	reg, err := chains.Parse([]byte(`{"chains":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(ch)
	ad := evm.NewAdapter(reg, evm.Options{})
	cat := risk.NewCatalogue()
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			tok, hookAddr := tokens[k.kind][0], tokens[k.kind][1]
			addr, err := chains.ParseAddress(tok.Hex())
			if err != nil {
				t.Fatal(err)
			}
			as, err := ad.Assess(context.Background(), scan.Request{Address: addr, Chains: []string{"anvil"}})
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			r := scan.Build(cat, addr, as)
			ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
			sim, _ := ev.Simulation.(*analysis.EVMSimulation)
			var hookFlags []risk.Flag
			var codes []string
			for _, f := range r.RiskFlags {
				codes = append(codes, f.Code+":"+string(f.Severity))
				if strings.HasPrefix(f.Code, "HOOK_") {
					hookFlags = append(hookFlags, f)
				}
			}
			t.Logf("%s: %s %.1f %v", k.kind, r.RiskLevel, r.OverallRiskScore, codes)
			wantPools := 1
			if k.v2 {
				wantPools = 2 // the deeper V4 pool first, then the V2 pool
			}
			if len(ev.Pools) != wantPools || ev.Pools[0].Kind != "v4" || sim == nil || sim.Path != "v4" || sim.CanBuy == nil || !*sim.CanBuy {
				t.Fatalf("pools %+v simulation %+v, want the V4 pool found (of %d) and simulated through V4", ev.Pools, sim, wantPools)
			}
			if sim.CanSell == nil || *sim.CanSell == k.blocked {
				t.Errorf("can_sell %v, want %v", deref(sim.CanSell), !k.blocked)
			}
			if !k.hooked {
				if len(ev.Hooks) != 0 || len(hookFlags) != 0 {
					t.Errorf("hooks %+v flags %v on a hook-free pool", ev.Hooks, hookFlags)
				}
				return
			}
			if len(ev.Hooks) != 1 || ev.Hooks[0].Address != hookAddr.Hex() {
				t.Fatalf("hooks %+v, want %s judged", ev.Hooks, hookAddr.Hex())
			}
			h := ev.Hooks[0]
			if h.Owner == nil || !strings.EqualFold(*h.Owner, a.From.Hex()) || h.CanBlockSells == nil || *h.CanBlockSells != k.closable ||
				h.CanDrain == nil || *h.CanDrain {
				t.Errorf("hook owner %v can_block_sells %v can_drain %v, want %s, %v, false", deref(h.Owner), deref(h.CanBlockSells), deref(h.CanDrain), a.From.Hex(), k.closable)
			}
			if k.closable && !r.HasFlag(risk.HookCanBlockSells) || !k.closable && r.HasFlag(risk.HookCanBlockSells) {
				t.Errorf("HOOK_CAN_BLOCK_SELLS raised %v, want %v", r.HasFlag(risk.HookCanBlockSells), k.closable)
			}
			if !k.blocked {
				want := float64(k.maxBps) / 100
				if h.FeeCeilingPct == nil || *h.FeeCeilingPct < want-0.1 || *h.FeeCeilingPct > want+0.1 {
					t.Errorf("hook fee ceiling %v, want %v%%", deref(h.FeeCeilingPct), want)
				}
			}
			if k.kind == "v4_hook_fee_capped" {
				// A capped fee hook alone reads at most low.
				if res := cat.Score(hookFlags); res.Level != risk.Minimal && res.Level != risk.LevelLow {
					t.Errorf("the capped hook's flags %v read %s, want at most low", hookFlags, res.Level)
				}
			} else if r.RiskLevel != risk.LevelCritical {
				t.Errorf("level %s, want critical", r.RiskLevel)
			}
		})
	}
}
