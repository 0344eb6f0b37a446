package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/evm/proxy"

	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// adapterNet is one devnet shared by the adapter tests.
var adapterNet = struct {
	once sync.Once
	dn   *devnet.Devnet
	err  error
}{}

func startAdapterNet(t testing.TB) *devnet.Devnet {
	t.Helper()
	if testing.Short() {
		t.Skip("devnet tests are not short")
	}
	adapterNet.once.Do(func() {
		adapterNet.dn, adapterNet.err = devnet.Start(context.Background(), devnet.Options{CommitInterval: -1})
	})
	if adapterNet.err != nil {
		t.Fatalf("devnet: %v", adapterNet.err)
	}
	return adapterNet.dn
}

// devnetRegistry is a registry holding only ch.
func devnetRegistry(t testing.TB, ch ...chains.Chain) *chains.Registry {
	t.Helper()
	reg, err := chains.Parse([]byte(`{"chains":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ch {
		reg.Add(c)
	}
	return reg
}

func assess(t testing.TB, ad *Adapter, address string, plan ...string) (*scan.Report, error) {
	t.Helper()
	addr, err := chains.ParseAddress(address)
	if err != nil {
		t.Fatal(err)
	}
	if plan == nil {
		plan = []string{devnet.ChainKey}
	}
	as, err := ad.Assess(context.Background(), scan.Request{Address: addr, Chains: plan})
	if err != nil {
		return nil, err
	}
	return scan.Build(risk.NewCatalogue(), addr, as), nil
}

// verdict is one expectation of issue 4 on a zoo kind.
type verdict struct {
	anyOf    []string // at least one of these flags
	allOf    []string
	noneOf   []string
	minLevel risk.Level
	maxLevel risk.Level
	check    func(t *testing.T, r *scan.Report)
}

var levelRank = map[risk.Level]int{risk.Minimal: 0, risk.LevelLow: 1, risk.LevelMedium: 2, risk.LevelHigh: 3, risk.LevelCritical: 4}

func simOf(t *testing.T, r *scan.Report) *analysis.EVMSimulation {
	t.Helper()
	ev, ok := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
	if !ok {
		t.Fatalf("liquidity evidence is %T", r.LiquidityAnalysis.Evidence)
	}
	sim, _ := ev.Simulation.(*analysis.EVMSimulation)
	if sim == nil {
		t.Fatalf("no simulation in the report")
	}
	return sim
}

func near(t *testing.T, name string, got *float64, want, tol float64) {
	t.Helper()
	if got == nil || math.Abs(*got-want) > tol {
		t.Errorf("%s = %v, want %v ± %v", name, fmtPtr(got), want, tol)
	}
}

// fieldNoHoneypot are the simulation's proofs no field zoo token that
// trades for everyone may raise.
var fieldNoHoneypot = []string{risk.HoneypotCannotSell, risk.HoneypotCannotBuy, risk.CannotSellAll, risk.SimulationFailed}

func noHighFlag(t *testing.T, r *scan.Report) {
	t.Helper()
	for _, f := range r.RiskFlags {
		if f.Severity == risk.High || f.Severity == risk.Critical {
			t.Errorf("unexpected %s flag %s (%s)", f.Severity, f.Code, f.Detail)
		}
	}
}

var zooVerdicts = map[string]verdict{
	// The field zoo (issue 18): the simulation's proofs. A trap on the
	// router's transferFrom, or on sells past a time or a block, is a
	// honeypot although a fresh wallet's direct sell works now.
	"honeypot_transferfrom":      {allOf: []string{risk.HoneypotCannotSell}, minLevel: risk.LevelCritical, check: notHoneypotFalse},
	"honeypot_transferfrom_list": {allOf: []string{risk.HoneypotCannotSell}, minLevel: risk.LevelCritical, check: notHoneypotFalse},
	"honeypot_time_bomb":         {allOf: []string{risk.HoneypotCannotSell}, minLevel: risk.LevelCritical, check: notHoneypotFalse},
	"honeypot_block_fuse":        {allOf: []string{risk.HoneypotCannotSell}, minLevel: risk.LevelCritical, check: notHoneypotFalse},
	"cannot_sell_all":            {allOf: []string{risk.CannotSellAll}, noneOf: fieldNoHoneypot[:2]},
	"cannot_sell_all_residue":    {allOf: []string{risk.CannotSellAll}, noneOf: fieldNoHoneypot[:2]},
	"buy_cooldown":               {allOf: []string{risk.TradingCooldown}, noneOf: fieldNoHoneypot},
	"buy_cooldown_blocks":        {allOf: []string{risk.TradingCooldown}, noneOf: fieldNoHoneypot},
	// Traps a fresh wallet does not meet (the holders' sells), owner
	// switches (the probes) and the probe-side fields: no false proof.
	"honeypot_holders_armed":  {allOf: []string{risk.HoneypotCannotSell}, noneOf: []string{risk.CannotSellAll, risk.HoneypotCannotBuy}, minLevel: risk.LevelCritical},
	"honeypot_holders_listed": {allOf: []string{risk.HoneypotCannotSell}, noneOf: []string{risk.CannotSellAll, risk.HoneypotCannotBuy}, minLevel: risk.LevelCritical},
	"honeypot_owner_switch":   {noneOf: fieldNoHoneypot},
	"honeypot_owner_sell_cap": {noneOf: fieldNoHoneypot},
	"whitelist_fee_exempt":    {noneOf: fieldNoHoneypot},
	"whitelist_limits":        {noneOf: fieldNoHoneypot},
	"personal_fee":            {noneOf: fieldNoHoneypot},
	"personal_fee_tiers":      {noneOf: fieldNoHoneypot},
	"ownership_reclaim_lock":  {noneOf: fieldNoHoneypot},
	"ownership_reclaim_admin": {noneOf: fieldNoHoneypot},
	"hidden_owner_dev":        {noneOf: fieldNoHoneypot},
	"hidden_owner_slot":       {noneOf: fieldNoHoneypot},
	"external_call_ledger":    {noneOf: fieldNoHoneypot},
	"external_call_guard":     {noneOf: fieldNoHoneypot},
	"anti_whale_max_tx":       {noneOf: fieldNoHoneypot},
	"anti_whale_max_wallet":   {noneOf: fieldNoHoneypot},
	"benign_cooldown_named":   {noneOf: fieldNoHoneypot, maxLevel: risk.LevelMedium},
	"benign_max_wallet":       {noneOf: fieldNoHoneypot, maxLevel: risk.LevelMedium},
	"benign_self_lock":        {noneOf: fieldNoHoneypot},
	// Other shapes of the same fields (arrays, inline checks, assembly
	// at hashed slots, misleading names): the same proofs.
	"honeypot_owner_switch_asm":  {noneOf: fieldNoHoneypot},
	"ownership_reclaim_stewards": {noneOf: fieldNoHoneypot},
	"whitelist_partner_array":    {noneOf: fieldNoHoneypot},
	"whitelist_presale_array":    {allOf: []string{risk.WhitelistOnly}},
	"personal_fee_asm":           {noneOf: fieldNoHoneypot},
	"buy_cooldown_asm":           {allOf: []string{risk.TradingCooldown}, noneOf: fieldNoHoneypot},
	// A mint hidden in the marketing wallet's transfer is a hidden mint
	// (critical); the look-alike whose wallet is debited is no mint.
	"mint_in_transfer": {allOf: []string{risk.OwnerCanMint}, minLevel: risk.LevelCritical, check: func(t *testing.T, r *scan.Report) {
		for _, f := range r.RiskFlags {
			if f.Code == risk.OwnerCanMint && (f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Detail, "when the caller transfers")) {
				t.Errorf("OWNER_CAN_MINT %+v, want the probe's proof through the wallet's transfer", f)
			}
		}
	}},
	"benign_marketing_transfer": {noneOf: []string{risk.OwnerCanMint, risk.OwnerCanChangeBalance}, maxLevel: risk.LevelMedium},
	// The owner appoints an admin that takes holders' tokens: the
	// owner's seizure, proven in two steps.
	"seize_two_step": {allOf: []string{risk.OwnerCanSeize}, minLevel: risk.LevelCritical, check: func(t *testing.T, r *scan.Report) {
		for _, f := range r.RiskFlags {
			if f.Code == risk.OwnerCanSeize && (f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Detail, "two steps")) {
				t.Errorf("OWNER_CAN_SEIZE %+v, want the probe's two-step proof", f)
			}
		}
	}},
	// The same for a desk that mints (through a function not named as a
	// mint: a hidden mint) and a reviewer that freezes a holder.
	"mint_two_step": {allOf: []string{risk.OwnerCanMint}, minLevel: risk.LevelCritical, check: twoStepProof(risk.OwnerCanMint)},
	"blacklist_two_step": {allOf: []string{risk.OwnerCanBlacklist}, minLevel: risk.LevelMedium, maxLevel: risk.LevelHigh,
		check: twoStepProof(risk.OwnerCanBlacklist)},
	// A mint through a stored amount: set it, then credit it (no function
	// named as a mint: a hidden mint).
	"mint_set_then_credit": {allOf: []string{risk.OwnerCanMint}, minLevel: risk.LevelCritical, check: twoStepProof(risk.OwnerCanMint)},
	// Second shapes of the fields the first zoo expressed once
	// (zoo_fields2.go), and three benign look-alikes.
	"selfdestruct_vault":     {allOf: []string{risk.Selfdestruct}, noneOf: fieldNoHoneypot, minLevel: risk.LevelMedium},
	"balance_assembly":       {allOf: []string{risk.OwnerCanChangeBalance}, noneOf: fieldNoHoneypot, minLevel: risk.LevelHigh},
	"pause_mode":             {allOf: []string{risk.OwnerCanPause}, noneOf: fieldNoHoneypot, minLevel: risk.LevelMedium},
	"cannot_buy_start_block": {allOf: []string{risk.HoneypotCannotBuy}, minLevel: risk.LevelHigh},
	"fee_schedule":           {allOf: []string{risk.OwnerCanChangeFees}, noneOf: fieldNoHoneypot, minLevel: risk.LevelMedium},
	"proxy_beacon": {allOf: []string{risk.ProxyUpgradeable}, noneOf: fieldNoHoneypot, minLevel: risk.LevelMedium, check: func(t *testing.T, r *scan.Report) {
		ev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
		if ev.Proxy == nil || ev.Proxy.Beacon == nil {
			t.Errorf("proxy = %+v, want the beacon", ev.Proxy)
		}
	}},
	// A slot of its own (keccak256("vault.router.logic")), found in the
	// fallback's code; the implementation's code is the one analysed.
	"proxy_custom_slot": {allOf: []string{risk.ProxyUpgradeable}, noneOf: fieldNoHoneypot, minLevel: risk.LevelMedium, check: func(t *testing.T, r *scan.Report) {
		ev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
		want := crypto.Keccak256Hash([]byte("vault.router.logic")).Hex()
		if ev.Proxy == nil || ev.Proxy.Kind != proxy.ProxyStorageSlot || ev.Proxy.Slot == nil || *ev.Proxy.Slot != want {
			t.Errorf("proxy = %+v, want a storage_slot proxy at %s", ev.Proxy, want)
		}
		if slices.Contains(r.Unchecked, risk.CheckProxy) {
			t.Errorf("unchecked %v: the implementation's code was read", r.Unchecked)
		}
	}},
	"benign_pause_renounced": {noneOf: append([]string{risk.OwnerCanPause}, fieldNoHoneypot...), maxLevel: risk.LevelMedium},
	"benign_fee_capped":      {noneOf: append([]string{risk.OwnerCanChangeFees}, fieldNoHoneypot...), maxLevel: risk.LevelMedium},
	"benign_destroy_named":   {noneOf: append([]string{risk.Selfdestruct}, fieldNoHoneypot...), maxLevel: risk.LevelMedium},
	// A proxy whose implementation lets a keeper at slot 58 take any
	// holder's tokens: the slot dump of round trip 2 reads the keeper,
	// whose seizure the probes prove as a guard's.
	"proxy_keeper_seize": {allOf: []string{risk.OwnerCanSeize}, minLevel: risk.LevelCritical, check: func(t *testing.T, r *scan.Report) {
		for _, f := range r.RiskFlags {
			if f.Code == risk.OwnerCanSeize && f.Evidence != risk.EvidenceProbe {
				t.Errorf("OWNER_CAN_SEIZE %+v, want the probe's proof", f)
			}
		}
		ev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
		i := slices.IndexFunc(ev.PrivilegedAddresses, func(p analysis.EVMPrivilegedAddress) bool { return p.Role == probe.RoleGuard && p.Slot == "0x3a" })
		if i < 0 || !slices.Contains(ev.PrivilegedAddresses[i].Powers, bytecode.CapSeize) {
			t.Errorf("privileged_addresses %+v, want the keeper (role guard, slot 0x3a) with %s", ev.PrivilegedAddresses, bytecode.CapSeize)
		}
	}},
	// Power-free tokens that look dangerous by name or shape.
	"powerfree_unfreeze":      {maxLevel: risk.LevelLow, noneOf: []string{risk.OwnerCanMint, risk.OwnerCanReclaim, risk.HiddenOwner}},
	"powerfree_zero_owner":    {maxLevel: risk.LevelLow, noneOf: []string{risk.OwnerCanMint, risk.OwnerCanReclaim, risk.HiddenOwner}},
	"powerfree_vesting":       {maxLevel: risk.LevelLow, noneOf: []string{risk.OwnerCanMint, risk.OwnerCanReclaim, risk.HiddenOwner}},
	"powerfree_retired_admin": {maxLevel: risk.LevelLow, noneOf: []string{risk.OwnerCanMint, risk.OwnerCanReclaim, risk.HiddenOwner}},
	// A transfer that quietly takes from other holders: the real
	// holders' sells name them.
	"siphon_holders": {allOf: []string{risk.BalancesSiphoned}, minLevel: risk.LevelHigh, check: func(t *testing.T, r *scan.Report) {
		if hs := simOf(t, r).HolderSells; hs == nil || len(hs.Siphoned) == 0 {
			t.Errorf("holder_sells names no siphoned holder: %+v", hs)
		}
	}},
	"clean": {maxLevel: risk.LevelLow, check: func(t *testing.T, r *scan.Report) {
		noHighFlag(t, r)
		s := simOf(t, r)
		checkBool(t, "can_buy", s.CanBuy, new(true))
		checkBool(t, "can_sell", s.CanSell, new(true))
		near(t, "buy_tax", s.BuyTax, 0, 1)
		near(t, "sell_tax", s.SellTax, 0, 1)
		c := r.SafetyChecklist
		if !c.NotHoneypot || !c.OwnershipRenounced || !c.LiquidityLocked || !c.NoMint {
			t.Errorf("checklist = %+v, want not_honeypot, ownership_renounced, liquidity_locked, no_mint", c)
		}
		// The capability table: what ran completely is false, never null.
		ev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
		for _, name := range []string{analysis.CapIsProxy, analysis.CapIsMintable, analysis.CapIsHoneypot, analysis.CapCannotBuy, analysis.CapSelfdestruct} {
			if e := ev.Capabilities[name]; e.Value == nil || *e.Value {
				t.Errorf("capabilities.%s = %+v, want false", name, e)
			}
		}
	}},
	"clean_owned":               {allOf: []string{risk.OwnerNotRenounced}, check: noHighFlag},
	"honeypot_sell_blocked":     {allOf: []string{risk.HoneypotCannotSell}, minLevel: risk.LevelCritical, check: notHoneypotFalse},
	"honeypot_blacklist_on_buy": {allOf: []string{risk.HoneypotCannotSell}, minLevel: risk.LevelCritical, check: notHoneypotFalse},
	"tax_sell_high": {allOf: []string{risk.SellTaxHigh}, minLevel: risk.LevelHigh, check: func(t *testing.T, r *scan.Report) {
		s := simOf(t, r)
		near(t, "sell_tax", s.SellTax, 30, 2)
		near(t, "buy_tax", s.BuyTax, 5, 1)
	}},
	"tax_extreme": {allOf: []string{risk.TaxExtreme}, minLevel: risk.LevelCritical},
	"fee_on_transfer": {allOf: []string{risk.TransferTax}, check: func(t *testing.T, r *scan.Report) {
		near(t, "transfer_tax", simOf(t, r).TransferTax, 5, 1)
	}},
	// A centralised token reads at most high: its owner can trap or dilute
	// you, nothing shows it has (issue 9, calibrated levels).
	"fee_modifiable": {allOf: []string{risk.OwnerCanChangeFees}, minLevel: risk.LevelMedium, maxLevel: risk.LevelHigh},
	"mintable":       {allOf: []string{risk.OwnerCanMint}, minLevel: risk.LevelMedium, maxLevel: risk.LevelHigh},
	// A mint through a function not named as one is a hidden mint: critical.
	"hidden_mint":        {anyOf: []string{risk.OwnerCanMint, risk.OwnerCanChangeBalance}, minLevel: risk.LevelCritical},
	"blacklist":          {allOf: []string{risk.OwnerCanBlacklist}, minLevel: risk.LevelMedium, maxLevel: risk.LevelHigh},
	"pausable":           {allOf: []string{risk.OwnerCanPause}, minLevel: risk.LevelMedium, maxLevel: risk.LevelHigh},
	"max_tx":             {allOf: []string{risk.OwnerCanLimitTx}, minLevel: risk.LevelMedium},
	"selfdestruct":       {allOf: []string{risk.Selfdestruct}, minLevel: risk.LevelMedium},
	"hidden_owner":       {allOf: []string{risk.HiddenOwner}, minLevel: risk.LevelMedium},
	"balance_modifiable": {allOf: []string{risk.OwnerCanChangeBalance}, minLevel: risk.LevelHigh},
	"external_call":      {allOf: []string{risk.ExternalCall}, minLevel: risk.LevelMedium},
	"proxy_upgradeable": {allOf: []string{risk.ProxyUpgradeable}, minLevel: risk.LevelMedium, check: func(t *testing.T, r *scan.Report) {
		ev, _ := r.ContractAnalysis.Evidence.(analysis.EVMContractEvidence)
		if ev.Proxy == nil || ev.Proxy.Implementation == "" || ev.Proxy.Implementation == "0x0000000000000000000000000000000000000000" {
			t.Errorf("proxy = %+v, want the implementation address", ev.Proxy)
		}
	}},
	"cooldown":         {allOf: []string{risk.TradingCooldown}, noneOf: []string{risk.HoneypotCannotSell}},
	"trading_disabled": {anyOf: []string{risk.HoneypotCannotBuy, risk.TradingSwitch}, minLevel: risk.LevelHigh},
	// Insiders holding the supply or the LP are one fact: medium at most.
	"lp_unlocked": {allOf: []string{risk.LPNotLocked}, maxLevel: risk.LevelMedium, check: func(t *testing.T, r *scan.Report) {
		ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
		if len(ev.Pools) == 0 || ev.Pools[0].LPCreatorPct == nil || *ev.Pools[0].LPCreatorPct < 90 {
			t.Errorf("pools = %+v, want the creator holding the LP", ev.Pools)
		}
	}},
	"lp_locked": {noneOf: []string{risk.LPNotLocked}, check: func(t *testing.T, r *scan.Report) {
		if !r.SafetyChecklist.LiquidityLocked {
			t.Errorf("liquidity_locked = false")
		}
	}},
	"concentrated": {anyOf: []string{risk.WhaleHolder, risk.Top10Concentrated}, maxLevel: risk.LevelMedium, check: func(t *testing.T, r *scan.Report) {
		if r.SafetyChecklist.HealthyHolders {
			t.Errorf("healthy_holders = true")
		}
	}},
	"no_liquidity": {allOf: []string{risk.NoLiquidity}, noneOf: []string{risk.HoneypotCannotBuy, risk.HoneypotCannotSell}},
	"swap_back":    {allOf: []string{risk.SellTaxHigh, risk.SelfDump}, noneOf: []string{risk.TaxExtreme, risk.HoneypotCannotSell, risk.HoneypotCannotBuy}},
	"reflection":   {noneOf: []string{risk.TaxExtreme, risk.HoneypotCannotSell, risk.HoneypotCannotBuy, risk.SellTaxHigh}},
	"max_tx_tight": {allOf: []string{risk.OwnerCanLimitTx}, noneOf: []string{risk.HoneypotCannotBuy, risk.HoneypotCannotSell}, check: func(t *testing.T, r *scan.Report) {
		if !r.SafetyChecklist.NotHoneypot {
			t.Errorf("not_honeypot = false")
		}
		n := 0
		for _, f := range r.RiskFlags {
			if f.Code == risk.OwnerCanLimitTx {
				n++
				if f.Value == nil || f.Evidence != risk.EvidenceProbe {
					t.Errorf("OWNER_CAN_LIMIT_TX %+v, want the size found and probe evidence", f)
				}
			}
		}
		if n != 1 {
			t.Errorf("OWNER_CAN_LIMIT_TX raised %d times, want once", n)
		}
	}},
	"weird_metadata": {check: func(t *testing.T, r *scan.Report) {
		if len([]rune(r.TokenSymbol)) > lens.MaxNameRunes || strings.ContainsRune(r.TokenSymbol, '\uFFFD') {
			t.Errorf("symbol not sanitised: %q", r.TokenSymbol)
		}
	}},
}

func notHoneypotFalse(t *testing.T, r *scan.Report) {
	t.Helper()
	if r.SafetyChecklist.NotHoneypot {
		t.Errorf("not_honeypot = true")
	}
}

func TestAdapterOnDevnetZoo(t *testing.T) {
	dn := startAdapterNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{})
	for _, tok := range dn.Manifest().Tokens {
		if tok.Kind == "not_a_token" {
			continue
		}
		v, ok := zooVerdicts[tok.Kind]
		if !ok {
			t.Errorf("no expectation for zoo kind %q", tok.Kind)
			continue
		}
		t.Run(tok.Kind, func(t *testing.T) {
			start := time.Now()
			r, err := assess(t, ad, tok.Address)
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			var codes []string
			for _, f := range r.RiskFlags {
				codes = append(codes, f.Code)
			}
			t.Logf("%s: level %s score %.1f flags %v (%v)", tok.Kind, r.RiskLevel, r.OverallRiskScore, codes, time.Since(start).Round(time.Millisecond))
			for _, c := range v.allOf {
				if !slices.Contains(codes, c) {
					t.Errorf("missing %s", c)
				}
			}
			if len(v.anyOf) > 0 && !slices.ContainsFunc(v.anyOf, func(c string) bool { return slices.Contains(codes, c) }) {
				t.Errorf("none of %v raised", v.anyOf)
			}
			for _, c := range v.noneOf {
				if slices.Contains(codes, c) {
					t.Errorf("unexpected %s", c)
				}
			}
			if v.minLevel != "" && levelRank[r.RiskLevel] < levelRank[v.minLevel] {
				t.Errorf("level %s, want at least %s", r.RiskLevel, v.minLevel)
			}
			if v.maxLevel != "" && levelRank[r.RiskLevel] > levelRank[v.maxLevel] {
				t.Errorf("level %s, want at most %s", r.RiskLevel, v.maxLevel)
			}
			if v.check != nil {
				v.check(t, r)
			}
			// A healthy node runs every check; the explorers are simply
			// not configured here.
			if r.Completeness != scan.AllChecked || len(r.Unchecked) != 0 || r.HasFlag(risk.ScanIncomplete) {
				t.Errorf("completeness %s, unchecked %v on a healthy node, want complete", r.Completeness, r.Unchecked)
			}
			if got := strings.Join(r.NotConfigured, ","); got != "creator_history,source_verification" {
				t.Errorf("not_configured %s, want creator_history,source_verification", got)
			}
			if t.Failed() {
				t.Logf("warnings: %q", r.Warnings)
			}
		})
	}
}

func TestAdapterLensFailureIsNeverSafe(t *testing.T) {
	dn := startAdapterNet(t)
	tok, _ := dn.Manifest().Token("clean")
	p := newRPCProxy(t, dn.RPCURL(), 0, 0)
	p.breakLens = true
	ch := dn.Chain()
	ch.RPC = []string{p.URL()}
	r, err := assess(t, NewAdapter(devnetRegistry(t, ch), Options{}), tok.Address)
	if err != nil {
		t.Fatal(err)
	}
	if !r.HasFlag(risk.SimulationFailed) || r.HasFlag(risk.NoLiquidity) {
		t.Errorf("flags %v: want SIMULATION_FAILED and no NO_LIQUIDITY when pools are unknown", r.RiskFlags)
	}
	if r.SafetyChecklist.NotHoneypot || r.LiquidityAnalysis.Status != scan.Unavailable {
		t.Errorf("not_honeypot %v, liquidity status %s", r.SafetyChecklist.NotHoneypot, r.LiquidityAnalysis.Status)
	}
}

func TestAdapterWithoutStateOverrides(t *testing.T) {
	dn := startAdapterNet(t)
	tok, _ := dn.Manifest().Token("tax_sell_high")
	p := newRPCProxy(t, dn.RPCURL(), 0, 0)
	p.dropOverrides = true
	ch := dn.Chain()
	ch.RPC = []string{p.URL()}
	r, err := assess(t, NewAdapter(devnetRegistry(t, ch), Options{}), tok.Address)
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := r.LiquidityAnalysis.Evidence.(analysis.EVMLiquidityEvidence)
	if r.TokenName == "" || len(ev.Pools) != 1 || ev.Pools[0].LiquidityUSD == nil {
		t.Errorf("name %q, pools %+v: the creation-code lens should still read them", r.TokenName, ev.Pools)
	}
	// The simulation needs overrides: unknown, so SIMULATION_FAILED.
	if !r.HasFlag(risk.SimulationFailed) || r.SafetyChecklist.NotHoneypot {
		t.Errorf("flags %v, not_honeypot %v: want SIMULATION_FAILED", r.RiskFlags, r.SafetyChecklist.NotHoneypot)
	}
}

func TestAdapterDeadline(t *testing.T) {
	dn := startAdapterNet(t)
	tok, _ := dn.Manifest().Token("clean")
	t.Run("no chain answers in time", func(t *testing.T) {
		p := newRPCProxy(t, dn.RPCURL(), time.Second, 0)
		ch := dn.Chain()
		ch.RPC = []string{p.URL()}
		ad := NewAdapter(devnetRegistry(t, ch), Options{Deadline: 300 * time.Millisecond})
		_, err := assess(t, ad, tok.Address)
		if got := fault.CodeOf(err); got != fault.UpstreamTimeout {
			t.Fatalf("error %v (%s), want upstream_timeout", err, got)
		}
	})
	t.Run("a late holder scan is partial, the verdict stands", func(t *testing.T) {
		p := newRPCProxy(t, dn.RPCURL(), 0, 0)
		p.logDelay = 2 * time.Second
		ch := dn.Chain()
		ch.RPC = []string{p.URL()}
		ad := NewAdapter(devnetRegistry(t, ch), Options{Holders: holder.HolderBudget{Duration: 300 * time.Millisecond}})
		start := time.Now()
		r, err := assess(t, ad, tok.Address)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 1500*time.Millisecond {
			t.Errorf("scan took %v; the holder budget is 300ms", d)
		}
		if r.HolderAnalysis.Status == scan.Complete || r.SafetyChecklist.HealthyHolders {
			t.Errorf("holders status %s healthy %v, want not complete", r.HolderAnalysis.Status, r.SafetyChecklist.HealthyHolders)
		}
		if !r.SafetyChecklist.NotHoneypot || r.HasFlag(risk.SimulationFailed) {
			t.Errorf("the simulation verdict should not depend on the holder scan: %v", r.RiskFlags)
		}
		if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, "holders:") }) {
			t.Errorf("warnings %q do not explain the holders", r.Warnings)
		}
	})
}

func TestAdapterDetectionErrors(t *testing.T) {
	dn := startAdapterNet(t)
	m := dn.Manifest()
	nat, _ := m.Token("not_a_token")
	clean, _ := m.Token("clean")
	down := chains.Chain{Key: "downchain", Kind: chains.EVM, ChainID: 99, RPC: []string{"http://127.0.0.1:1"}}
	other := dn.Chain()
	other.Key = "mirror" // the same node under a second name: the token is "on both"
	tests := []struct {
		name     string
		chains   []chains.Chain
		address  string
		plan     []string
		wantCode fault.Code
		check    func(t *testing.T, r *scan.Report)
	}{
		{"not an ERC-20", []chains.Chain{dn.Chain()}, nat.Address, nil, fault.NotAToken, nil},
		{"no code anywhere", []chains.Chain{dn.Chain()}, "0x00000000000000000000000000000000DeaDBeef", nil, fault.TokenNotFound, nil},
		{"absent, and a chain down", []chains.Chain{dn.Chain(), down}, "0x00000000000000000000000000000000DeaDBeef", []string{"devnet", "downchain"}, fault.UpstreamError, nil},
		{"every chain down", []chains.Chain{down}, clean.Address, []string{"downchain"}, fault.UpstreamError, nil},
		{"only on a chain outside the plan", []chains.Chain{dn.Chain()}, clean.Address, []string{"ethereum"}, fault.PlanForbidden, nil},
		{"found, another chain down", []chains.Chain{dn.Chain(), down}, clean.Address, []string{"devnet", "downchain"}, "", func(t *testing.T, r *scan.Report) {
			if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "downchain") }) {
				t.Errorf("warnings %q do not name the chain that could not be asked", r.Warnings)
			}
			for _, w := range r.Warnings {
				if strings.Contains(w, "127.0.0.1") {
					t.Errorf("warning leaks an RPC URL: %q", w)
				}
			}
		}},
		{"on two chains", []chains.Chain{dn.Chain(), other}, clean.Address, []string{"devnet", "mirror"}, "", func(t *testing.T, r *scan.Report) {
			if len(r.AlsoDeployedOn) != 1 {
				t.Errorf("chain %s, also_deployed_on %v; want the other one listed", r.Chain, r.AlsoDeployedOn)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ad := NewAdapter(devnetRegistry(t, tt.chains...), Options{Client: node.ClientOptions{Retries: -1}})
			r, err := assess(t, ad, tt.address, tt.plan...)
			if tt.wantCode != "" {
				if got := fault.CodeOf(err); got != tt.wantCode {
					t.Fatalf("error %v (code %s), want %s", err, got, tt.wantCode)
				}
				msg := fault.MessageOf(err)
				if strings.Contains(msg, "127.0.0.1") {
					t.Errorf("message leaks an RPC URL: %q", msg)
				}
				// A 502 names the chains that did not answer, and never
				// speaks of chains that answered when none did.
				if tt.wantCode == fault.UpstreamError && (!strings.Contains(msg, "downchain failed") ||
					(len(tt.chains) == 1) != strings.Contains(msg, "no EVM chain could be asked")) {
					t.Errorf("502 detail %q: want downchain named as failed, and none said to answer when none did", msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("Assess: %v", err)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

var _ = fmt.Sprint

// TestAdapterConcurrentScans scans the whole zoo at once through one
// adapter (one client per chain, its concurrency cap shared): no scan may
// lose its verdict to queueing. The deadline is far above a scan's: on a
// loaded machine under the race detector the whole zoo at once takes
// seconds (one node request can outlast the default 10 s attempt), and
// what is tested is that queued scans all finish, not speed.
func TestAdapterConcurrentScans(t *testing.T) {
	dn := startAdapterNet(t)
	ad := NewAdapter(devnetRegistry(t, dn.Chain()), Options{Deadline: 2 * time.Minute, Client: node.ClientOptions{AttemptTimeout: time.Minute}})
	var wg sync.WaitGroup
	for _, tok := range dn.Manifest().Tokens {
		if tok.Kind == "not_a_token" || tok.Kind == "no_liquidity" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := assess(t, ad, tok.Address)
			if err != nil {
				t.Errorf("%s: %v", tok.Kind, err)
				return
			}
			if r.HasFlag(risk.SimulationFailed) || r.LiquidityAnalysis.Status != scan.Complete && r.LiquidityAnalysis.Status != scan.Partial {
				t.Errorf("%s: simulation lost (%v, %q)", tok.Kind, r.RiskFlags, r.Warnings)
			}
			for _, w := range r.Warnings {
				// The holder rebuild runs beside the verdict within its own
				// budget (3 s): late, it is partial by design, not a lost verdict.
				if strings.HasPrefix(w, "holders:") {
					continue
				}
				if strings.Contains(w, "deadline") || strings.Contains(w, "could not be reached") {
					t.Errorf("%s: %s", tok.Kind, w)
				}
			}
		}()
	}
	wg.Wait()
}

// twoStepProof checks that the flag is the probes' two-step proof.
func twoStepProof(code string) func(t *testing.T, r *scan.Report) {
	return func(t *testing.T, r *scan.Report) {
		t.Helper()
		for _, f := range r.RiskFlags {
			if f.Code == code && (f.Evidence != risk.EvidenceProbe || !strings.Contains(f.Detail, "two steps")) {
				t.Errorf("%s %+v, want the probe's two-step proof", code, f)
			}
		}
	}
}
