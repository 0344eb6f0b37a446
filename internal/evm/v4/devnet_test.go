package v4_test

import (
	"context"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
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

// findPools runs the log query and the state read for token, as a scan does.
func findPools(t *testing.T, c *rpc.Client, manager, token common.Address) []v4.Pool {
	t.Helper()
	ctx := context.Background()
	q := v4.NewLogQuery(manager, token, 0)
	if err := c.BatchCallContext(ctx, q.Elems()); err != nil {
		t.Fatal(err)
	}
	pools, err := q.Pools()
	if err != nil {
		t.Fatal(err)
	}
	if len(pools) == 0 {
		return nil
	}
	ptrs := make([]*v4.Pool, len(pools))
	for i := range pools {
		ptrs[i] = &pools[i]
	}
	sc := v4.NewStateCall(manager, ptrs)
	if err := c.BatchCallContext(ctx, sc.Elems()); err != nil {
		t.Fatal(err)
	}
	if err := sc.Apply(); err != nil {
		t.Fatal(err)
	}
	return pools
}

func TestPoolsOnDevnet(t *testing.T) {
	dn, c := startDevnet(t)
	m := dn.Manifest()
	manager := common.HexToAddress(m.PoolManager)
	for _, kind := range []string{"v4_clean", "v4_hook_fee_capped", "v2_and_v4"} {
		tok, _ := m.Token(kind)
		token := common.HexToAddress(tok.Address)
		pools := findPools(t, c, manager, token)
		if len(pools) != 1 {
			t.Fatalf("%s: %d pools, want 1", kind, len(pools))
		}
		p := pools[0]
		if p.ID.Hex() != tok.V4PoolID || p.Key.Currency0 != (common.Address{}) || p.Key.Currency1 != token || p.Key.Hooks.Hex() != hookOr0(tok.Hook) {
			t.Errorf("%s: pool %s key %+v; manifest pool %s hook %q", kind, p.ID.Hex(), p.Key, tok.V4PoolID, tok.Hook)
		}
		if p.State == nil || p.State.LPFee != 3000 || p.State.Liquidity.Sign() == 0 {
			t.Fatalf("%s: state %+v", kind, p.State)
		}
		// The native side of the full-range pool is what was added (20 ETH,
		// 8 for the V2+V4 token) plus the setup's buys (0.3 ETH) less its
		// one sell, within 1%.
		eth, _ := p.State.Reserves()
		want := big.NewInt(20)
		if kind == "v2_and_v4" {
			want = big.NewInt(8)
		}
		want.Mul(want, big.NewInt(1e18)).Add(want, big.NewInt(3e17))
		if diff := new(big.Int).Abs(new(big.Int).Sub(eth, want)); diff.Cmp(new(big.Int).Div(want, big.NewInt(100))) > 0 {
			t.Errorf("%s: native virtual reserve %s, want about %s", kind, eth, want)
		}
	}
	// A token with no V4 pool: nothing found (and no error).
	clean, _ := m.Token("clean")
	if pools := findPools(t, c, manager, common.HexToAddress(clean.Address)); len(pools) != 0 {
		t.Errorf("clean (V2 only): %d V4 pools", len(pools))
	}
}

func hookOr0(h string) string {
	if h == "" {
		return common.Address{}.Hex()
	}
	return h
}

// The simulator trades through each V4 kind with its hook running: the
// hook's cut shows against the hook-free twin, the token's own transfer
// is untaxed, and the sell-blocking hook's revert is the sell's error.
func TestSimulationOnDevnet(t *testing.T) {
	dn, c := startDevnet(t)
	m := dn.Manifest()
	manager := common.HexToAddress(m.PoolManager)
	tests := []struct {
		kind    string
		cutBps  int64
		canSell bool
	}{
		{"v4_clean", 0, true},
		{"v4_hook_fee_capped", 300, true},
		{"v4_hook_fee_changeable", 100, true},
		{"v4_hook_sell_blocked", 0, false},
		{"v2_and_v4", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			tok, _ := m.Token(tt.kind)
			token := common.HexToAddress(tok.Address)
			pools := findPools(t, c, manager, token)
			if len(pools) != 1 {
				t.Fatalf("%d pools", len(pools))
			}
			elems, decode, err := v4.SimulationCall(v4.SimulationRequest{Pool: pools[0], Token: token})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.BatchCallContext(context.Background(), elems); err != nil {
				t.Fatal(err)
			}
			s, err := decode()
			if err != nil {
				t.Fatal(err)
			}
			if !s.BuyOK || !s.TwinOK || s.BuyReceived.Cmp(s.BuyCredit) != 0 {
				t.Fatalf("buy ok %v (%q), twin %v, received %s of %s", s.BuyOK, s.BuyError, s.TwinOK, s.BuyReceived, s.BuyCredit)
			}
			if got := cutBps(s.BuyCredit, s.BuyTwin); got < tt.cutBps-1 || got > tt.cutBps+1 {
				t.Errorf("buy: the hook took %d bps against the twin, want %d", got, tt.cutBps)
			}
			if !s.TransferOK || s.TransferReceived.Cmp(s.TransferSent) != 0 {
				t.Errorf("transfer ok %v, %s of %s", s.TransferOK, s.TransferReceived, s.TransferSent)
			}
			if s.SellOK != tt.canSell {
				t.Fatalf("sell ok %v (error %q), want %v", s.SellOK, s.SellError, tt.canSell)
			}
			if !tt.canSell {
				if len(s.SellError) == 0 {
					t.Error("a refused sell without its revert data")
				}
				return
			}
			if s.SellPaid.Cmp(s.SellSent) != 0 || s.SellReceived.Cmp(s.SellCredit) != 0 {
				t.Errorf("sell: paid %s of %s, received %s of %s", s.SellPaid, s.SellSent, s.SellReceived, s.SellCredit)
			}
			if got := cutBps(s.SellCredit, s.SellTwin); got < tt.cutBps-1 || got > tt.cutBps+1 {
				t.Errorf("sell: the hook took %d bps against the twin, want %d", got, tt.cutBps)
			}
		})
	}
}

// cutBps is 10 000 × (1 − got/twin), rounded to the nearest bp.
func cutBps(got, twin *big.Int) int64 {
	if twin == nil || twin.Sign() == 0 {
		return -1
	}
	d := new(big.Int).Mul(new(big.Int).Sub(twin, got), big.NewInt(20_000))
	d.Div(d, twin)
	return (d.Int64() + 1) / 2
}

// A fresh wallet trades through each V4 kind as a user does: it buys
// through a router holding the PoolManager's lock, approves it and sells
// its whole holding, pulled by transferFrom during the settle. The tokens
// are clean (0% taxes both ways); the trap hook refuses the sell (now and
// one DelayedSell later), naming itself.
func TestWalletOnDevnet(t *testing.T) {
	dn, c := startDevnet(t)
	m := dn.Manifest()
	manager := common.HexToAddress(m.PoolManager)
	tests := []struct {
		kind    string
		canSell bool
	}{
		{"v4_clean", true},
		{"v4_hook_fee_capped", true},
		{"v4_hook_fee_changeable", true},
		{"v4_hook_sell_blocked", false},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			tok, _ := m.Token(tt.kind)
			token := common.HexToAddress(tok.Address)
			pools := findPools(t, c, manager, token)
			if len(pools) != 1 {
				t.Fatalf("%d pools", len(pools))
			}
			elems, decode, err := v4.WalletCall(v4.WalletRequest{Pool: pools[0], Token: token, BlockTime: latestTime(t, c), DelayedSell: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.BatchCallContext(context.Background(), elems); err != nil {
				t.Fatal(err)
			}
			s, why := decode()
			if s == nil {
				t.Fatalf("the wallet path did not run: %s", why)
			}
			if s.CanBuy == nil || !*s.CanBuy || s.BuyTax == nil || *s.BuyTax != 0 {
				t.Fatalf("buy %v tax %v (error %v), want a 0%% buy", ptr(s.CanBuy), ptr(s.BuyTax), ptr(s.Error))
			}
			if s.CanSell == nil || *s.CanSell != tt.canSell {
				t.Fatalf("can_sell %v (error %v), want %v", ptr(s.CanSell), ptr(s.Error), tt.canSell)
			}
			if tt.canSell {
				if s.SellTax == nil || *s.SellTax != 0 {
					t.Errorf("sell tax %v, want 0", ptr(s.SellTax))
				}
				return
			}
			if s.Error == nil || !strings.Contains(*s.Error, tok.Hook) || s.Cooldown == nil || *s.Cooldown {
				t.Errorf("error %v cooldown %v, want the sell's revert naming the hook %s, no cooldown", ptr(s.Error), ptr(s.Cooldown), tok.Hook)
			}
		})
	}
}

func latestTime(t *testing.T, c *rpc.Client) uint64 {
	t.Helper()
	var h struct {
		Time hexutil.Uint64 `json:"timestamp"`
	}
	if err := c.CallContext(context.Background(), &h, "eth_getBlockByNumber", "latest", false); err != nil {
		t.Fatal(err)
	}
	return uint64(h.Time)
}

func ptr[T any](p *T) any {
	if p == nil {
		return "nil"
	}
	return *p
}
