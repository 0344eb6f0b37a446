package devnet

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// routerSellAt runs the router sell of amount (approved beforehand) as an
// eth_call with block overrides (nil: the head as it is) and says whether
// it went through: a sell in the future without moving the devnet's clock.
func routerSellAt(t *testing.T, seller common.Address, tok ManifestToken, amount *big.Int, overrides map[string]any) bool {
	t.Helper()
	m := dn.Manifest()
	c, err := rpc.DialContext(context.Background(), dn.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := pack(t, "V2Router", "swapExactTokensForETHSupportingFeeOnTransferTokens",
		amount, big.NewInt(0), []common.Address{addr(tok.Address), addr(m.WETH)}, seller, maxDeadline)
	msg := map[string]any{"from": seller, "to": addr(m.Router), "data": hexutil.Bytes(data), "gas": hexutil.Uint64(3_000_000)}
	var out hexutil.Bytes
	args := []any{msg, "latest"}
	if overrides != nil {
		args = append(args, map[string]any{}, overrides)
	}
	return c.CallContext(context.Background(), &out, "eth_call", args...) == nil
}

// holderOf is the i-th launch holder of a zoo token.
func holderOf(t *testing.T, kind string, i int) common.Address {
	t.Helper()
	for j, s := range zooSpecs() {
		if s.kind == kind {
			a, err := newAccount(fmt.Sprintf("holder %d", ((j*7)%holderCount+i)%holderCount), nil)
			if err != nil {
				t.Fatal(err)
			}
			return a.addr
		}
	}
	t.Fatalf("no spec %s", kind)
	return common.Address{}
}

func TestFieldZooTransferFromTraps(t *testing.T) {
	needZoo(t)
	for _, kind := range []string{"honeypot_transferfrom", "honeypot_transferfrom_list"} {
		t.Run(kind, func(t *testing.T) {
			tok := token(t, kind)
			victim := wallet(t, kind+" victim")
			ok, got := buy(t, victim, addr(tok.Address), big.NewInt(1e17))
			if !ok || got.Sign() == 0 {
				t.Fatalf("buy ok=%v got %v", ok, got)
			}
			if ok, _ := sell(t, victim, tok, new(big.Int).Div(got, big.NewInt(2))); ok {
				t.Error("a router sell (transferFrom into the pair) went through, want a revert")
			}
			if !send(t, victim, addr(tok.Address), erc20ABI, "transfer", addr(tok.Pair), new(big.Int).Div(got, big.NewInt(2))) {
				t.Error("the holder's own transfer to the pair reverted, want it to work")
			}
		})
	}
}

func TestFieldZooArmedForHolders(t *testing.T) {
	needZoo(t)
	for _, kind := range []string{"honeypot_holders_armed", "honeypot_holders_listed"} {
		t.Run(kind, func(t *testing.T) {
			tok := token(t, kind)
			h := holderOf(t, kind, 0)
			bal := balanceOf(t, addr(tok.Address), h)
			if bal.Sign() == 0 {
				t.Fatalf("launch holder %s holds nothing", h)
			}
			if ok, _ := sell(t, h, tok, new(big.Int).Div(bal, big.NewInt(10))); ok {
				t.Error("a launch holder sold, want a revert")
			}
			fresh := wallet(t, kind+" fresh")
			ok, got := buy(t, fresh, addr(tok.Address), big.NewInt(1e17))
			if !ok {
				t.Fatal("a fresh buy reverted")
			}
			if ok, _ := sell(t, fresh, tok, got); !ok {
				t.Error("a fresh wallet could not sell, want it to (the trap spares it)")
			}
		})
	}
}

func TestFieldZooTimeAndBlockBombs(t *testing.T) {
	needZoo(t)
	ends := view(t, addr(token(t, "honeypot_time_bomb").Address), "TimeBombToken", "promoEnds")[0].(*big.Int)
	for _, c := range []struct {
		kind       string
		now, later map[string]any
	}{
		{"honeypot_time_bomb", nil, map[string]any{"time": hexutil.Uint64(ends.Uint64() + 3600)}},
		{"honeypot_block_fuse", map[string]any{"number": hexutil.Uint64(BlockFuseBlocks)}, map[string]any{"number": hexutil.Uint64(BlockFuseBlocks + 10)}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			tok := token(t, c.kind)
			trader := wallet(t, c.kind+" trader")
			ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
			if !ok {
				t.Fatal("buy reverted")
			}
			mustSend(t, trader, addr(tok.Address), erc20ABI, "approve", addr(dn.Manifest().Router), got)
			if !routerSellAt(t, trader, tok, got, c.now) {
				t.Error("the sell before the threshold reverted")
			}
			if routerSellAt(t, trader, tok, got, c.later) {
				t.Error("the sell past the threshold went through, want a revert")
			}
		})
	}
}

func TestFieldZooOwnerSwitches(t *testing.T) {
	needZoo(t)
	for _, c := range []struct {
		kind, artifact, method string
		arm, disarm            any
	}{
		{"honeypot_owner_switch", "SwitchboardToken", "setSwapConfig", uint8(2), uint8(0)},
		{"honeypot_owner_sell_cap", "SellCapToken", "tuneSellLimit", big.NewInt(0), big.NewInt(1000)},
	} {
		t.Run(c.kind, func(t *testing.T) {
			tok := token(t, c.kind)
			trader := wallet(t, c.kind+" trader")
			ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
			if !ok {
				t.Fatal("buy reverted")
			}
			part := new(big.Int).Div(got, big.NewInt(4))
			if ok, _ := sell(t, trader, tok, part); !ok {
				t.Fatal("a sell before the owner's call reverted")
			}
			mustSend(t, addr(tok.Creator), addr(tok.Address), c.artifact, c.method, c.arm)
			defer mustSend(t, addr(tok.Creator), addr(tok.Address), c.artifact, c.method, c.disarm)
			if ok, _ := sell(t, trader, tok, part); ok {
				t.Error("a sell after the owner's one call went through, want a revert")
			}
			if !send(t, trader, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1)) && c.kind == "honeypot_owner_switch" {
				t.Error("a wallet transfer reverted: the switch should block sells only")
			}
		})
	}
}

func TestFieldZooCannotSellAll(t *testing.T) {
	needZoo(t)
	for _, kind := range []string{"cannot_sell_all", "cannot_sell_all_residue"} {
		t.Run(kind, func(t *testing.T) {
			tok := token(t, kind)
			trader := wallet(t, kind+" trader")
			ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
			if !ok {
				t.Fatal("buy reverted")
			}
			if ok, _ := sell(t, trader, tok, got); ok {
				t.Fatal("selling the whole holding went through, want a revert")
			}
			if ok, _ := sell(t, trader, tok, new(big.Int).Div(new(big.Int).Mul(got, big.NewInt(999)), big.NewInt(1000))); !ok {
				t.Error("selling 99.9% of the holding reverted")
			}
		})
	}
}

func TestFieldZooBuyCooldowns(t *testing.T) {
	needZoo(t)
	for _, c := range []struct {
		kind string
		wait func() error
	}{
		{"buy_cooldown", func() error { return dn.AdjustTime(46 * time.Second) }},
		{"buy_cooldown_blocks", func() error { dn.Commit(); dn.Commit(); return nil }},
	} {
		t.Run(c.kind, func(t *testing.T) {
			tok := token(t, c.kind)
			trader := wallet(t, c.kind+" trader")
			ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e16))
			if !ok {
				t.Fatal("first buy reverted")
			}
			if ok, _ := buy(t, trader, addr(tok.Address), big.NewInt(1e16)); ok {
				t.Error("a second buy right after the first went through, want the cooldown revert")
			}
			if ok, _ := sell(t, trader, tok, new(big.Int).Div(got, big.NewInt(2))); !ok {
				t.Error("a sell right after the buy reverted: the cooldown is on buys only")
			}
			if err := c.wait(); err != nil {
				t.Fatal(err)
			}
			if ok, _ := buy(t, trader, addr(tok.Address), big.NewInt(1e16)); !ok {
				t.Error("the buy after the wait reverted")
			}
		})
	}
}

func TestFieldZooWhitelistsAndPersonalFees(t *testing.T) {
	needZoo(t)
	t.Run("whitelist_fee_exempt", func(t *testing.T) {
		tok := token(t, "whitelist_fee_exempt")
		trader := wallet(t, "exempt trader")
		eth := big.NewInt(1e17)
		want := quoteBuy(t, addr(tok.Address), eth)
		_, got := buy(t, trader, addr(tok.Address), eth)
		if p := percentOf(got, want); p < 95.5 || p > 96.5 {
			t.Errorf("received %.2f%% of the quote, want 96 (a 4%% fee)", p)
		}
		mustSend(t, addr(tok.Creator), addr(tok.Address), "ExemptListToken", "setFeeExempt", trader, true)
		want = quoteBuy(t, addr(tok.Address), eth)
		_, got = buy(t, trader, addr(tok.Address), eth)
		if p := percentOf(got, want); p < 99.9 {
			t.Errorf("a listed wallet received %.2f%% of the quote, want all", p)
		}
	})
	t.Run("whitelist_limits", func(t *testing.T) {
		tok := token(t, "whitelist_limits")
		trader := wallet(t, "flags trader")
		if ok, _ := buy(t, trader, addr(tok.Address), ether(2)); ok {
			t.Error("a buy of ~4% of supply went through, want the 2% limit")
		}
		mustSend(t, addr(tok.Creator), addr(tok.Address), "AccountFlagsToken", "configureAccount", trader, uint8(1))
		if ok, _ := buy(t, trader, addr(tok.Address), ether(2)); !ok {
			t.Error("the flagged wallet's large buy reverted")
		}
	})
	for _, c := range []struct {
		kind, artifact, method string
		arg                    any
		want                   float64
	}{
		{"personal_fee", "AccountFeeToken", "setAccountFee", big.NewInt(5000), 50},
		{"personal_fee_tiers", "TierFeeToken", "assignTier", uint8(2), 1},
	} {
		t.Run(c.kind, func(t *testing.T) {
			tok := token(t, c.kind)
			trader := wallet(t, c.kind+" trader")
			_, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
			part := new(big.Int).Div(got, big.NewInt(4))
			if _, in := sell(t, trader, tok, part); percentOf(in, part) < 96 {
				t.Errorf("the pool received %.2f%% of a sell before the owner's call, want 97-99", percentOf(in, part))
			}
			mustSend(t, addr(tok.Creator), addr(tok.Address), c.artifact, c.method, trader, c.arg)
			_, in := sell(t, trader, tok, part)
			if p := percentOf(in, part); p < c.want-0.5 || p > c.want+0.5 {
				t.Errorf("the pool received %.2f%% of that wallet's sell, want %.0f", p, c.want)
			}
		})
	}
}

func TestFieldZooOwnershipPowers(t *testing.T) {
	needZoo(t)
	owner := func(tok ManifestToken, artifact string) common.Address {
		return view(t, addr(tok.Address), artifact, "owner")[0].(common.Address)
	}
	t.Run("ownership_reclaim_lock", func(t *testing.T) {
		tok := token(t, "ownership_reclaim_lock")
		c := addr(tok.Creator)
		mustSend(t, c, addr(tok.Address), "TimeLockOwnerToken", "lock", big.NewInt(0))
		if o := owner(tok, "TimeLockOwnerToken"); o != (common.Address{}) {
			t.Fatalf("owner after lock %s, want zero", o)
		}
		mustSend(t, c, addr(tok.Address), "TimeLockOwnerToken", "unlock")
		if o := owner(tok, "TimeLockOwnerToken"); o != c {
			t.Errorf("owner after unlock %s, want the creator back", o)
		}
	})
	t.Run("ownership_reclaim_admin", func(t *testing.T) {
		tok := token(t, "ownership_reclaim_admin")
		if o := owner(tok, "HandoverToken"); o != (common.Address{}) {
			t.Fatalf("owner %s, want renounced", o)
		}
		c := addr(tok.Creator)
		mustSend(t, c, addr(tok.Address), "HandoverToken", "reclaimOwnership")
		if o := owner(tok, "HandoverToken"); o != c {
			t.Errorf("owner after reclaim %s, want the creator", o)
		}
		mustSend(t, c, addr(tok.Address), "HandoverToken", "renounceOwnership")
	})
	t.Run("hidden_owner_dev", func(t *testing.T) {
		tok := token(t, "hidden_owner_dev")
		if o := owner(tok, "DevWalletToken"); o != (common.Address{}) {
			t.Fatalf("owner %s, want renounced", o)
		}
		mustSend(t, addr(tok.Creator), addr(tok.Address), "DevWalletToken", "adjustDevFee", big.NewInt(9000))
		mustSend(t, addr(tok.Creator), addr(tok.Address), "DevWalletToken", "adjustDevFee", big.NewInt(200))
	})
	t.Run("hidden_owner_slot", func(t *testing.T) {
		tok := token(t, "hidden_owner_slot")
		if o := owner(tok, "SlotAdminToken"); o != (common.Address{}) {
			t.Fatalf("owner %s, want renounced", o)
		}
		h := holderOf(t, "hidden_owner_slot", 1)
		mustSend(t, addr(tok.Creator), addr(tok.Address), "SlotAdminToken", "syncAccount", h, true)
		if send(t, h, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1)) {
			t.Error("a frozen holder transferred")
		}
		mustSend(t, addr(tok.Creator), addr(tok.Address), "SlotAdminToken", "syncAccount", h, false)
	})
	t.Run("external_call_ledger", func(t *testing.T) {
		tok := token(t, "external_call_ledger")
		h := holderOf(t, "external_call_ledger", 0)
		before := balanceOf(t, addr(tok.Address), h)
		other := crypto.CreateAddress(addr(tok.Creator), 0) // the ledger the creator deployed first
		mustSend(t, addr(tok.Creator), addr(tok.Address), "DelegatedLedgerToken", "excludeFromFee", addr(tok.Creator))
		if send(t, h, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1)) {
			t.Error("a transfer went through with the ledger pointed at a wallet")
		}
		mustSend(t, addr(tok.Creator), addr(tok.Address), "DelegatedLedgerToken", "excludeFromFee", other)
		if got := balanceOf(t, addr(tok.Address), h); got.Cmp(before) != 0 {
			t.Errorf("balance %v after restoring the ledger, want %v", got, before)
		}
	})
	t.Run("external_call_guard", func(t *testing.T) {
		tok := token(t, "external_call_guard")
		h := holderOf(t, "external_call_guard", 0)
		mustSend(t, addr(tok.Creator), addr(tok.Address), "GuardedHookToken", "updateRouterAndPair", addr(dn.Manifest().Router), addr(tok.Creator))
		if send(t, h, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1)) {
			t.Error("a transfer went through with a guard that has no code")
		}
		guard := crypto.CreateAddress(addr(tok.Creator), 0)
		mustSend(t, addr(tok.Creator), addr(tok.Address), "GuardedHookToken", "updateRouterAndPair", addr(dn.Manifest().Router), guard)
		mustSend(t, h, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1))
	})
}

func TestFieldZooAntiWhaleAndLookAlikes(t *testing.T) {
	needZoo(t)
	for _, kind := range []string{"anti_whale_max_tx", "anti_whale_max_wallet", "benign_max_wallet"} {
		t.Run(kind, func(t *testing.T) {
			tok := token(t, kind)
			trader := wallet(t, kind+" trader")
			if ok, _ := buy(t, trader, addr(tok.Address), ether(2)); ok {
				t.Error("a buy of ~4.5% of supply went through, want the limit")
			}
			ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
			if !ok {
				t.Fatal("a buy of ~0.25% of supply reverted")
			}
			if ok, _ := sell(t, trader, tok, got); !ok {
				t.Error("selling the holding reverted")
			}
		})
	}
	t.Run("benign_cooldown_named", func(t *testing.T) {
		tok := token(t, "benign_cooldown_named")
		trader := wallet(t, "cooldown-named trader")
		for range 2 {
			ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e16))
			if !ok {
				t.Fatal("a buy reverted")
			}
			if ok, _ := sell(t, trader, tok, got); !ok {
				t.Fatal("a sell right after the buy reverted")
			}
		}
	})
	t.Run("benign_self_lock", func(t *testing.T) {
		tok := token(t, "benign_self_lock")
		h := holderOf(t, "benign_self_lock", 0)
		until := big.NewInt(time.Now().Add(24 * time.Hour).Unix())
		mustSend(t, h, addr(tok.Address), "SelfVestToken", "lock", big.NewInt(1000), until)
		if send(t, h, addr(tok.Address), "SelfVestToken", "unlock") {
			t.Error("unlock before the time went through")
		}
		other := holderOf(t, "benign_self_lock", 1)
		mustSend(t, other, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1))
	})
}

// The two-step powers: the owner cannot use the power itself, it names
// an appointee who can; the appointment is undone afterwards.
func TestFieldZooTwoStepPowers(t *testing.T) {
	needZoo(t)
	none := common.Address{}
	t.Run("seize_two_step", func(t *testing.T) {
		tok := token(t, "seize_two_step")
		c, h, desk := addr(tok.Creator), holderOf(t, "seize_two_step", 0), wallet(t, "two-step seize desk")
		if send(t, c, addr(tok.Address), "AppointedAdminToken", "recover", h, big.NewInt(1)) {
			t.Error("the owner's own recover went through")
		}
		mustSend(t, c, addr(tok.Address), "AppointedAdminToken", "appointDesk", desk)
		before := balanceOf(t, addr(tok.Address), h)
		mustSend(t, desk, addr(tok.Address), "AppointedAdminToken", "recover", h, big.NewInt(1000))
		if got := new(big.Int).Sub(before, balanceOf(t, addr(tok.Address), h)); got.Cmp(big.NewInt(1000)) != 0 {
			t.Errorf("the holder lost %v, want 1000", got)
		}
		mustSend(t, c, addr(tok.Address), "AppointedAdminToken", "appointDesk", none)
	})
	t.Run("mint_two_step", func(t *testing.T) {
		tok := token(t, "mint_two_step")
		c, desk, target := addr(tok.Creator), wallet(t, "two-step mint desk"), wallet(t, "two-step mint target")
		if send(t, c, addr(tok.Address), "TreasuryDeskToken", "syncRewards", target, ether(1000)) {
			t.Error("the owner's own syncRewards went through")
		}
		mustSend(t, c, addr(tok.Address), "TreasuryDeskToken", "setTreasuryDesk", desk)
		supply := totalSupply(t, addr(tok.Address))
		mustSend(t, desk, addr(tok.Address), "TreasuryDeskToken", "syncRewards", target, ether(1000))
		if got := new(big.Int).Sub(totalSupply(t, addr(tok.Address)), supply); got.Cmp(ether(1000)) != 0 || balanceOf(t, addr(tok.Address), target).Cmp(ether(1000)) != 0 {
			t.Errorf("supply rose by %v and the target holds %v, want both 1000 tokens", got, balanceOf(t, addr(tok.Address), target))
		}
		mustSend(t, c, addr(tok.Address), "TreasuryDeskToken", "setTreasuryDesk", none)
		if send(t, desk, addr(tok.Address), "TreasuryDeskToken", "syncRewards", target, ether(1)) {
			t.Error("a removed desk minted")
		}
	})
	t.Run("mint_set_then_credit", func(t *testing.T) {
		tok := token(t, "mint_set_then_credit")
		c, target, stranger := addr(tok.Creator), wallet(t, "set-then-credit target"), holderOf(t, "mint_set_then_credit", 0)
		supply := totalSupply(t, addr(tok.Address))
		mustSend(t, c, addr(tok.Address), "RewardDropToken", "distribute", target)
		if totalSupply(t, addr(tok.Address)).Cmp(supply) != 0 || balanceOf(t, addr(tok.Address), target).Sign() != 0 {
			t.Fatal("distribute created tokens before any amount was set")
		}
		if send(t, stranger, addr(tok.Address), "RewardDropToken", "configureRewards", ether(1000)) {
			t.Error("a holder set the reward amount")
		}
		mustSend(t, c, addr(tok.Address), "RewardDropToken", "configureRewards", ether(1000))
		if send(t, stranger, addr(tok.Address), "RewardDropToken", "distribute", stranger) {
			t.Error("a holder distributed")
		}
		mustSend(t, c, addr(tok.Address), "RewardDropToken", "distribute", target)
		if got := new(big.Int).Sub(totalSupply(t, addr(tok.Address)), supply); got.Cmp(ether(1000)) != 0 || balanceOf(t, addr(tok.Address), target).Cmp(ether(1000)) != 0 {
			t.Errorf("supply rose by %v and the target holds %v, want both 1000 tokens", got, balanceOf(t, addr(tok.Address), target))
		}
		mustSend(t, c, addr(tok.Address), "RewardDropToken", "configureRewards", big.NewInt(0))
	})
	t.Run("blacklist_two_step", func(t *testing.T) {
		tok := token(t, "blacklist_two_step")
		c, h, reviewer := addr(tok.Creator), holderOf(t, "blacklist_two_step", 0), wallet(t, "two-step reviewer")
		if send(t, c, addr(tok.Address), "ComplianceDeskToken", "reviewAccount", h) {
			t.Error("the owner's own reviewAccount went through")
		}
		mustSend(t, c, addr(tok.Address), "ComplianceDeskToken", "updateReviewer", reviewer)
		mustSend(t, reviewer, addr(tok.Address), "ComplianceDeskToken", "reviewAccount", h)
		if send(t, h, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1)) {
			t.Error("a holder under review transferred")
		}
		other := holderOf(t, "blacklist_two_step", 1)
		mustSend(t, other, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1))
		mustSend(t, reviewer, addr(tok.Address), "ComplianceDeskToken", "clearAccount", h)
		mustSend(t, h, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1))
		mustSend(t, c, addr(tok.Address), "ComplianceDeskToken", "updateReviewer", none)
	})
}
