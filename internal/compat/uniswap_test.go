package compat_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// uniswap is the real Uniswap V2 + V3 deployment on an anvil node, built
// from the npm artifacts (never committed; installed by .ci/compat).
type uniswap struct {
	WETH, V2Factory, Router, V3Factory, Positions common.Address

	weth, v2factory, router, v3factory, positions, erc20, v3pool npmArtifact
}

func deployUniswap(t *testing.T, a *anvil, modules string) *uniswap {
	t.Helper()
	u := &uniswap{
		weth:      loadNPMArtifact(t, modules, "@uniswap/v2-periphery/build/WETH9.json"),
		v2factory: loadNPMArtifact(t, modules, "@uniswap/v2-core/build/UniswapV2Factory.json"),
		router:    loadNPMArtifact(t, modules, "@uniswap/v2-periphery/build/UniswapV2Router02.json"),
		v3factory: loadNPMArtifact(t, modules, "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"),
		positions: loadNPMArtifact(t, modules, "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json"),
		erc20:     loadNPMArtifact(t, modules, "@uniswap/v2-core/build/ERC20.json"),
		v3pool:    loadNPMArtifact(t, modules, "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json"),
	}
	u.WETH = a.deploy(t, u.weth)
	u.V2Factory = a.deploy(t, u.v2factory, a.From)
	u.Router = a.deploy(t, u.router, u.V2Factory, u.WETH)
	u.V3Factory = a.deploy(t, u.v3factory)
	u.Positions = a.deploy(t, u.positions, u.V3Factory, u.WETH, common.Address{})
	return u
}

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// addV2LiquidityETH seeds token/WETH on the real Router02 and returns the pair.
func (u *uniswap) addV2LiquidityETH(t *testing.T, a *anvil, token common.Address, tokenAmount, ethAmount *big.Int) common.Address {
	t.Helper()
	a.transact(t, token, u.erc20.ABI, nil, "approve", u.Router, tokenAmount)
	deadline := big.NewInt(1 << 40)
	a.transact(t, u.Router, u.router.ABI, ethAmount, "addLiquidityETH", token, tokenAmount, big.NewInt(0), big.NewInt(0), a.From, deadline)
	out := a.call(t, u.V2Factory, u.v2factory.ABI, "getPair", token, u.WETH)
	pair := out[0].(common.Address)
	if pair == (common.Address{}) {
		t.Fatal("router made no pair")
	}
	return pair
}

// addV3LiquidityETH creates and initialises a token/WETH pool at the given
// price (WETH per token, in whole units with equal decimals) and mints a
// full-range position through the real NonfungiblePositionManager.
func (u *uniswap) addV3LiquidityETH(t *testing.T, a *anvil, token common.Address, fee int64, tokenAmount, ethAmount *big.Int) common.Address {
	t.Helper()
	token0, token1 := token, u.WETH
	amount0, amount1 := tokenAmount, ethAmount
	if token1.Big().Cmp(token0.Big()) < 0 {
		token0, token1 = token1, token0
		amount0, amount1 = amount1, amount0
	}
	// sqrtPriceX96 = sqrt(amount1/amount0) * 2^96
	ratio := new(big.Float).SetPrec(256).Quo(new(big.Float).SetPrec(256).SetInt(amount1), new(big.Float).SetPrec(256).SetInt(amount0))
	sqrt := new(big.Float).SetPrec(256).Sqrt(ratio)
	sqrt.Mul(sqrt, new(big.Float).SetPrec(256).SetInt(new(big.Int).Lsh(big.NewInt(1), 96)))
	sqrtPrice, _ := sqrt.Int(nil)
	a.transact(t, u.Positions, u.positions.ABI, nil, "createAndInitializePoolIfNecessary", token0, token1, big.NewInt(fee), sqrtPrice)
	a.transact(t, token, u.erc20.ABI, nil, "approve", u.Positions, tokenAmount)
	spacing := map[int64]int64{500: 10, 2500: 50, 3000: 60, 10000: 200}[fee]
	maxTick := 887272 / spacing * spacing
	params := struct {
		Token0         common.Address
		Token1         common.Address
		Fee            *big.Int
		TickLower      *big.Int
		TickUpper      *big.Int
		Amount0Desired *big.Int
		Amount1Desired *big.Int
		Amount0Min     *big.Int
		Amount1Min     *big.Int
		Recipient      common.Address
		Deadline       *big.Int
	}{token0, token1, big.NewInt(fee), big.NewInt(-maxTick), big.NewInt(maxTick), amount0, amount1,
		big.NewInt(0), big.NewInt(0), a.From, big.NewInt(1 << 40)}
	a.transact(t, u.Positions, u.positions.ABI, ethAmount, "mint", params)
	out := a.call(t, u.V3Factory, u.v3factory.ABI, "getPool", token0, token1, big.NewInt(fee))
	pool := out[0].(common.Address)
	if pool == (common.Address{}) {
		t.Fatal("position manager made no pool")
	}
	return pool
}
