// Package solana is tokenrisk's Solana chain adapter: a JSON-RPC client with
// failover and batching, decoders for SPL Token / Token-2022 mints and
// extensions, Metaplex metadata, Raydium, Orca and pump.fun accounts, and
// the scan.Adapter that collects a mint's facts in three round trips.
//
// Round trips (each one HTTP request carrying a JSON-RPC batch; account
// data is always requested base64, never jsonParsed):
//
//  1. getMultipleAccounts [mint, Metaplex metadata PDA, pump.fun bonding
//     curve PDA] + getEpochInfo. This is the contract verdict: absent mint
//     → token_not_found; not owned by SPL Token / Token-2022 or not a mint
//     → not_a_token; authorities, extensions and metadata decoded.
//  2. getProgramAccounts for each configured DEX and each mint position
//     (dataSize + memcmp; PumpSwap, whose pool size changed over upgrades,
//     by discriminator + memcmp), the wSOL/USDC Whirlpools for the SOL price,
//     getTokenLargestAccounts and getSignaturesForAddress.
//  3. getMultipleAccounts [pool vaults, LP mints, largest token accounts,
//     creator candidates] + getTransaction of the mint's oldest signature +
//     getSignaturesForAddress of the creator candidate (its history).
//
// Only round trip 1 can fail a scan (upstream_error / upstream_timeout);
// later failures leave their analyses partial or unavailable, with
// warnings. A mint with more than 1000 signatures is paged (bounded by
// Options.MaxSignaturePages) beside round trip 3; a creator found only from
// the first transaction costs one more request (its balance and history).
//
// Prices are on-chain only: SOL/USD is the sqrt price of the wSOL/USDC
// Whirlpool with the most in-range liquidity; USD stablecoins count as 1
// USD. Pools are searched only for tokens that are not configured as
// trusted (USDC, USDT, wSOL have too many pools to list).
//
// The LP burned share is the LP the pool has issued (CPMM lp_supply less
// its 100 locked units, AMM v4 lp_amount) minus the LP mint's supply, over
// the issued amount: LP tokens destroyed with the token program's burn.
// LP held by burn addresses or lockers is not resolved.
//
// Nodes that refuse batches are detected (a single error object answering
// a batch) and the calls are then sent one per request, concurrently.
package solana
