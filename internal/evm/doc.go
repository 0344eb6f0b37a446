// Package evm collects the facts of an EVM token over JSON-RPC: detection,
// bytecode, proxies, the lens call, pools, the honeypot simulation,
// privilege probes and holders, and assembles them into a scan assessment.
//
// # Layout
//
// Package evm is the adapter: it plans the round trips (scanrun.go),
// detects the token on every chain (adapter.go), reads the explorers
// (explore.go) and assembles the facts into the report (assemble.go). Each
// fact it composes comes from a package below it, each with one seam:
//
//   - node: the JSON-RPC client (batching, failover, learned limits); the
//     other packages only build rpc.BatchElem values and decode answers.
//   - bytecode: static analysis of code (selectors, privileged signatures,
//     opcodes); method: the static analysis of each dispatched function.
//   - proxy: proxy detection from code and slots, and its details.
//   - lens: the lens call (metadata, owner, supply, balances, pools read).
//   - pool: the token's DEX pools read from the lens answer, valued.
//   - simulation: the honeypot simulation (contract and wallet paths).
//   - probe: privilege probes (owner powers proven by simulation).
//   - holder: holders from Transfer logs, and the insider facts.
//   - revert: revert reasons and safe ABI decoding.
//   - v4: Uniswap V4 pools (Initialize logs, extsload state) and the V4
//     simulation through a pool with its hooks running; v4scan.go joins
//     them to round trips 1 and 2 and keeps what they found (v4Facts: the
//     pools with their keys and hooks, and each pool's simulation) for
//     the report and for a hook analysis to read.
//
// Where new behaviour goes: a new pool kind is a package of its own under
// internal/evm beside pool, its calls joined to the round trips in
// scanrun.go (as v4 is, through v4scan.go); a new simulation path goes
// in simulation, a new probe in probe, a new node behaviour (limits,
// retries) in node. A package below never imports package evm; the
// adapter is the only place that knows the round trips.
//
// # Round trips
//
// A scan is three sequential JSON-RPC round trips on the chosen chain
// (adapter.go): detection fused with collection (code, proxy slots, the
// first storage slots, the lens and the V4 PoolManagers' Initialize logs,
// on every enabled chain at once), then the simulation with the proxy
// details, the V4 pools' state and simulations and the slots the code
// compares msg.sender with past the first (probe/guard.go: their
// addresses are the privileged callers the code really gates on, named
// by the code that arrived in round trip 1; a proxy's implementation
// names its slots only in this round trip's answer, so beside it one
// eth_call runs a slot dump in the proxy's account, probe/slotdump.go:
// slots 12-523 and the implementation's 32-byte constants, the
// non-zero words answered in one element, whatever the implementation
// turns out to check; a checked slot none of these read is a warning,
// its holder unprobed), then the privilege
// probes (with, in the same batch, the token's own renounce followed by
// every caller's probes again: probe/afterrenounce.go) with the
// holders' and creator's accounts and the real holders'
// sells (holdersells.go: the top holders and last buyers of the holder
// rebuild, each selling from its own address in an eth_simulateV1 of that
// batch; in the holders' round trip when the rebuild outlived round trip
// 3), and the contracts a transfer calls (externalcalls.go: a callee
// slot round trip 1 did not read and each callee's code, joined with the
// probes' proofs of who repointed them). The Transfer-log holder rebuild and
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
//   - The honeypot simulation has two paths in the same round trip. The
//     contract path (contracts/src/Simulator.sol placed by state override,
//     one eth_call) buys, transfers and sells from a contract. The wallet
//     path (simulation/simulate_wallet.go, one eth_simulateV1) sends real transactions
//     from SimulationWallet, an address with no code: the simulator, as
//     its router, pays the pool and swaps to the wallet (routeBuy); the
//     wallet itself transfers to a second wallet and to the pool; the
//     router swaps what the pool received above its reserve (routeSell),
//     which is fee-on-transfer safe (on a V3 pool the wallet approves the
//     router, whose swap callback pulls 99.9% of the holding into the
//     pool, as Uniswap's router does); balanceOf calls between the steps
//     measure every tax; a second block one DelayedSell later retries a
//     failed sell (cooldown). A wallet cannot compute between its
//     transactions, so it transfers ladders of amounts fixed in advance
//     from the quoted buy (a step above the holding reverts; the reads
//     measure what moved), and the router swaps after each step, so a
//     token's swap-back in a later step never sweeps an earlier one still
//     in the pool. Tokens that refuse contracts (extcodesize,
//     tx.origin == to, from == tx.origin, tx.origin without code) see an
//     ordinary user there.
//   - The router sell (simulation/fresh.go, router.go): where the chains
//     file names the pool's DEX router (dexes[].router, Router02's
//     interface), the wallet approves it and sells with
//     swapExactTokensForTokensSupportingFeeOnTransferTokens, the path
//     every user takes; it decides router_sell, the simulator acting as
//     the router (routeSellFrom) is the fallback, and a disagreement
//     between them, or between the router and the direct sell, is noted.
//   - How they combine: when the wallet path ran it decides can_buy and
//     can_sell (a wallet that can buy where the contract was refused is
//     not a honeypot; a wallet that cannot sell is one even when the
//     contract could); the contract fills what the wallet could not
//     establish (a sell the wallet held too little to try, the transfer
//     tax) and decides alone on nodes without eth_simulateV1 (or when the
//     pool's token reserve, which sizes the wallet's transfers, is
//     unknown; then its own buy-now-sell-later eth_simulateV1 checks the
//     cooldown). Neither path:
//     SIMULATION_FAILED. The report's simulation.path names the decider
//     and simulation.notes every disagreement, also as warnings.
//   - Taxes and sizes (both paths, V2-style pools): a sell is priced on
//     the pool's reserves right before the seller's own swap, after any
//     swap the token made inside the seller's transfer; that swap's price
//     drop (and one inside the transfer test) is self_dump, never tax.
//     The pool is synced before the seller's transfer (a reflection
//     token's credit to the pool is no part of the sale). A refused buy is
//     retried at half the size down to a millionth, a refused sell at a
//     quarter: the size found is buy_limit / sell_limit and
//     OWNER_CAN_LIMIT_TX, merged into the contract section with the same
//     power the probes found (assemble.go).
//   - The owner is the first of owner(), getOwner(), admin() that answers
//     an address. A token with none of them but AccessControl's hasRole
//     and grantRole is owned by its creator when hasRole(DEFAULT_ADMIN_ROLE,
//     creator) says so (asked in round trip 3), else its owner is unknown:
//     null with a warning, never renounced.
//   - Pool fees: a V2-style pool trades at its DEX's fee_bps (30 when
//     unset), a V3 pool at its fee tier; a Solidly (Aerodrome, Velodrome)
//     volatile pool without fee_bps at SolidlyMaxFeeBps, their factories'
//     3% maximum (its getFee is not read): a fee assumed too high only
//     prices the simulated trades worse, which the tax measurement (against
//     what was asked of the pool) does not see; one too low makes the pool
//     refuse the swap. Solidly stable pools are found and valued but never
//     simulated (their curve is not x*y).
//   - USD values come only from the chain's own pools: stables are 1 USD, a
//     volatile quote token is priced by its deepest V2-style pool against a
//     stable (V3 balances are not a price). A pool is worth twice its quote
//     side; for V3 pools that is an estimate.
//   - LP burned/locked shares are read for V2-style pools only (V3
//     positions are NFTs, V4 liquidity is positions in the PoolManager,
//     mostly the position manager's NFTs: unknown, null with a warning,
//     never locked). The main (deepest) pool decides LP_NOT_LOCKED and
//     liquidity_locked.
//   - V4 pools are ordered with the others by USD value (virtual reserves
//     at the pool's price: exact for full range, an upper bound for
//     concentrated liquidity); the simulation of the deepest pool with
//     liquidity whose simulation ran decides, the V2/V3 one or a V4 one
//     (path v4: the hook's cut apart from the token's tax, weighed with it
//     in the tax flags); another pool's different answer is a note. A V4
//     pool has a wallet path too (v4/wallet.go: a wallet without code buys
//     and sells through our V4WalletRouter, the sell pulled by
//     transferFrom during the settle), which decides buying and selling
//     as for V2/V3; when a V4 pool's simulation decided, the real
//     holders' sells go through it (v4/holders.go). See
//     docs/uniswap-v4.md.
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
