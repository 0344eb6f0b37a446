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
}

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
)

var definitions = []Definition{
	{NotVerified, Medium, Contract, 0.25, "The contract source is not verified on Sourcify or the chain's explorer, so its code cannot be read by buyers."},
	{ProxyUpgradeable, High, Contract, 0.45, "The token is a proxy whose implementation can be replaced: its rules can change after you buy."},
	{OwnerNotRenounced, Low, Contract, 0.15, "The contract has an owner with privileges that has not renounced ownership."},
	{OwnerCanMint, High, Contract, 0.5, "A privileged address can create new tokens, diluting holders."},
	{OwnerCanBlacklist, High, Contract, 0.45, "A privileged address can block chosen wallets from transferring or selling."},
	{OwnerCanPause, High, Contract, 0.45, "A privileged address can pause all transfers."},
	{OwnerCanChangeFees, High, Contract, 0.45, "A privileged address can change buy/sell/transfer fees, possibly to 100%."},
	{OwnerCanChangeBalance, Critical, Contract, 0.8, "A privileged address can set or change any holder's balance."},
	{OwnerCanLimitTx, Medium, Contract, 0.4, "A privileged address can set a maximum transaction or wallet size, which can block sells."},
	{TradingSwitch, High, Contract, 0.5, "Trading can be switched on or off by a privileged address."},
	{TradingCooldown, Medium, Contract, 0.4, "The token enforces a cooldown between a wallet's trades."},
	{HiddenOwner, High, Contract, 0.55, "Ownership looks renounced, but another stored address keeps owner powers or can reclaim ownership."},
	{Selfdestruct, High, Contract, 0.5, "The contract can destroy itself."},
	{ExternalCall, High, Contract, 0.45, "Transfers call or delegate to an address a privileged account can change."},
	{NonStandardToken, Medium, Contract, 0.2, "The token deviates from the ERC-20 standard (missing or reverting functions, odd metadata)."},

	{MintAuthorityEnabled, High, Contract, 0.45, "The mint authority is set: new tokens can be minted."},
	{FreezeAuthorityEnabled, High, Contract, 0.45, "The freeze authority is set: any token account can be frozen."},
	{MetadataMutable, Low, Contract, 0.1, "The token's name, symbol or image can still be changed."},
	{TransferFee, Medium, Contract, 0.3, "Token-2022 transfer fee: every transfer pays a fee to the fee authority."},
	{TransferHook, High, Contract, 0.45, "Token-2022 transfer hook: every transfer runs another program, which can block it."},
	{PermanentDelegate, Critical, Contract, 0.8, "Token-2022 permanent delegate: one address can move or burn tokens from any account."},
	{NonTransferable, Critical, Contract, 0.9, "Token-2022 non-transferable: holders can never transfer or sell."},
	{DefaultAccountFrozen, High, Contract, 0.6, "New token accounts start frozen and must be thawed by the freeze authority."},
	{MintCloseAuthority, Medium, Contract, 0.2, "The mint can be closed by an authority."},
	{ConfidentialTransfers, Medium, Contract, 0.2, "Confidential transfers hide amounts, so balances cannot be fully audited."},

	{HoneypotCannotBuy, High, Liquidity, 0.7, "A simulated buy from the deepest pool failed: the token cannot be bought now."},
	{HoneypotCannotSell, Critical, Liquidity, 0.95, "A simulated sell failed: holders cannot sell (honeypot)."},
	{BuyTaxHigh, High, Liquidity, 0.45, "The buy tax measured by simulation is above 10%."},
	{SellTaxHigh, High, Liquidity, 0.62, "The sell tax measured by simulation is above 10%."},
	{TaxExtreme, Critical, Liquidity, 0.9, "A measured tax is 50% or more: buying or selling loses most of the value."},
	{TransferTax, Medium, Liquidity, 0.25, "Wallet-to-wallet transfers are taxed."},
	{NoLiquidity, High, Liquidity, 0.5, "No pool of the token was found on the chain's configured DEXes."},
	{LowLiquidity, Medium, Liquidity, 0.3, "The token's pools hold little liquidity: large price impact and easy manipulation."},
	{LPNotLocked, High, Liquidity, 0.4, "Most LP tokens are neither burned nor in a known locker: liquidity can be pulled."},
	{NewPool, Low, Liquidity, 0.1, "The main pool is less than 72 hours old."},
	{SimulationFailed, High, Liquidity, 0.5, "The buy/sell simulation could not be run, so honeypot status is unknown."},
	{BondingCurve, Info, Liquidity, 0.05, "The token still trades on its pump.fun bonding curve."},

	{CreatorHoldsLargeShare, High, Deployer, 0.35, "The creator holds more than 5% of the supply."},
	{OwnerHoldsLargeShare, High, Deployer, 0.35, "The owner holds more than 5% of the supply."},
	{CreatorNewWallet, Low, Deployer, 0.1, "The creator wallet is new or has almost no history."},
	{CreatorSerialLauncher, High, Deployer, 0.4, "The creator has launched many other tokens."},

	{Top10Concentrated, Medium, Holder, 0.3, "The ten largest holders (pools, burns and lockers excluded) hold more than 50%."},
	{WhaleHolder, High, Holder, 0.4, "One holder (pools, burns and lockers excluded) holds more than 10%."},
	{FewHolders, Medium, Holder, 0.2, "The token has fewer than 50 holders."},

	{TrustedToken, Info, Contract, 0.01, "A configured trusted token (major stablecoin or wrapped native): its level is capped at low."},
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
