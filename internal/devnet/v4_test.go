package devnet

import (
	"context"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// needV4 skips a test of the V4 zoo when Uniswap V4 was not built before
// this test binary (contracts/v4/build.sh); CI builds it and sets
// TOKENRISK_REQUIRE_V4, which turns the skip into a failure.
func needV4(t *testing.T) {
	t.Helper()
	if !contracts.UniswapV4Built() {
		if os.Getenv("TOKENRISK_REQUIRE_V4") != "" {
			t.Fatal(contracts.ErrNotBuilt)
		}
		t.Skip(contracts.ErrNotBuilt)
	}
	needZoo(t)
}

func TestV4Deployed(t *testing.T) {
	needV4(t)
	m := dn.Manifest()
	if !strings.HasPrefix(m.UniswapV4, "deployed: @uniswap/v4-core@") {
		t.Errorf("manifest uniswap_v4 = %q, want the npm build named", m.UniswapV4)
	}
	code, err := dn.Backend().Client().CodeAt(context.Background(), addr(m.PoolManager), nil)
	if err != nil || len(code) < 20_000 {
		t.Fatalf("PoolManager code: %d bytes, err %v", len(code), err)
	}
	var v4 int
	for _, d := range m.Chain(dn.RPCURL()).DEXes {
		if d.Kind == "v4" && d.PoolManager == m.PoolManager {
			v4++
		}
	}
	if v4 != 1 {
		t.Errorf("the devnet chain names %d V4 deployments, want 1", v4)
	}
	// Every V4 kind's pool was initialized: one Initialize log whose
	// indexed currency1 is the token (native ETH is currency0).
	pm, err := contracts.UniswapV4("PoolManager")
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"v4_clean", "v4_hook_fee_capped", "v4_hook_sell_blocked", "v4_hook_fee_changeable", "v2_and_v4"} {
		tok := token(t, kind)
		logs, err := dn.Backend().Client().FilterLogs(context.Background(), ethereum.FilterQuery{
			Addresses: []common.Address{addr(m.PoolManager)},
			Topics:    [][]common.Hash{{pm.ABI.Events["Initialize"].ID}, {common.HexToHash(tok.V4PoolID)}, {{}}, {common.BytesToHash(addr(tok.Address).Bytes())}},
		})
		if err != nil || len(logs) != 1 {
			t.Errorf("%s: %d Initialize logs for pool %s (err %v), want 1", kind, len(logs), tok.V4PoolID, err)
		}
		if tok.Hook != "" {
			if bits := addr(tok.Hook).Big().Uint64() & v4FlagMask; bits != v4TaxHookFlags {
				t.Errorf("%s: hook %s has permission bits %#x, want %#x", kind, tok.Hook, bits, v4TaxHookFlags)
			}
		}
	}
}

// v4Key is the manifest token's V4 pool key (native ETH against it).
func v4Key(tok ManifestToken) v4PoolKey {
	return sortedKey(addr(tok.Address), common.Address{}, addr(tok.Hook))
}

// v4Buy buys with eth on the token's V4 pool; it reports success and the
// tokens received.
func v4Buy(t *testing.T, buyer common.Address, tok ManifestToken, eth *big.Int) (bool, *big.Int) {
	t.Helper()
	before := balanceOf(t, addr(tok.Address), buyer)
	data := pack(t, "V4Router", "swapExactIn", v4Key(tok), true, eth, big.NewInt(0), buyer)
	ok := transact(t, buyer, addr(dn.Manifest().V4Router), eth, data).Status == types.ReceiptStatusSuccessful
	return ok, new(big.Int).Sub(balanceOf(t, addr(tok.Address), buyer), before)
}

// Each V4 kind does what its manifest says, by real transactions: buys
// work, the hook's cut is its fee, sells work except where the hook
// closed them.
func TestV4ZooTrades(t *testing.T) {
	needV4(t)
	router := addr(dn.Manifest().V4Router)
	tests := []struct {
		kind    string
		cutBps  int64 // the hook's share of the buy's output
		canSell bool
	}{
		{"v4_clean", 0, true},
		{"v4_hook_fee_capped", 300, true},
		{"v4_hook_sell_blocked", 0, false},
		{"v4_hook_fee_changeable", 100, true},
		{"v2_and_v4", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			tok := token(t, tt.kind)
			buyer := wallet(t, "v4 "+tt.kind)
			hookBefore := new(big.Int)
			if tok.Hook != "" {
				hookBefore = balanceOf(t, addr(tok.Address), addr(tok.Hook))
			}
			ok, got := v4Buy(t, buyer, tok, ether(1))
			if !ok || got.Sign() == 0 {
				t.Fatalf("buy on V4: ok %v, received %s", ok, got)
			}
			if tok.Hook != "" {
				cut := new(big.Int).Sub(balanceOf(t, addr(tok.Address), addr(tok.Hook)), hookBefore)
				total := new(big.Int).Add(cut, got)
				if bps := new(big.Int).Div(new(big.Int).Mul(cut, big.NewInt(10_000)), total).Int64(); bps < tt.cutBps-1 || bps > tt.cutBps {
					t.Errorf("the hook took %d bps of the buy's output, want %d", bps, tt.cutBps)
				}
			}
			mustSend(t, buyer, addr(tok.Address), erc20ABI, "approve", router, got)
			sold := send(t, buyer, router, "V4Router", "swapExactIn", v4Key(tok), false, new(big.Int).Div(got, big.NewInt(2)), big.NewInt(0), buyer)
			if sold != tt.canSell {
				t.Errorf("sell on V4 succeeded = %v, want %v", sold, tt.canSell)
			}
		})
	}
}

// The hooks' owners can change what the manifest says they can: the
// capped hook refuses a fee above 5% and has no sell switch, the open one
// takes 100% and closes sells.
func TestV4HookPowers(t *testing.T) {
	needV4(t)
	call := func(from common.Address, tok ManifestToken, bps int64) error {
		to := addr(tok.Hook)
		_, err := dn.Backend().Client().CallContract(context.Background(), ethereum.CallMsg{From: from, To: &to, Data: pack(t, "TaxHook", "setFee", big.NewInt(bps))}, nil)
		return err
	}
	capped, open := token(t, "v4_hook_fee_capped"), token(t, "v4_hook_fee_changeable")
	if err := call(addr(capped.Creator), capped, 500); err != nil {
		t.Errorf("capped hook: owner's setFee(5%%) failed: %v", err)
	}
	if err := call(addr(capped.Creator), capped, 501); err == nil {
		t.Error("capped hook: owner's setFee(5.01%) succeeded, want a revert")
	}
	if err := call(addr(open.Creator), open, 10_000); err != nil {
		t.Errorf("open hook: owner's setFee(100%%) failed: %v", err)
	}
	if err := call(wallet(t, "v4 stranger"), open, 10_000); err == nil {
		t.Error("open hook: a stranger's setFee succeeded")
	}
	closeSells := func(tok ManifestToken) error {
		to := addr(tok.Hook)
		_, err := dn.Backend().Client().CallContract(context.Background(), ethereum.CallMsg{From: addr(tok.Creator), To: &to, Data: pack(t, "TaxHook", "setSellsBlocked", true)}, nil)
		return err
	}
	if err := closeSells(capped); err == nil {
		t.Error("capped hook: the owner closed sells, want a revert (no switch)")
	}
	if err := closeSells(open); err != nil {
		t.Errorf("open hook: the owner's setSellsBlocked(true) failed: %v", err)
	}
}
