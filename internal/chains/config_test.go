package chains_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

func TestShippedChainsFile(t *testing.T) {
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"ethereum": 1, "bsc": 56, "base": 8453, "arbitrum": 42161, "polygon": 137, "solana": 0}
	for key, id := range want {
		c, ok := reg.Get(key)
		if !ok {
			t.Errorf("chain %s missing", key)
			continue
		}
		if c.ChainID != id {
			t.Errorf("%s chain id = %d, want %d", key, c.ChainID, id)
		}
		if len(c.RPC) == 0 || len(c.DEXes) == 0 {
			t.Errorf("%s has no RPC or no DEX", key)
		}
		if _, ok := c.Wrapped(); !ok {
			t.Errorf("%s has no wrapped native quote token", key)
		}
		for _, q := range c.QuoteTokens {
			checkAddress(t, c, q.Address)
		}
		for _, d := range c.DEXes {
			if d.Kind == "v4" {
				// A V4 deployment is its PoolManager, lens and position NFTs.
				for _, a := range []string{d.PoolManager, d.StateView, d.PositionManager} {
					checkAddress(t, c, a)
				}
				if d.FromBlock == 0 {
					t.Errorf("%s: V4 %s has no from_block", key, d.Name)
				}
				continue
			}
			if c.Kind == chains.EVM {
				checkAddress(t, c, d.Factory)
			} else {
				checkAddress(t, c, d.Program)
			}
		}
		for _, tt := range c.Trusted {
			checkAddress(t, c, tt.Address)
		}
	}
	for _, key := range []string{"ethereum", "bsc", "base", "arbitrum", "polygon"} {
		c, _ := reg.Get(key)
		var v4 int
		for _, d := range c.DEXes {
			if d.Kind == "v4" {
				v4++
			}
		}
		if v4 != 1 {
			t.Errorf("%s has %d Uniswap V4 deployments, want 1", key, v4)
		}
	}
	eth, _ := reg.Get("ethereum")
	if eth.DEXes[0].Factory != "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f" {
		t.Errorf("ethereum uniswap v2 factory = %s", eth.DEXes[0].Factory)
	}
	if w, _ := eth.Wrapped(); w.Address != "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2" {
		t.Errorf("WETH = %s", w.Address)
	}
}

// checkAddress insists every EVM address in the file is written in its
// EIP-55 form (a typo in one hex digit then fails the checksum) and every
// Solana address decodes to 32 bytes.
func checkAddress(t *testing.T, c chains.Chain, a string) {
	t.Helper()
	if c.Kind == chains.EVM {
		if !common.IsHexAddress(a) || common.HexToAddress(a).Hex() != a {
			t.Errorf("%s: %q is not an EIP-55 address", c.Key, a)
		}
		return
	}
	if b, err := base58.Decode(a); err != nil || len(b) != 32 {
		t.Errorf("%s: %q is not a 32-byte base58 address", c.Key, a)
	}
}

func TestApplyEnv(t *testing.T) {
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TOKENRISK_RPC_BSC": " http://a:1 , http://b:2 ,"}
	reg.ApplyEnv(func(k string) string { return env[k] }, true)
	bsc, _ := reg.Get("bsc")
	if strings.Join(bsc.RPC, "|") != "http://a:1|http://b:2" || bsc.Disabled {
		t.Errorf("bsc = %v disabled=%v", bsc.RPC, bsc.Disabled)
	}
	if got := reg.Keys(); strings.Join(got, ",") != "bsc" {
		t.Errorf("enabled keys = %v, want only bsc in explicit mode", got)
	}
	reg.Add(chains.Chain{Key: "devnet", Kind: chains.EVM, ChainID: 1337, RPC: []string{"http://127.0.0.1:1"}})
	if got := len(reg.Enabled(chains.EVM)); got != 2 {
		t.Errorf("enabled EVM chains = %d, want 2", got)
	}
}

func TestParseRejectsBadFiles(t *testing.T) {
	tests := map[string]string{
		"unknown field":  `{"chains":[{"key":"x","kind":"evm","chain_id":1,"nope":1}]}`,
		"unknown kind":   `{"chains":[{"key":"x","kind":"cosmos"}]}`,
		"evm without id": `{"chains":[{"key":"x","kind":"evm"}]}`,
		"duplicate":      `{"chains":[{"key":"x","kind":"solana"},{"key":"x","kind":"solana"}]}`,
		"upper key":      `{"chains":[{"key":"X","kind":"solana"}]}`,
		"not json":       `{`,
	}
	for name, data := range tests {
		if _, err := chains.Parse([]byte(data)); err == nil {
			t.Errorf("%s: Parse accepted %s", name, data)
		}
	}
}

func TestCheckEndpoints(t *testing.T) {
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.CheckEndpoints(); err != nil {
		t.Fatalf("the shipped chains file: %v", err)
	}
	for raw, want := range map[string]string{
		"ftp://node.example/SECRETKEY": `scheme "ftp"`,
		"node.example:8545":            "scheme",
		"http://[::1":                  "not a URL",
		"https://":                     "no host",
		"http://node.example:99999":    "invalid port",
		"wss://node.example/SECRETKEY": `scheme "wss"`,
	} {
		env := map[string]string{"TOKENRISK_RPC_BSC": "https://ok.example," + raw}
		reg, _ := chains.Load("")
		reg.ApplyEnv(func(k string) string { return env[k] }, true)
		err := reg.CheckEndpoints()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "bsc: RPC endpoint 2 of 2 (TOKENRISK_RPC_BSC") {
			t.Errorf("%s: err %v, want one naming bsc's endpoint 2 and %q", raw, err, want)
			continue
		}
		if strings.Contains(err.Error(), "SECRETKEY") || strings.Contains(err.Error(), "node.example") {
			t.Errorf("%s: err %q repeats the URL", raw, err)
		}
	}
}

func TestParseV4NeedsPoolManager(t *testing.T) {
	_, err := chains.Parse([]byte(`{"chains":[{"key":"x","kind":"evm","chain_id":9,"native":"ETH","rpc":[],"dexes":[{"name":"u4","kind":"v4"}],"quote_tokens":[]}]}`))
	if err == nil || !strings.Contains(err.Error(), "pool_manager") {
		t.Fatalf("Parse of a V4 DEX without pool_manager: err = %v, want one naming pool_manager", err)
	}
}

func TestParseRPCMaxBatchBytes(t *testing.T) {
	chain := func(v string) []byte {
		return []byte(`{"chains":[{"key":"x","kind":"evm","chain_id":1,"native":"ETH","rpc":["http://127.0.0.1:8545"],"dexes":[],"quote_tokens":[],"rpc_max_batch_bytes":` + v + `}]}`)
	}
	for _, ok := range []string{"0", "-1", "1024", "2097152"} {
		r, err := chains.Parse(chain(ok))
		if err != nil {
			t.Errorf("%s: %v", ok, err)
			continue
		}
		if c, _ := r.Get("x"); fmt.Sprint(c.RPCMaxBatchBytes) != ok {
			t.Errorf("%s: read %d", ok, c.RPCMaxBatchBytes)
		}
	}
	for _, bad := range []string{"-2", "1", "1023"} {
		if _, err := chains.Parse(chain(bad)); err == nil || !strings.Contains(err.Error(), "rpc_max_batch_bytes") {
			t.Errorf("%s: err %v, want one naming rpc_max_batch_bytes", bad, err)
		}
	}
}
