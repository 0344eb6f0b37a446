package analysis

import (
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

func evmF(v float64) *float64 { return &v }

func evmCodes(s scan.Section) []string {
	var out []string
	for _, f := range s.Flags {
		out = append(out, f.Code)
	}
	return out
}

func evmCheckFlag(t *testing.T, s scan.Section, code string, want bool) {
	t.Helper()
	if got := slices.Contains(evmCodes(s), code); got != want {
		t.Errorf("%s raised = %v, want %v (flags %v)", code, got, want, evmCodes(s))
	}
}

var evmNow = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func evmPool(usd float64, burned, locked *float64) EVMPool {
	return EVMPool{DEX: "uniswap_v2", Kind: "v2", Address: "0x1111111111111111111111111111111111111111",
		QuoteToken: "WETH", LiquidityUSD: &usd, LPBurnedPct: burned, LPLockedPct: locked}
}

func TestAnalyseEVMLiquidity(t *testing.T) {
	old := evmNow.Add(-30 * 24 * time.Hour)
	young := evmNow.Add(-5 * time.Hour)
	withAge := func(p EVMPool, at time.Time) EVMPool { p.CreatedAt = &at; return p }
	v3 := evmPool(500_000, nil, nil)
	v3.Kind = "v3"
	tests := []struct {
		name       string
		liq        EVMLiquidityFacts
		flag       string
		want       bool
		wantStatus scan.Status
		locked     bool
	}{
		{"no pool is NO_LIQUIDITY", EVMLiquidityFacts{Searched: true}, risk.NoLiquidity, true, scan.Complete, false},
		{"empty pools are NO_LIQUIDITY", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(0, evmF(100), evmF(0))}}, risk.NoLiquidity, true, scan.Complete, false},
		{"failed search is unknown, not NO_LIQUIDITY", EVMLiquidityFacts{}, risk.NoLiquidity, false, scan.Unavailable, false},
		{"no pool with an incomplete V4 search is unknown, not NO_LIQUIDITY", EVMLiquidityFacts{Searched: true, V4Unknown: true}, risk.NoLiquidity, false, scan.Partial, false},
		{"deep pool is not NO_LIQUIDITY", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(1e6, evmF(100), evmF(0))}}, risk.NoLiquidity, false, scan.Complete, true},
		{"5k USD is LOW_LIQUIDITY", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(5000, evmF(100), evmF(0))}}, risk.LowLiquidity, true, scan.Complete, true},
		{"50k USD is not LOW_LIQUIDITY", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(50_000, evmF(100), evmF(0))}}, risk.LowLiquidity, false, scan.Complete, true},
		{"unvalued pool is partial, not LOW", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{{Kind: "v2", Address: "0x1", LPBurnedPct: evmF(100), LPLockedPct: evmF(0)}}}, risk.LowLiquidity, false, scan.Partial, true},
		{"LP held by EOA is LP_NOT_LOCKED", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(1e6, evmF(0), evmF(0))}}, risk.LPNotLocked, true, scan.Complete, false},
		{"half burned half locked is locked", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(1e6, evmF(50), evmF(45))}}, risk.LPNotLocked, false, scan.Complete, true},
		{"80% burned is LP_NOT_LOCKED", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(1e6, evmF(80), evmF(0))}}, risk.LPNotLocked, true, scan.Complete, false},
		{"V3 main pool LP unknown, no flag", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{v3}}, risk.LPNotLocked, false, scan.Partial, false},
		{"5h old pool is NEW_POOL", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{withAge(evmPool(1e6, evmF(100), evmF(0)), young)}}, risk.NewPool, true, scan.Complete, true},
		{"month-old pool is not NEW_POOL", EVMLiquidityFacts{Searched: true, Pools: []EVMPool{withAge(evmPool(1e6, evmF(100), evmF(0)), old)}}, risk.NewPool, false, scan.Complete, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &EVMFacts{Liquidity: tt.liq, Now: evmNow}
			s, _ := AnalyseEVMLiquidity(f)
			evmCheckFlag(t, s, tt.flag, tt.want)
			if s.Status != tt.wantStatus {
				t.Errorf("status = %s, want %s", s.Status, tt.wantStatus)
			}
			if got := EVMLiquidityLocked(f); got != tt.locked {
				t.Errorf("liquidity_locked = %v, want %v", got, tt.locked)
			}
		})
	}
}

func TestAnalyseEVMDeployer(t *testing.T) {
	supply := big.NewInt(1_000_000)
	creator := "0xC0000000000000000000000000000000000000C0"
	owner := "0x0000000000000000000000000000000000000abc"
	n := func(v uint64) *uint64 { return &v }
	tests := []struct {
		name     string
		owner    string
		d        EVMDeployerFacts
		flag     string
		want     bool
		wantWarn bool
	}{
		{"creator with 20% is CREATOR_HOLDS_LARGE_SHARE", "", EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(200_000), CreatorNonce: n(50), OtherLaunchesKnown: true}, risk.CreatorHoldsLargeShare, true, false},
		{"creator with 1% is fine", "", EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(10_000), CreatorNonce: n(50), OtherLaunchesKnown: true}, risk.CreatorHoldsLargeShare, false, false},
		{"unknown creator balance warns", "", EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorNonce: n(50), OtherLaunchesKnown: true}, risk.CreatorHoldsLargeShare, false, true},
		{"owner with 30% is OWNER_HOLDS_LARGE_SHARE", owner, EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(0), OwnerTokens: big.NewInt(300_000), CreatorNonce: n(50), OtherLaunchesKnown: true}, risk.OwnerHoldsLargeShare, true, false},
		{"owner who is the creator is flagged once", creator, EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(300_000), OwnerTokens: big.NewInt(300_000), CreatorNonce: n(50), OtherLaunchesKnown: true}, risk.OwnerHoldsLargeShare, false, false},
		{"nonce 1 is CREATOR_NEW_WALLET", "", EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(0), CreatorNonce: n(1), OtherLaunchesKnown: true}, risk.CreatorNewWallet, true, false},
		{"nonce 100 is not new", "", EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(0), CreatorNonce: n(100), OtherLaunchesKnown: true}, risk.CreatorNewWallet, false, false},
		{"5 launches is CREATOR_SERIAL_LAUNCHER", "", EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(0), CreatorNonce: n(100), OtherLaunchesKnown: true, OtherLaunches: []string{"a", "b", "c", "d", "e"}}, risk.CreatorSerialLauncher, true, false},
		{"unknown launches warn, no flag", "", EVMDeployerFacts{Creator: &creator, CreatorSource: "explorer", CreatorTokens: big.NewInt(0), CreatorNonce: n(100)}, risk.CreatorSerialLauncher, false, true},
		{"unknown creator warns", "", EVMDeployerFacts{OtherLaunchesKnown: true}, risk.CreatorHoldsLargeShare, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &EVMFacts{TotalSupply: supply, OwnerKnown: true, Owner: tt.owner, Deployer: tt.d}
			s, warns := AnalyseEVMDeployer(f)
			evmCheckFlag(t, s, tt.flag, tt.want)
			if (len(warns) > 0) != tt.wantWarn {
				t.Errorf("warnings = %q, want some: %v", warns, tt.wantWarn)
			}
			if tt.wantWarn && s.Status == scan.Complete {
				t.Errorf("status complete despite unknowns")
			}
		})
	}
}

func TestAnalyseEVMHolders(t *testing.T) {
	supply := big.NewInt(1000)
	pool := "0x1111111111111111111111111111111111111111"
	hb := func(addr string, bal int64) EVMHolderBalance {
		return EVMHolderBalance{Address: addr, Balance: big.NewInt(bal)}
	}
	many := func(n int, each int64) []EVMHolderBalance {
		var out []EVMHolderBalance
		for i := range n {
			out = append(out, hb(big.NewInt(int64(0x1000+i)).Text(16), each))
		}
		return out
	}
	creator := "0xC0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0C0"
	seeded := func(n int, each int64) []EVMHolderBalance {
		out := many(n, each)
		for i := range out {
			out[i].FirstFrom = &creator
		}
		return out
	}
	tests := []struct {
		name     string
		h        *EVMHolderFacts
		flag     string
		want     bool
		healthy  bool
		wantStat scan.Status
	}{
		{"pool with 90% is not a whale", &EVMHolderFacts{Complete: true, InsidersRead: true, HolderCount: 100, Top: append([]EVMHolderBalance{hb(pool, 900)}, many(100, 1)...)}, risk.WhaleHolder, false, true, scan.Complete},
		{"burn address is not a whale", &EVMHolderFacts{Complete: true, InsidersRead: true, HolderCount: 100, Top: append([]EVMHolderBalance{hb("0x000000000000000000000000000000000000dEaD", 900)}, many(100, 1)...)}, risk.WhaleHolder, false, true, scan.Complete},
		{"wallet with 20% is a whale", &EVMHolderFacts{Complete: true, InsidersRead: true, HolderCount: 100, Top: append([]EVMHolderBalance{hb("0xaaaa", 200), hb(pool, 700)}, many(100, 1)...)}, risk.WhaleHolder, true, false, scan.Complete},
		{"ten wallets with 6% each are TOP10_CONCENTRATED", &EVMHolderFacts{Complete: true, InsidersRead: true, HolderCount: 100, Top: append(many(10, 60), many(90, 1)...)}, risk.Top10Concentrated, true, false, scan.Complete},
		{"spread holders are not concentrated", &EVMHolderFacts{Complete: true, InsidersRead: true, HolderCount: 100, Top: append([]EVMHolderBalance{hb(pool, 500)}, many(100, 5)...)}, risk.Top10Concentrated, false, true, scan.Complete},
		{"20 holders is FEW_HOLDERS", &EVMHolderFacts{Complete: true, InsidersRead: true, HolderCount: 20, Top: many(20, 50)}, risk.FewHolders, true, false, scan.Complete},
		{"partial rebuild with 20 holders is unknown", &EVMHolderFacts{HolderCount: 20, Top: many(20, 50)}, risk.FewHolders, false, false, scan.Partial},
		{"no rebuild is unavailable", nil, risk.FewHolders, false, false, scan.Unavailable},
		{"insider check not run is not healthy", &EVMHolderFacts{Complete: true, HolderCount: 100, Top: append([]EVMHolderBalance{hb(pool, 500)}, many(100, 5)...)}, risk.InsiderSupply, false, false, scan.Complete},
		{"wallets the creator seeded with 12% are INSIDER_SUPPLY", &EVMHolderFacts{Complete: true, InsidersRead: true, HolderCount: 100, Top: append(seeded(3, 40), many(97, 1)...)}, risk.InsiderSupply, true, false, scan.Complete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &EVMFacts{TotalSupply: supply, Holders: tt.h, BurnAddresses: []string{"0x000000000000000000000000000000000000dEaD"}, Deployer: EVMDeployerFacts{Creator: &creator},
				Liquidity: EVMLiquidityFacts{Searched: true, Pools: []EVMPool{evmPool(1e6, evmF(100), evmF(0))}}}
			s, _ := AnalyseEVMHolders(f)
			evmCheckFlag(t, s, tt.flag, tt.want)
			if s.Status != tt.wantStat {
				t.Errorf("status = %s, want %s", s.Status, tt.wantStat)
			}
			if got := EVMHealthyHolders(f, s); got != tt.healthy {
				t.Errorf("healthy_holders = %v, want %v", got, tt.healthy)
			}
		})
	}
}

func TestEVMHolderLabels(t *testing.T) {
	creator := "0x00000000000000000000000000000000000000c1"
	f := &EVMFacts{
		Token: "0x00000000000000000000000000000000000000aa", OwnerKnown: true, Owner: "0x00000000000000000000000000000000000000b0",
		BurnAddresses: []string{"0x000000000000000000000000000000000000dEaD"},
		Lockers:       map[string]string{"0x00000000000000000000000000000000000000Lc": "UNCX"},
		Deployer:      EVMDeployerFacts{Creator: &creator},
		Exchanges:     map[string]string{"0x00000000000000000000000000000000000000e1": "Binance 14"},
		Liquidity:     EVMLiquidityFacts{Pools: []EVMPool{{Address: "0x1111111111111111111111111111111111111111"}}},
	}
	tests := map[string]string{
		"0x1111111111111111111111111111111111111111": "pool",
		"0x000000000000000000000000000000000000DEAD": "burn",
		"0x00000000000000000000000000000000000000lc": "locker",
		"0x00000000000000000000000000000000000000C1": "creator",
		"0x00000000000000000000000000000000000000b0": "owner",
		"0x00000000000000000000000000000000000000aa": "token",
		"0x00000000000000000000000000000000000000E1": "exchange",
		"0x0000000000000000000000000000000000000999": "",
	}
	for addr, want := range tests {
		if got := evmHolderLabel(f, EVMHolderBalance{Address: addr}); got != want {
			t.Errorf("label(%s) = %q, want %q", addr, got, want)
		}
	}
}
