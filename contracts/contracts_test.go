package contracts_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/tokenrisk/tokenrisk/contracts"
)

func TestArtifact(t *testing.T) {
	tests := []struct {
		name    string
		methods []string
		events  []string
	}{
		{"WETH", []string{"deposit", "withdraw", "transfer", "balanceOf"}, []string{"Deposit", "Transfer"}},
		{"V2Factory", []string{"getPair", "allPairs", "allPairsLength", "createPair"}, []string{"PairCreated"}},
		{"V2Pair", []string{"getReserves", "token0", "token1", "swap", "mint", "burn", "sync", "skim", "price0CumulativeLast", "MINIMUM_LIQUIDITY"}, []string{"Sync", "Swap", "Mint", "Burn"}},
		{"V2Router", []string{"addLiquidity", "addLiquidityETH", "swapExactETHForTokensSupportingFeeOnTransferTokens"}, nil},
		{"LPLocker", []string{"lock", "withdraw", "locks"}, []string{"Locked"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := contracts.Artifact(tt.name)
			if err != nil {
				t.Fatalf("Artifact(%q): %v", tt.name, err)
			}
			if c.Name != tt.name {
				t.Errorf("Name = %q, want %q", c.Name, tt.name)
			}
			if len(c.Bytecode) == 0 || len(c.DeployedBytecode) == 0 {
				t.Fatalf("empty bytecode: creation %d bytes, runtime %d bytes", len(c.Bytecode), len(c.DeployedBytecode))
			}
			if len(c.DeployedBytecode) >= len(c.Bytecode) {
				t.Errorf("runtime code (%d bytes) should be shorter than creation code (%d bytes)", len(c.DeployedBytecode), len(c.Bytecode))
			}
			for _, m := range tt.methods {
				if _, ok := c.ABI.Methods[m]; !ok {
					t.Errorf("ABI lacks method %s", m)
				}
			}
			for _, e := range tt.events {
				if _, ok := c.ABI.Events[e]; !ok {
					t.Errorf("ABI lacks event %s", e)
				}
			}
		})
	}
}

// The pool must be found by tools written for Uniswap V2, so its selectors
// and event topics must be Uniswap V2's.
func TestUniswapV2Compatibility(t *testing.T) {
	pair, err := contracts.Artifact("V2Pair")
	if err != nil {
		t.Fatal(err)
	}
	factory, err := contracts.Artifact("V2Factory")
	if err != nil {
		t.Fatal(err)
	}
	selectors := []struct {
		method string
		want   string
	}{
		{"getReserves", "0902f1ac"},
		{"swap", "022c0d9f"},
		{"token0", "0dfe1681"},
		{"token1", "d21220a7"},
		{"mint", "6a627842"},
		{"burn", "89afcb44"},
		{"sync", "fff6cae9"},
		{"skim", "bc25cf77"},
	}
	for _, s := range selectors {
		m, ok := pair.ABI.Methods[s.method]
		if !ok {
			t.Errorf("V2Pair lacks %s", s.method)
			continue
		}
		if got := hex4(m.ID); got != s.want {
			t.Errorf("V2Pair.%s selector = %s, want %s", s.method, got, s.want)
		}
	}
	for method, want := range map[string]string{"getPair": "e6a43905", "allPairs": "1e3dd18b", "allPairsLength": "574f2ba3", "createPair": "c9c65396"} {
		if got := hex4(factory.ABI.Methods[method].ID); got != want {
			t.Errorf("V2Factory.%s selector = %s, want %s", method, got, want)
		}
	}
	topics := map[string]string{
		"Sync": "1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1",
		"Swap": "d78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822",
	}
	for ev, want := range topics {
		if got := pair.ABI.Events[ev].ID.Hex()[2:]; got != want {
			t.Errorf("V2Pair %s topic = %s, want %s", ev, got, want)
		}
	}
	if got, want := factory.ABI.Events["PairCreated"].ID.Hex()[2:], "0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9"; got != want {
		t.Errorf("PairCreated topic = %s, want %s", got, want)
	}
}

func hex4(id []byte) string { return hex.EncodeToString(id[:4]) }

func TestArtifactUnknown(t *testing.T) {
	for _, name := range []string{"", "NoSuchContract", "../go", "WETH.json"} {
		if _, err := contracts.Artifact(name); !errors.Is(err, contracts.ErrUnknown) {
			t.Errorf("Artifact(%q) error = %v, want ErrUnknown", name, err)
		}
	}
}

func TestNamesAllLoad(t *testing.T) {
	names := contracts.Names()
	if len(names) < 6 {
		t.Fatalf("Names() = %v, want at least the AMM contracts", names)
	}
	for _, n := range names {
		if _, err := contracts.Artifact(n); err != nil {
			t.Errorf("Artifact(%q): %v", n, err)
		}
	}
}

// Every artifact must run on every chain the engine scans, by state
// override included: compiled for shanghai, with no opcode from a later
// fork (transient storage, MCOPY, blob opcodes) in its runtime code.
func TestArtifactsRunOnShanghai(t *testing.T) {
	later := map[byte]string{0x49: "BLOBHASH", 0x4a: "BLOBBASEFEE", 0x5c: "TLOAD", 0x5d: "TSTORE", 0x5e: "MCOPY"}
	for _, name := range contracts.Names() {
		c, err := contracts.Artifact(name)
		if err != nil {
			t.Fatal(err)
		}
		if c.EVMVersion != "shanghai" {
			t.Errorf("%s compiled for %q, want shanghai", name, c.EVMVersion)
		}
		code := stripMetadata(c.DeployedBytecode)
		for pc := 0; pc < len(code); pc++ {
			op := code[pc]
			if n, ok := later[op]; ok {
				t.Errorf("%s: %s at pc %d", name, n, pc)
			}
			if op >= 0x60 && op <= 0x7f { // PUSH1..PUSH32 immediates
				pc += int(op - 0x5f)
			}
		}
	}
}

// stripMetadata drops solc's CBOR metadata trailer, whose length is the
// last two bytes of the runtime code.
func stripMetadata(code []byte) []byte {
	if len(code) < 2 {
		return code
	}
	n := int(code[len(code)-2])<<8 | int(code[len(code)-1])
	if n+2 > len(code) {
		return code
	}
	return code[:len(code)-n-2]
}
