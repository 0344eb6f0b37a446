// Package analysis is pure: it turns the facts a chain adapter collected into
// the sections of a report (evidence, flags, status) and the safety
// checklist. No I/O; every function is a table-tested function of its facts.
package analysis

import (
	"slices"

	"github.com/tokenrisk/tokenrisk/internal/insider"
)

// SolanaFacts is everything the Solana analyses need, as the solana adapter
// collected it. Addresses are base58 strings; a nil pointer is a fact that
// could not be established (or, for authorities, "none": see each field).
type SolanaFacts struct {
	Mint SolanaMint
	// Metadata is the token's metadata: Token-2022 embedded metadata when
	// present, else the Metaplex metadata account, else nil.
	Metadata *SolanaMetadata
	// MetadataKnown is false when the metadata lookup itself failed, so a
	// nil Metadata means "unknown" rather than "none".
	MetadataKnown bool
	// Trusted is the configured name of a trusted token, or "".
	Trusted string
	// CurrentEpoch is the cluster epoch, used to pick the transfer fee in
	// force; nil when unknown.
	CurrentEpoch *uint64

	// Liquidity is what pool discovery found.
	Liquidity SolanaLiquidityFacts
	// Holders is nil when the largest accounts could not be read.
	Holders *SolanaHolderFacts
	// Creator is nil when no creator evidence was found.
	Creator *SolanaCreator
	// Insiders are the facts of the insider check over the top holders
	// (SolanaInsiderCandidates); nil when it could not run.
	Insiders *SolanaInsiderFacts
	// BurnAddresses are the chain's configured burn addresses (token
	// account owners whose tokens are out of circulation).
	BurnAddresses []string
	// Lockers and Exchanges are the chain's configured locker and exchange
	// wallets, by address, with their names.
	Lockers   map[string]string
	Exchanges map[string]string
	// Authorities label the accounts behind the authority addresses read
	// (AuthorityAddresses), by address; an address missing was not read.
	Authorities map[string]SolanaAuthority
	// HookProgram is the transfer hook's program as read (nil when the
	// mint has none, or it could not be read).
	HookProgram *SolanaProgram
	// Warnings are collection problems to report with the analyses.
	Warnings SolanaWarnings
	// Unchecked names the checks the node could not answer (risk.Check*
	// names; a report lists them in unchecked[]).
	Unchecked []string
}

// Uncheck records that check could not run (once).
func (f *SolanaFacts) Uncheck(check string) {
	if !slices.Contains(f.Unchecked, check) {
		f.Unchecked = append(f.Unchecked, check)
	}
}

// mainPool returns the pool at address with its shares unrounded (the
// liquidity evidence rounds them for the report).
func (f *SolanaFacts) mainPool(address string) SolanaPool {
	for _, p := range f.Liquidity.Pools {
		if p.Address == address {
			return p
		}
	}
	return SolanaPool{}
}

// SolanaWarnings are collection problems per analysis.
type SolanaWarnings struct {
	Contract  []string
	Liquidity []string
	Deployer  []string
	Holder    []string
}

// SolanaMint is a decoded SPL Token or Token-2022 mint.
type SolanaMint struct {
	Address string
	// ProgramID is the owning token program.
	ProgramID string
	// TokenProgram is "spl_token" or "token_2022".
	TokenProgram string
	Supply       uint64
	Decimals     uint8
	// MintAuthority and FreezeAuthority are nil when revoked (None).
	MintAuthority   *string
	FreezeAuthority *string
	// Extensions are the Token-2022 extensions in TLV order (none for SPL
	// Token). Unknown types are listed by number with Name "unknown_<n>".
	Extensions []SolanaExtension
	// ExtensionsIncomplete is true when the TLV area was malformed, so
	// extensions after the bad entry are unknown.
	ExtensionsIncomplete bool
}

// Token program names used in SolanaMint.TokenProgram.
const (
	SolanaSPLToken  = "spl_token"
	SolanaToken2022 = "token_2022"
)

// SolanaExtension is one Token-2022 TLV entry of a mint.
type SolanaExtension struct {
	Type uint16 `json:"type"`
	Name string `json:"name"`
	// Params is one of the Solana*Params types below, or nil for
	// extensions without parameters or of unknown type.
	Params any `json:"parameters,omitempty"`
}

// Token-2022 extension names, as reported in extensions[].name.
const (
	SolanaExtTransferFeeConfig             = "transfer_fee_config"
	SolanaExtTransferFeeAmount             = "transfer_fee_amount"
	SolanaExtMintCloseAuthority            = "mint_close_authority"
	SolanaExtConfidentialTransferMint      = "confidential_transfer_mint"
	SolanaExtConfidentialTransferAccount   = "confidential_transfer_account"
	SolanaExtDefaultAccountState           = "default_account_state"
	SolanaExtImmutableOwner                = "immutable_owner"
	SolanaExtMemoTransfer                  = "memo_transfer"
	SolanaExtNonTransferable               = "non_transferable"
	SolanaExtInterestBearingConfig         = "interest_bearing_config"
	SolanaExtCPIGuard                      = "cpi_guard"
	SolanaExtPermanentDelegate             = "permanent_delegate"
	SolanaExtNonTransferableAccount        = "non_transferable_account"
	SolanaExtTransferHook                  = "transfer_hook"
	SolanaExtTransferHookAccount           = "transfer_hook_account"
	SolanaExtConfidentialTransferFeeConfig = "confidential_transfer_fee_config"
	SolanaExtConfidentialTransferFeeAmount = "confidential_transfer_fee_amount"
	SolanaExtMetadataPointer               = "metadata_pointer"
	SolanaExtTokenMetadata                 = "token_metadata"
	SolanaExtGroupPointer                  = "group_pointer"
	SolanaExtTokenGroup                    = "token_group"
	SolanaExtGroupMemberPointer            = "group_member_pointer"
	SolanaExtTokenGroupMember              = "token_group_member"
	SolanaExtConfidentialMintBurn          = "confidential_mint_burn"
	SolanaExtScaledUIAmount                = "scaled_ui_amount"
	SolanaExtPausable                      = "pausable"
	SolanaExtPausableAccount               = "pausable_account"
)

// SolanaTransferFee is one epoch's transfer fee setting.
type SolanaTransferFee struct {
	Epoch       uint64 `json:"epoch"`
	MaximumFee  uint64 `json:"maximum_fee,string"`
	BasisPoints uint16 `json:"basis_points"`
}

// SolanaTransferFeeParams are a TransferFeeConfig's parameters.
type SolanaTransferFeeParams struct {
	ConfigAuthority   *string           `json:"config_authority"`
	WithdrawAuthority *string           `json:"withdraw_authority"`
	WithheldAmount    uint64            `json:"withheld_amount,string"`
	Older             SolanaTransferFee `json:"older"`
	Newer             SolanaTransferFee `json:"newer"`
	// Current is the fee in force at the cluster epoch, nil when the
	// epoch is unknown.
	Current *SolanaTransferFee `json:"current"`
}

// SolanaAuthorityParams carry a single optional authority (mint close
// authority, permanent delegate).
type SolanaAuthorityParams struct {
	Authority *string `json:"authority"`
}

// SolanaConfidentialTransferParams are a ConfidentialTransferMint's
// parameters.
type SolanaConfidentialTransferParams struct {
	Authority              *string `json:"authority"`
	AutoApproveNewAccounts bool    `json:"auto_approve_new_accounts"`
	// AuditorElGamalPubkey is hex, nil when there is no auditor.
	AuditorElGamalPubkey *string `json:"auditor_elgamal_pubkey"`
}

// SolanaDefaultAccountStateParams is the state new token accounts start in:
// "uninitialized", "initialized" or "frozen" (or "unknown_<n>").
type SolanaDefaultAccountStateParams struct {
	State string `json:"state"`
}

// SolanaInterestBearingParams are an InterestBearingConfig's parameters.
type SolanaInterestBearingParams struct {
	RateAuthority           *string `json:"rate_authority"`
	InitializationTimestamp int64   `json:"initialization_timestamp"`
	PreUpdateAverageRateBps int16   `json:"pre_update_average_rate_bps"`
	LastUpdateTimestamp     int64   `json:"last_update_timestamp"`
	CurrentRateBps          int16   `json:"current_rate_bps"`
}

// SolanaScaledUIAmountParams are a ScaledUiAmountConfig's parameters.
type SolanaScaledUIAmountParams struct {
	Authority                       *string `json:"authority"`
	Multiplier                      float64 `json:"multiplier"`
	NewMultiplierEffectiveTimestamp int64   `json:"new_multiplier_effective_timestamp"`
	NewMultiplier                   float64 `json:"new_multiplier"`
}

// SolanaTransferHookParams are a TransferHook's parameters.
type SolanaTransferHookParams struct {
	Authority *string `json:"authority"`
	ProgramID *string `json:"program_id"`
}

// SolanaPointerParams are a metadata, group or group-member pointer.
type SolanaPointerParams struct {
	Authority *string `json:"authority"`
	Address   *string `json:"address"`
}

// SolanaPausableParams are a PausableConfig's parameters.
type SolanaPausableParams struct {
	Authority *string `json:"authority"`
	Paused    bool    `json:"paused"`
}

// SolanaConfidentialTransferFeeParams are a ConfidentialTransferFeeConfig's
// parameters.
type SolanaConfidentialTransferFeeParams struct {
	Authority *string `json:"authority"`
	// WithdrawWithheldAuthorityElGamalPubkey is hex.
	WithdrawWithheldAuthorityElGamalPubkey string `json:"withdraw_withheld_authority_elgamal_pubkey"`
	HarvestToMintEnabled                   bool   `json:"harvest_to_mint_enabled"`
}

// SolanaTokenGroupParams are a TokenGroup's parameters.
type SolanaTokenGroupParams struct {
	UpdateAuthority *string `json:"update_authority"`
	Mint            string  `json:"mint"`
	Size            uint64  `json:"size"`
	MaxSize         uint64  `json:"max_size"`
}

// SolanaTokenGroupMemberParams are a TokenGroupMember's parameters.
type SolanaTokenGroupMemberParams struct {
	Mint         string `json:"mint"`
	Group        string `json:"group"`
	MemberNumber uint64 `json:"member_number"`
}

// SolanaRawParams carry an extension whose layout is not decoded: its
// length only, so the evidence shows that it exists.
type SolanaRawParams struct {
	Length int `json:"length"`
}

// SolanaMetadata is token metadata from Metaplex or Token-2022.
type SolanaMetadata struct {
	// Source is "metaplex" or "token2022".
	Source string `json:"source"`
	// Address is the account holding it (the Metaplex PDA or the mint).
	Address         string  `json:"address"`
	Name            string  `json:"name"`
	Symbol          string  `json:"symbol"`
	URI             string  `json:"uri"`
	UpdateAuthority *string `json:"update_authority"`
	// IsMutable is Metaplex's is_mutable flag; for Token-2022 metadata it
	// is whether an update authority is set (the only way to change it).
	IsMutable *bool `json:"is_mutable"`
	// AdditionalMetadata are Token-2022 key/value pairs.
	AdditionalMetadata [][2]string `json:"additional_metadata,omitempty"`
}

// Metadata sources.
const (
	SolanaMetaplex          = "metaplex"
	SolanaToken2022Metadata = "token2022"
)

// SolanaLiquidityFacts is what pool discovery established.
type SolanaLiquidityFacts struct {
	// Searched lists the DEX names whose pools were searched successfully;
	// a configured DEX missing here could not be searched (see warnings).
	Searched []string
	// Unsearched lists the DEX names (and "pumpfun" for the curve) whose
	// search failed or was refused: their pools are unknown, not absent.
	Unsearched []string
	// SearchComplete is true when every configured DEX was searched and
	// every pool found was read.
	SearchComplete bool
	Pools          []SolanaPool
	// BondingCurve is the pump.fun curve when the PDA exists.
	BondingCurve *SolanaBondingCurve
	// BondingCurveKnown is false when the PDA lookup failed.
	BondingCurveKnown bool
	// SOLPriceUSD is the SOL price from on-chain pools, nil when unknown.
	SOLPriceUSD *float64
	// SOLPriceSource names the pool the SOL price was read from.
	SOLPriceSource string
	// FromIndex is true when an operator's pool index named the pools
	// (each read and verified on-chain) instead of discovery.
	FromIndex bool
}

// SolanaPool is one pool of the token.
type SolanaPool struct {
	DEX     string `json:"dex"`
	Address string `json:"address"`
	// QuoteMint is the other side of the pool, QuoteSymbol its configured
	// symbol ("" when it is not a configured quote token).
	QuoteMint   string `json:"quote_mint"`
	QuoteSymbol string `json:"quote_symbol"`
	TokenVault  string `json:"token_vault"`
	QuoteVault  string `json:"quote_vault"`
	// TokenReserve and QuoteReserve are raw amounts; nil when the vaults
	// could not be read.
	TokenReserve *uint64 `json:"token_reserve,string"`
	QuoteReserve *uint64 `json:"quote_reserve,string"`
	// LiquidityUSD is both sides valued from on-chain prices; nil when
	// the quote token has no known USD price or reserves are unknown.
	LiquidityUSD *float64 `json:"liquidity_usd"`
	// PriceInQuote is the token price in quote units (decimals applied),
	// from reserves or the pool's sqrt price; nil when unknown.
	PriceInQuote *float64 `json:"price_in_quote"`

	// LPMint is the pool's LP mint (Raydium), "" for position-NFT pools.
	LPMint string `json:"lp_mint,omitempty"`
	// LPBurnedPct is the share of the LP the pool issued that is out of
	// reach for good: burned with the token program, or held by a burn
	// address (the latter only when the LP holders were listed); nil when
	// unknown or the pool has no LP mint.
	LPBurnedPct *float64 `json:"lp_burned_pct"`
	// LPLockedPct is the share held by configured lockers (Raydium Burn &
	// Earn); LPUnlockedPct the share held by wallets, which can withdraw
	// it; LPUnknownPct the share whose holder is neither (a program not
	// known as a locker, or accounts the node did not list). All nil when
	// the LP holders could not be listed.
	LPLockedPct   *float64 `json:"lp_locked_pct"`
	LPUnlockedPct *float64 `json:"lp_unlocked_pct"`
	LPUnknownPct  *float64 `json:"lp_unknown_pct"`
	// LPHolders are the largest LP token accounts (at most 10).
	LPHolders []SolanaLPHolder `json:"lp_holders,omitempty"`
	// LPProviders counts who provides the liquidity: the owners of the LP
	// token accounts listed (burn addresses left out), or the positions
	// listed that hold liquidity; nil when not listed.
	LPProviders *int `json:"lp_providers"`
	// Lockers are the locks among the largest LP holders: a configured
	// locker, a lock stream's escrow, or a position's own lock, each
	// with its amount, share, unlock time (null: permanent, or not
	// stated) and USD value; LPLockedUSD is the locked share of the pool's
	// liquidity in USD. Filled by the liquidity analysis.
	Lockers     []SolanaLock `json:"lockers,omitempty"`
	LPLockedUSD *float64     `json:"lp_locked_usd"`
	// Creator is the pool's creator where the layout records it (Raydium
	// CPMM, PumpSwap).
	Creator string `json:"creator,omitempty"`
	// OpenTime is the pool's open time (unix seconds) where the layout
	// has one.
	OpenTime *int64 `json:"open_time,omitempty"`

	// QuoteDecimals are the quote mint's decimals when known.
	QuoteDecimals *uint8 `json:"-"`
	// QuoteUSDStable and QuoteWrapped carry the configured quote token's
	// kind: a USD stablecoin (1 USD) or wrapped SOL (SOL price).
	QuoteUSDStable bool `json:"-"`
	QuoteWrapped   bool `json:"-"`
	// Authority is the owner of the pool's vaults (the pool or its
	// authority PDA), used to label holders.
	Authority string `json:"-"`
}

// SolanaLPHolder is one LP token account of a pool.
type SolanaLPHolder struct {
	TokenAccount string  `json:"token_account"`
	Owner        string  `json:"owner"`
	Amount       uint64  `json:"amount,string"`
	SharePct     float64 `json:"share_pct"`
	// Label is burn, locker, creator (the pool's creator, a wallet),
	// wallet or program (an unknown program-derived address); for a
	// position, the holder of its NFT ("" when it was not resolved).
	Label string `json:"label"`
	// Position is the position account where the pool holds liquidity in
	// positions (Meteora DAMM v2); TokenAccount and Owner are then its
	// NFT's holder, SharePct its share of the pool's liquidity and
	// PositionLockedPct the part of the pool's liquidity the position
	// itself keeps locked (permanently or vesting).
	Position          string   `json:"position,omitempty"`
	PositionLockedPct *float64 `json:"position_locked_pct,omitempty"`
	// LockedUntil (unix seconds) or LockedUntilSlot is when a position
	// that names its own lock (DLMM lock_release_point) can be withdrawn;
	// before then it counts locked.
	LockedUntil     *int64  `json:"locked_until,omitempty"`
	LockedUntilSlot *uint64 `json:"locked_until_slot,omitempty"`
}

// LP holder labels.
const (
	SolanaLPBurn    = "burn"
	SolanaLPLocker  = "locker"
	SolanaLPCreator = "creator"
	SolanaLPWallet  = "wallet"
	SolanaLPProgram = "program"
)

// SolanaBondingCurve is a pump.fun bonding curve account.
type SolanaBondingCurve struct {
	Address              string  `json:"address"`
	VirtualTokenReserves uint64  `json:"virtual_token_reserves,string"`
	VirtualSOLReserves   uint64  `json:"virtual_sol_reserves,string"`
	RealTokenReserves    uint64  `json:"real_token_reserves,string"`
	RealSOLReserves      uint64  `json:"real_sol_reserves,string"`
	TokenTotalSupply     uint64  `json:"token_total_supply,string"`
	Complete             bool    `json:"complete"`
	Creator              *string `json:"creator"`
}

// SolanaHolderFacts are the largest token accounts with owners resolved.
type SolanaHolderFacts struct {
	// Accounts are the largest token accounts, largest first (at most 20
	// from getTokenLargestAccounts).
	Accounts []SolanaTokenAccount
	// Complete is true when the node returned fewer accounts than its
	// limit and they hold the whole supply, so the list is every token
	// account of the mint.
	Complete bool
	// Inconsistent is true when the node returned fewer accounts than its
	// limit that do not hold the whole supply: its token index misses
	// accounts, so even the largest holders are not established.
	Inconsistent bool
	// Count is the counting query's answer (nil when the node would not
	// answer it).
	Count *SolanaHolderCount
}

// SolanaHolderCount counts a mint's token accounts with a non-zero
// balance; Held is what they hold together (the supply when the node's
// index has every account).
type SolanaHolderCount struct {
	Accounts int
	Held     uint64
}

// SolanaTokenAccount is one token account with its owner.
type SolanaTokenAccount struct {
	Address string
	Amount  uint64
	// Owner is nil when the account could not be resolved.
	Owner *string
	// OwnerIsProgramAccount is true when the owner is a PDA (off curve),
	// i.e. a program rather than a wallet; nil when not established.
	OwnerIsProgramAccount *bool
}

// SolanaCreator is the best evidence of who created the token.
type SolanaCreator struct {
	Address string
	// Source is how it was found: "pumpfun_bonding_curve",
	// "first_transaction_fee_payer" or "metadata_update_authority".
	Source string
	// CreationSignature is the mint's oldest transaction signature when
	// found.
	CreationSignature *string
	// CreationTime is that transaction's block time (unix seconds).
	CreationTime *int64
	// BalanceLamports is the creator's current SOL balance, nil when
	// unknown.
	BalanceLamports *uint64
	// IsProgramAccount is true when Address is off the ed25519 curve (a
	// PDA, not a wallet); nil when not established.
	IsProgramAccount *bool
	// TxCount is the number of transactions involving the creator, when
	// its whole history was listed (under 1000); nil otherwise.
	TxCount *int
	// FirstActivity is the block time of the creator's oldest transaction
	// when its whole history was listed.
	FirstActivity *int64
	// OldestSignatureComplete is false when signature pagination hit its
	// bound, so the oldest signature seen may not be the first.
	OldestSignatureComplete bool
}

// Creator evidence sources.
const (
	SolanaCreatorBondingCurve    = "pumpfun_bonding_curve"
	SolanaCreatorFeePayer        = "first_transaction_fee_payer"
	SolanaCreatorUpdateAuthority = "metadata_update_authority"
)

// SolanaInsiderFacts are what the engine established for the insider
// check: the launch slots and, by holder (owner wallet), the slot its
// token account first appeared and its chain of first SOL funders.
type SolanaInsiderFacts struct {
	// Launch are the slots of the mint's and the pools' creation (exact,
	// or bounded when a busy account's first signature was beyond reach).
	Launch []insider.Span
	// First is, by owner, the slot its token account(s) first appeared.
	First map[string]insider.Span
	// Funding is, by owner, its chain of first SOL funders.
	Funding map[string]insider.Funding
	// Cost is what the check cost upstream.
	Cost insider.Cost
}
