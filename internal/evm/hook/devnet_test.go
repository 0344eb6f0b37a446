package hook_test

import (
	"context"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/evm/hook"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// startDevnet boots a devnet with the V4 zoo, or skips without the V4
// build (a failure where CI requires it).
func startDevnet(t *testing.T) (*devnet.Devnet, *rpc.Client) {
	t.Helper()
	if !contracts.UniswapV4Built() {
		if os.Getenv("TOKENRISK_REQUIRE_V4") != "" {
			t.Fatal(contracts.ErrNotBuilt)
		}
		t.Skip(contracts.ErrNotBuilt)
	}
	dn, err := devnet.Start(context.Background(), devnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dn.Close() })
	c, err := rpc.Dial(dn.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return dn, c
}

// judge finds the token's V4 pool and judges its hook as a scan does: the
// logs and the pool's state, then the hook's read (one batch), then its
// probe (one batch). It returns the facts and the probe's eth_call count.
func judge(t *testing.T, c *rpc.Client, m devnet.Manifest, kind string) (analysis.EVMHook, int) {
	t.Helper()
	ctx := context.Background()
	tok, ok := m.Token(kind)
	if !ok {
		t.Fatalf("no %s in the manifest", kind)
	}
	manager, token := common.HexToAddress(m.PoolManager), common.HexToAddress(tok.Address)
	q := v4.NewLogQuery(manager, token, 0)
	if err := c.BatchCallContext(ctx, q.Elems()); err != nil {
		t.Fatal(err)
	}
	pools, err := q.Pools()
	if err != nil || len(pools) != 1 {
		t.Fatalf("%s: pools %v, %v", kind, pools, err)
	}
	p := &pools[0]
	sc := v4.NewStateCall(manager, []*v4.Pool{p})
	read := hook.NewRead(p.Key.Hooks)
	if err := c.BatchCallContext(ctx, append(sc.Elems(), read.Elems()...)); err != nil {
		t.Fatal(err)
	}
	if err := sc.Apply(); err != nil {
		t.Fatal(err)
	}
	code, err := read.Decode(manager, p.Key.Currency0, p.Key.Currency1)
	if err != nil {
		t.Fatalf("%s: read: %v", kind, err)
	}
	pc, err := hook.NewProbeCall(hook.Request{Code: code, Pool: *p, Token: token})
	if err != nil {
		t.Fatalf("%s: probe: %v", kind, err)
	}
	if err := c.BatchCallContext(ctx, pc.Elems()); err != nil {
		t.Fatal(err)
	}
	return hook.Judgment{Pool: *p, Code: code, Probe: pc, VerifyNote: "no explorer on the devnet"}.Facts(), len(pc.Elems())
}

func near(v *float64, want, tol float64) bool { return v != nil && math.Abs(*v-want) <= tol }

func isTrue(b *bool) bool  { return b != nil && *b }
func isFalse(b *bool) bool { return b != nil && !*b }

// Every hooked zoo kind judged on the devnet: its permissions, owner and
// setters read from its address and code, the cut it takes now and the
// ceiling its owner can raise it to measured by simulation, sells it
// blocks now or after one owner call, and the level its flags read alone.
func TestHookJudgmentOnDevnet(t *testing.T) {
	dn, c := startDevnet(t)
	m := dn.Manifest()
	cat := risk.NewCatalogue()
	for _, tc := range []struct {
		kind                 string
		cutNow, ceiling      float64
		blockedNow, canBlock bool
		levels               []risk.Level // the level the hook's flags read alone
	}{
		{"v4_hook_fee_capped", 3, 5, false, false, []risk.Level{risk.Minimal, risk.LevelLow}},
		{"v4_hook_fee_changeable", 1, 100, false, true, []risk.Level{risk.LevelCritical}},
		{"v4_hook_sell_blocked", 0, 0, true, true, []risk.Level{risk.LevelCritical}},
	} {
		h, calls := judge(t, c, m, tc.kind)
		tok, _ := m.Token(tc.kind)
		t.Logf("%s: %d probe eth_call(s); cut buy %v sell %v; ceiling %v by %q; block %v by %q; drain %v; unknown %q",
			tc.kind, calls, deref(h.BuyCutPct), deref(h.SellCutPct), deref(h.FeeCeilingPct), h.FeeBy, deref(h.CanBlockSells), h.BlockBy, deref(h.CanDrain), h.Unknown)
		if want := []string{"beforeSwap", "afterSwap", "afterSwapReturnDelta"}; !slices.Equal(h.Permissions, want) || !h.TakesCut {
			t.Errorf("%s: permissions %v takes_cut %v, want %v and a cut", tc.kind, h.Permissions, h.TakesCut, want)
		}
		if h.Owner == nil || !strings.EqualFold(*h.Owner, tok.Creator) {
			t.Errorf("%s: owner %v, want the creator %s", tc.kind, h.Owner, tok.Creator)
		}
		if !isFalse(h.Upgradeable) || !slices.Contains(h.Setters, "setFee(uint256)") {
			t.Errorf("%s: upgradeable %v setters %v", tc.kind, deref(h.Upgradeable), h.Setters)
		}
		if isTrue(h.SellsBlocked) != tc.blockedNow || isTrue(h.CanBlockSells) != tc.canBlock || !isFalse(h.CanDrain) {
			t.Errorf("%s: sells blocked now %v, can block %v (%s), can drain %v; want %v, %v, false",
				tc.kind, deref(h.SellsBlocked), deref(h.CanBlockSells), h.BlockBy, deref(h.CanDrain), tc.blockedNow, tc.canBlock)
		}
		if !tc.blockedNow {
			if !near(h.BuyCutPct, tc.cutNow, 0.05) || !near(h.SellCutPct, tc.cutNow, 0.05) {
				t.Errorf("%s: cut now buy %v sell %v, want %v%%", tc.kind, deref(h.BuyCutPct), deref(h.SellCutPct), tc.cutNow)
			}
			if !isTrue(h.FeeChangeable) || !near(h.FeeCeilingPct, tc.ceiling, 0.05) || !strings.Contains(h.FeeBy, "setFee") {
				t.Errorf("%s: fee changeable %v ceiling %v by %q, want up to %v%% by setFee", tc.kind, deref(h.FeeChangeable), deref(h.FeeCeilingPct), h.FeeBy, tc.ceiling)
			}
		}
		flags, _ := analysis.AnalyseEVMHooks([]analysis.EVMHook{h})
		res := cat.Score(flags)
		var codes []string
		for _, f := range flags {
			codes = append(codes, f.Code+":"+string(f.Severity))
		}
		if !slices.Contains(tc.levels, res.Level) {
			t.Errorf("%s: hook flags %v read %s (%.1f), want %v", tc.kind, codes, res.Level, res.Overall, tc.levels)
		}
		if !tc.blockedNow && !slices.Contains(codes, "HOOK_FEE_CHANGEABLE:"+string(severityOf(tc.ceiling))) {
			t.Errorf("%s: hook flags %v, want HOOK_FEE_CHANGEABLE at %s", tc.kind, codes, severityOf(tc.ceiling))
		}
	}
}

func severityOf(ceiling float64) risk.Severity {
	if ceiling <= risk.FeeCappedPct {
		return risk.Low
	}
	return risk.High
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
