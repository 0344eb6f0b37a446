package contracts_test

import (
	"errors"
	"os"
	"testing"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// The V4 build, when embedded, is the real PoolManager: its lock, swap and
// storage view, the Initialize event the engine filters on, compiled for
// cancun within the contract size limit.
func TestUniswapV4(t *testing.T) {
	pm, err := contracts.UniswapV4("PoolManager")
	if errors.Is(err, contracts.ErrNotBuilt) {
		if os.Getenv("TOKENRISK_REQUIRE_V4") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !contracts.UniswapV4Built() {
		t.Error("UniswapV4Built() = false with a PoolManager embedded")
	}
	for _, m := range []string{"unlock", "initialize", "swap", "modifyLiquidity", "settle", "take", "sync", "extsload"} {
		if _, ok := pm.ABI.Methods[m]; !ok {
			t.Errorf("PoolManager ABI lacks %s", m)
		}
	}
	if got := pm.ABI.Events["Initialize"].ID.Hex(); got != "0xdd466e674ea557f56295e2d0218a125ea4b4f0f6f3307b95f85e6110838d6438" {
		t.Errorf("Initialize topic = %s", got)
	}
	if pm.EVMVersion != "cancun" || len(pm.DeployedBytecode) > 24_576 {
		t.Errorf("PoolManager: evm %q, %d bytes of runtime code", pm.EVMVersion, len(pm.DeployedBytecode))
	}
	if _, err := contracts.UniswapV4("StateView"); err != nil {
		t.Errorf("StateView: %v", err)
	}
	if _, err := contracts.UniswapV4("V2Pair"); !errors.Is(err, contracts.ErrUnknown) {
		t.Errorf("UniswapV4(V2Pair) err = %v, want ErrUnknown", err)
	}
}
