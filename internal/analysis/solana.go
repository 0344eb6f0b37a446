package analysis

import (
	"slices"
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
	// Authorities label every authority address the mint names (wallet,
	// multisig, program, pda); an address missing was not read.
	Authorities map[string]SolanaAuthority `json:"authorities"`
	// Who can change what. Each is false when the mint cannot (no such
	// extension, or its authority revoked) and null when not established;
	// the authorities are named in Extensions and Metadata.
	//   - TransferHookUpgradable: the hook's authority can point it at
	//     another program, or the hook program can be upgraded;
	//   - TransferFeeUpgradable: the fee's config authority can change it;
	//   - DefaultAccountStateUpgradable: the freeze authority can change
	//     the state new accounts start in;
	//   - MetadataMutable: the update authority can change name, symbol
	//     and URI (MetadataUpdateAuthority).
	TransferHookUpgradable        *bool   `json:"transfer_hook_upgradable"`
	TransferFeeUpgradable         bool    `json:"transfer_fee_upgradable"`
	DefaultAccountStateUpgradable bool    `json:"default_account_state_upgradable"`
	MetadataMutable               *bool   `json:"metadata_mutable"`
	MetadataUpdateAuthority       *string `json:"metadata_update_authority"`
	// TransferHookProgram is the hook's program as read (executable,
	// upgradeable and by whom); null without a hook or when not read.
	TransferHookProgram *SolanaProgram `json:"transfer_hook_program"`
}

// SolanaLiquidityEvidence is liquidity_analysis for a Solana mint.
type SolanaLiquidityEvidence struct {
	DEXesSearched []string `json:"dexes_searched"`
	// DEXesUnsearched are the DEXes whose search failed or was refused.
	DEXesUnsearched   []string     `json:"dexes_unsearched"`
	Pools             []SolanaPool `json:"pools"`
	MainPool          *string      `json:"main_pool"`
	TotalLiquidityUSD *float64     `json:"total_liquidity_usd"`
	LPBurnedPct       *float64     `json:"lp_burned_pct"`
	LPLockedPct       *float64     `json:"lp_locked_pct"`
	// LPLockedUSD is the main pool's locked liquidity in USD.
	LPLockedUSD    *float64                    `json:"lp_locked_usd"`
	BondingCurve   *SolanaBondingCurveEvidence `json:"bonding_curve"`
	SOLPriceUSD    *float64                    `json:"sol_price_usd"`
	SOLPriceSource string                      `json:"sol_price_source,omitempty"`
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
	// HolderCount counts holders with a balance, pools, burns and lockers
	// left out: the owners listed when the node listed every token
	// account, else the token accounts the counting query found with a
	// balance, else (the count refused) the owners listed: a lower bound.
	HolderCount *int `json:"holder_count"`
	// HolderCountExact is false when HolderCount is a lower bound (the
	// count refused, or its accounts not holding the whole supply).
	HolderCountExact *bool          `json:"holder_count_exact"`
	TopHolders       []SolanaHolder `json:"top_holders"`
	Top10SharePct    *float64       `json:"top10_share_pct"`
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
	// CreatorCandidates are the addresses tied to who made the token
	// (SolanaFacts.CreatorCandidates), for the creator's record.
	CreatorCandidates []SolanaIdentity `json:"creator_candidates"`
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

	unchecked := append(slices.Clone(f.Unchecked), solanaUnestablished(f, liquidity, holders)...)
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

// solanaUnestablished names the checks that ran but did not establish
// their fact: unknown is unchecked, never no risk, and the level floor
// applies as for a node error. Each has its warning from its analysis.
//   - pools: who can withdraw the main pool's liquidity is not
//     established (positions or LP holders not resolved, LP mint not
//     read), or whether the liquidity is low is not (a pool without a
//     USD value, and what was valued under the low-liquidity line);
//   - holders: the holder list has holes (the top-10 share is not a
//     share);
//   - insiders: no verdict, or a verdict over holders that are not the
//     real top holders (the check stands on the holder list; a supply
//     of zero has no holders to check);
//   - deployer: no creator evidence, or the creator's share taken from a
//     holder list with holes or none.
func solanaUnestablished(f *SolanaFacts, liquidity, holders scan.Section) []string {
	if f.Trusted != "" {
		return nil
	}
	var out []string
	if ev, ok := liquidity.Evidence.(SolanaLiquidityEvidence); ok && len(ev.Pools) > 0 && (solanaLPLockUnknown(f.mainPool(ev.Pools[0].Address)) || solanaLiquidityUnknown(ev)) {
		out = append(out, risk.CheckPools)
	}
	if f.Holders != nil && f.Holders.Inconsistent {
		out = append(out, risk.CheckHolders)
	}
	if ev, ok := holders.Evidence.(SolanaHolderEvidence); ok && f.Mint.Supply > 0 && (ev.Insiders == nil || !ev.Insiders.Conclusive) {
		out = append(out, risk.CheckInsiders)
	}
	if f.Creator == nil || f.Holders == nil || f.Holders.Inconsistent {
		out = append(out, risk.CheckDeployer)
	}
	return out
}
