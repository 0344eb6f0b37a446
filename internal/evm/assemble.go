package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/holder"
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"
	"github.com/tokenrisk/tokenrisk/internal/evm/probe"
	"github.com/tokenrisk/tokenrisk/internal/evm/proxy"

	"math/big"
	"sort"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/insider"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// collected is everything a scan gathered after detection.
type collected struct {
	lens *lens.LensResult
	// code is the analysis of the code that runs (the implementation's
	// for a proxy); implKnown is false when a proxy's implementation code
	// could not be read.
	code      bytecode.CodeReport
	proxy     *proxy.ProxyInfo
	implKnown bool
	owner     *common.Address
	// roleAdmin is the creator when the token has no owner getter and the
	// creator holds AccessControl's DEFAULT_ADMIN_ROLE (hasRole answered).
	roleAdmin *common.Address
	sim       *analysis.EVMSimulation
	simPool   *pool.Pool
	probe     *analysis.EVMProbeFacts
	holders   *holder.HolderScan
	accounts  *accounts
	// insiders is the insider query when the rebuild was partial.
	insiders      *holder.InsiderQuery
	explorer      *explorerFacts
	creator       *common.Address
	creatorSource string
	// slotsFailed says the proxy slots could not be read.
	slotsFailed bool
	// trusted is set for a configured trusted token.
	trusted bool
	// v4 are the Uniswap V4 pools and their simulations (nil without a
	// V4 deployment on the chain).
	v4 *v4Facts
	// hooks are the V4 pools' hooks, judged (v4hooks.go).
	hooks []analysis.EVMHook
	// external are the contracts transfers call (externalcalls.go).
	external []analysis.EVMExternalCall
}

// assemble runs the analyses over everything collected.
func (r *scanRun) assemble(c collected) *scan.Assessment {
	lens, codeReport, proxy, implKnown, owner := c.lens, c.code, c.proxy, c.implKnown, c.owner
	sim, simPool, probes, hs, acct := c.sim, c.simPool, c.probe, c.holders, c.accounts
	ex, creator, creatorSource := c.explorer, c.creator, c.creatorSource
	s, ch := r.s, r.s.chain
	chainID := ch.ChainID
	as := &scan.Assessment{Chain: ch.Key, ChainID: &chainID}

	// Token identity.
	if lens != nil {
		as.Token = scan.Token{Name: lens.Name, Symbol: lens.Symbol, Decimals: lens.Decimals}
		if lens.TotalSupply != nil {
			ts := lens.TotalSupply.String()
			as.Token.TotalSupply = &ts
		}
		if !lens.NameRaw || !lens.SymbolRaw {
			r.warn("token: name() or symbol() did not answer")
		}
	}
	var supply *big.Int
	if lens != nil {
		supply = lens.TotalSupply
	}
	if supply == nil && len(s.supplyRaw) >= 32 {
		supply = new(big.Int).SetBytes(s.supplyRaw[:32])
		ts := supply.String()
		as.Token.TotalSupply = &ts
	}

	// Contract. A token governed by AccessControl roles without an owner
	// getter has an owner no getter names: the creator when it holds
	// DEFAULT_ADMIN_ROLE, else unknown, never renounced.
	roles := roleGoverned(codeReport)
	if owner == nil && c.roleAdmin != nil && lens != nil && !lens.OwnerFunc {
		owner = c.roleAdmin
		r.warn("contract: no owner getter; the owner reported is the creator, which holds AccessControl's DEFAULT_ADMIN_ROLE (hasRole); other role holders are not readable")
	}
	// Without an owner getter, no owner is renounced ownership only when
	// the code holds no power behind a caller check: a mint or seize
	// guarded by stored state (an owner slot no getter reads, a minter
	// mapping) belongs to someone no getter names, so the owner is
	// unknown and those powers still count.
	guardedPowers := lens != nil && !lens.OwnerFunc && owner == nil && len(probe.CodePowers(codeReport)) > 0
	if guardedPowers {
		r.warn("contract: no owner getter, but the code mints or takes balances behind a caller check: the owner is unknown, not renounced")
	}
	trusted, _ := ch.IsTrusted(r.token.Hex())
	c.trusted = trusted.Name != ""
	code := codeFactsOf(codeReport)
	if r.s.words != nil {
		clearInert(code, codeReport, r.s.words())
	}
	// The probes' two-step sell blocks (a privileged call, then the sell
	// refused) join the simulation's proofs.
	if probes != nil && sim != nil && len(probes.SellBlocks) > 0 {
		sim.SellBlocks = append(sim.SellBlocks, probes.SellBlocks...)
	}
	cf := &analysis.EVMContractFacts{
		Trusted:      trusted.Name,
		Verified:     ex.verified,
		OwnerKnown:   lens != nil && (lens.OwnerFunc || !roles || owner != nil) && !guardedPowers,
		OwnerGetter:  lens != nil && lens.OwnerFunc,
		RoleGoverned: roles,
		ProxyRead:    !c.slotsFailed && (proxy == nil || implKnown),
		Code:         code,
		Probe:        probes,
		Simulation:   sim,
	}
	if code != nil {
		cf.ExternalCalls = c.external
	}
	if ex.verified != nil {
		cf.VerifiedSource = ex.verifiedSource
	}
	if owner != nil {
		cf.Owner = owner.Hex()
	}
	if proxy != nil {
		cf.Proxy = proxyReportOf(proxy, codeReport, implKnown)
	}
	if lens != nil {
		cf.NonStandard = append(cf.NonStandard, metadataDeviations(lens)...)
	}
	contract, cl, cw := analysis.AnalyseEVMContract(cf)
	as.Contract = contract
	// The code's twins are those of the code that runs: a proxy whose
	// implementation is unknown (or code that delegates where the proxy
	// slots could not be read) has no fingerprint, else every proxy of
	// one kind would be a twin of every other.
	if implKnown && !(c.slotsFailed && codeReport.HasDelegatecall) {
		as.CodePrint = codeReport.Print
	}

	// Liquidity.
	ef := &analysis.EVMFacts{
		Chain: ch.Key, Token: r.token.Hex(), TotalSupply: supply, Now: r.now,
		OwnerKnown: cf.OwnerKnown, BurnAddresses: ch.BurnAddresses, Lockers: map[string]string{},
	}
	if lens != nil {
		ef.Decimals = lens.Decimals
	}
	if owner != nil {
		ef.Owner = owner.Hex()
	}
	for _, l := range ch.Lockers {
		ef.Lockers[l.Address] = l.Name
	}
	ef.Exchanges = map[string]string{}
	for _, e := range ch.Exchanges {
		ef.Exchanges[e.Address] = e.Name
	}
	ef.Liquidity.Searched = lens != nil
	ef.Liquidity.V4Unknown = c.v4 != nil && c.v4.SearchFailed
	for i, p := range s.pools {
		rep := p.Report
		if i == 0 && acct != nil && acct.crLP != nil {
			rep.LPCreatorPct = pool.DexPct(acct.crLP, p.LPSupply)
		}
		if hs != nil && (p.DEX.Kind != "v4" || c.v4.onePoolIn(p.Address)) {
			if seen, ok := hs.FirstIn[p.Address]; ok && seen.Time > 0 {
				t := time.Unix(int64(seen.Time), 0).UTC()
				rep.CreatedAt = &t
			}
		}
		ef.Liquidity.Pools = append(ef.Liquidity.Pools, rep)
	}
	liq, lw := analysis.AnalyseEVMLiquidity(ef)
	hasPool := false
	for _, p := range s.pools {
		if p.LiquidityUSD > 0 || (p.QuoteReserve != nil && p.QuoteReserve.Sign() > 0) {
			hasPool = true
		}
	}
	switch {
	case lens == nil:
		// Pools are unknown, not absent: no honeypot verdict is a failure.
		hasPool = true
		msg := "the pool search failed, so there was no pool to trade against"
		sim = &analysis.EVMSimulation{Error: &msg}
	case hasPool && simPool == nil && sim == nil:
		msg := "no pool the simulator supports (V2, V3 or Solidly volatile, bought with the wrapped native; Uniswap V4)"
		sim = &analysis.EVMSimulation{Error: &msg}
	}
	sim.SetSupply(supply)
	simFlags, sw := analysis.AnalyseEVMSimulation(sim, hasPool)
	liq.Flags = append(liq.Flags, adoptTradeLimit(&as.Contract, simFlags)...)
	hookFlags, hookW := analysis.AnalyseEVMHooks(c.hooks)
	liq.Flags = append(liq.Flags, hookFlags...)
	if ev, ok := liq.Evidence.(analysis.EVMLiquidityEvidence); ok {
		ev.Simulation = sim
		ev.Hooks = c.hooks
		liq.Evidence = ev
	}
	if hasPool && (sim == nil || sim.CanBuy == nil) && liq.Status == scan.Complete {
		liq.Status = scan.Partial
	}
	as.Liquidity = liq

	// Holders and deployer.
	if hs != nil {
		hf := &analysis.EVMHolderFacts{
			Complete: hs.Complete, FromBlock: hs.FromBlock, ToBlock: hs.Reached, Transfers: hs.Transfers,
		}
		all := hs.Holders()
		hf.HolderCount = len(all)
		for i, h := range all {
			if i >= 50 {
				break
			}
			hb := analysis.EVMHolderBalance{Address: h.Address.Hex(), Balance: h.Balance}
			if acct != nil && i < len(acct.isCode) {
				hb.IsContract = acct.isCode[i]
				if acct.balance[i] != nil {
					hb.Balance = acct.balance[i] // the token's own answer beats replayed logs
				}
			}
			hf.Top = append(hf.Top, hb)
		}
		sort.SliceStable(hf.Top, func(i, j int) bool { return hf.Top[i].Balance.Cmp(hf.Top[j].Balance) > 0 })
		if hs.FirstMintTo != nil {
			hf.FirstMintRecipient = hs.FirstMintTo.Hex()
		}
		if trusted.Name != "" {
			hf.InsidersSkipped = "not checked for a trusted token"
		} else {
			holder.InsiderFacts(hf, hs, c.insiders, s.pools, creator)
		}
		ef.Holders = hf
	}
	ef.Deployer = analysis.EVMDeployerFacts{Native: ch.Native, CreatorSource: creatorSource}
	if creator != nil {
		c := creator.Hex()
		ef.Deployer.Creator = &c
		if acct != nil {
			ef.Deployer.CreatorBalanceWei = acct.crBal
			ef.Deployer.CreatorNonce = acct.crNonce
			ef.Deployer.CreatorTokens = acct.crTokens
		}
	}
	if ex.creation != nil && ex.creation.TxHash != "" {
		tx := ex.creation.TxHash
		ef.Deployer.CreationTx = &tx
	}
	ef.Deployer.OtherLaunches, ef.Deployer.OtherLaunchesKnown = ex.launches, ex.launchesKnown
	if lens != nil && owner != nil {
		ef.Deployer.OwnerTokens = lens.OwnerBalance
	}
	dep, dw := analysis.AnalyseEVMDeployer(ef)
	as.Deployer = dep
	hold, hw := analysis.AnalyseEVMHolders(ef)
	as.Holder = hold

	as.Checklist = scan.Checklist{
		Verified:           cl.Verified,
		NotHoneypot:        analysis.EVMNotHoneypot(sim),
		HealthyHolders:     analysis.EVMHealthyHolders(ef, hold),
		OwnershipRenounced: cl.OwnershipRenounced,
		LiquidityLocked:    analysis.EVMLiquidityLocked(ef),
		NoMint:             cl.NoMint,
	}
	var insiders *insider.Result
	if ev, ok := hold.Evidence.(analysis.EVMHolderEvidence); ok {
		insiders = ev.Insiders
	}
	as.Unchecked, as.NotConfigured = r.completeness(c, sim, hasPool, insiders)
	r.mu.Lock()
	as.Warnings = append(as.Warnings, r.warnings...)
	r.mu.Unlock()
	for _, w := range [][]string{cw, lw, sw, hookW, dw, hw} {
		as.Warnings = append(as.Warnings, w...)
	}
	return as
}

// completeness names the checks of a scan that could not run (the node
// failed, refused or ran out of time; risk.Check* names) and those the
// operator turned off. sim is the simulation as analysed, hasPool
// whether there was a pool to simulate against and insiders the insider
// check (nil: it could not run).
func (r *scanRun) completeness(c collected, sim *analysis.EVMSimulation, hasPool bool, insiders *insider.Result) (unchecked, notConfigured []string) {
	add := func(name string) { unchecked = append(unchecked, name) }
	if c.lens == nil {
		add(risk.CheckOwner)
		add(risk.CheckPools)
	} else if c.v4 != nil && c.v4.SearchFailed {
		add(risk.CheckPools)
	}
	if c.slotsFailed || c.proxy != nil && !c.implKnown {
		add(risk.CheckProxy)
	}
	simMissing := hasPool && (sim == nil || sim.CanBuy == nil || *sim.CanBuy && sim.CanSell == nil)
	if simMissing {
		add(risk.CheckSimulation)
	}
	holdersMissing := c.holders == nil || c.accounts != nil && !c.accounts.holdersRead()
	// A probe victim that could not be given tokens shows no seizing or
	// transfer-blocking power. When the holders, the owner and pools, or
	// the swap the tokens come from could not be read, that is the node's
	// doing and those probes did not run; when all were read and every
	// way to the victim was refused, the token refused (a fact, kept as a
	// warning) and the check ran.
	unfunded := c.probe != nil && !c.probe.Funded && (holdersMissing || c.lens == nil || simMissing)
	if c.probe == nil || !c.probe.Complete || unfunded {
		add(risk.CheckPrivilegeProbes)
	}
	// The insider check stands on the holder list: without it, holders
	// already says what is missing.
	switch {
	case holdersMissing:
		add(risk.CheckHolders)
	case c.trusted:
	case insiders == nil || !insiders.Conclusive:
		add(risk.CheckInsiders)
	}
	// The creator's account is read from the node; without an explorer
	// the creator itself comes from the holder scan.
	switch {
	case c.creator != nil && (c.accounts == nil || !c.accounts.read || c.accounts.crBal == nil || c.accounts.crNonce == nil):
		add(risk.CheckDeployer)
	case c.creator == nil && (c.holders == nil || c.explorer != nil && c.explorer.historyFailed):
		add(risk.CheckDeployer)
	}
	opts := r.a.opts
	switch {
	case opts.Sourcify == nil && opts.Etherscan == nil:
		notConfigured = append(notConfigured, risk.CheckSourceVerification)
	case c.explorer == nil || c.explorer.verified == nil:
		add(risk.CheckSourceVerification)
	}
	switch {
	case opts.Etherscan == nil:
		notConfigured = append(notConfigured, risk.CheckCreatorHistory)
	case c.explorer == nil || c.explorer.historyFailed:
		add(risk.CheckCreatorHistory)
	}
	return unchecked, notConfigured
}

// codeFactsOf summarises a code report for the contract analysis.
func codeFactsOf(r bytecode.CodeReport) *analysis.EVMCodeFacts {
	f := &analysis.EVMCodeFacts{
		Size: r.Size, Selectors: len(r.Selectors),
		Selfdestruct: r.HasSelfdestruct, Delegatecall: r.HasDelegatecall || r.HasCallcode,
		StorageTargetCall: r.StorageTargetCall, StorageTargetDelegatecall: r.StorageTargetDelegatecall,
	}
	for _, m := range r.Privileged {
		f.Candidates = append(f.Candidates, analysis.EVMCapability{Name: m.Capability, Evidence: m.Signature + " (" + m.Selector.String() + ")"})
	}
	f.Powers = probe.CodePowers(r)
	return f
}

// proxyReportOf is contract_analysis.proxy.
func proxyReportOf(p *proxy.ProxyInfo, impl bytecode.CodeReport, implKnown bool) *analysis.EVMProxy {
	implUpgradable := false
	for _, c := range impl.Capabilities() {
		if c == analysis.EVMCapUpgrade {
			implUpgradable = true
		}
	}
	out := &analysis.EVMProxy{Kind: p.Kind, Implementation: p.Implementation.Hex(), Upgradeable: p.Upgradeable(implUpgradable || !implKnown)}
	if a := p.UpgradeAuthority(); a != nil {
		s := a.Hex()
		out.Admin = &s
	}
	if p.Admin != nil {
		s := p.Admin.Hex()
		out.AdminSlot = &s
	}
	if p.Beacon != nil {
		s := p.Beacon.Hex()
		out.Beacon = &s
	}
	if p.Slot != nil {
		s := p.Slot.Hex()
		out.Slot = &s
	}
	return out
}

// roleGoverned says the code has AccessControl's hasRole and grantRole.
func roleGoverned(code bytecode.CodeReport) bool {
	return code.HasSelector(bytecode.SelectorOf("hasRole(bytes32,address)")) &&
		code.HasSelector(bytecode.SelectorOf("grantRole(bytes32,address)"))
}

// metadataDeviations lists how a token's metadata functions break the
// ERC-20 conventions wallets and explorers rely on.
func metadataDeviations(l *lens.LensResult) []string {
	var out []string
	for _, m := range []struct {
		fn            string
		answered, bad bool
	}{{"name()", l.NameRaw, l.NameAltered}, {"symbol()", l.SymbolRaw, l.SymbolAltered}} {
		switch {
		case !m.answered:
			out = append(out, m.fn+" reverts or does not answer")
		case m.bad:
			out = append(out, m.fn+" returns text that is not printable UTF-8 of a sane length")
		}
	}
	if l.Decimals == nil {
		out = append(out, "decimals() does not answer a number")
	}
	return out
}

// adoptTradeLimit moves a trade-size cap the simulation proved
// (OWNER_CAN_LIMIT_TX, a contract power) into the contract section; where
// the contract analysis raised the same power, the two are one flag (the
// fact counts once) carrying both details, the simulation's size as its
// value, and probe evidence. It returns the other simulation flags.
func adoptTradeLimit(contract *scan.Section, simFlags []risk.Flag) []risk.Flag {
	var rest []risk.Flag
	for _, f := range simFlags {
		if f.Code != risk.OwnerCanLimitTx {
			rest = append(rest, f)
			continue
		}
		merged := false
		for i := range contract.Flags {
			cf := &contract.Flags[i]
			if cf.Code != risk.OwnerCanLimitTx {
				continue
			}
			cf.Detail += " " + f.Detail
			if f.Value != nil {
				cf.Value = f.Value
			}
			if cf.Evidence != risk.EvidenceProbe {
				cf.Evidence, cf.Source = f.Evidence, f.Source
			}
			merged = true
			break
		}
		if !merged {
			contract.Flags = append(contract.Flags, f)
		}
	}
	return rest
}
