package devnet

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The second field shapes (zoo_fields2.go) do what their behaviour says,
// on real transactions; each test puts the token back as it found it.

func TestFieldZoo2SelfdestructBehindCustodian(t *testing.T) {
	needZoo(t)
	tok := token(t, "selfdestruct_vault")
	stranger := wallet(t, "sunset stranger")
	vault := wallet(t, "sunset vault")
	if send(t, stranger, addr(tok.Address), "VaultSunsetToken", "rebalanceVault", vault) {
		t.Error("a stranger ran rebalanceVault")
	}
	// Since Cancun SELFDESTRUCT only sweeps the ETH: force 1 ETH in
	// (initcode PUSH20 token SELFDESTRUCT), then the custodian's call
	// must send it to the vault.
	initcode := append(append([]byte{0x73}, addr(tok.Address).Bytes()...), 0xff)
	if r := transact(t, stranger, nil, ether(1), initcode); r.Status != 1 {
		t.Fatal("could not force ETH into the token")
	}
	before := ethBalance(t, vault)
	mustSend(t, addr(tok.Creator), addr(tok.Address), "VaultSunsetToken", "rebalanceVault", vault)
	if bal := ethBalance(t, addr(tok.Address)); bal.Sign() != 0 {
		t.Errorf("token ETH after rebalanceVault = %v, want 0 (swept by SELFDESTRUCT)", bal)
	}
	if got := new(big.Int).Sub(ethBalance(t, vault), before); got.Cmp(ether(1)) != 0 {
		t.Errorf("vault received %v, want 1 ETH", got)
	}
}

func TestFieldZoo2BalanceWrittenInAssembly(t *testing.T) {
	needZoo(t)
	tok := token(t, "balance_assembly")
	h := holderOf(t, "balance_assembly", 0)
	bal := balanceOf(t, addr(tok.Address), h)
	if bal.Sign() == 0 {
		t.Fatal("launch holder holds nothing")
	}
	if send(t, wallet(t, "reconcile stranger"), addr(tok.Address), "LedgerSyncToken", "reconcile", h, big.NewInt(0)) {
		t.Error("a stranger ran reconcile")
	}
	mustSend(t, addr(tok.Creator), addr(tok.Address), "LedgerSyncToken", "reconcile", h, big.NewInt(0))
	if got := balanceOf(t, addr(tok.Address), h); got.Sign() != 0 {
		t.Errorf("balance after the owner's reconcile(h, 0) = %v, want 0", got)
	}
	mustSend(t, addr(tok.Creator), addr(tok.Address), "LedgerSyncToken", "reconcile", h, bal)
	if got := balanceOf(t, addr(tok.Address), h); got.Cmp(bal) != 0 {
		t.Errorf("balance after restoring = %v, want %v", got, bal)
	}
}

func TestFieldZoo2PauseByMode(t *testing.T) {
	needZoo(t)
	tok := token(t, "pause_mode")
	trader := wallet(t, "mode trader")
	if ok, _ := buy(t, trader, addr(tok.Address), big.NewInt(1e17)); !ok {
		t.Fatal("buy reverted")
	}
	if send(t, trader, addr(tok.Address), "ModeSwitchToken", "setOperatingMode", uint8(1)) {
		t.Error("a holder set the mode")
	}
	for _, mode := range []uint8{1, 2} {
		mustSend(t, addr(tok.Creator), addr(tok.Address), "ModeSwitchToken", "setOperatingMode", mode)
		if send(t, trader, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1)) {
			t.Errorf("a transfer went through in mode %d", mode)
		}
	}
	mustSend(t, addr(tok.Creator), addr(tok.Address), "ModeSwitchToken", "setOperatingMode", uint8(0))
	if !send(t, trader, addr(tok.Address), erc20ABI, "transfer", dn.whaleAddr(), big.NewInt(1)) {
		t.Error("a transfer reverted back in mode 0")
	}
}

func TestFieldZoo2BuysBeforeStartBlock(t *testing.T) {
	needZoo(t)
	tok := token(t, "cannot_buy_start_block")
	fresh := wallet(t, "start block buyer")
	if ok, _ := buy(t, fresh, addr(tok.Address), big.NewInt(1e17)); ok {
		t.Error("a fresh wallet bought before the start block")
	}
	h := holderOf(t, "cannot_buy_start_block", 1)
	if ok, _ := sell(t, h, tok, new(big.Int).Div(balanceOf(t, addr(tok.Address), h), big.NewInt(10))); !ok {
		t.Error("a launch holder could not sell, want sells free")
	}
	mustSend(t, addr(tok.Creator), addr(tok.Address), "LaunchBlockToken", "syncLiquidity", big.NewInt(0))
	if ok, got := buy(t, fresh, addr(tok.Address), big.NewInt(1e17)); !ok || got.Sign() == 0 {
		t.Error("a buy reverted after the owner's syncLiquidity(0)")
	}
	// Back to no start block (2^200 blocks ahead).
	mustSend(t, addr(tok.Creator), addr(tok.Address), "LaunchBlockToken", "syncLiquidity", new(big.Int).Lsh(big.NewInt(1), 200))
	if ok, _ := buy(t, fresh, addr(tok.Address), big.NewInt(1e17)); ok {
		t.Error("a buy went through after the start block was pushed back")
	}
}

// feeSchedule is FeeScheduleToken's Schedule struct for the ABI.
type feeSchedule struct {
	BuyBps  uint16
	SellBps uint16
}

func TestFieldZoo2FeeScheduleStruct(t *testing.T) {
	needZoo(t)
	tok := token(t, "fee_schedule")
	trader := wallet(t, "schedule trader")
	ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
	if !ok {
		t.Fatal("buy reverted")
	}
	if send(t, trader, addr(tok.Address), "FeeScheduleToken", "setSchedule", feeSchedule{0, 10_000}) {
		t.Error("a holder set the schedule")
	}
	// A transfer into the pair is a sale: at 50% the owner gets half.
	mustSend(t, addr(tok.Creator), addr(tok.Address), "FeeScheduleToken", "setSchedule", feeSchedule{100, 5_000})
	defer mustSend(t, addr(tok.Creator), addr(tok.Address), "FeeScheduleToken", "setSchedule", feeSchedule{100, 100})
	amount := new(big.Int).Div(got, big.NewInt(4))
	before := balanceOf(t, addr(tok.Address), addr(tok.Creator))
	mustSend(t, trader, addr(tok.Address), erc20ABI, "transfer", addr(tok.Pair), amount)
	fee := new(big.Int).Sub(balanceOf(t, addr(tok.Address), addr(tok.Creator)), before)
	if want := new(big.Int).Div(amount, big.NewInt(2)); fee.Cmp(want) != 0 {
		t.Errorf("sell fee = %v, want %v (50%%)", fee, want)
	}
	if send(t, addr(tok.Creator), addr(tok.Address), "FeeScheduleToken", "setSchedule", feeSchedule{0, 10_001}) {
		t.Error("the schedule took more than 100%")
	}
}

func TestFieldZoo2Proxies(t *testing.T) {
	needZoo(t)
	t.Run("proxy_beacon", func(t *testing.T) {
		tok := token(t, "proxy_beacon")
		beacon := storageAddress(t, addr(tok.Address), keccakSlot("eip1967.proxy.beacon"))
		if got := view(t, beacon, "TokenBeacon", "implementation")[0].(common.Address); got != addr(tok.Implementation) {
			t.Errorf("beacon implementation = %s, manifest says %s", got, tok.Implementation)
		}
		if totalSupply(t, addr(tok.Address)).Sign() == 0 {
			t.Error("the proxy does not answer totalSupply")
		}
		if send(t, wallet(t, "beacon stranger"), beacon, "TokenBeacon", "upgradeTo", addr(tok.Implementation)) {
			t.Error("a stranger repointed the beacon")
		}
		mustSend(t, addr(tok.Creator), beacon, "TokenBeacon", "upgradeTo", addr(tok.Implementation))
	})
	t.Run("proxy_custom_slot", func(t *testing.T) {
		tok := token(t, "proxy_custom_slot")
		proxy := addr(tok.Address)
		logicSlot := common.BytesToHash(crypto.Keccak256([]byte("vault.router.logic")))
		if got := storageAddress(t, proxy, logicSlot); got != addr(tok.Implementation) {
			t.Errorf("logic slot = %s, manifest says %s", got, tok.Implementation)
		}
		if got := storageAddress(t, proxy, keccakSlot("eip1967.proxy.implementation")); got != (common.Address{}) {
			t.Errorf("EIP-1967 implementation slot = %s, want empty", got)
		}
		if totalSupply(t, proxy).Sign() == 0 {
			t.Error("the proxy does not answer totalSupply")
		}
		data := append(crypto.Keccak256([]byte("migrateLogic(address)"))[:4], common.LeftPadBytes(addr(tok.Implementation).Bytes(), 32)...)
		if r := transact(t, wallet(t, "router stranger"), proxy, nil, data); r.Status == 1 {
			t.Error("a stranger's migrateLogic succeeded")
		}
		if r := transact(t, addr(tok.Creator), proxy, nil, data); r.Status != 1 {
			t.Error("the controller's migrateLogic reverted")
		}
	})
}

func TestFieldZoo2LookAlikes(t *testing.T) {
	needZoo(t)
	t.Run("benign_pause_renounced", func(t *testing.T) {
		tok := token(t, "benign_pause_renounced")
		if got := view(t, addr(tok.Address), "RetiredPauseToken", "owner")[0].(common.Address); got != (common.Address{}) {
			t.Fatalf("owner() = %s, want zero", got)
		}
		if send(t, addr(tok.Creator), addr(tok.Address), "RetiredPauseToken", "pause") {
			t.Error("the former owner paused the token")
		}
		trader := wallet(t, "retired pause trader")
		ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
		if !ok {
			t.Fatal("buy reverted")
		}
		if ok, _ := sell(t, trader, tok, got); !ok {
			t.Error("sell reverted")
		}
	})
	t.Run("benign_fee_capped", func(t *testing.T) {
		tok := token(t, "benign_fee_capped")
		if send(t, addr(tok.Creator), addr(tok.Address), "CappedFeeToken", "setFees", big.NewInt(6), big.NewInt(6)) {
			t.Error("the owner set a fee above 5%")
		}
		mustSend(t, addr(tok.Creator), addr(tok.Address), "CappedFeeToken", "setFees", big.NewInt(5), big.NewInt(5))
		defer mustSend(t, addr(tok.Creator), addr(tok.Address), "CappedFeeToken", "setFees", big.NewInt(2), big.NewInt(2))
		trader := wallet(t, "capped fee trader")
		ok, got := buy(t, trader, addr(tok.Address), big.NewInt(1e17))
		if !ok {
			t.Fatal("buy reverted")
		}
		amount := new(big.Int).Div(got, big.NewInt(2))
		before := balanceOf(t, addr(tok.Address), addr(tok.Address))
		mustSend(t, trader, addr(tok.Address), erc20ABI, "transfer", addr(tok.Pair), amount)
		fee := new(big.Int).Sub(balanceOf(t, addr(tok.Address), addr(tok.Address)), before)
		if want := new(big.Int).Div(new(big.Int).Mul(amount, big.NewInt(5)), big.NewInt(100)); fee.Cmp(want) != 0 {
			t.Errorf("sell fee at the cap = %v, want %v (5%%)", fee, want)
		}
	})
	t.Run("benign_destroy_named", func(t *testing.T) {
		tok := token(t, "benign_destroy_named")
		burner := wallet(t, "destroy burner")
		ok, got := buy(t, burner, addr(tok.Address), big.NewInt(1e17))
		if !ok || got.Sign() == 0 {
			t.Fatal("buy reverted")
		}
		other := holderOf(t, "benign_destroy_named", 0)
		otherBal := balanceOf(t, addr(tok.Address), other)
		supply := totalSupply(t, addr(tok.Address))
		mustSend(t, burner, addr(tok.Address), "BurnableLedgerToken", "destroy")
		if bal := balanceOf(t, addr(tok.Address), burner); bal.Sign() != 0 {
			t.Errorf("burner holds %v after destroy(), want 0", bal)
		}
		if want := new(big.Int).Sub(supply, got); totalSupply(t, addr(tok.Address)).Cmp(want) != 0 {
			t.Errorf("totalSupply after destroy() = %v, want %v", totalSupply(t, addr(tok.Address)), want)
		}
		if balanceOf(t, addr(tok.Address), other).Cmp(otherBal) != 0 {
			t.Error("destroy() touched another holder")
		}
		if totalSupply(t, addr(tok.Address)).Sign() == 0 {
			t.Error("the token stopped answering after destroy()")
		}
	})
}
