// Package compat_test is the compatibility tier: the scanner against the
// real Uniswap V2/V3 and WETH9 contracts on anvil, all installed from npm at
// CI time (see .ci/compat). Without TOKENRISK_COMPAT_MODULES it skips.
package compat_test

import (
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// env returns the node_modules folder and the anvil binary, or skips.
func env(t *testing.T) (modules, anvilBin string) {
	t.Helper()
	modules = os.Getenv("TOKENRISK_COMPAT_MODULES")
	if modules == "" {
		t.Skip("compatibility tier: TOKENRISK_COMPAT_MODULES is not set (run .ci/compat to install the real Uniswap artifacts and anvil)")
	}
	anvilBin = filepath.Join(modules, "@foundry-rs/anvil-linux-amd64/bin/anvil")
	if _, err := os.Stat(anvilBin); err != nil {
		t.Fatalf("anvil binary: %v", err)
	}
	return modules, anvilBin
}

func TestRealUniswapPoolsOnAnvil(t *testing.T) {
	modules, bin := env(t)
	a := startAnvil(t, bin)
	u := deployUniswap(t, a, modules)

	token := a.deploy(t, u.erc20, ether(1_000_000))
	pair := u.addV2LiquidityETH(t, a, token, ether(100_000), ether(10))
	reserves := a.call(t, pair, loadNPMArtifact(t, modules, "@uniswap/v2-core/build/UniswapV2Pair.json").ABI, "getReserves")
	r0, r1 := reserves[0].(*big.Int), reserves[1].(*big.Int)
	if r0.Sign() == 0 || r1.Sign() == 0 {
		t.Fatalf("v2 reserves %v %v", r0, r1)
	}

	token2 := a.deploy(t, u.erc20, ether(1_000_000))
	pool := u.addV3LiquidityETH(t, a, token2, 3000, ether(100_000), ether(10))
	liq := a.call(t, pool, u.v3pool.ABI, "liquidity")[0].(*big.Int)
	if liq.Sign() == 0 {
		t.Fatal("v3 pool has no liquidity")
	}
	if pool == (common.Address{}) || pair == pool {
		t.Fatal("bad pool addresses")
	}
}
