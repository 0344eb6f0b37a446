package v4_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"
)

// poolKey packs as the PoolManager's PoolKey tuple.
type poolKey struct {
	Currency0   common.Address
	Currency1   common.Address
	Fee         *big.Int
	TickSpacing *big.Int
	Hooks       common.Address
}

// A token that traps only a user's sell: its transferFrom moves tokens
// only for holders its operator listed (SpenderLockToken), while a
// holder's own transfer works. On a hook-free V4 pool the V4 simulator,
// which pays the PoolManager by transfer, sells; the fresh wallet, whose
// router pulls its tokens by transferFrom during the settle as every V4
// router does, cannot. The wallet decides: can_sell false, the contract
// path's success a note.
func TestWalletCatchesTransferFromTrap(t *testing.T) {
	dn, c := startDevnet(t)
	m := dn.Manifest()
	manager, router := common.HexToAddress(m.PoolManager), common.HexToAddress(m.V4Router)
	token := launchTrap(t, dn, manager, router)
	pools := findPools(t, c, manager, token)
	if len(pools) != 1 {
		t.Fatalf("%d pools", len(pools))
	}
	ctx := context.Background()
	elems, decode, err := v4.SimulationCall(v4.SimulationRequest{Pool: pools[0], Token: token})
	if err != nil {
		t.Fatal(err)
	}
	welems, wdecode, err := v4.WalletCall(v4.WalletRequest{Pool: pools[0], Token: token})
	if err != nil {
		t.Fatal(err)
	}
	// One batch, as round trip 2 sends them; each decoder reads its own
	// slice, so the answers' errors are copied back.
	joined := append(append([]rpc.BatchElem{}, elems...), welems...)
	if err := c.BatchCallContext(ctx, joined); err != nil {
		t.Fatal(err)
	}
	copy(elems, joined[:len(elems)])
	copy(welems, joined[len(elems):])
	sim, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	if !sim.BuyOK || !sim.SellOK {
		t.Fatalf("V4 simulator: buy %v sell %v (%s): a contract paying by transfer should trade", sim.BuyOK, sim.SellOK, v4.Reason(sim.SellError))
	}
	w, why := wdecode()
	if w == nil {
		t.Fatalf("the wallet path did not run: %s", why)
	}
	if w.CanBuy == nil || !*w.CanBuy || w.CanSell == nil || *w.CanSell || w.Error == nil || !strings.Contains(*w.Error, "insufficient allowance") {
		t.Fatalf("wallet: buy %v sell %v error %v, want a buy and a sell refused by the token's transferFrom", ptr(w.CanBuy), ptr(w.CanSell), ptr(w.Error))
	}
	got := v4.Combine(sim.Report(pools[0]), w, "")
	if got.CanSell == nil || *got.CanSell || !strings.Contains(strings.Join(got.Notes, " "), "a contract seller could sell") {
		t.Errorf("combined: can_sell %v notes %q, want false and the disagreement noted", ptr(got.CanSell), got.Notes)
	}
}

// launchTrap deploys a SpenderLockToken from the devnet's deployer (its
// operator, so its own transferFrom works) and gives it a hook-free
// full-range V4 pool of 20 ETH against 60% of its supply.
func launchTrap(t *testing.T, dn *devnet.Devnet, manager, router common.Address) common.Address {
	t.Helper()
	ctx := context.Background()
	from := common.HexToAddress(dn.Manifest().Deployer)
	key, ok := dn.Key(from)
	if !ok {
		t.Fatal("no key for the deployer")
	}
	ec := dn.Backend().Client()
	chainID, err := ec.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	send := func(to *common.Address, value *big.Int, data []byte) *types.Receipt {
		t.Helper()
		nonce, err := ec.PendingNonceAt(ctx, from)
		if err != nil {
			t.Fatal(err)
		}
		tip, err := ec.SuggestGasPrice(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if value == nil {
			value = new(big.Int)
		}
		tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.LegacyTx{
			Nonce: nonce, To: to, Value: value, Gas: 8_000_000, GasPrice: new(big.Int).Mul(tip, big.NewInt(2)), Data: data})
		if err != nil {
			t.Fatal(err)
		}
		if err := dn.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
		dn.Commit()
		rc, err := ec.TransactionReceipt(ctx, tx.Hash())
		if err != nil || rc.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("transaction to %v failed: %v", to, err)
		}
		return rc
	}
	art := artifact(t, contracts.Artifact, "SpenderLockToken")
	supply := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	args, err := art.ABI.Pack("", supply)
	if err != nil {
		t.Fatal(err)
	}
	token := send(nil, nil, append(append([]byte{}, art.Bytecode...), args...)).ContractAddress

	amount := new(big.Int).Div(new(big.Int).Mul(supply, big.NewInt(60)), big.NewInt(100))
	eth := new(big.Int).Mul(big.NewInt(20), big.NewInt(1e18))
	sqrtPrice := new(big.Int).Sqrt(new(big.Int).Div(new(big.Int).Lsh(amount, 192), eth))
	liquidity := new(big.Int).Sqrt(new(big.Int).Mul(eth, amount))
	liquidity.Mul(liquidity, big.NewInt(999)).Div(liquidity, big.NewInt(1000))
	k := poolKey{Currency1: token, Fee: big.NewInt(3000), TickSpacing: big.NewInt(60)}
	pm := artifact(t, contracts.UniswapV4, "PoolManager")
	send(&manager, nil, pack(t, pm.ABI, "initialize", k, sqrtPrice))
	send(&token, nil, pack(t, art.ABI, "approve", router, amount))
	r := artifact(t, contracts.Artifact, "V4Router")
	send(&router, eth, pack(t, r.ABI, "addLiquidity", k, big.NewInt(-887220), big.NewInt(887220), liquidity))
	return token
}

func artifact(t *testing.T, get func(string) (contracts.Compiled, error), name string) contracts.Compiled {
	t.Helper()
	a, err := get(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func pack(t *testing.T, parsed abi.ABI, method string, args ...any) []byte {
	t.Helper()
	data, err := parsed.Pack(method, args...)
	if err != nil {
		t.Fatalf("pack %s: %v", method, err)
	}
	return data
}
