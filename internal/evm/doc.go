// Package evm collects the facts of an EVM token over JSON-RPC: detection,
// bytecode, proxies, the lens call, pools, the honeypot simulation,
// privilege probes and holders, and assembles them into a scan assessment.
//
// # Round trips
//
// A scan is three sequential JSON-RPC round trips on the chosen chain
// (adapter.go): detection fused with collection (code, proxy slots, the
// first storage slots and the lens, on every enabled chain at once), then
// the simulation with the proxy details, then the privilege probes with
// the holders' and creator's accounts. The Transfer-log holder rebuild and
// the explorers run beside them; what is late at the deadline is reported
// partial with a warning, never as safe.
//
// # Decisions where the SPEC is silent
//
//   - The lens (contracts/src/Lens.sol) is injected at a throwaway address
//     by an eth_call state override on every chain, Multicall3 or not. On a
//     node that refuses or ignores overrides the same lens runs from its
//     creation code (an eth_call without "to" whose constructor returns the
//     answer); the simulation and probes need overrides, so there they fail
//     as SIMULATION_FAILED.
//   - USD values come only from the chain's own pools: stables are 1 USD, a
//     volatile quote token is priced by its deepest V2-style pool against a
//     stable (V3 balances are not a price). A pool is worth twice its quote
//     side; for V3 pools that is an estimate.
//   - LP burned/locked shares are read for V2-style pools only (V3
//     positions are NFTs: unknown, null with a warning). The main (deepest)
//     pool decides LP_NOT_LOCKED and liquidity_locked.
//   - A pool's age is the time of the first Transfer of the token into it,
//     from the holder rebuild's logs (where the node reports block times).
//   - Without an explorer, the creator is the first mint's recipient,
//     marked as inferred (deployer_analysis.creator_source).
//   - Verified is true when Sourcify or the Etherscan-family API has the
//     source, false only when every configured explorer answered no, null
//     otherwise.
//   - Holders are rebuilt from Transfer logs: the whole history is asked
//     first; a refusal locates the token's creation block (a 16-way search
//     over historical eth_getCode) and splits the range. The top holders'
//     balances are then read from the token itself, which corrects
//     reflection and rebasing tokens.
package evm
