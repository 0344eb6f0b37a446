package devnet

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// dn is the devnet the package's chain tests share (booting it once keeps
// them fast); needZoo starts it on first use. Its committer mines what
// outside clients send; tests also mine their own blocks with Commit.
var (
	dn      *Devnet
	dnOnce  sync.Once
	dnError error
)

func needZoo(t *testing.T) {
	t.Helper()
	dnOnce.Do(func() {
		start := time.Now()
		dn, dnError = Start(context.Background(), Options{
			CommitInterval: 20 * time.Millisecond,
			Logger:         slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		})
		if dnError == nil {
			fmt.Fprintf(os.Stderr, "devnet: zoo of %d tokens deployed in process in %v\n", len(dn.Manifest().Tokens), time.Since(start).Round(time.Millisecond))
		}
	})
	if dnError != nil {
		t.Fatalf("devnet: %v", dnError)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if dn != nil {
		if err := dn.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// token returns the manifest entry of kind.
func token(t *testing.T, kind string) ManifestToken {
	t.Helper()
	tok, ok := dn.Manifest().Token(kind)
	if !ok {
		t.Fatalf("manifest has no %s token", kind)
	}
	return tok
}

// addr parses a manifest address.
func addr(s string) common.Address { return common.HexToAddress(s) }

// wallet is a funded test wallet derived from a seed, distinct from the
// zoo's holders.
func wallet(t *testing.T, name string) common.Address {
	t.Helper()
	a, err := newAccount("test "+name, nil)
	if err != nil {
		t.Fatal(err)
	}
	dn.keys[a.addr] = a.key
	// Fund it from the deployer.
	dep := addr(dn.Manifest().Deployer)
	if r := transact(t, dep, a.addr, ether(50), nil); r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("funding %s failed", name)
	}
	return a.addr
}

// transact signs data from `from` (a devnet key) to `to` (a common.Address,
// or nil to create a contract), mines it and returns the receipt, whatever
// its status.
func transact(t *testing.T, from common.Address, to any, value *big.Int, data []byte) *types.Receipt {
	t.Helper()
	ctx := context.Background()
	key, ok := dn.Key(from)
	if !ok {
		t.Fatalf("no key for %s", from)
	}
	client := dn.Backend().Client()
	nonce, err := client.PendingNonceAt(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	var dest *common.Address // nil: a contract creation
	if a, ok := to.(common.Address); ok {
		dest = &a
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(dn.Manifest().ChainID)), &types.DynamicFeeTx{
		Nonce: nonce, GasTipCap: gasTip, GasFeeCap: gasFeeCap, Gas: 3_000_000, To: dest, Value: value, Data: data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := dn.Send(ctx, tx); err != nil {
		t.Fatalf("send: %v", err)
	}
	dn.Commit()
	r, err := client.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		t.Fatalf("receipt: %v", err)
	}
	return r
}

// pack encodes a call of method on an artifact's ABI.
func pack(t *testing.T, artifact, method string, args ...any) []byte {
	t.Helper()
	c, err := contracts.Artifact(artifact)
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.ABI.Pack(method, args...)
	if err != nil {
		t.Fatalf("pack %s.%s: %v", artifact, method, err)
	}
	return data
}

// send calls method and reports whether the transaction succeeded.
func send(t *testing.T, from, to common.Address, artifact, method string, args ...any) bool {
	t.Helper()
	return transact(t, from, to, nil, pack(t, artifact, method, args...)).Status == types.ReceiptStatusSuccessful
}

// mustSend is send that fails the test when the transaction reverts.
func mustSend(t *testing.T, from, to common.Address, artifact, method string, args ...any) {
	t.Helper()
	if !send(t, from, to, artifact, method, args...) {
		t.Fatalf("%s.%s from %s reverted", artifact, method, from)
	}
}

// view calls a view method at the head block.
func view(t *testing.T, to common.Address, artifact, method string, args ...any) []any {
	t.Helper()
	c, err := contracts.Artifact(artifact)
	if err != nil {
		t.Fatal(err)
	}
	out, err := dn.Backend().Client().CallContract(context.Background(), ethereum.CallMsg{To: &to, Data: pack(t, artifact, method, args...)}, nil)
	if err != nil {
		t.Fatalf("call %s.%s: %v", artifact, method, err)
	}
	res, err := c.ABI.Unpack(method, out)
	if err != nil {
		t.Fatalf("unpack %s.%s: %v", artifact, method, err)
	}
	return res
}

func balanceOf(t *testing.T, tokenAddr, holder common.Address) *big.Int {
	t.Helper()
	return view(t, tokenAddr, erc20ABI, "balanceOf", holder)[0].(*big.Int)
}

func totalSupply(t *testing.T, tokenAddr common.Address) *big.Int {
	t.Helper()
	return view(t, tokenAddr, erc20ABI, "totalSupply")[0].(*big.Int)
}

// quoteBuy is what the constant-product formula (0.3% fee) pays for eth.
func quoteBuy(t *testing.T, tokenAddr common.Address, eth *big.Int) *big.Int {
	t.Helper()
	m := dn.Manifest()
	out := view(t, addr(m.Router), "V2Router", "getAmountsOut", eth, []common.Address{addr(m.WETH), tokenAddr})[0].([]*big.Int)
	return out[1]
}

// buy swaps eth for the token through the router; it reports success and
// the amount the buyer received.
func buy(t *testing.T, buyer common.Address, tokenAddr common.Address, eth *big.Int) (bool, *big.Int) {
	t.Helper()
	m := dn.Manifest()
	before := balanceOf(t, tokenAddr, buyer)
	data := pack(t, "V2Router", "swapExactETHForTokensSupportingFeeOnTransferTokens", big.NewInt(0), []common.Address{addr(m.WETH), tokenAddr}, buyer, maxDeadline)
	ok := transact(t, buyer, addr(m.Router), eth, data).Status == types.ReceiptStatusSuccessful
	return ok, new(big.Int).Sub(balanceOf(t, tokenAddr, buyer), before)
}

// sell swaps amount of the token for ETH through the router; it reports
// success and how many tokens the pair actually received.
func sell(t *testing.T, seller common.Address, tok ManifestToken, amount *big.Int) (bool, *big.Int) {
	t.Helper()
	m := dn.Manifest()
	tokenAddr, pair := addr(tok.Address), addr(tok.Pair)
	mustSend(t, seller, tokenAddr, erc20ABI, "approve", addr(m.Router), amount)
	before := balanceOf(t, tokenAddr, pair)
	ok := send(t, seller, addr(m.Router), "V2Router", "swapExactTokensForETHSupportingFeeOnTransferTokens",
		amount, big.NewInt(0), []common.Address{tokenAddr, addr(m.WETH)}, seller, maxDeadline)
	return ok, new(big.Int).Sub(balanceOf(t, tokenAddr, pair), before)
}

// percentOf is 100*part/whole as a float.
func percentOf(part, whole *big.Int) float64 {
	if whole.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(new(big.Int).Mul(part, big.NewInt(100)), whole).Float64()
	return f
}

// storageAddress reads an address-typed storage slot.
func storageAddress(t *testing.T, contract common.Address, slot common.Hash) common.Address {
	t.Helper()
	v, err := dn.Backend().Client().StorageAt(context.Background(), contract, slot, nil)
	if err != nil {
		t.Fatal(err)
	}
	return common.BytesToAddress(v)
}

// keccakSlot is the EIP-1967 slot keccak256(label) - 1.
func keccakSlot(label string) common.Hash {
	h := new(big.Int).SetBytes(crypto.Keccak256([]byte(label)))
	return common.BigToHash(h.Sub(h, big.NewInt(1)))
}

// whaleAddr is the concentrated token's whale wallet.
func (d *Devnet) whaleAddr() common.Address {
	a, err := newAccount("whale", nil)
	if err != nil {
		panic(err)
	}
	return a.addr
}

// contractABI is the parsed ABI of an artifact.
func contractABI(name string) (abi.ABI, error) {
	c, err := contracts.Artifact(name)
	return c.ABI, err
}

// mintTopic is the V2 pair's Mint event topic.
func mintTopic(t *testing.T) common.Hash {
	t.Helper()
	a, err := contractABI("V2Pair")
	if err != nil {
		t.Fatal(err)
	}
	return a.Events["Mint"].ID
}

// ethBalance is addr's native balance at the head.
func ethBalance(t *testing.T, a common.Address) *big.Int {
	t.Helper()
	b, err := dn.Backend().Client().BalanceAt(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// artifactFor is an artifact's creation bytecode.
func artifactFor(name string) ([]byte, error) {
	c, err := contracts.Artifact(name)
	return c.Bytecode, err
}
