package evm

import (
	"os"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// requireV4 skips a test that needs the Uniswap V4 build when
// contracts/v4/out is absent, and fails it instead when
// TOKENRISK_REQUIRE_V4=1 (CI builds V4 and sets it).
func requireV4(t testing.TB) {
	t.Helper()
	if contracts.UniswapV4Built() {
		return
	}
	if os.Getenv("TOKENRISK_REQUIRE_V4") == "1" {
		t.Fatalf("TOKENRISK_REQUIRE_V4=1 but %v", contracts.ErrNotBuilt)
	}
	t.Skipf("the V4 zoo kinds are not deployed: %v", contracts.ErrNotBuilt)
}

// TestV4ZooDeployed makes the V4 kinds' absence visible: without the V4
// build TestAdapterOnDevnetZoo has no V4 kind to scan, so this skips (or
// fails under TOKENRISK_REQUIRE_V4=1).
func TestV4ZooDeployed(t *testing.T) {
	requireV4(t)
	dn := startAdapterNet(t)
	for _, kind := range []string{"v4_clean", "v4_hook_fee_capped", "v4_hook_sell_blocked", "v4_hook_fee_changeable", "v2_and_v4"} {
		if _, ok := dn.Manifest().Token(kind); !ok {
			t.Errorf("the devnet has no %s token", kind)
		}
	}
}

// v4PoolOf is the report's V4 pool of the token (the manifest's pool id).
func v4PoolOf(t *testing.T, r *scan.Report, tok devnet.ManifestToken) analysis.EVMPool {
	t.Helper()
	ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
	for _, p := range ev.Pools {
		if p.Kind == "v4" {
			if p.PoolID != tok.V4PoolID || p.Address != tok.V4PoolID || p.V4Key == nil {
				t.Errorf("V4 pool %+v, want id %s with its key", p, tok.V4PoolID)
			}
			return p
		}
	}
	t.Fatalf("no V4 pool among %+v", ev.Pools)
	return analysis.EVMPool{}
}

// checkV4Pool checks what a user reads of a zoo V4 pool: its manager, its
// key (native ETH as currency0, the token as currency1, the manifest's
// hook), its LP fee, its value near 2 × its ETH side at ~3000 USD, and an
// LP lock status that is unknown, never locked.
func checkV4Pool(t *testing.T, r *scan.Report, kind string, eth float64) {
	t.Helper()
	tok := v4Token(t, kind)
	p := v4PoolOf(t, r, tok)
	zero := "0x0000000000000000000000000000000000000000"
	hook := tok.Hook
	if hook == "" {
		hook = zero
	}
	if p.PoolManager == "" || p.V4Key.Currency0 != zero || !strings.EqualFold(p.V4Key.Currency1, tok.Address) ||
		!strings.EqualFold(p.V4Key.Hooks, hook) || p.QuoteToken != "ETH" || p.LPFee == nil || *p.LPFee != 3000 {
		t.Errorf("V4 pool %+v key %+v, want native ETH / token, hooks %s, LP fee 3000", p, p.V4Key, hook)
	}
	near(t, "V4 liquidity_usd", p.LiquidityUSD, 2*eth*3000, 0.05*2*eth*3000)
	if p.LPBurnedPct != nil || p.LPLockedPct != nil {
		t.Errorf("V4 LP burned %v locked %v, want unknown", fmtPtr(p.LPBurnedPct), fmtPtr(p.LPLockedPct))
	}
}

// v4Token is the adapter devnet's token of kind.
func v4Token(t *testing.T, kind string) devnet.ManifestToken {
	t.Helper()
	return zooToken(t, adapterNet.dn, kind)
}

// checkV4Sim checks the simulation ran through the V4 pool (path v4), its
// hook's cut apart from the token's own taxes (0: the tokens are clean).
func checkV4Sim(t *testing.T, r *scan.Report, kind string, canSell bool, hookPct float64) {
	t.Helper()
	s := simOf(t, r)
	tok := v4Token(t, kind)
	if s.Path != "v4" || s.Pool != tok.V4PoolID {
		t.Errorf("simulation path %q pool %s, want v4 through %s", s.Path, s.Pool, tok.V4PoolID)
	}
	checkBool(t, "can_buy", s.CanBuy, new(true))
	checkBool(t, "can_sell", s.CanSell, new(canSell))
	for _, n := range s.Notes {
		if strings.Contains(n, "did not run") || strings.Contains(n, "wallet") {
			t.Errorf("note %q: the wallet path through the V4 pool did not run or disagreed", n)
		}
	}
	near(t, "buy_tax", s.BuyTax, 0, 0.5)
	near(t, "transfer_tax", s.TransferTax, 0, 0.5)
	// The real holders sell through the V4 pool too (the hook refuses
	// every one of them where it refuses the fresh wallet).
	if hs := s.HolderSells; hs == nil || hs.Tried == 0 || (hs.Failed == 0) != canSell || !canSell && hs.Failed != hs.Tried {
		t.Errorf("holder_sells %+v, want tried > 0 and every sell %s", hs, map[bool]string{true: "working", false: "refused"}[canSell])
	} else {
		t.Logf("%s: holder_sells tried %d failed %d average tax %v", kind, hs.Tried, hs.Failed, fmtPtr(hs.AverageTax))
	}
	if tok.Hook == "" {
		if s.Hook != nil {
			t.Errorf("hook %+v on a pool without one", s.Hook)
		}
	} else if s.Hook == nil || !strings.EqualFold(s.Hook.Address, tok.Hook) {
		t.Errorf("hook %+v, want %s", s.Hook, tok.Hook)
	} else {
		near(t, "hook buy_fee", s.Hook.BuyFee, hookPct, 0.1)
		if canSell {
			near(t, "hook sell_fee", s.Hook.SellFee, hookPct, 0.1)
		}
	}
	if canSell {
		near(t, "sell_tax", s.SellTax, 0, 0.5)
	}
}

// The V4 kinds' expectations, in TestAdapterOnDevnetZoo's table: the hook
// is each token's only risk (the tokens are clean and renounced).
func init() {
	for kind, v := range map[string]verdict{
		"v4_clean": {maxLevel: risk.LevelLow, noneOf: []string{risk.SimulationFailed, risk.NoLiquidity}, check: func(t *testing.T, r *scan.Report) {
			noHighFlag(t, r)
			checkV4Pool(t, r, "v4_clean", 20.3)
			checkV4Sim(t, r, "v4_clean", true, 0)
			noHooks(t, r)
			if !r.SafetyChecklist.NotHoneypot || r.SafetyChecklist.LiquidityLocked {
				t.Errorf("checklist %+v, want not_honeypot and liquidity_locked false (V4 LP unknown)", r.SafetyChecklist)
			}
		}},
		// A capped 3% hook is at most low on its own: its owner can raise
		// the cut to 5% (measured) and cannot close sells.
		"v4_hook_fee_capped": {maxLevel: risk.LevelLow, allOf: []string{risk.HookFeeChangeable, risk.HookTakesCut},
			noneOf: []string{risk.SellTaxHigh, risk.BuyTaxHigh, risk.SimulationFailed, risk.HookCanBlockSells}, check: func(t *testing.T, r *scan.Report) {
				checkV4Pool(t, r, "v4_hook_fee_capped", 20.3)
				checkV4Sim(t, r, "v4_hook_fee_capped", true, 3)
				checkHook(t, r, "v4_hook_fee_capped", 5, false)
			}},
		// A hook that reverts sells is a honeypot: critical.
		"v4_hook_sell_blocked": {allOf: []string{risk.HoneypotCannotSell, risk.HookCanBlockSells}, minLevel: risk.LevelCritical, check: func(t *testing.T, r *scan.Report) {
			notHoneypotFalse(t, r)
			checkHook(t, r, "v4_hook_sell_blocked", 0, true)
			if h := hookOf(t, r, "v4_hook_sell_blocked"); h.SellsBlocked == nil || !*h.SellsBlocked {
				t.Errorf("hook sells_blocked %v, want true", fmtPtr(h.SellsBlocked))
			}
			checkV4Sim(t, r, "v4_hook_sell_blocked", false, 0)
			s := simOf(t, r)
			if tok := v4Token(t, "v4_hook_sell_blocked"); s.Error == nil || !strings.Contains(*s.Error, tok.Hook) {
				t.Errorf("simulation error %v, want the sell's revert naming the hook %s", fmtPtr(s.Error), tok.Hook)
			}
		}},
		// Sells work today, but the hook's owner can take 100% or close
		// sells with one call (proven): critical.
		"v4_hook_fee_changeable": {allOf: []string{risk.HookCanBlockSells, risk.HookFeeChangeable}, minLevel: risk.LevelCritical,
			noneOf: []string{risk.HoneypotCannotSell, risk.HoneypotCannotBuy, risk.SimulationFailed}, check: func(t *testing.T, r *scan.Report) {
				checkV4Pool(t, r, "v4_hook_fee_changeable", 20.3)
				checkV4Sim(t, r, "v4_hook_fee_changeable", true, 1)
				checkHook(t, r, "v4_hook_fee_changeable", 100, true)
			}},
		// Both pools listed; the deeper V2 pool (12 ETH against 8) decides.
		"v2_and_v4": {maxLevel: risk.LevelLow, noneOf: []string{risk.SimulationFailed}, check: func(t *testing.T, r *scan.Report) {
			noHighFlag(t, r)
			ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
			if len(ev.Pools) != 2 || ev.Pools[0].Kind != "v2" || ev.Pools[1].Kind != "v4" {
				t.Fatalf("pools %+v, want the V2 pool then the V4 pool", ev.Pools)
			}
			checkV4Pool(t, r, "v2_and_v4", 8.3)
			noHooks(t, r)
			near(t, "total_liquidity_usd", ev.TotalLiquidityUSD, 2*20*3000, 0.1*2*20*3000)
			s := simOf(t, r)
			if s.Path == "v4" || s.Pool != ev.Pools[0].Address {
				t.Errorf("simulation path %s pool %s, want the V2 pool %s", s.Path, s.Pool, ev.Pools[0].Address)
			}
			if !r.SafetyChecklist.LiquidityLocked {
				t.Errorf("liquidity_locked false: the main (V2) pool's LP is burned")
			}
		}},
	} {
		zooVerdicts[kind] = v
	}
}

// withoutV4 is ch without its Uniswap V4 deployments.
func withoutV4(ch chains.Chain) chains.Chain {
	var dexes []chains.DEX
	for _, d := range ch.DEXes {
		if d.Kind != "v4" {
			dexes = append(dexes, d)
		}
	}
	ch.DEXes = dexes
	return ch
}

// TestV4RoundTripBudget counts the upstream HTTP requests of a scan (the
// holder rebuild's log pages apart): the V4 log search rides detection and
// the V4 state and simulation ride round trip 2, so a scan stays within
// three requests with V4 pools, without them, and without a V4 deployment.
func TestV4RoundTripBudget(t *testing.T) {
	requireV4(t)
	dn := startAdapterNet(t)
	p := newRPCProxy(t, dn.RPCURL(), 0, 0)
	ch := dn.Chain()
	ch.RPC = []string{p.URL()}
	for _, tt := range []struct {
		kind  string
		chain chains.Chain
	}{
		{"v4_clean", ch}, {"v4_hook_sell_blocked", ch}, {"v2_and_v4", ch}, {"clean", ch}, {"clean", withoutV4(ch)},
		{"proxy_custom_slot", ch}, {"proxy_beacon", ch},
	} {
		tok := v4Token(t, tt.kind)
		ad := NewAdapter(devnetRegistry(t, tt.chain), Options{})
		req0, pages0, bytes0 := p.requests.Load(), p.logPages.Load(), p.bytes.Load()
		r, err := assess(t, ad, tok.Address)
		if err != nil {
			t.Fatal(err)
		}
		reqs := p.requests.Load() - req0 - (p.logPages.Load() - pages0)
		t.Logf("%s (V4 deployment: %v): %d requests, %d log pages, %d KB sent, level %s", tt.kind, len(tt.chain.DEXes) > 1, reqs, p.logPages.Load()-pages0, (p.bytes.Load()-bytes0)/1024, r.RiskLevel)
		if reqs > 3 {
			t.Errorf("%s: %d upstream requests (log pages apart), want at most 3", tt.kind, reqs)
		}
	}
}
