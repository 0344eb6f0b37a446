package compat_test

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/simulation"
)

func selectorData(sig string) []byte {
	s := bytecode.SelectorOf(sig)
	return s[:]
}

// v2Reserves reads a V2 pair's (WETH reserve, token reserve).
func v2Reserves(t *testing.T, c *node.Client, pair, weth common.Address) (*big.Int, *big.Int) {
	t.Helper()
	var t0, res hexutil.Bytes
	elems := []rpc.BatchElem{
		node.CallElem(node.CallMsg{To: pair, Data: selectorData("token0()")}, nil, &t0),
		node.CallElem(node.CallMsg{To: pair, Data: selectorData("getReserves()")}, nil, &res),
	}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatal(err)
	}
	if elems[0].Error != nil || elems[1].Error != nil || len(res) < 64 {
		t.Fatalf("reserves: %v %v", elems[0].Error, elems[1].Error)
	}
	r0, r1 := new(big.Int).SetBytes(res[:32]), new(big.Int).SetBytes(res[32:64])
	if common.BytesToAddress(t0) == weth {
		return r0, r1
	}
	return r1, r0
}

// balanceOf reads token.balanceOf(holder).
func balanceOf(t *testing.T, c *node.Client, token, holder common.Address) *big.Int {
	t.Helper()
	out, err := c.CallContract(context.Background(), node.CallMsg{To: token, Data: append(selectorData("balanceOf(address)"), common.LeftPadBytes(holder.Bytes(), 32)...)}, nil)
	if err != nil || len(out) < 32 {
		t.Fatalf("balanceOf: %v", err)
	}
	return new(big.Int).SetBytes(out[:32])
}

// deployTestToken deploys an internal/evm testdata token whose constructor
// takes (factory, weth) and creates its pair on that factory.
func deployTestToken(t *testing.T, a *anvil, name string, factory, weth common.Address) common.Address {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "evm", "testdata", name+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	code := common.FromHex(strings.TrimSpace(string(raw)))
	code = append(code, common.LeftPadBytes(factory.Bytes(), 32)...)
	code = append(code, common.LeftPadBytes(weth.Bytes(), 32)...)
	return a.sendTx(t, nil, nil, code).ContractAddress
}

// TestWalletSimulationOnAnvil runs the wallet path (eth_simulateV1 with
// real transactions from an address without code) on anvil against the
// real Uniswap V2 pair and V3 pool: a plain ERC-20 and a token that refuses
// contract buyers trade; a token that traps wallets cannot be sold.
func TestWalletSimulationOnAnvil(t *testing.T) {
	modules, bin := env(t)
	a := startAnvil(t, bin)
	u := deployUniswap(t, a, modules)
	c := node.NewClient("anvil", []string{a.URL}, node.ClientOptions{})

	plain := a.deploy(t, u.erc20, ether(1_000_000))
	noContract := deployTestToken(t, a, "NoContractBuyer", u.V2Factory, u.WETH)
	trap := deployTestToken(t, a, "WalletTrap", u.V2Factory, u.WETH)
	v3Token := a.deploy(t, u.erc20, ether(1_000_000))
	tests := []struct {
		name    string
		token   common.Address
		v3      bool
		canSell bool
	}{
		{"plain ERC-20", plain, false, true},
		{"refuses contract buyers", noContract, false, true},
		{"traps wallets", trap, false, false},
		{"plain ERC-20 on V3", v3Token, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, fee := "v2", 30
			var pool common.Address
			var wethRes, tokenRes *big.Int
			if tt.v3 {
				kind = "v3"
				pool = u.addV3LiquidityETH(t, a, tt.token, 3000, ether(100_000), ether(10))
				wethRes, tokenRes = balanceOf(t, c, u.WETH, pool), balanceOf(t, c, tt.token, pool)
			} else {
				pool = u.addV2LiquidityETH(t, a, tt.token, ether(100_000), ether(10))
				wethRes, tokenRes = v2Reserves(t, c, pool, u.WETH)
			}
			head, err := a.Client.HeaderByNumber(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			elems, decode, err := simulation.SimulationCall(simulation.SimulationRequest{
				Token: tt.token, Pool: pool, PoolKind: kind, Quote: u.WETH, Wrapped: u.WETH, FeeBps: fee,
				QuoteReserve: wethRes, TokenReserve: tokenRes, BlockTime: head.Time, DelayedSell: time.Hour,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Batch(context.Background(), elems); err != nil {
				t.Fatal(err)
			}
			sim, err := decode()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: path=%s can_buy=%v can_sell=%v buy_tax=%v sell_tax=%v transfer_tax=%v buy_gas=%v sell_gas=%v cooldown=%v error=%v notes=%v",
				tt.name, sim.Path, deref(sim.CanBuy), deref(sim.CanSell), deref(sim.BuyTax), deref(sim.SellTax), deref(sim.TransferTax),
				deref(sim.BuyGas), deref(sim.SellGas), deref(sim.Cooldown), deref(sim.Error), sim.Notes)
			if sim.Path != simulation.PathWallet {
				t.Fatalf("path = %q, want the wallet path to run on anvil", sim.Path)
			}
			if got := sim.CanSell != nil && *sim.CanSell; got != tt.canSell || sim.CanBuy == nil || !*sim.CanBuy {
				t.Errorf("can_buy = %v, can_sell = %v, want true, %v", deref(sim.CanBuy), deref(sim.CanSell), tt.canSell)
			}
			if tt.canSell && (!analysis.EVMNotHoneypot(sim) || sim.SellTax == nil || *sim.SellTax > 1 || sim.TransferTax == nil) {
				t.Errorf("not a clean trade: %+v", sim)
			}
			if sim.Cooldown == nil || *sim.Cooldown {
				t.Errorf("cooldown = %v, want false (the later sell ran)", deref(sim.Cooldown))
			}
		})
	}
}
