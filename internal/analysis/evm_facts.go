package analysis

import (
	"math/big"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/insider"
)

// EVMFacts is what the EVM adapter collected for the liquidity, deployer
// and holder analyses. A nil pointer is a fact that could not be
// established; the matching warning says why.
type EVMFacts struct {
	Chain string
	// Token is the token's checksummed address.
	Token       string
	Decimals    *int
	TotalSupply *big.Int
	// OwnerKnown is true when the owner question was answered: Owner is
	// then the owner address, or "" when the token has no owner getter or
	// the owner is the zero address (renounced).
	OwnerKnown bool
	Owner      string

	Liquidity EVMLiquidityFacts
	Deployer  EVMDeployerFacts
	// Holders is nil when the holder rebuild could not run at all.
	Holders *EVMHolderFacts

	// BurnAddresses and Lockers are the chain's configured addresses
	// (lockers by address → name), used to label holders.
	BurnAddresses []string
	Lockers       map[string]string
	// Exchanges are known exchange wallets (address → name).
	Exchanges map[string]string
	// Now is the scan time (pool ages).
	Now time.Time
}

// EVMLiquidityFacts is what pool discovery found.
type EVMLiquidityFacts struct {
	// Searched is true when the pool search ran (the lens answered);
	// false means pools are unknown, not absent.
	Searched bool
	// V4Unknown is true when the Uniswap V4 pool search failed or did not
	// reach the deployment block: V4 pools may exist beyond those listed,
	// so finding none is no NO_LIQUIDITY.
	V4Unknown bool
	// Pools are the token's pools against configured quote tokens,
	// deepest (by USD liquidity) first.
	Pools []EVMPool
}

// EVMPool is one pool of the token, as reported in liquidity_analysis.pools.
type EVMPool struct {
	DEX     string `json:"dex"`
	Kind    string `json:"kind"`
	Address string `json:"address"`
	// QuoteToken is the quote token's symbol, QuoteAddress its address.
	QuoteToken   string `json:"quote_token"`
	QuoteAddress string `json:"quote_address"`
	// Fee is a V3 pool's fee tier (hundredths of a bp); Stable marks a
	// Solidly stable pool.
	Fee    *int `json:"fee,omitempty"`
	Stable bool `json:"stable,omitempty"`
	// TokenReserve and QuoteReserve are raw amounts (decimal strings).
	TokenReserve *string `json:"token_reserve"`
	QuoteReserve *string `json:"quote_reserve"`
	// LiquidityUSD values both sides at on-chain prices; nil when the
	// quote token's USD price is unknown.
	LiquidityUSD *float64 `json:"liquidity_usd"`
	// LPBurnedPct, LPLockedPct, LPOwnerPct and LPCreatorPct are shares of
	// the LP supply; nil when unknown or the pool has no fungible LP token
	// (V3 positions).
	LPBurnedPct  *float64 `json:"lp_burned_pct"`
	LPLockedPct  *float64 `json:"lp_locked_pct"`
	LPOwnerPct   *float64 `json:"lp_owner_pct"`
	LPCreatorPct *float64 `json:"lp_creator_pct"`
	// LPLockers names the lockers holding LP of this pool.
	LPLockers []string `json:"lp_lockers,omitempty"`
	// CreatedAt is when the pool got its first liquidity, where known.
	CreatedAt *time.Time `json:"created_at,omitempty"`
	// PoolManager, PoolID and V4Key are a Uniswap V4 pool's singleton,
	// id (Address is the id too) and key; LPFee is its LP fee now
	// (hundredths of a bp; a dynamic-fee key's hook sets it). Absent for
	// other kinds.
	PoolManager string    `json:"pool_manager,omitempty"`
	PoolID      string    `json:"pool_id,omitempty"`
	V4Key       *EVMV4Key `json:"v4_key,omitempty"`
	LPFee       *int      `json:"lp_fee,omitempty"`
}

// EVMV4Key is a Uniswap V4 pool's key: its currencies (the zero address is
// the native coin), fee (hundredths of a bp; 8388608, 0x800000, marks a
// dynamic fee the hook sets), tick spacing and hook contract (the zero
// address: none). Its hash is the pool id.
type EVMV4Key struct {
	Currency0   string `json:"currency0"`
	Currency1   string `json:"currency1"`
	Fee         int    `json:"fee"`
	TickSpacing int    `json:"tick_spacing"`
	Hooks       string `json:"hooks"`
}

// EVMDeployerFacts is what is known of the token's creator.
type EVMDeployerFacts struct {
	// Creator is nil when no evidence of the creator was found.
	Creator *string
	// CreatorSource says how the creator was found: "explorer" or
	// "first_mint_recipient" (on-chain evidence only).
	CreatorSource string
	CreationTx    *string
	// CreatorBalanceWei is the creator's native balance.
	CreatorBalanceWei *big.Int
	// CreatorNonce is the creator's transaction count.
	CreatorNonce *uint64
	// CreatorTokens and OwnerTokens are token balances.
	CreatorTokens *big.Int
	OwnerTokens   *big.Int
	// OtherLaunches are other contracts the creator deployed (explorer);
	// nil when unknown.
	OtherLaunches []string
	// OtherLaunchesKnown is true when OtherLaunches was established.
	OtherLaunchesKnown bool
	// Native is the chain's native symbol (for display).
	Native string
}

// EVMHolderFacts is the holder set rebuilt from Transfer logs.
type EVMHolderFacts struct {
	// Complete is true when every Transfer log since the first block
	// scanned was read and FromBlock is the token's first activity.
	Complete bool
	// FromBlock and ToBlock are the block range scanned.
	FromBlock, ToBlock uint64
	// Transfers is the number of Transfer logs read.
	Transfers int
	// HolderCount counts addresses with a positive balance.
	HolderCount int
	// Top are the largest holders, largest first.
	Top []EVMHolderBalance
	// FirstMintRecipient is the first receiver of a mint (from 0x0), the
	// best on-chain hint of the creator.
	FirstMintRecipient string
	// Launch are the blocks the token's pools received their first
	// tokens (their liquidity was added), for the insider check; nil
	// when unknown.
	Launch []insider.Span
	// InsidersRead is true when the first receipts of the top holders
	// were established (from the rebuild, or the insider query), so the
	// insider check can run; InsiderCost is what establishing them cost.
	InsidersRead bool
	InsiderCost  insider.Cost
	// InsidersSkipped says why the insider check did not run by design
	// (a trusted token), "" when it was meant to run.
	InsidersSkipped string
}

// EVMHolderBalance is one holder's balance.
type EVMHolderBalance struct {
	Address string
	Balance *big.Int
	// IsContract is nil when the code check failed.
	IsContract *bool
	// Pool is true when the address is one of the token's pools.
	Pool bool
	// First is the block the holder first received the token (nil when
	// not established); FirstFrom the sender of that transfer ("" for a
	// mint after the token's first mint block; the creator for a mint in
	// it), nil when not established.
	First     *insider.Span
	FirstFrom *string
}
