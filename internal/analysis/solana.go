package analysis

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/insider"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// solanaLamportsPerSOL converts lamports to SOL.
const solanaLamportsPerSOL = 1e9

// SolanaContractEvidence is contract_analysis for a Solana mint.
type SolanaContractEvidence struct {
	TokenProgram         string            `json:"token_program"`
	TokenProgramID       string            `json:"token_program_id"`
	Supply               uint64            `json:"supply,string"`
	Decimals             uint8             `json:"decimals"`
	MintAuthority        *string           `json:"mint_authority"`
	FreezeAuthority      *string           `json:"freeze_authority"`
	Extensions           []SolanaExtension `json:"extensions"`
	ExtensionsIncomplete bool              `json:"extensions_incomplete,omitempty"`
	Metadata             *SolanaMetadata   `json:"metadata"`
	// SourceVerification explains why "verified" is false: SPL mints run
	// the shared token program and have no source of their own.
	SourceVerification string  `json:"source_verification"`
	TrustedToken       *string `json:"trusted_token"`
}

// SolanaLiquidityEvidence is liquidity_analysis for a Solana mint.
type SolanaLiquidityEvidence struct {
	DEXesSearched []string `json:"dexes_searched"`
	// DEXesUnsearched are the DEXes whose search failed or was refused.
	DEXesUnsearched   []string                    `json:"dexes_unsearched"`
	Pools             []SolanaPool                `json:"pools"`
	MainPool          *string                     `json:"main_pool"`
	TotalLiquidityUSD *float64                    `json:"total_liquidity_usd"`
	LPBurnedPct       *float64                    `json:"lp_burned_pct"`
	LPLockedPct       *float64                    `json:"lp_locked_pct"`
	BondingCurve      *SolanaBondingCurveEvidence `json:"bonding_curve"`
	SOLPriceUSD       *float64                    `json:"sol_price_usd"`
	SOLPriceSource    string                      `json:"sol_price_source,omitempty"`
	// PoolsFrom says how the pools were found: "program_accounts" (every
	// DEX searched on-chain), "pool_index" (named by the operator's index,
	// each read and verified on-chain) or "none" (a trusted token's pools
	// are not searched).
	PoolsFrom string `json:"pools_from"`
}

// SolanaBondingCurveEvidence is the pump.fun curve with derived values.
type SolanaBondingCurveEvidence struct {
	SolanaBondingCurve
	// PriceInSOL is the curve's spot price per whole token.
	PriceInSOL *float64 `json:"price_in_sol"`
	// LiquidityUSD is the real SOL on the curve valued in USD.
	LiquidityUSD *float64 `json:"liquidity_usd"`
}

// SolanaHolderEvidence is holder_analysis for a Solana mint.
type SolanaHolderEvidence struct {
	// HolderCount is known only when the node listed every token account.
	HolderCount   *int           `json:"holder_count"`
	TopHolders    []SolanaHolder `json:"top_holders"`
	Top10SharePct *float64       `json:"top10_share_pct"`
	// Insiders are the top holders tied to the creator or the launch;
	// null when the check could not run.
	Insiders *insider.Result `json:"insiders"`
}

// SolanaHolder is one holder (token accounts aggregated by owner).
type SolanaHolder struct {
	// Address is the owner, or the token account when the owner is
	// unknown.
	Address       string   `json:"address"`
	TokenAccounts []string `json:"token_accounts"`
	Amount        uint64   `json:"amount,string"`
	SharePct      *float64 `json:"share_pct"`
	// IsContract is true when the owner is a program derived address.
	IsContract *bool `json:"is_contract"`
	// Label is pool, burn, locker, creator or exchange, or empty.
	Label string `json:"label,omitempty"`
}

// Holder labels.
const (
	SolanaLabelPool     = "pool"
	SolanaLabelBurn     = "burn"
	SolanaLabelLocker   = "locker"
	SolanaLabelExchange = "exchange"
	SolanaLabelCreator  = "creator"
)

// Thresholds of CREATOR_NEW_WALLET on Solana: fewer transactions than
// SolanaCreatorNewWalletTxs in the creator's whole history, or a first
// transaction less than SolanaCreatorFreshSeconds before the token's.
const (
	SolanaCreatorNewWalletTxs = 5
	SolanaCreatorFreshSeconds = 24 * 3600
)

// SolanaDeployerEvidence is deployer_analysis for a Solana mint.
type SolanaDeployerEvidence struct {
	Creator           *string  `json:"creator"`
	CreatorSource     *string  `json:"creator_source"`
	CreationTx        *string  `json:"creation_tx"`
	CreatedAt         *string  `json:"created_at"`
	CreatorBalanceSOL *float64 `json:"creator_balance_sol"`
	CreatorSharePct   *float64 `json:"creator_share_pct"`
	// CreatorShareMaxPct bounds the creator's share when it is not among
	// the largest accounts listed.
	CreatorShareMaxPct *float64 `json:"creator_share_max_pct,omitempty"`
	// CreatorIsProgramAccount is true when the creator address is a
	// program derived address rather than a wallet.
	CreatorIsProgramAccount *bool `json:"creator_is_program_account"`
	// CreatorTxCount counts the transactions involving the creator when
	// its whole history is under 1000; CreatorFirstActivity is the oldest.
	CreatorTxCount       *int     `json:"creator_tx_count"`
	CreatorFirstActivity *string  `json:"creator_first_activity"`
	OtherTokens          []string `json:"other_tokens"`
}

// AssessSolana analyses a mint's facts into an assessment (scores are the
// engine's job). chain is the chain key; now dates pool ages.
func AssessSolana(f *SolanaFacts, chain string, now time.Time) *scan.Assessment {
	var warnings []string
	contract, w := AnalyseSolanaContract(f)
	warnings = append(warnings, w...)
	liquidity, w := AnalyseSolanaLiquidity(f, now)
	warnings = append(warnings, w...)
	holders, w := AnalyseSolanaHolders(f)
	warnings = append(warnings, w...)
	deployer, w := AnalyseSolanaDeployer(f)
	warnings = append(warnings, w...)

	// The insider check stands on the holder list: when that is
	// unchecked, holders already says what is missing; a supply of zero
	// has no holders to check.
	unchecked := f.Unchecked
	if ev, ok := holders.Evidence.(SolanaHolderEvidence); ok && f.Trusted == "" && f.Mint.Supply > 0 && !slices.Contains(unchecked, risk.CheckHolders) && (ev.Insiders == nil || !ev.Insiders.Conclusive) {
		unchecked = append(slices.Clone(unchecked), risk.CheckInsiders)
	}
	a := &scan.Assessment{
		Chain:     chain,
		Contract:  contract,
		Liquidity: liquidity,
		Deployer:  deployer,
		Holder:    holders,
		Checklist: SolanaChecklist(f),
		Warnings:  warnings,
		Unchecked: unchecked,
	}
	dec := int(f.Mint.Decimals)
	supply := strconv.FormatUint(f.Mint.Supply, 10)
	a.Token = scan.Token{Decimals: &dec, TotalSupply: &supply}
	if f.Metadata != nil {
		a.Token.Name, a.Token.Symbol = f.Metadata.Name, f.Metadata.Symbol
	}
	return a
}

// solanaExt returns the first extension named name.
func solanaExt(f *SolanaFacts, name string) (SolanaExtension, bool) {
	for _, e := range f.Mint.Extensions {
		if e.Name == name {
			return e, true
		}
	}
	return SolanaExtension{}, false
}

// solanaTransferFeeBps is the fee in force, or the higher of the two
// settings when the epoch is unknown.
func solanaTransferFeeBps(p SolanaTransferFeeParams) uint16 {
	if p.Current != nil {
		return p.Current.BasisPoints
	}
	return max(p.Older.BasisPoints, p.Newer.BasisPoints)
}

// AnalyseSolanaContract reports authorities, extensions and metadata.
func AnalyseSolanaContract(f *SolanaFacts) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Contract...)
	ev := SolanaContractEvidence{
		TokenProgram:         f.Mint.TokenProgram,
		TokenProgramID:       f.Mint.ProgramID,
		Supply:               f.Mint.Supply,
		Decimals:             f.Mint.Decimals,
		MintAuthority:        f.Mint.MintAuthority,
		FreezeAuthority:      f.Mint.FreezeAuthority,
		Extensions:           make([]SolanaExtension, 0, len(f.Mint.Extensions)),
		ExtensionsIncomplete: f.Mint.ExtensionsIncomplete,
		Metadata:             f.Metadata,
		SourceVerification:   "not_applicable: an SPL mint has no program code of its own; its rules are the token program's and the authorities and extensions below",
	}
	if f.Trusted != "" {
		t := f.Trusted
		ev.TrustedToken = &t
	}
	var flags []risk.Flag
	if a := f.Mint.MintAuthority; a != nil {
		flags = append(flags, risk.NewFlag(risk.MintAuthorityEnabled, "Mint authority is set", *a+" can mint new tokens at will."))
	}
	if a := f.Mint.FreezeAuthority; a != nil {
		flags = append(flags, risk.NewFlag(risk.FreezeAuthorityEnabled, "Freeze authority is set", *a+" can freeze any holder's token account."))
	}
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferFeeParams:
			if f.CurrentEpoch != nil {
				cur := p.Older
				if *f.CurrentEpoch >= p.Newer.Epoch {
					cur = p.Newer
				}
				p.Current = &cur
				e.Params = p
			}
			bps := solanaTransferFeeBps(p)
			if bps > 0 || p.ConfigAuthority != nil {
				detail := fmt.Sprintf("Transfers pay %.2f%% (older %d bps, newer %d bps from epoch %d, maximum %d raw units per transfer).", float64(bps)/100, p.Older.BasisPoints, p.Newer.BasisPoints, p.Newer.Epoch, max(p.Older.MaximumFee, p.Newer.MaximumFee))
				if p.ConfigAuthority != nil {
					detail += " " + *p.ConfigAuthority + " can change the fee."
				}
				flags = append(flags, risk.NewFlag(risk.TransferFee, fmt.Sprintf("Transfer fee %.2f%%", float64(bps)/100), detail).WithValue(float64(bps)/100))
			}
		case SolanaTransferHookParams:
			switch {
			case p.ProgramID != nil:
				flags = append(flags, risk.NewFlag(risk.TransferHook, "Transfer hook program is set", "Every transfer calls program "+*p.ProgramID+", which can block it."))
			case p.Authority != nil:
				flags = append(flags, risk.NewFlag(risk.TransferHook, "Transfer hook can be set", *p.Authority+" can install a program that runs on every transfer."))
			}
		case SolanaAuthorityParams:
			switch {
			case p.Authority == nil:
				// Revoked: listed as evidence, no flag.
			case e.Name == SolanaExtPermanentDelegate:
				flags = append(flags, risk.NewFlag(risk.PermanentDelegate, "Permanent delegate is set", *p.Authority+" can transfer or burn tokens from any account."))
			case e.Name == SolanaExtMintCloseAuthority:
				flags = append(flags, risk.NewFlag(risk.MintCloseAuthority, "Mint close authority is set", *p.Authority+" can close the mint once supply is zero."))
			}
		case SolanaDefaultAccountStateParams:
			if p.State == "frozen" {
				flags = append(flags, risk.NewFlag(risk.DefaultAccountFrozen, "New token accounts start frozen", "Buyers' token accounts are frozen until the freeze authority thaws them."))
			}
		case SolanaConfidentialTransferParams:
			flags = append(flags, risk.NewFlag(risk.ConfidentialTransfers, "Confidential transfers enabled", "Balances and amounts moved confidentially cannot be audited from the chain."))
		case SolanaPausableParams:
			if p.Paused || p.Authority != nil {
				detail := "Transfers can be paused"
				if p.Authority != nil {
					detail += " by " + *p.Authority
				}
				if p.Paused {
					detail += "; the mint is paused now"
				}
				flags = append(flags, risk.NewFlag(risk.OwnerCanPause, "Token-2022 pausable", detail+"."))
			}
		}
		if e.Name == SolanaExtNonTransferable {
			flags = append(flags, risk.NewFlag(risk.NonTransferable, "Token is non-transferable", "The Token-2022 non-transferable extension forbids every transfer: holders can never sell."))
		}
		ev.Extensions = append(ev.Extensions, e)
	}
	status := scan.Complete
	if f.Mint.ExtensionsIncomplete {
		status = scan.Partial
	}
	switch {
	case !f.MetadataKnown:
		status = scan.Partial
	case f.Metadata == nil:
		warnings = append(warnings, "contract: the mint has no metadata (no Token-2022 metadata, no Metaplex account)")
	case f.Metadata.IsMutable != nil && *f.Metadata.IsMutable:
		by := "its update authority"
		if f.Metadata.UpdateAuthority != nil {
			by = *f.Metadata.UpdateAuthority
		}
		flags = append(flags, risk.NewFlag(risk.MetadataMutable, "Metadata is mutable", "Name, symbol and URI can be changed by "+by+"."))
	}
	if f.Trusted != "" {
		flags = append(flags, risk.NewFlag(risk.TrustedToken, "Trusted token: "+f.Trusted, "A configured trusted token: its capability flags stay, its level is capped at low."))
	}
	warnings = append(warnings, "contract: source verification does not apply to SPL mints, so verified is false")
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// solanaQuoteUSD is the USD price of one whole quote token, nil if unknown.
func solanaQuoteUSD(f *SolanaFacts, p SolanaPool) *float64 {
	switch {
	case p.QuoteUSDStable:
		one := 1.0
		return &one
	case p.QuoteWrapped:
		return f.Liquidity.SOLPriceUSD
	}
	return nil
}

func solanaUnits(raw uint64, decimals uint8) float64 {
	return float64(raw) / math.Pow10(int(decimals))
}

// AnalyseSolanaLiquidity values pools and the bonding curve.
func AnalyseSolanaLiquidity(f *SolanaFacts, now time.Time) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Liquidity...)
	lf := f.Liquidity
	ev := SolanaLiquidityEvidence{
		DEXesSearched:   append([]string{}, lf.Searched...),
		DEXesUnsearched: append([]string{}, lf.Unsearched...),
		Pools:           make([]SolanaPool, 0, len(lf.Pools)),
		SOLPriceUSD:     lf.SOLPriceUSD,
		SOLPriceSource:  lf.SOLPriceSource,
		PoolsFrom:       "program_accounts",
	}
	switch {
	case f.Trusted != "":
		ev.PoolsFrom = "none"
	case lf.FromIndex:
		ev.PoolsFrom = "pool_index"
	}
	var flags []risk.Flag
	status := scan.Complete
	var total float64
	valued := false
	unvalued := 0
	main := -1
	for _, p := range lf.Pools {
		if p.TokenReserve != nil && p.QuoteReserve != nil && p.QuoteDecimals != nil {
			tok := solanaUnits(*p.TokenReserve, f.Mint.Decimals)
			quo := solanaUnits(*p.QuoteReserve, *p.QuoteDecimals)
			if p.PriceInQuote == nil && tok > 0 {
				price := quo / tok
				p.PriceInQuote = &price
			}
			if usd := solanaQuoteUSD(f, p); usd != nil && p.PriceInQuote != nil {
				v := quo**usd + tok**p.PriceInQuote**usd
				p.LiquidityUSD = &v
			}
		}
		if p.LiquidityUSD != nil {
			total += *p.LiquidityUSD
			valued = true
		} else {
			unvalued++
		}
		ev.Pools = append(ev.Pools, p)
	}
	sort.SliceStable(ev.Pools, func(i, j int) bool {
		a, b := ev.Pools[i].LiquidityUSD, ev.Pools[j].LiquidityUSD
		return a != nil && (b == nil || *a > *b)
	})
	if len(ev.Pools) > 0 {
		main = 0
		addr := ev.Pools[0].Address
		ev.MainPool = &addr
		ev.LPBurnedPct = ev.Pools[0].LPBurnedPct
		ev.LPLockedPct = ev.Pools[0].LPLockedPct
	}
	if unvalued > 0 {
		warnings = append(warnings, fmt.Sprintf("liquidity: %d pool(s) have no USD value (reserves unknown or quote token without an on-chain USD price)", unvalued))
	}

	activeCurve := false
	if bc := lf.BondingCurve; bc != nil {
		be := &SolanaBondingCurveEvidence{SolanaBondingCurve: *bc}
		if bc.VirtualTokenReserves > 0 {
			price := solanaUnits(bc.VirtualSOLReserves, 9) / solanaUnits(bc.VirtualTokenReserves, f.Mint.Decimals)
			be.PriceInSOL = &price
		}
		if lf.SOLPriceUSD != nil {
			v := solanaUnits(bc.RealSOLReserves, 9) * *lf.SOLPriceUSD
			be.LiquidityUSD = &v
			if !bc.Complete {
				total += v
				valued = true
			}
		} else if !bc.Complete {
			warnings = append(warnings, "liquidity: SOL price unknown; the bonding curve's liquidity has no USD value")
		}
		ev.BondingCurve = be
		if !bc.Complete {
			activeCurve = true
			flags = append(flags, risk.NewFlag(risk.BondingCurve, "Trading on the pump.fun bonding curve", fmt.Sprintf("The curve holds %.4f SOL of real reserves; the token has not migrated to an AMM yet.", solanaUnits(bc.RealSOLReserves, 9))))
		}
	} else if !lf.BondingCurveKnown && f.Trusted == "" {
		warnings = append(warnings, "liquidity: pump.fun bonding curve state unknown")
	}
	if valued {
		ev.TotalLiquidityUSD = &total
	}

	if f.Trusted != "" {
		return scan.Section{Status: scan.Partial, Flags: flags, Evidence: ev}, warnings
	}
	switch {
	case len(lf.Searched) == 0 && lf.BondingCurve == nil:
		status = scan.Unavailable
	case len(lf.Pools) == 0 && !activeCurve && lf.SearchComplete:
		detail := fmt.Sprintf("No pool of the mint on %v and no active bonding curve.", lf.Searched)
		if lf.BondingCurve != nil {
			detail += " The pump.fun curve is complete: the token migrated, possibly to a DEX that is not configured."
		}
		flags = append(flags, risk.NewFlag(risk.NoLiquidity, "No liquidity pool found", detail))
	case valued && unvalued == 0 && total < risk.LowLiquidityUSD:
		flags = append(flags, risk.NewFlag(risk.LowLiquidity, fmt.Sprintf("Low liquidity: $%.0f", total), fmt.Sprintf("All pools together hold about $%.0f, valued from on-chain prices.", total)).WithValue(solanaRound2(total)))
	}
	lpUnknown := false
	if main >= 0 {
		mp := ev.Pools[main]
		switch {
		case mp.LPMint == "" && mp.LPLockedPct == nil:
			warnings = append(warnings, "liquidity: the main pool ("+mp.DEX+") has positions (NFTs or position accounts), not an LP mint; who holds them and whether they are locked is not established")
		case mp.LPBurnedPct == nil && mp.LPLockedPct == nil:
			// The LP mint could not be read; buildPools warned.
		case solanaLPSafePct(mp) >= risk.LPLockedEnoughPct:
			// Burned or locked: nothing to report.
		case mp.LPUnlockedPct != nil && *mp.LPUnlockedPct > 100-risk.LPLockedEnoughPct:
			// Wallets hold more than the 10% the threshold allows:
			// established, whatever the unresolved part turns out to be.
			safe := solanaLPSafePct(mp)
			flags = append(flags, risk.NewFlag(risk.LPNotLocked, fmt.Sprintf("%.1f%% of the main pool's LP is held by wallets", *mp.LPUnlockedPct),
				fmt.Sprintf("Wallets hold %.1f%% of the LP of %s and can withdraw that liquidity; %.1f%% is burned or locked.", *mp.LPUnlockedPct, mp.Address, safe)).WithValue(solanaRound2(safe)))
		default:
			warnings = append(warnings, solanaLPUnknownWarning(mp))
			lpUnknown = true
		}
		if mp.OpenTime != nil {
			age := now.Sub(time.Unix(*mp.OpenTime, 0)).Hours()
			if age >= 0 && age < risk.NewPoolHours {
				flags = append(flags, risk.NewFlag(risk.NewPool, fmt.Sprintf("Main pool opened %.0f hours ago", age), "The main pool "+mp.Address+" is less than 72 hours old.").WithValue(solanaRound2(age)))
			}
		}
	}
	if status == scan.Complete && (!lf.SearchComplete || len(f.Warnings.Liquidity) > 0 || unvalued > 0 || lpUnknown) {
		status = scan.Partial
	}
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

func solanaRound2(v float64) float64 { return math.Round(v*100) / 100 }

// solanaLPSafePct is the share of a pool's LP that cannot withdraw
// liquidity: burned plus held by known lockers.
func solanaLPSafePct(p SolanaPool) float64 {
	var safe float64
	if p.LPBurnedPct != nil {
		safe += *p.LPBurnedPct
	}
	if p.LPLockedPct != nil {
		safe += *p.LPLockedPct
	}
	return safe
}

// solanaLPUnknownWarning says why a pool's LP lock state is not
// established.
func solanaLPUnknownWarning(p SolanaPool) string {
	if p.LPUnknownPct == nil {
		return fmt.Sprintf("liquidity: main pool %s: %.1f%% of its LP is burned; who holds the rest was not established (LP holders not listed), so lock state unknown", p.Address, solanaLPSafePct(p))
	}
	return fmt.Sprintf("liquidity: main pool %s: %.1f%% of its LP is burned or locked, %.1f%% held by wallets, %.1f%% held by accounts not known as lockers or not listed by the node; lock state unknown", p.Address, solanaLPSafePct(p), solanaPctOr0(p.LPUnlockedPct), *p.LPUnknownPct)
}

func solanaPctOr0(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// solanaHolderLabel labels an owner or token account.
func solanaHolderLabel(f *SolanaFacts, tokenAccount string, owner *string) string {
	for _, p := range f.Liquidity.Pools {
		if tokenAccount == p.TokenVault || tokenAccount == p.QuoteVault {
			return SolanaLabelPool
		}
		if owner != nil && (*owner == p.Address || (p.Authority != "" && *owner == p.Authority)) {
			return SolanaLabelPool
		}
	}
	if owner == nil {
		return ""
	}
	if bc := f.Liquidity.BondingCurve; bc != nil && *owner == bc.Address {
		return SolanaLabelPool
	}
	for _, b := range f.BurnAddresses {
		if *owner == b {
			return SolanaLabelBurn
		}
	}
	if _, ok := f.Lockers[*owner]; ok {
		return SolanaLabelLocker
	}
	if f.Creator != nil && *owner == f.Creator.Address {
		return SolanaLabelCreator
	}
	if _, ok := f.Exchanges[*owner]; ok {
		return SolanaLabelExchange
	}
	return ""
}

// solanaOutOfCirculation reports whether a holder label takes the tokens
// out of the holder counts and shares: pools, burns and lockers.
func solanaOutOfCirculation(label string) bool {
	return label == SolanaLabelPool || label == SolanaLabelBurn || label == SolanaLabelLocker
}

// solanaHolders aggregates the largest token accounts by owner.
func solanaHolders(f *SolanaFacts) []SolanaHolder {
	if f.Holders == nil {
		return nil
	}
	out := []SolanaHolder{}
	byOwner := map[string]int{}
	for _, a := range f.Holders.Accounts {
		key := a.Address
		if a.Owner != nil {
			key = *a.Owner
		}
		label := solanaHolderLabel(f, a.Address, a.Owner)
		if i, ok := byOwner[key]; ok {
			out[i].Amount += a.Amount
			out[i].TokenAccounts = append(out[i].TokenAccounts, a.Address)
			if out[i].Label == "" {
				out[i].Label = label
			}
			continue
		}
		byOwner[key] = len(out)
		out = append(out, SolanaHolder{Address: key, TokenAccounts: []string{a.Address}, Amount: a.Amount, IsContract: a.OwnerIsProgramAccount, Label: label})
	}
	for i := range out {
		if f.Mint.Supply > 0 {
			s := solanaRound2(100 * float64(out[i].Amount) / float64(f.Mint.Supply))
			out[i].SharePct = &s
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Amount > out[j].Amount })
	return out
}

// AnalyseSolanaHolders reports the largest holders and concentration.
func AnalyseSolanaHolders(f *SolanaFacts) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Holder...)
	if f.Holders == nil {
		return scan.Section{Status: scan.Unavailable, Evidence: SolanaHolderEvidence{TopHolders: []SolanaHolder{}}}, append(warnings, "holders: largest holders unknown")
	}
	holders := solanaHolders(f)
	ev := SolanaHolderEvidence{TopHolders: holders}
	var flags []risk.Flag
	status := scan.Complete
	if f.Holders.Complete {
		n := 0
		for _, h := range holders {
			if h.Amount > 0 && !solanaOutOfCirculation(h.Label) {
				n++
			}
		}
		ev.HolderCount = &n
		if n < risk.FewHoldersCount {
			flags = append(flags, risk.NewFlag(risk.FewHolders, fmt.Sprintf("Only %d holders", n), "The node listed every token account of the mint; pools, burns and lockers are not counted.").WithValue(float64(n)))
		}
	} else {
		warnings = append(warnings, "holders: holder_count not established (the node lists only the 20 largest token accounts)")
	}
	unresolved := false
	for _, a := range f.Holders.Accounts {
		if a.Owner == nil {
			unresolved = true
		}
	}
	if unresolved || f.Holders.Inconsistent {
		status = scan.Partial
	}
	if f.Mint.Supply == 0 {
		warnings = append(warnings, "holders: supply is zero; shares not defined")
		return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
	}
	var top10 uint64
	counted := 0
	var whale *SolanaHolder
	for i, h := range holders {
		if solanaOutOfCirculation(h.Label) {
			continue
		}
		if counted < 10 {
			top10 += h.Amount
			counted++
		}
		if whale == nil && h.SharePct != nil && *h.SharePct > risk.WhalePct {
			whale = &holders[i]
		}
	}
	share := solanaRound2(100 * float64(top10) / float64(f.Mint.Supply))
	switch {
	case f.Holders.Inconsistent:
		// A whale listed is a whale; a top-10 share from a list with
		// holes is not a share.
		warnings = append(warnings, "holders: top-10 share not established (the node's token index misses accounts)")
	case share > risk.Top10Pct:
		ev.Top10SharePct = &share
		flags = append(flags, risk.NewFlag(risk.Top10Concentrated, fmt.Sprintf("Top 10 holders own %.1f%%", share), "Pools, burns and lockers excluded.").WithValue(share))
	default:
		ev.Top10SharePct = &share
	}
	if whale != nil {
		flags = append(flags, risk.NewFlag(risk.WhaleHolder, fmt.Sprintf("One holder owns %.1f%%", *whale.SharePct), whale.Address+" holds more than 10% of the supply.").WithValue(*whale.SharePct))
	}
	if f.Trusted != "" {
		warnings = append(warnings, "insiders: not checked for a trusted token")
	} else {
		flags, warnings = insiderFindings(solanaInsiders(f), &ev.Insiders, flags, warnings)
	}
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// AnalyseSolanaDeployer reports the creator and its holdings.
func AnalyseSolanaDeployer(f *SolanaFacts) (scan.Section, []string) {
	warnings := append([]string(nil), f.Warnings.Deployer...)
	ev := SolanaDeployerEvidence{OtherTokens: nil}
	cr := f.Creator
	if cr == nil {
		return scan.Section{Status: scan.Unavailable, Evidence: ev}, warnings
	}
	status := scan.Complete
	addr, src := cr.Address, cr.Source
	ev.Creator, ev.CreatorSource = &addr, &src
	ev.CreationTx = cr.CreationSignature
	ev.CreatorIsProgramAccount = cr.IsProgramAccount
	if cr.CreationTime != nil {
		t := time.Unix(*cr.CreationTime, 0).UTC().Format(time.RFC3339)
		ev.CreatedAt = &t
	}
	if cr.BalanceLamports != nil {
		b := float64(*cr.BalanceLamports) / solanaLamportsPerSOL
		ev.CreatorBalanceSOL = &b
	} else {
		status = scan.Partial
	}
	if src == SolanaCreatorUpdateAuthority {
		status = scan.Partial
		warnings = append(warnings, "deployer: creator is the metadata update authority (best on-chain evidence, not the proven creator)")
	}
	if src == SolanaCreatorFeePayer && !cr.OldestSignatureComplete {
		status = scan.Partial
	}
	var flags []risk.Flag
	if f.Holders != nil && f.Mint.Supply > 0 {
		var held uint64
		found := false
		for _, a := range f.Holders.Accounts {
			if a.Owner != nil && *a.Owner == addr {
				held += a.Amount
				found = true
			}
		}
		switch {
		case found || f.Holders.Complete:
			s := solanaRound2(100 * float64(held) / float64(f.Mint.Supply))
			ev.CreatorSharePct = &s
			if s > risk.LargeSharePct {
				flags = append(flags, risk.NewFlag(risk.CreatorHoldsLargeShare, fmt.Sprintf("Creator holds %.1f%%", s), addr+" holds more than 5% of the supply.").WithValue(s))
			}
		case len(f.Holders.Accounts) > 0:
			smallest := f.Holders.Accounts[len(f.Holders.Accounts)-1].Amount
			m := solanaRound2(100 * float64(smallest) / float64(f.Mint.Supply))
			ev.CreatorShareMaxPct = &m
			warnings = append(warnings, fmt.Sprintf("deployer: creator is not among the largest token accounts; its share is at most %.2f%% per account", m))
		}
	} else {
		status = scan.Partial
		warnings = append(warnings, "deployer: creator share unknown (holders not established)")
	}
	ev.CreatorTxCount = cr.TxCount
	if cr.FirstActivity != nil {
		t := time.Unix(*cr.FirstActivity, 0).UTC().Format(time.RFC3339)
		ev.CreatorFirstActivity = &t
	}
	if cr.IsProgramAccount == nil || !*cr.IsProgramAccount {
		switch {
		case cr.TxCount != nil && *cr.TxCount < SolanaCreatorNewWalletTxs:
			flags = append(flags, risk.NewFlag(risk.CreatorNewWallet, "Creator wallet is new",
				fmt.Sprintf("The creator %s has taken part in only %d transaction(s).", addr, *cr.TxCount)).WithValue(float64(*cr.TxCount)))
		case cr.FirstActivity != nil && cr.CreationTime != nil && *cr.CreationTime-*cr.FirstActivity < SolanaCreatorFreshSeconds:
			hours := float64(*cr.CreationTime-*cr.FirstActivity) / 3600
			flags = append(flags, risk.NewFlag(risk.CreatorNewWallet, "Creator wallet was fresh at launch",
				fmt.Sprintf("The creator %s first appeared %.1f hours before the token was created.", addr, hours)).WithValue(solanaRound2(hours)))
		}
	}
	warnings = append(warnings, "deployer: the creator's other launches need an indexer; not established")
	return scan.Section{Status: status, Flags: flags, Evidence: ev}, warnings
}

// SolanaChecklist fills the safety checklist; each entry is true only
// where the facts prove it:
//   - verified: never (SPL mints have no source to verify);
//   - not_honeypot: the mint has no way to block transfers (no freeze
//     authority, hook, permanent delegate, pause, non-transferable or
//     frozen default state, no transfer fee of 50% or more; extensions
//     fully read) and there is somewhere to sell (a pool with quote
//     reserves or an active bonding curve);
//   - healthy_holders: top-10 share established and at most 50%, no whale,
//     not provably few holders, and the insider check conclusive without
//     INSIDER_SUPPLY;
//   - ownership_renounced: no mint, freeze or extension authority remains
//     and the metadata is known and immutable (or absent);
//   - liquidity_locked: at least 90% of the main pool's LP is burned or
//     held by a configured locker, or the liquidity sits on an active
//     pump.fun curve that no one can withdraw;
//   - no_mint: the mint authority is revoked.
func SolanaChecklist(f *SolanaFacts) scan.Checklist {
	var c scan.Checklist
	c.NoMint = f.Mint.MintAuthority == nil
	c.OwnershipRenounced = c.NoMint && f.Mint.FreezeAuthority == nil && !f.Mint.ExtensionsIncomplete &&
		f.MetadataKnown && (f.Metadata == nil || (f.Metadata.IsMutable != nil && !*f.Metadata.IsMutable)) &&
		!solanaExtensionAuthority(f)
	c.NotHoneypot = solanaTransferable(f) && solanaSellable(f)
	if f.Holders != nil && f.Mint.Supply > 0 {
		hs, _ := AnalyseSolanaHolders(f)
		ev := hs.Evidence.(SolanaHolderEvidence)
		c.HealthyHolders = ev.Top10SharePct != nil && hs.Status == scan.Complete &&
			(f.Trusted != "" || ev.Insiders != nil && ev.Insiders.Conclusive)
		for _, fl := range hs.Flags {
			if fl.Code == risk.Top10Concentrated || fl.Code == risk.WhaleHolder || fl.Code == risk.FewHolders || fl.Code == risk.InsiderSupply {
				c.HealthyHolders = false
			}
		}
	}
	if bc := f.Liquidity.BondingCurve; bc != nil && !bc.Complete {
		c.LiquidityLocked = true
	} else if ls, _ := AnalyseSolanaLiquidity(f, time.Time{}); ls.Evidence != nil {
		ev := ls.Evidence.(SolanaLiquidityEvidence)
		c.LiquidityLocked = len(ev.Pools) > 0 && (ev.Pools[0].LPBurnedPct != nil || ev.Pools[0].LPLockedPct != nil) && solanaLPSafePct(ev.Pools[0]) >= risk.LPLockedEnoughPct
	}
	return c
}

// solanaExtensionAuthority reports whether any extension keeps an
// authority that can change how the token behaves.
func solanaExtensionAuthority(f *SolanaFacts) bool {
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferFeeParams:
			if p.ConfigAuthority != nil {
				return true
			}
		case SolanaAuthorityParams:
			if p.Authority != nil {
				return true
			}
		case SolanaTransferHookParams:
			if p.Authority != nil || p.ProgramID != nil {
				return true
			}
		case SolanaPausableParams:
			if p.Authority != nil {
				return true
			}
		case SolanaInterestBearingParams:
			if p.RateAuthority != nil {
				return true
			}
		case SolanaScaledUIAmountParams:
			if p.Authority != nil {
				return true
			}
		case SolanaConfidentialTransferParams:
			if p.Authority != nil {
				return true
			}
		case SolanaPointerParams:
			if p.Authority != nil && e.Name == SolanaExtMetadataPointer {
				return true
			}
		}
		if e.Name == SolanaExtTokenMetadata && f.Metadata != nil && f.Metadata.UpdateAuthority != nil {
			return true
		}
	}
	return false
}

// solanaTransferable reports whether nothing in the mint can block a
// holder's transfer.
func solanaTransferable(f *SolanaFacts) bool {
	if f.Mint.FreezeAuthority != nil || f.Mint.ExtensionsIncomplete {
		return false
	}
	for _, e := range f.Mint.Extensions {
		switch p := e.Params.(type) {
		case SolanaTransferHookParams:
			if p.ProgramID != nil || p.Authority != nil {
				return false
			}
		case SolanaAuthorityParams:
			if e.Name == SolanaExtPermanentDelegate && p.Authority != nil {
				return false
			}
		case SolanaPausableParams:
			if p.Paused || p.Authority != nil {
				return false
			}
		case SolanaDefaultAccountStateParams:
			if p.State != "initialized" {
				return false
			}
		case SolanaTransferFeeParams:
			// A fee of half or more takes most of every sale.
			if float64(max(p.Older.BasisPoints, p.Newer.BasisPoints))/100 >= risk.TaxExtremePct {
				return false
			}
		case SolanaRawParams:
			// An extension we cannot read might restrict transfers.
			return false
		}
		if e.Name == SolanaExtNonTransferable {
			return false
		}
	}
	return true
}

// solanaSellable reports whether a venue with quote liquidity exists.
func solanaSellable(f *SolanaFacts) bool {
	if bc := f.Liquidity.BondingCurve; bc != nil && !bc.Complete && bc.RealSOLReserves > 0 {
		return true
	}
	for _, p := range f.Liquidity.Pools {
		if p.QuoteReserve != nil && *p.QuoteReserve > 0 && p.TokenReserve != nil && *p.TokenReserve > 0 {
			return true
		}
	}
	return false
}

// SolanaInsiderHolders is how many top holders the insider check examines
// (pools, burns, lockers, exchanges, the creator and holders whose owner
// is unknown left out).
const SolanaInsiderHolders = 10

// SolanaInsiderCandidates are the holders the insider check examines, by
// owner, largest first.
func SolanaInsiderCandidates(f *SolanaFacts) []SolanaHolder {
	owners := map[string]bool{}
	if f.Holders != nil {
		for _, a := range f.Holders.Accounts {
			if a.Owner != nil {
				owners[*a.Owner] = true
			}
		}
	}
	var out []SolanaHolder
	for _, h := range solanaHolders(f) {
		if len(out) == SolanaInsiderHolders {
			break
		}
		if h.Label != "" || !owners[h.Address] || h.Amount == 0 {
			continue // labelled, or its owner unresolved
		}
		out = append(out, h)
	}
	return out
}

// solanaInsiders runs the insider check: creator_funded when a holder's
// first SOL came from the creator or from a wallet whose own first SOL
// came from it, same_slot when its token account first appeared in the
// slot the mint or a pool was created.
func solanaInsiders(f *SolanaFacts) *insider.Result {
	in := f.Insiders
	if in == nil || f.Mint.Supply == 0 {
		return nil
	}
	facts := insider.Facts{
		Launch: in.Launch, PointReason: insider.SameSlot, FundingReason: insider.CreatorFunded, Hops: 2,
		ThresholdPct: risk.InsiderPct,
	}
	if f.Creator != nil {
		facts.Creator = f.Creator.Address
	}
	for _, h := range SolanaInsiderCandidates(f) {
		c := insider.Holder{Address: h.Address, SharePct: solanaRound2(100 * float64(h.Amount) / float64(f.Mint.Supply))}
		if s, ok := in.First[h.Address]; ok {
			c.First = &s
		}
		if fu, ok := in.Funding[h.Address]; ok {
			c.Funding = &fu
		}
		facts.Holders = append(facts.Holders, c)
	}
	r := insider.Assess(facts)
	r.Cost = in.Cost
	return r
}
