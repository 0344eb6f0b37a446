package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"

	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// deployPooled deploys a testdata token whose constructor takes (factory,
// weth, extra...) and creates its pair (read back with pair()), then seeds
// the pair with poolTokens of the deployer's tokens and 10 WETH, and burns
// the LP. When wantToken0 is set it redeploys until the token is (or is
// not) the pair's token0.
func deployPooled(t *testing.T, dn *devnet.Devnet, bin string, wantToken0 *bool, poolTokens *big.Int, extra ...[]byte) (token, pool common.Address) {
	t.Helper()
	m := dn.Manifest()
	c := node.NewClient("devnet", []string{dn.RPCURL()}, node.ClientOptions{})
	deployer := common.HexToAddress(m.Deployer)
	weth, factory := common.HexToAddress(m.WETH), common.HexToAddress(m.Factory)
	code := append(readHex(t, bin), append(common.LeftPadBytes(factory.Bytes(), 32), common.LeftPadBytes(weth.Bytes(), 32)...)...)
	for _, w := range extra {
		code = append(code, common.LeftPadBytes(w, 32)...)
	}
	token = sendAs(t, dn, deployer, nil, nil, code).ContractAddress
	for tries := 0; wantToken0 != nil && (token.Cmp(weth) < 0) != *wantToken0; tries++ {
		if tries == 20 {
			t.Fatalf("no deployment put the token on the wanted side of the pair")
		}
		token = sendAs(t, dn, deployer, nil, nil, code).ContractAddress
	}
	out, err := c.CallContract(t.Context(), node.CallMsg{To: token, Data: bytecode.SelectorOf("pair()").Bytes()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool = common.BytesToAddress(out)
	ten := new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))
	sendAs(t, dn, deployer, &weth, ten, bytecode.SelectorOf("deposit()").Bytes())
	sendAs(t, dn, deployer, &weth, nil, calldata("transfer(address,uint256)", pool.Bytes(), ten.Bytes()))
	sendAs(t, dn, deployer, &token, nil, calldata("transfer(address,uint256)", pool.Bytes(), poolTokens.Bytes()))
	sendAs(t, dn, deployer, &pool, nil, calldata("mint(address)", common.HexToAddress("0x000000000000000000000000000000000000dEaD").Bytes()))
	if err := dn.AdjustTime(time.Minute); err != nil {
		t.Fatal(err)
	}
	return token, pool
}

func flagCodes(r *scan.Report) []string {
	var codes []string
	for _, f := range r.RiskFlags {
		codes = append(codes, f.Code)
	}
	return codes
}

// TestAdapterUSDTStyleTokens scans tokens written like USDT (no return
// value from transfer, transferFrom and approve; approve refuses non-zero
// to non-zero; 1e30 raw units of supply) with 6, 9 and 0 decimals, each
// with a V2 pool holding 90% of the supply, the token as the pair's token0
// and as its token1: every path (lens, contract and
// wallet simulation, probes) must trade them as ordinary tokens, value the
// pool, size the holders' shares, and read the owner from getOwner() when
// owner() reverts.
func TestAdapterUSDTStyleTokens(t *testing.T) {
	dn := startAdapterNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	deployer := common.HexToAddress(dn.Manifest().Deployer)
	supply, _ := new(big.Int).SetString("1000000000000000000000000000000", 10) // 1e30
	poolTokens := new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(9)), big.NewInt(10))
	tests := []struct {
		decimals int64
		token0   bool
	}{{6, true}, {6, false}, {9, false}, {0, true}}
	for _, tt := range tests {
		decimals := tt.decimals
		t.Run(fmt.Sprintf("%d decimals, token0 %v", decimals, tt.token0), func(t *testing.T) {
			token, pool := deployPooled(t, dn, "NoReturnToken.bin", &tt.token0, poolTokens, big.NewInt(decimals).Bytes())
			r, err := assess(t, ad, token.Hex())
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			codes := flagCodes(r)
			t.Logf("level %s flags %v warnings %q", r.RiskLevel, codes, r.Warnings)
			if r.Decimals == nil || int64(*r.Decimals) != decimals {
				t.Errorf("decimals = %s, want %d", fmtPtr(r.Decimals), decimals)
			}
			if r.TotalSupply == nil || *r.TotalSupply != supply.String() {
				t.Errorf("total_supply = %s, want %s", fmtPtr(r.TotalSupply), supply)
			}
			s := simOf(t, r)
			t.Logf("simulation: %s", simString(s))
			checkBool(t, "can_buy", s.CanBuy, new(true))
			checkBool(t, "can_sell", s.CanSell, new(true))
			near(t, "buy_tax", s.BuyTax, 0, 1)
			near(t, "sell_tax", s.SellTax, 0, 1)
			near(t, "transfer_tax", s.TransferTax, 0, 1)
			for _, c := range []string{risk.HoneypotCannotBuy, risk.HoneypotCannotSell, risk.SimulationFailed, risk.NonStandardToken} {
				if slices.Contains(codes, c) {
					t.Errorf("unexpected %s", c)
				}
			}
			if !r.SafetyChecklist.NotHoneypot {
				t.Error("not_honeypot = false")
			}
			// The contract path agreed with the wallet path, and the probes
			// (which move the token the same way) completed: no_mint is known.
			if len(s.Notes) > 0 {
				t.Errorf("simulation paths disagree: %q", s.Notes)
			}
			if !r.SafetyChecklist.NoMint {
				t.Errorf("no_mint = false; warnings %q", r.Warnings)
			}
			lev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
			if len(lev.Pools) == 0 || !strings.EqualFold(lev.Pools[0].Address, pool.Hex()) {
				t.Fatalf("pools = %+v, want %s", lev.Pools, pool.Hex())
			}
			// 10 WETH on the quote side: twice that in USD at the devnet's WETH price.
			if usd := lev.Pools[0].LiquidityUSD; usd == nil || *usd < 1000 {
				t.Errorf("liquidity_usd = %s, want the pool valued", fmtPtr(usd))
			}
			cev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
			if cev.Owner == nil || !strings.EqualFold(*cev.Owner, deployer.Hex()) {
				t.Errorf("owner = %s, want the getOwner() answer %s", fmtPtr(cev.Owner), deployer.Hex())
			}
			if !slices.Contains(codes, risk.OwnerNotRenounced) {
				t.Error("OWNER_NOT_RENOUNCED missing")
			}
			hev, _ := r.HolderAnalysis.Evidence.(analysis.EVMHolderEvidence)
			var poolShare *float64
			for _, h := range hev.TopHolders {
				if strings.EqualFold(h.Address, pool.Hex()) {
					poolShare = h.SharePct
				}
			}
			near(t, "pool's share_pct", poolShare, 90, 0.5)
			if hev.Top10Pct == nil || *hev.Top10Pct > 10.5 {
				t.Errorf("top10_pct = %s, want about 10 (the deployer; the pool excluded)", fmtPtr(hev.Top10Pct))
			}
		})
	}
}

// TestAdapterRoleGovernedToken: a token with AccessControl roles and no
// owner getter is never reported renounced: its owner is the creator when
// hasRole(DEFAULT_ADMIN_ROLE, creator) says so, else unknown (null and a
// warning), also when its roles were handed to an address the probes do
// not know (so no power is proven).
func TestAdapterRoleGovernedToken(t *testing.T) {
	dn := startAdapterNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	deployer := common.HexToAddress(dn.Manifest().Deployer)
	multisig := common.HexToAddress("0x5afe00000000000000000000000000000000cafe")
	minter := crypto.Keccak256([]byte("MINTER_ROLE"))
	tests := []struct {
		name     string
		handOver bool
	}{
		{"deployer holds the roles", false},
		{"roles handed to an unprobed multisig", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token, _ := deployPooled(t, dn, "RoleToken.bin", nil, new(big.Int).Exp(big.NewInt(10), big.NewInt(26), nil))
			if tt.handOver {
				for _, role := range [][]byte{minter, {0}} {
					sendAs(t, dn, deployer, &token, nil, calldata("grantRole(bytes32,address)", role, multisig.Bytes()))
					sendAs(t, dn, deployer, &token, nil, calldata("renounceRole(bytes32,address)", role, deployer.Bytes()))
				}
			}
			r, err := assess(t, ad, token.Hex())
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			codes := flagCodes(r)
			t.Logf("level %s flags %v warnings %q", r.RiskLevel, codes, r.Warnings)
			if r.SafetyChecklist.OwnershipRenounced {
				t.Error("ownership_renounced checklist = true for a token whose admin role is held")
			}
			cev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
			if tt.handOver {
				// Nobody the scan knows holds the admin role: unknown.
				if cev.OwnershipRenounced != nil || cev.Owner != nil {
					t.Errorf("contract_analysis owner = %s, ownership_renounced = %s; want both null", fmtPtr(cev.Owner), fmtPtr(cev.OwnershipRenounced))
				}
				if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "role-based") }) {
					t.Errorf("no warning about the role-held owner in %q", r.Warnings)
				}
			} else {
				// The creator proved to hold DEFAULT_ADMIN_ROLE is the owner.
				if cev.Owner == nil || !strings.EqualFold(*cev.Owner, deployer.Hex()) || cev.OwnershipRenounced == nil || *cev.OwnershipRenounced {
					t.Errorf("contract_analysis owner = %s, ownership_renounced = %s; want the creator, false", fmtPtr(cev.Owner), fmtPtr(cev.OwnershipRenounced))
				}
				if !slices.Contains(codes, risk.OwnerNotRenounced) {
					t.Error("OWNER_NOT_RENOUNCED missing")
				}
				if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "DEFAULT_ADMIN_ROLE") }) {
					t.Errorf("no warning naming the role in %q", r.Warnings)
				}
			}
			// Proven from the deployer, or from the code when the minter is unknown.
			if !slices.Contains(codes, risk.OwnerCanMint) {
				t.Error("OWNER_CAN_MINT missing")
			}
			if slices.Contains(codes, risk.HiddenOwner) {
				t.Error("HIDDEN_OWNER raised; the role holder is not hiding from a declared owner")
			}
		})
	}
}

// TestAdapterGetterlessMinter: a token with no owner getter whose mint is
// for a private minters mapping is never read as renounced. While the
// deployer is the minter the probes prove the mint; once the power was
// handed to an address the scan does not know, the mint is still
// reported from the code and the owner is unknown (null), not renounced.
func TestAdapterGetterlessMinter(t *testing.T) {
	dn := startAdapterNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	deployer := common.HexToAddress(dn.Manifest().Deployer)
	elsewhere := common.HexToAddress("0x5afe00000000000000000000000000000000beef")
	for _, handOver := range []bool{false, true} {
		t.Run(fmt.Sprintf("handed over %v", handOver), func(t *testing.T) {
			token, _ := deployPooled(t, dn, "HiddenMinterToken.bin", nil, new(big.Int).Exp(big.NewInt(10), big.NewInt(26), nil))
			if handOver {
				sendAs(t, dn, deployer, &token, nil, calldata("handOver(address)", elsewhere.Bytes()))
			}
			r, err := assess(t, ad, token.Hex())
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			t.Logf("level %s flags %v warnings %q", r.RiskLevel, flagCodes(r), r.Warnings)
			var mint *risk.Flag
			for i, f := range r.RiskFlags {
				if f.Code == risk.OwnerCanMint {
					mint = &r.RiskFlags[i]
				}
			}
			want := risk.EvidenceProbe
			if handOver {
				want = risk.EvidenceCode
			}
			if mint == nil || mint.Evidence != want {
				t.Fatalf("OWNER_CAN_MINT = %+v, want one with %s evidence", mint, want)
			}
			if r.SafetyChecklist.OwnershipRenounced {
				t.Error("ownership_renounced checklist = true for a token whose code mints for a hidden minter")
			}
			cev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
			if handOver && (cev.OwnershipRenounced != nil || cev.Owner != nil) {
				t.Errorf("contract_analysis owner = %s, ownership_renounced = %s; want both null (unknown)", fmtPtr(cev.Owner), fmtPtr(cev.OwnershipRenounced))
			}
		})
	}
}

// TestAdapterForkPools: a token whose only liquidity is an Aerodrome-style
// volatile pool (factory getPool(a, b, false), reserves as uint256 words,
// V2-shaped swap checked after the factory's getFee), or the same pool
// behind a V2 fork's getPair at another fee, is found, valued and
// simulated; with the pool's real fee configured, and with the fee left
// unconfigured (Solidly: the engine assumes the 3% maximum) or a few bps
// too low (absorbed by the simulator's retry).
func TestAdapterForkPools(t *testing.T) {
	dn := startAdapterNet(t)
	m := dn.Manifest()
	deployer := common.HexToAddress(m.Deployer)
	weth := common.HexToAddress(m.WETH)
	c := node.NewClient("devnet", []string{dn.RPCURL()}, node.ClientOptions{})
	tests := []struct {
		name          string
		kind          string
		poolFee, conf int64
	}{
		{"30 bps pool, fee unconfigured", "solidly", 30, 0},
		{"100 bps pool, fee configured", "solidly", 100, 100},
		{"100 bps pool, fee unconfigured", "solidly", 100, 0},
		{"300 bps pool (Aerodrome's maximum), fee unconfigured", "solidly", 300, 0},
		{"V2 fork at 25 bps (PancakeSwap V2), fee configured", "v2", 25, 25},
		{"V2 fork at 30 bps configured as 25", "v2", 30, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			factory := sendAs(t, dn, deployer, nil, nil, append(readHex(t, "SolidlyLikeFactory.bin"), common.LeftPadBytes(big.NewInt(tt.poolFee).Bytes(), 32)...)).ContractAddress
			// A USDT-style token (its own V2 pair stays empty).
			code := append(readHex(t, "NoReturnToken.bin"), append(common.LeftPadBytes(common.HexToAddress(m.Factory).Bytes(), 32),
				append(common.LeftPadBytes(weth.Bytes(), 32), common.LeftPadBytes([]byte{18}, 32)...)...)...)
			token := sendAs(t, dn, deployer, nil, nil, code).ContractAddress
			sendAs(t, dn, deployer, &factory, nil, calldata("createPool(address,address,bool)", token.Bytes(), weth.Bytes(), []byte{0}))
			out, err := c.CallContract(t.Context(), node.CallMsg{To: factory, Data: calldata("getPool(address,address,bool)", token.Bytes(), weth.Bytes(), []byte{0})}, nil)
			if err != nil {
				t.Fatal(err)
			}
			pool := common.BytesToAddress(out)
			ten := new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))
			sendAs(t, dn, deployer, &weth, ten, bytecode.SelectorOf("deposit()").Bytes())
			sendAs(t, dn, deployer, &weth, nil, calldata("transfer(address,uint256)", pool.Bytes(), ten.Bytes()))
			sendAs(t, dn, deployer, &token, nil, calldata("transfer(address,uint256)", pool.Bytes(), new(big.Int).Exp(big.NewInt(10), big.NewInt(29), nil).Bytes()))
			sendAs(t, dn, deployer, &pool, nil, calldata("mint(address)", common.HexToAddress("0x000000000000000000000000000000000000dEaD").Bytes()))
			if err := dn.AdjustTime(time.Minute); err != nil {
				t.Fatal(err)
			}

			ch := dn.Chain()
			ch.DEXes = append(append([]chains.DEX{}, ch.DEXes...), chains.DEX{Name: "fork_" + tt.kind, Kind: tt.kind, Factory: factory.Hex(), FeeBps: int(tt.conf)})
			ad := NewAdapter(devnetRegistry(t, ch), Options{})
			r, err := assess(t, ad, token.Hex())
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			codes := flagCodes(r)
			t.Logf("level %s flags %v warnings %q", r.RiskLevel, codes, r.Warnings)
			lev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
			if len(lev.Pools) == 0 || !strings.EqualFold(lev.Pools[0].Address, pool.Hex()) || lev.Pools[0].Kind != tt.kind || lev.Pools[0].Stable {
				t.Fatalf("pools = %+v, want the volatile pool %s first", lev.Pools, pool.Hex())
			}
			if usd := lev.Pools[0].LiquidityUSD; usd == nil || *usd < 1000 {
				t.Errorf("liquidity_usd = %s, want the pool valued", fmtPtr(usd))
			}
			if p := lev.Pools[0].LPBurnedPct; p == nil || *p < 99 {
				t.Errorf("lp_burned_pct = %s, want ~100", fmtPtr(p))
			}
			s := simOf(t, r)
			t.Logf("simulation: %s", simString(s))
			if !strings.EqualFold(s.Pool, pool.Hex()) {
				t.Errorf("simulated against %s, want %s", s.Pool, pool.Hex())
			}
			checkBool(t, "can_buy", s.CanBuy, new(true))
			checkBool(t, "can_sell", s.CanSell, new(true))
			near(t, "buy_tax", s.BuyTax, 0, 1)
			near(t, "sell_tax", s.SellTax, 0, 1)
			for _, c := range []string{risk.HoneypotCannotBuy, risk.HoneypotCannotSell, risk.SimulationFailed} {
				if slices.Contains(codes, c) {
					t.Errorf("unexpected %s", c)
				}
			}
		})
	}
}

// TestSimulationTaxesIgnoreAnOverestimatedPoolFee: the simulation asked to
// assume a pool fee ten times the real one (as for an unconfigured Solidly
// pool) measures the same taxes, since they are measured against what was
// asked of the pool.
func TestSimulationTaxesIgnoreAnOverestimatedPoolFee(t *testing.T) {
	tests := []struct {
		kind            string
		buy, sell, xfer [2]float64
		canBuy, canSell bool
	}{
		{"clean", [2]float64{0, 1}, [2]float64{0, 1}, [2]float64{0, 1}, true, true},
		{"tax_sell_high", [2]float64{4, 6}, [2]float64{28, 32}, [2]float64{0, 1}, true, true},
		{"fee_on_transfer", [2]float64{0, 1}, [2]float64{0, 1}, [2]float64{4, 6}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			sim := simulateZooWith(t, tt.kind, func(r *simulation.SimulationRequest) { r.FeeBps = SolidlyMaxFeeBps })
			t.Logf("simulation: %s", simString(sim))
			checkBool(t, "can_buy", sim.CanBuy, &tt.canBuy)
			checkBool(t, "can_sell", sim.CanSell, &tt.canSell)
			checkRange(t, "buy_tax", sim.BuyTax, &tt.buy)
			checkRange(t, "sell_tax", sim.SellTax, &tt.sell)
			checkRange(t, "transfer_tax", sim.TransferTax, &tt.xfer)
		})
	}
}
