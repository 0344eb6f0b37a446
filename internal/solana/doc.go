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
//     creator candidates, every authority the mint names, the transfer
//     hook's program] + the hook program's program-data header (one
//     call, sliced to 45 bytes) + the pools' LP token accounts +
//     getTransaction of the mint's oldest signature +
//     getSignaturesForAddress of the creator candidate (its history).
//     Each authority is labelled wallet, multisig, program or pda.
//
// A DAMM v1 pool keeps its reserves in Meteora dynamic vaults: its vaults
// and vault-LP balances come with round trip 3, and one more request
// (getMultipleAccounts of the vault LP mints) is sent only when such a
// pool was found. LaunchLab curves bring their global config (curve
// type) into round trip 3 at no extra call.
//
// The position accounts of Raydium CLMM, Orca Whirlpool, Meteora DLMM and
// DAMM v2 pools are listed in
// round trip 3 (up to 3 pools); the NFTs of the 10 largest unlocked
// positions are resolved in the same follow-up request (their mints, and
// their token accounts under Token-2022, and SPL Token for CLMM and
// Whirlpool), so that a position counts burned, locked, unlocked or
// unknown by who can withdraw it. A concentrated position weighs its token amounts in its tick range
// at the pool's price, against the pool's vaults less the fees it owes; a
// DLMM position its share of the bins it spans (their bin arrays read in
// the follow-up request), its owner named in the account and its lock
// release point compared with the slot of round trip 1 (or the clock).
//
// With Options.PoolIndex (TOKENRISK_SOLANA_POOL_INDEX) the operator's index
// is asked beside round trip 1 and the pools it names are read with
// getMultipleAccounts in round trip 2 instead of the DEX searches; each is
// kept only if it is owned by a configured DEX program, decodes by that
// DEX's layout and holds the mint where discovery would have searched. A
// failed index leaves the pools unchecked.
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
// LP lock state: the LP a pool issued (CPMM lp_supply less the 100 units
// it never mints, AMM v4 lp_amount less the 10^decimals it never mints,
// PumpSwap lp_supply) minus the LP mint's supply was burned with the token
// program. Round trip 3 also lists the LP token accounts of up to five
// pools (getProgramAccounts on both token programs, memcmp on the mint,
// 72-byte data slices): LP owned by a burn address counts as burned, by a
// configured locker (Raydium Burn & Earn's lock authority) as locked, by a
// wallet (on the curve) as unlocked, and by any other program, or not
// listed at all, as unknown. LP_NOT_LOCKED is raised only when wallets
// hold more than 10%; an unknown share leaves the verdict open (warning,
// analysis partial), never a flag nor a "locked".
//
// Beside round trips 2 and 3, in a request of its own (so that a large
// answer or a refusal fails only it), one getProgramAccounts on the
// mint's token program counts its token accounts with a non-zero balance
// (memcmp on the mint, each account sliced to its 8-byte amount, about
// 150 bytes of answer per account); the holders wait for it at most
// holderCountGrace past round trip 3. When the node refuses it the
// holder count is a lower bound with a warning.
//
// Every account is checked against the question asked before it is
// decoded: a pool a DEX search returned must be owned by that DEX's
// program (and have its pool size where the layout is fixed), a vault,
// LP mint or NFT mint by a token program (a vault holding the pool's
// mint), a curve by the pump.fun program, a position by its pool's
// program. Bytes under another owner are refused with a warning, never
// valued, and leave the pools unchecked.
//
// Nodes that refuse batches are detected (a single error object answering
// a batch) and the calls are then sent one per request, concurrently.
package solana
