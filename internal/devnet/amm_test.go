package devnet

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// reserves reads a pair's reserves.
func reserves(t *testing.T, pair common.Address) (*big.Int, *big.Int) {
	t.Helper()
	r := view(t, pair, "V2Pair", "getReserves")
	return r[0].(*big.Int), r[1].(*big.Int)
}

// fund gives to amount of token, bought (or wrapped, for WETH) by a test wallet.
func fund(t *testing.T, tokenAddr, to common.Address, amount *big.Int) {
	t.Helper()
	m := dn.Manifest()
	w := wallet(t, "funder "+to.Hex())
	if tokenAddr == addr(m.WETH) {
		if r := transact(t, w, addr(m.WETH), amount, pack(t, "WETH", "deposit")); r.Status != 1 {
			t.Fatal("WETH deposit reverted")
		}
	} else if ok, got := buy(t, w, tokenAddr, ether(5)); !ok || got.Cmp(amount) < 0 {
		t.Fatalf("could not buy %v of %s (got %v)", amount, tokenAddr, got)
	}
	mustSend(t, w, tokenAddr, erc20ABI, "transfer", to, amount)
}

// The pair keeps Uniswap V2's semantics: locked minimum liquidity, K with
// the 0.3% fee, flash swaps through uniswapV2Call, burn, skim and sync.
func TestPairBehavesLikeUniswapV2(t *testing.T) {
	needZoo(t)
	m := dn.Manifest()
	tok := token(t, "lp_unlocked")
	pair := addr(tok.Pair)
	token0 := view(t, pair, "V2Pair", "token0")[0].(common.Address)
	token1 := view(t, pair, "V2Pair", "token1")[0].(common.Address)
	if token0.Cmp(token1) >= 0 || (token0 != addr(tok.Address) && token0 != addr(m.WETH)) {
		t.Fatalf("token0 %s, token1 %s: want the sorted token and WETH", token0, token1)
	}
	if got := balanceOf(t, pair, common.Address{}); got.Int64() != 1000 {
		t.Errorf("LP at address(0) = %v, want MINIMUM_LIQUIDITY 1000", got)
	}
	if cum := view(t, pair, "V2Pair", "price0CumulativeLast")[0].(*big.Int); cum.Sign() == 0 {
		t.Error("price0CumulativeLast is zero after days of trading")
	}

	t.Run("K holds net of the fee", func(t *testing.T) {
		r0, r1 := reserves(t, pair)
		in := new(big.Int).Div(r1, big.NewInt(1000))
		// Exact-fee output and one unit more.
		fair := new(big.Int).Div(new(big.Int).Mul(new(big.Int).Mul(in, big.NewInt(997)), r0), new(big.Int).Add(new(big.Int).Mul(r1, big.NewInt(1000)), new(big.Int).Mul(in, big.NewInt(997))))
		trader := wallet(t, "k trader")
		fund(t, token1, trader, new(big.Int).Mul(in, big.NewInt(2)))
		mustSend(t, trader, token1, erc20ABI, "transfer", pair, in)
		if send(t, trader, pair, "V2Pair", "swap", new(big.Int).Add(fair, big.NewInt(1)), big.NewInt(0), trader, []byte{}) {
			t.Error("a swap taking one unit more than the quote net of the 0.3 percent fee succeeded")
		}
		if !send(t, trader, pair, "V2Pair", "swap", fair, big.NewInt(0), trader, []byte{}) {
			t.Error("a swap at the quote net of the 0.3 percent fee reverted")
		}
	})

	t.Run("flash swap repays through uniswapV2Call", func(t *testing.T) {
		owner := wallet(t, "flash owner")
		borrower := crypto.CreateAddress(owner, 0)
		if r := transact(t, owner, nil, nil, deployCode(t, "FlashBorrower")); r.Status != 1 || r.ContractAddress != borrower {
			t.Fatal("deploying FlashBorrower failed")
		}
		r0, _ := reserves(t, pair)
		loan := new(big.Int).Div(r0, big.NewInt(100))
		fund(t, token0, borrower, new(big.Int).Div(loan, big.NewInt(100))) // covers the fee
		if send(t, owner, borrower, "FlashBorrower", "borrow", pair, loan, big.NewInt(10_000)) {
			t.Error("a flash loan repaid without the fee succeeded")
		}
		if !send(t, owner, borrower, "FlashBorrower", "borrow", pair, loan, big.NewInt(10_031)) {
			t.Fatal("a flash loan repaid with 0.31% reverted")
		}
		if got := view(t, borrower, "FlashBorrower", "lastLoan")[0].(*big.Int); got.Cmp(loan) != 0 {
			t.Errorf("callback saw a loan of %v, want %v", got, loan)
		}
	})

	t.Run("skim and sync", func(t *testing.T) {
		w := wallet(t, "skimmer")
		extra := big.NewInt(1_000_000)
		fund(t, token0, w, new(big.Int).Mul(extra, big.NewInt(2)))
		mustSend(t, w, token0, erc20ABI, "transfer", pair, extra)
		before := balanceOf(t, token0, w)
		mustSend(t, w, pair, "V2Pair", "skim", w)
		if got := new(big.Int).Sub(balanceOf(t, token0, w), before); got.Cmp(extra) != 0 {
			t.Errorf("skim returned %v, want the %v sent", got, extra)
		}
		mustSend(t, w, token0, erc20ABI, "transfer", pair, extra)
		mustSend(t, w, pair, "V2Pair", "sync")
		if r0, _ := reserves(t, pair); r0.Cmp(balanceOf(t, token0, pair)) != 0 {
			t.Errorf("after sync reserve0 %v != balance %v", r0, balanceOf(t, token0, pair))
		}
	})

	t.Run("burn returns both tokens pro rata", func(t *testing.T) {
		creator := addr(tok.Creator)
		shares := new(big.Int).Div(balanceOf(t, pair, creator), big.NewInt(10))
		supply := totalSupply(t, pair)
		r0, r1 := reserves(t, pair)
		b0, b1 := balanceOf(t, token0, creator), balanceOf(t, token1, creator)
		mustSend(t, creator, pair, "V2Pair", "transfer", pair, shares)
		mustSend(t, creator, pair, "V2Pair", "burn", creator)
		want0 := new(big.Int).Div(new(big.Int).Mul(shares, r0), supply)
		want1 := new(big.Int).Div(new(big.Int).Mul(shares, r1), supply)
		if got := new(big.Int).Sub(balanceOf(t, token0, creator), b0); got.Cmp(want0) != 0 {
			t.Errorf("burn paid %v of token0, want %v", got, want0)
		}
		if got := new(big.Int).Sub(balanceOf(t, token1, creator), b1); got.Cmp(want1) != 0 {
			t.Errorf("burn paid %v of token1, want %v", got, want1)
		}
		if got := totalSupply(t, pair); new(big.Int).Sub(supply, got).Cmp(shares) != 0 {
			t.Errorf("LP supply went %v -> %v, want -%v", supply, got, shares)
		}
	})
}

// deployCode is an artifact's creation code.
func deployCode(t *testing.T, name string) []byte {
	t.Helper()
	c, err := artifactFor(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
