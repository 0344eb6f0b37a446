// Package risk holds the flag catalogue and turns flags into scores and
// levels (SPEC §3 "Scoring"). It is pure: no I/O, no state.
package risk

import "sort"

// Severity of a flag, from info to critical.
type Severity string

// Severities in increasing order.
const (
	Info     Severity = "info"
	Low      Severity = "low"
	Medium   Severity = "medium"
	High     Severity = "high"
	Critical Severity = "critical"
)

// Category is the analysis a flag belongs to.
type Category string

// The four analyses.
const (
	Contract  Category = "contract"
	Liquidity Category = "liquidity"
	Deployer  Category = "deployer"
	Holder    Category = "holder"
)

// Definition describes one flag code: what it means and how much it weighs.
type Definition struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Category Category `json:"category"`
	// Weight is the flag's probability of harm to a buyer, in (0, 1).
	Weight  float64 `json:"weight"`
	Meaning string  `json:"meaning"`
	// Group names the one fact the flags of a correlation group restate
	// ("" for a flag that stands alone): a group counts once in a score,
	// at its heaviest flag's weight, and every flag stays listed.
	Group string `json:"group,omitempty"`
}

// Correlation groups (Definition.Group): flags that restate one fact.
const (
	// GroupTradeBlocked: the simulation or the token's type shows holders
	// cannot trade now.
	GroupTradeBlocked = "trade_blocked"
	// GroupSellBlock: a privileged party can stop holders selling
	// (blacklist, pause, trading switch, limits, cooldown, fees it can
	// raise to 100%, freeze): the harm is one, however many switches.
	GroupSellBlock = "sell_block"
	// GroupDilution: a privileged party can create tokens.
	GroupDilution = "dilution"
	// GroupBalanceControl: a privileged party can take or rewrite
	// holders' balances.
	GroupBalanceControl = "balance_control"
	// GroupTax: a measured tax (a high tax above 50% is one tax).
	GroupTax = "tax"
	// GroupInsiderExit: one insider can dump the supply or pull the
	// liquidity: the creator who is the whale and holds the LP is one
	// risk, not three.
	GroupInsiderExit = "insider_exit"
	// GroupCodeChange: the code that runs can be replaced after you buy.
	GroupCodeChange = "code_change"
	// GroupLiquidity: the pools hold little or nothing.
	GroupLiquidity = "liquidity"
	// GroupUnknown: a check could not give its verdict.
	GroupUnknown = "unknown"
)

// Scoring constants; their rationale is beside each.
const (
	// CodeEvidenceFactor scales a capability flag known from code only
	// (Flag.Evidence "code": a path exists, no probe showed its effect):
	// thin evidence counts, at half the weight of a proven power, so that
	// one unproven power with a live owner reads medium, not high.
	CodeEvidenceFactor = 0.5
	// CriticalScore is the least overall score of a report with a critical
	// flag proven (or observed): a buyer is likely to lose money now.
	CriticalScore = 90.0
	// CodeOnlyCeiling is the highest overall score code-only powers that
	// write no supply and no holder's balance can lift a token to by
	// themselves (the top of low): a path read from the code, never
	// called to effect, is no proof that anyone can trap a buyer.
	CodeOnlyCeiling = 39.9
	// HighCeiling is the highest overall score without such a flag:
	// powers a privileged party holds, however many, are "high" (it can
	// trap or dilute you), never "critical", until one is shown to harm.
	HighCeiling = 79.9
)

// severityCap bounds the weight of a flag an analysis raised below its
// catalogue severity (a fee the owner can only raise to a capped 10% is
// low): the weight never exceeds what its severity allows.
var severityCap = map[Severity]float64{Info: 0.02, Low: 0.15, Medium: 0.35, High: 0.75, Critical: 1}

// severityRank orders severities.
var severityRank = map[Severity]int{Info: 0, Low: 1, Medium: 2, High: 3, Critical: 4}

// The stable flag codes of SPEC §3.
const (
	NotVerified           = "NOT_VERIFIED"
	ProxyUpgradeable      = "PROXY_UPGRADEABLE"
	OwnerNotRenounced     = "OWNER_NOT_RENOUNCED"
	OwnerCanMint          = "OWNER_CAN_MINT"
	OwnerCanBlacklist     = "OWNER_CAN_BLACKLIST"
	OwnerCanPause         = "OWNER_CAN_PAUSE"
	OwnerCanChangeFees    = "OWNER_CAN_CHANGE_FEES"
	OwnerCanChangeBalance = "OWNER_CAN_CHANGE_BALANCE"
	OwnerCanLimitTx       = "OWNER_CAN_LIMIT_TX"
	TradingSwitch         = "TRADING_SWITCH"
	TradingCooldown       = "TRADING_COOLDOWN"
	HiddenOwner           = "HIDDEN_OWNER"
	Selfdestruct          = "SELFDESTRUCT"
	ExternalCall          = "EXTERNAL_CALL"
	NonStandardToken      = "NON_STANDARD_TOKEN"

	MintAuthorityEnabled   = "MINT_AUTHORITY_ENABLED"
	FreezeAuthorityEnabled = "FREEZE_AUTHORITY_ENABLED"
	MetadataMutable        = "METADATA_MUTABLE"
	TransferFee            = "TRANSFER_FEE"
	TransferHook           = "TRANSFER_HOOK"
	PermanentDelegate      = "PERMANENT_DELEGATE"
	NonTransferable        = "NON_TRANSFERABLE"
	DefaultAccountFrozen   = "DEFAULT_ACCOUNT_FROZEN"
	MintCloseAuthority     = "MINT_CLOSE_AUTHORITY"
	ConfidentialTransfers  = "CONFIDENTIAL_TRANSFERS"

	HoneypotCannotBuy  = "HONEYPOT_CANNOT_BUY"
	HoneypotCannotSell = "HONEYPOT_CANNOT_SELL"
	BuyTaxHigh         = "BUY_TAX_HIGH"
	SellTaxHigh        = "SELL_TAX_HIGH"
	TaxExtreme         = "TAX_EXTREME"
	TransferTax        = "TRANSFER_TAX"
	NoLiquidity        = "NO_LIQUIDITY"
	LowLiquidity       = "LOW_LIQUIDITY"
	LPNotLocked        = "LP_NOT_LOCKED"
	NewPool            = "NEW_POOL"
	SimulationFailed   = "SIMULATION_FAILED"
	BondingCurve       = "BONDING_CURVE"

	CreatorHoldsLargeShare = "CREATOR_HOLDS_LARGE_SHARE"
	OwnerHoldsLargeShare   = "OWNER_HOLDS_LARGE_SHARE"
	CreatorNewWallet       = "CREATOR_NEW_WALLET"
	CreatorSerialLauncher  = "CREATOR_SERIAL_LAUNCHER"

	Top10Concentrated = "TOP10_CONCENTRATED"
	WhaleHolder       = "WHALE_HOLDER"
	FewHolders        = "FEW_HOLDERS"

	TrustedToken = "TRUSTED_TOKEN"

	// Reputation (internal/reputation): what earlier knowledge says.

	// FakeToken: the token's name or symbol reads as a major token of the
	// chain listed at another address.
	FakeToken = "FAKE_TOKEN"
	// CreatorScamHistory: an earlier scan of another token by the same
	// creator proved a honeypot, a seizure or a hidden mint.
	CreatorScamHistory = "CREATOR_SCAM_HISTORY"
	// KnownScamCode: an earlier scan of another token with the same code
	// fingerprint (internal/codeprint) proved harm.
	KnownScamCode = "KNOWN_SCAM_CODE"
	// CommonTemplate: many scanned tokens share the code and none was
	// found harmful (a note, not a risk).
	CommonTemplate = "COMMON_TEMPLATE"

	// Second wave (SPEC §3 "Completeness and evidence").
	OwnerCanSeize = "OWNER_CAN_SEIZE"
	// OwnerCanTakeContractTokens: a privileged call takes the tokens the
	// token contract itself holds (fees it collected, tokens holders sold
	// or sent to it), not a holder's own balance.
	OwnerCanTakeContractTokens = "OWNER_CAN_TAKE_CONTRACT_TOKENS"
	// FeeCapped: the owner can change fees, but the probes found the
	// highest settable fee low (≤ FeeCappedPct).
	FeeCapped      = "OWNER_CAN_CHANGE_FEES_CAPPED"
	SelfDump       = "SELF_DUMP"
	ScanIncomplete = "SCAN_INCOMPLETE"
	InsiderSupply  = "INSIDER_SUPPLY"

	// Third wave (the capability table, contract_analysis.capabilities).

	// OwnerCanWhitelist: a privileged address keeps a list of wallets
	// exempt from fees, limits or trading restrictions, and can change it.
	OwnerCanWhitelist = "OWNER_CAN_WHITELIST"
	// WhitelistOnly: trading is, or can be switched to be, open only to
	// wallets on a list a privileged address keeps; others are refused.
	WhitelistOnly = "WHITELIST_ONLY"
	// PerAddressFee: a privileged address can set one wallet's fee apart
	// from everyone else's.
	PerAddressFee = "PER_ADDRESS_FEE"
	// CannotSellAll: selling the whole holding is refused while a slightly
	// smaller sell passes.
	CannotSellAll = "CANNOT_SELL_ALL"
	// OwnerCanBlockSells: one privileged call makes holders' sells fail
	// (proven by a call, then a sell).
	OwnerCanBlockSells = "OWNER_CAN_BLOCK_SELLS"
	// OwnerCanReclaim: the live owner can renounce through the token's own
	// path and take ownership back later, so a renounce is not final.
	// After the renounce the same fact is HIDDEN_OWNER.
	OwnerCanReclaim = "OWNER_CAN_RECLAIM"
	// OwnerCanReleaseReserve: a privileged address credits wallets from
	// an allocation the declared total supply already counts (a reserve
	// or vesting release): no mint, but supply reaching the market.
	OwnerCanReleaseReserve = "OWNER_CAN_RELEASE_RESERVE"
	// BalancesSiphoned: real holders that, by the token's complete
	// Transfer history, never sent hold less than the history gives them:
	// the token takes from holders without a transfer of theirs.
	BalancesSiphoned = "BALANCES_SIPHONED"

	// Uniswap V4 hooks (liquidity_analysis.hooks): the code a pool's
	// traders swap through, judged like a token's.

	// HookCanBlockSells: sells through the hook's pool fail now, or one
	// call by its owner (or an address it stores) makes them fail.
	HookCanBlockSells = "HOOK_CAN_BLOCK_SELLS"
	// HookFeeChangeable: a call raises the hook's cut of trades; the
	// value is the highest cut measured (the ceiling).
	HookFeeChangeable = "HOOK_FEE_CHANGEABLE"
	// HookCanDrain: a call by the hook's owner lowers what the
	// PoolManager holds of the pool's currencies.
	HookCanDrain = "HOOK_CAN_DRAIN"
	// HookUpgradeable: the hook's code can be replaced.
	HookUpgradeable = "HOOK_UPGRADEABLE"
	// HookUnverified: no configured explorer has the hook's source.
	HookUnverified = "HOOK_UNVERIFIED"
	// HookTakesCut: the hook may return deltas on swaps
	// (beforeSwapReturnDelta, afterSwapReturnDelta): it takes part of
	// trades; the value is the cut measured now.
	HookTakesCut = "HOOK_TAKES_CUT"
)

// Thresholds shared by the analyses, so that flag titles and the catalogue
// agree on what "high" means.
const (
	TaxHighPct        = 10.0 // buy or sell tax above this raises *_TAX_HIGH
	TaxExtremePct     = 50.0 // any tax at or above this raises TAX_EXTREME
	TransferTaxPct    = 1.0  // wallet-to-wallet tax above this raises TRANSFER_TAX
	LowLiquidityUSD   = 10_000.0
	LargeSharePct     = 5.0  // creator/owner share above this is large
	WhalePct          = 10.0 // one non-pool holder above this is a whale
	Top10Pct          = 50.0 // top-10 share (pools, burns, lockers excluded) above this
	FewHoldersCount   = 50
	LPLockedEnoughPct = 90.0 // LP burned + locked at or above this counts as locked
	NewPoolHours      = 72.0
	FeeCappedPct      = 10.0 // a fee ceiling at or below this is a capped fee (low)
	FeeCeilingHighPct = 50.0 // a sell fee ceiling at or above this can make the token unsellable
	// InsiderPct: top holders tied to the creator or the launch (funded by
	// the creator, sent their first tokens by it, or first holding the
	// token in the pool's creation slot or block) that together hold more
	// than this raise INSIDER_SUPPLY. It is the whale's share: insiders
	// act as one seller, so together they are a hidden whale. It is not
	// the creator's 5% (LargeSharePct): a same-slot buyer can be an
	// independent sniper bot, so the weaker evidence needs the larger
	// share before it is a finding.
	InsiderPct = 10.0
)

// definitions is the catalogue. Weights are calibrated to the levels'
// meaning for a buyer (docs/behaviour.md "Levels and evidence"): a critical flag (honeypot,
// seizure, balance rewrite, extreme tax, hidden mint) lifts the score to
// CriticalScore; a power to trap or dilute holders that a probe proved
// weighs 0.6, so one alone reads high (an uncapped fee switch, 0.62, never
// below a mint); supply and LP held by insiders count once as one fact
// (GroupInsiderExit, at most 0.4: medium); the owner's mere existence,
// unverified source, a new pool or a new creator wallet are low.
var definitions = []Definition{
	{NotVerified, Medium, Contract, 0.25, "The contract source is not verified on Sourcify or the chain's explorer, so its code cannot be read by buyers.", ""},
	{ProxyUpgradeable, High, Contract, 0.45, "The token is a proxy whose implementation can be replaced: its rules can change after you buy.", GroupCodeChange},
	{OwnerNotRenounced, Low, Contract, 0.15, "The contract has an owner with privileges that has not renounced ownership.", ""},
	{OwnerCanMint, High, Contract, 0.6, "A privileged address can create new tokens, diluting holders.", GroupDilution},
	{OwnerCanBlacklist, High, Contract, 0.6, "A privileged address can block chosen wallets from transferring or selling.", GroupSellBlock},
	{OwnerCanPause, High, Contract, 0.6, "A privileged address can pause all transfers.", GroupSellBlock},
	{OwnerCanChangeFees, High, Contract, 0.62, "A privileged address can change buy/sell/transfer fees, possibly to 100%.", GroupSellBlock},
	{OwnerCanChangeBalance, Critical, Contract, 0.8, "A privileged address can set or change any holder's balance.", GroupBalanceControl},
	{OwnerCanLimitTx, Medium, Contract, 0.4, "A privileged address can set a maximum transaction or wallet size, which can block sells.", GroupSellBlock},
	{TradingSwitch, High, Contract, 0.6, "Trading can be switched on or off by a privileged address.", GroupSellBlock},
	{TradingCooldown, Medium, Contract, 0.4, "The token enforces a cooldown between a wallet's trades.", GroupSellBlock},
	{HiddenOwner, High, Contract, 0.6, "Ownership looks renounced, but another stored address keeps owner powers or can reclaim ownership.", ""},
	{Selfdestruct, High, Contract, 0.5, "The contract can destroy itself.", ""},
	{ExternalCall, High, Contract, 0.45, "Transfers call or delegate to an address a privileged account can change.", GroupCodeChange},
	{NonStandardToken, Medium, Contract, 0.2, "The token deviates from the ERC-20 standard (missing or reverting functions, odd metadata).", ""},

	{MintAuthorityEnabled, High, Contract, 0.6, "The mint authority is set: new tokens can be minted.", GroupDilution},
	{FreezeAuthorityEnabled, High, Contract, 0.6, "The freeze authority is set: any token account can be frozen.", GroupSellBlock},
	{MetadataMutable, Low, Contract, 0.1, "The token's name, symbol or image can still be changed.", ""},
	{TransferFee, Medium, Contract, 0.3, "Token-2022 transfer fee: every transfer pays a fee to the fee authority.", GroupTax},
	{TransferHook, High, Contract, 0.45, "Token-2022 transfer hook: every transfer runs another program, which can block it.", GroupSellBlock},
	{PermanentDelegate, Critical, Contract, 0.8, "Token-2022 permanent delegate: one address can move or burn tokens from any account.", GroupBalanceControl},
	{NonTransferable, Critical, Contract, 0.9, "Token-2022 non-transferable: holders can never transfer or sell.", GroupTradeBlocked},
	{DefaultAccountFrozen, High, Contract, 0.6, "New token accounts start frozen and must be thawed by the freeze authority.", GroupSellBlock},
	{MintCloseAuthority, Medium, Contract, 0.2, "The mint can be closed by an authority.", ""},
	{ConfidentialTransfers, Medium, Contract, 0.2, "Confidential transfers hide amounts, so balances cannot be fully audited.", ""},

	{HoneypotCannotBuy, High, Liquidity, 0.7, "A simulated buy from the deepest pool failed: the token cannot be bought now.", GroupTradeBlocked},
	{HoneypotCannotSell, Critical, Liquidity, 0.95, "A simulated sell failed: holders cannot sell (honeypot).", GroupTradeBlocked},
	{BuyTaxHigh, High, Liquidity, 0.45, "The buy tax measured by simulation is above 10%.", GroupTax},
	{SellTaxHigh, High, Liquidity, 0.62, "The sell tax measured by simulation is above 10%.", GroupTax},
	{TaxExtreme, Critical, Liquidity, 0.9, "A measured tax is 50% or more: buying or selling loses most of the value.", GroupTax},
	{TransferTax, Medium, Liquidity, 0.25, "Wallet-to-wallet transfers are taxed.", GroupTax},
	{NoLiquidity, High, Liquidity, 0.5, "No pool of the token was found on the chain's configured DEXes.", GroupLiquidity},
	{LowLiquidity, Medium, Liquidity, 0.3, "The token's pools hold little liquidity: large price impact and easy manipulation.", GroupLiquidity},
	{LPNotLocked, High, Liquidity, 0.4, "Most LP tokens are neither burned nor in a known locker: liquidity can be pulled.", GroupInsiderExit},
	{NewPool, Low, Liquidity, 0.1, "The main pool is less than 72 hours old.", ""},
	{SimulationFailed, High, Liquidity, 0.5, "The buy/sell simulation could not be run, so honeypot status is unknown.", GroupUnknown},
	{BondingCurve, Info, Liquidity, 0.05, "The token still trades on its pump.fun bonding curve.", ""},

	{CreatorHoldsLargeShare, High, Deployer, 0.35, "The creator holds more than 5% of the supply.", GroupInsiderExit},
	{OwnerHoldsLargeShare, High, Deployer, 0.35, "The owner holds more than 5% of the supply.", GroupInsiderExit},
	{CreatorNewWallet, Low, Deployer, 0.1, "The creator wallet is new or has almost no history.", ""},
	{CreatorSerialLauncher, High, Deployer, 0.4, "The creator has launched many other tokens.", ""},

	{Top10Concentrated, Medium, Holder, 0.3, "The ten largest holders (pools, burns and lockers excluded) hold more than 50%.", GroupInsiderExit},
	{WhaleHolder, High, Holder, 0.4, "One holder (pools, burns and lockers excluded) holds more than 10%.", GroupInsiderExit},
	{FewHolders, Medium, Holder, 0.2, "The token has fewer than 50 holders.", GroupInsiderExit},

	{OwnerCanSeize, Critical, Contract, 0.85, "A privileged call debits a third party (a holder, the pool) without its allowance: your tokens can be taken or destroyed.", GroupBalanceControl},
	// Medium, not critical: no buyer's wallet is touched. What is taken is
	// supply the owner can then sell into the pool, as a large holder
	// could; "recover any token" functions that accept the token's own
	// address are common, so this must not read as a seizure of holders.
	{OwnerCanTakeContractTokens, Medium, Contract, 0.3, "A privileged call takes the tokens the token contract itself holds (fees it collected, tokens holders sold or sent to it) without a trade paying for them: the owner can sell that supply into the pool.", GroupBalanceControl},
	{FeeCapped, Low, Contract, 0.1, "A privileged address can change fees, but the highest fee it could set in simulation is 10% or less.", ""},
	{SelfDump, Low, Liquidity, 0.1, "The token swaps its own collected fees inside the seller's transaction, moving the price against the seller; the value is that price impact in percent.", ""},
	{ScanIncomplete, Medium, Contract, 0.3, "Some checks could not run (see unchecked): the missing checks count as unknown risk, not as no risk.", GroupUnknown},
	{InsiderSupply, High, Holder, 0.4, "Top holders tied to the creator or the launch (first funded by the creator or a wallet it funded, sent their first tokens by the creator, or first holding the token in the slot or block its pool was created) together hold more than 10% of the supply.", GroupInsiderExit},

	// The capability table's own codes. A whitelist the owner keeps is a
	// bounded power (medium), like a limit; trading open (or switchable
	// to be open) only to listed wallets is a sell block (high). A per-address fee is a blacklist
	// that taxes instead of refusing. A sell-all refusal keeps a remainder
	// in every wallet but lets the rest be sold (medium). One owner call
	// that stops every sell is a honeypot switch (critical: SPEC "one
	// owner call that makes sells fail"). A reclaimable renounce is a
	// promise that can be broken (medium while the owner is live anyway).
	{OwnerCanWhitelist, Medium, Contract, 0.35, "A privileged address keeps a list of wallets exempt from fees, limits or trading restrictions, and can add or remove wallets.", GroupSellBlock},
	{WhitelistOnly, High, Contract, 0.6, "Trading is, or can be switched to be, open only to wallets on a list a privileged address keeps: any other wallet is refused.", GroupSellBlock},
	{PerAddressFee, High, Contract, 0.6, "A privileged address can set one wallet's fee apart from everyone else's: a chosen holder's sells can be taxed away.", GroupSellBlock},
	{CannotSellAll, Medium, Liquidity, 0.3, "Selling the whole holding is refused while a slightly smaller sell passes: every holder keeps a remainder.", ""},
	{OwnerCanBlockSells, Critical, Contract, 0.9, "One privileged call makes holders' sells fail: proven by the call, then a refused sell.", GroupSellBlock},
	{OwnerCanReleaseReserve, Low, Contract, 0.1, "A privileged address can release tokens the declared total supply already counts (a reserve or vesting allocation) into chosen wallets: no dilution beyond the declared supply, but more supply can reach the market.", ""},
	// Balances taken from holders who never sent, with no Transfer of
	// theirs (a hidden skim, or an elastic supply shrinking holdings):
	// high, proven on real holders; not critical, for no privileged
	// party is shown to be behind it.
	{BalancesSiphoned, High, Contract, 0.6, "Real holders that never sent a token hold less than the token's complete Transfer history gives them: balances are taken without a transfer of theirs (a hidden skim, or a supply that shrinks holdings).", ""},
	{OwnerCanReclaim, Medium, Contract, 0.3, "The owner can renounce ownership through the token's own path and take it back later: a renounce is not final.", ""},

	// An impersonator is critical: a buyer who meant the real token loses
	// what they paid whatever the copy's code does.
	{FakeToken, Critical, Contract, 0.9, "The token's name or symbol reads as a major token of this chain (chains file major_tokens) at another address: a copycat of the real token, named in contract_analysis.impersonates.", ""},

	// The creator's record: a wallet that trapped buyers before is
	// evidence enough to stay away (the earlier scan is named as proof).
	{CreatorScamHistory, Critical, Deployer, 0.85, "This service scanned another token of the same creator and proved harm (a honeypot, a seizure or a hidden mint; raised high instead when the worst was a rugged pool): named in deployer_analysis.creator_tokens with the scan as proof.", ""},

	// Known scam code: the same code, redeployed, traps buyers the same
	// way whoever deploys it (high when the twin's harm is other than a
	// honeypot, a seizure or a hidden mint).
	{KnownScamCode, Critical, Contract, 0.85, "This service scanned another token with the same runtime code (fingerprint ignoring metadata, immutables, embedded addresses and constants; a proxy's implementation) and proved harm (a honeypot, a seizure or a hidden mint): named in contract_analysis.code_twins with the scan as proof.", ""},
	{CommonTemplate, Info, Contract, 0.01, "A popular template: at least 10 tokens this service scanned share the code and none was found harmful or critical (contract_analysis.code_twins). It says nothing of the token's own owner and pool.", ""},

	// Uniswap V4 hooks. A hook that refuses sells, or whose owner can
	// make it refuse them with one call, is a honeypot switch (critical,
	// as OWNER_CAN_BLOCK_SELLS); a cut its owner can raise weighs as a
	// token's fee switch (high, lowered by the measured ceiling: a capped
	// 10% or less is low); a hook that takes a cut is named (info,
	// weighed as a tax by the cut measured now, one fact with the taxes).
	{HookCanBlockSells, Critical, Liquidity, 0.9, "Sells through a Uniswap V4 pool's hook fail now, or one call by its owner makes them fail: proven by the call, then a refused sell.", GroupSellBlock},
	{HookFeeChangeable, High, Liquidity, 0.62, "A Uniswap V4 pool's hook lets its owner raise the cut it takes of trades; the value is the highest cut measured after the owner's call (a ceiling of 10% or less reads low).", GroupSellBlock},
	{HookCanDrain, Critical, Liquidity, 0.85, "A call by a Uniswap V4 pool's hook owner takes the pool's funds out of the PoolManager.", GroupBalanceControl},
	{HookUpgradeable, High, Liquidity, 0.45, "A Uniswap V4 pool's hook is a proxy (or delegates to a settable address): the code every trade runs through can change after you buy.", GroupCodeChange},
	{HookUnverified, Medium, Liquidity, 0.25, "A Uniswap V4 pool's hook has no verified source on the configured explorers.", ""},
	{HookTakesCut, High, Liquidity, 0.45, "A Uniswap V4 pool's hook may return deltas on swaps (beforeSwapReturnDelta, afterSwapReturnDelta): it takes a cut of trades beside the LP fee; the value is the cut measured now (as a tax: info at 10% or less or unmeasured, high above, critical at 50% or more).", GroupTax},

	{TrustedToken, Info, Contract, 0.01, "A configured trusted token (major stablecoin or wrapped native): its level is capped at low.", ""},
}

// Catalogue is the set of flag definitions, looked up by code.
type Catalogue struct {
	byCode map[string]Definition
}

// builtin indexes definitions once; it is read-only after package init.
var builtin = func() map[string]Definition {
	m := make(map[string]Definition, len(definitions))
	for _, d := range definitions {
		m[d.Code] = d
	}
	return m
}()

// NewCatalogue returns the built-in catalogue.
func NewCatalogue() *Catalogue { return &Catalogue{byCode: builtin} }

// Lookup returns the definition of code.
func (c *Catalogue) Lookup(code string) (Definition, bool) {
	d, ok := c.byCode[code]
	return d, ok
}

// All returns every definition, sorted by category then code.
func (c *Catalogue) All() []Definition {
	out := make([]Definition, 0, len(c.byCode))
	for _, d := range c.byCode {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Category != out[j].Category {
			return out[i].Category < out[j].Category
		}
		return out[i].Code < out[j].Code
	})
	return out
}
