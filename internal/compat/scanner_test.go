package compat_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/contracts"
)

// buildTokenrisk compiles the real binary once per test.
func buildTokenrisk(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tokenrisk")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/tokenrisk/tokenrisk/cmd/tokenrisk")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// deployArtifact deploys one of our own contracts (the zoo) on anvil.
func deployArtifact(t *testing.T, a *anvil, name string, args ...any) (common.Address, npmArtifact) {
	t.Helper()
	c, err := contracts.Artifact(name)
	if err != nil {
		t.Fatal(err)
	}
	art := npmArtifact{ABI: c.ABI, Bytecode: c.Bytecode}
	return a.deploy(t, art, args...), art
}

// tokenrisk is `tokenrisk serve` running as a process.
type tokenrisk struct {
	url string
	key string
}

func startTokenrisk(t *testing.T, bin string, env []string, chainsFile string) *tokenrisk {
	t.Helper()
	db := filepath.Join(t.TempDir(), "compat.db")
	env = append(os.Environ(), append(env, "TOKENRISK_DB="+db, "TOKENRISK_CHAINS="+chainsFile,
		"TOKENRISK_SOURCIFY_URL=none", "TOKENRISK_LOG_LEVEL=warn")...)
	keys := exec.Command(bin, "keys", "create", "--plan", "premium", "--name", "compat")
	keys.Env = env
	out, err := keys.Output()
	if err != nil {
		t.Fatalf("keys create: %v", err)
	}
	tr := &tokenrisk{key: strings.TrimSpace(string(out))}

	serve := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	serve.Env = env
	var stderr bytes.Buffer
	serve.Stderr = &stderr
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = serve.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _, _ = serve.Process.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = serve.Process.Kill()
		}
	})
	listening := regexp.MustCompile(`listening on (http://\S+)`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case tr.url = <-found:
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not listen:\n%s", stderr.String())
	}
	return tr
}

// report is the part of a scan report the compatibility checks read.
type report struct {
	Chain             string `json:"chain"`
	RiskLevel         string `json:"risk_level"`
	LiquidityAnalysis struct {
		Pools []struct {
			DEX          string   `json:"dex"`
			Address      string   `json:"address"`
			QuoteToken   string   `json:"quote_token"`
			LiquidityUSD *float64 `json:"liquidity_usd"`
		} `json:"pools"`
		Simulation *struct {
			CanBuy  *bool    `json:"can_buy"`
			CanSell *bool    `json:"can_sell"`
			BuyTax  *float64 `json:"buy_tax"`
			SellTax *float64 `json:"sell_tax"`
			Error   *struct {
				Failed bool   `json:"failed"`
				Reason string `json:"reason"`
			} `json:"error"`
			Pool string `json:"pool"`
		} `json:"simulation"`
	} `json:"liquidity_analysis"`
	RiskFlags []struct {
		Code string `json:"code"`
	} `json:"risk_flags"`
	Warnings []string `json:"warnings"`
}

func (r report) has(code string) bool {
	for _, f := range r.RiskFlags {
		if f.Code == code {
			return true
		}
	}
	return false
}

func (tr *tokenrisk) scan(t *testing.T, addr common.Address) report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, tr.url+"/api/v1/scan/", strings.NewReader(`{"address":"`+addr.Hex()+`"}`))
	req.Header.Set("Authorization", "Bearer "+tr.key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("scan %s: %d %s", addr, res.StatusCode, body)
	}
	var r report
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	t.Logf("scan %s: %s flags=%v warnings=%v", addr, r.RiskLevel, r.RiskFlags, r.Warnings)
	return r
}

// TestScannerOnRealUniswap deploys the real Uniswap V2 (factory, Router02,
// WETH9) and V3 (factory, NonfungiblePositionManager) contracts on anvil,
// a few zoo tokens with pools on them, wires them in with --chains FILE
// under the "ethereum" key (as an operator pointing a chain at any node
// would), and scans over HTTP.
func TestScannerOnRealUniswap(t *testing.T) {
	modules, anvilBin := env(t)
	bin := buildTokenrisk(t)
	a := startAnvil(t, anvilBin)
	u := deployUniswap(t, a, modules)

	supply := ether(1_000_000_000)
	// USD price source: a WETH/USDC pool on the real V2 (3000 USDC per ETH).
	usdc, usdcArt := deployArtifact(t, a, "StableUSD", new(big.Int).Mul(big.NewInt(1_000_000_000), big.NewInt(1e6)))
	a.transact(t, usdc, usdcArt.ABI, nil, "approve", u.Router, new(big.Int).Mul(big.NewInt(300_000), big.NewInt(1e6)))
	a.transact(t, u.Router, u.router.ABI, ether(100), "addLiquidityETH", usdc, new(big.Int).Mul(big.NewInt(300_000), big.NewInt(1e6)),
		big.NewInt(0), big.NewInt(0), a.From, big.NewInt(1<<40))

	clean, _ := deployArtifact(t, a, "CleanToken", "Compat Clean", "CCLN", supply)
	cleanPair := u.addV2LiquidityETH(t, a, clean, ether(100_000_000), ether(20))

	honeypot, _ := deployArtifact(t, a, "MoonRocket", u.Router, supply)
	u.addV2LiquidityETH(t, a, honeypot, ether(100_000_000), ether(20))

	taxed, _ := deployArtifact(t, a, "TaxedToken", u.Router, supply)
	u.addV2LiquidityETH(t, a, taxed, ether(100_000_000), ether(20))

	v3only, _ := deployArtifact(t, a, "CleanToken", "Compat V3", "CV3", supply)
	v3pool := u.addV3LiquidityETH(t, a, v3only, 3000, ether(100_000_000), ether(20))

	chainsFile := filepath.Join(t.TempDir(), "chains.json")
	writeJSON(t, chainsFile, map[string]any{"chains": []map[string]any{{
		"key": "ethereum", "kind": "evm", "chain_id": 31337, "native": "ETH", "rpc": []string{a.URL},
		"dexes": []map[string]any{
			{"name": "uniswap_v2", "kind": "v2", "factory": u.V2Factory.Hex(), "fee_bps": 30},
			{"name": "uniswap_v3", "kind": "v3", "factory": u.V3Factory.Hex(), "fee_tiers": []int{500, 3000, 10000}},
		},
		"quote_tokens": []map[string]any{
			{"symbol": "WETH", "address": u.WETH.Hex(), "decimals": 18, "wrapped": true},
			{"symbol": "USDC", "address": usdc.Hex(), "decimals": 6, "usd_stable": true},
		},
		"burn_addresses": []string{"0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dEaD"},
	}}})
	tr := startTokenrisk(t, bin, []string{"TOKENRISK_RPC_ETHEREUM=" + a.URL}, chainsFile)

	t.Run("clean token on the real V2 pair", func(t *testing.T) {
		r := tr.scan(t, clean)
		pool := findPool(t, r, "uniswap_v2", cleanPair)
		if pool.LiquidityUSD == nil || *pool.LiquidityUSD < 100_000 {
			t.Errorf("liquidity_usd = %v, want ~120000 (20 ETH × 3000 × 2)", pool.LiquidityUSD)
		}
		sim := r.LiquidityAnalysis.Simulation
		if sim == nil || !isTrue(sim.CanBuy) || !isTrue(sim.CanSell) {
			t.Fatalf("simulation = %+v, want can buy and sell", sim)
		}
		if sim.BuyTax == nil || *sim.BuyTax > 1 || sim.SellTax == nil || *sim.SellTax > 1 {
			t.Errorf("taxes buy=%v sell=%v, want < 1", sim.BuyTax, sim.SellTax)
		}
		if r.has("HONEYPOT_CANNOT_SELL") || r.has("SIMULATION_FAILED") {
			t.Errorf("flags %v", r.RiskFlags)
		}
	})
	t.Run("honeypot on the real V2 pair", func(t *testing.T) {
		r := tr.scan(t, honeypot)
		if !r.has("HONEYPOT_CANNOT_SELL") || r.RiskLevel != "critical" {
			t.Errorf("level %s flags %v, want HONEYPOT_CANNOT_SELL and critical", r.RiskLevel, r.RiskFlags)
		}
	})
	t.Run("taxed token on the real V2 pair", func(t *testing.T) {
		r := tr.scan(t, taxed)
		sim := r.LiquidityAnalysis.Simulation
		if sim == nil || sim.SellTax == nil || *sim.SellTax < 28 || *sim.SellTax > 32 {
			t.Fatalf("simulation = %+v, want sell tax 30 ± 2", sim)
		}
		if sim.BuyTax == nil || *sim.BuyTax < 4 || *sim.BuyTax > 6 {
			t.Errorf("buy tax = %v, want 5 ± 1", sim.BuyTax)
		}
		if !r.has("SELL_TAX_HIGH") {
			t.Errorf("flags %v, want SELL_TAX_HIGH", r.RiskFlags)
		}
	})
	t.Run("token with only a real V3 pool", func(t *testing.T) {
		r := tr.scan(t, v3only)
		pool := findPool(t, r, "uniswap_v3", v3pool)
		if pool.LiquidityUSD == nil || *pool.LiquidityUSD < 50_000 {
			t.Errorf("liquidity_usd = %v, want > 50000", pool.LiquidityUSD)
		}
		sim := r.LiquidityAnalysis.Simulation
		if sim == nil || !isTrue(sim.CanBuy) || !isTrue(sim.CanSell) {
			t.Fatalf("simulation = %+v, want can buy and sell through the V3 pool", sim)
		}
		if r.has("NO_LIQUIDITY") || r.has("HONEYPOT_CANNOT_SELL") {
			t.Errorf("flags %v", r.RiskFlags)
		}
	})
}

func isTrue(b *bool) bool { return b != nil && *b }

func findPool(t *testing.T, r report, dex string, addr common.Address) struct {
	DEX          string   `json:"dex"`
	Address      string   `json:"address"`
	QuoteToken   string   `json:"quote_token"`
	LiquidityUSD *float64 `json:"liquidity_usd"`
} {
	t.Helper()
	for _, p := range r.LiquidityAnalysis.Pools {
		if p.DEX == dex && strings.EqualFold(p.Address, addr.Hex()) {
			return p
		}
	}
	t.Fatalf("pool %s on %s not found in %+v", addr, dex, r.LiquidityAnalysis.Pools)
	return r.LiquidityAnalysis.Pools[0]
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
