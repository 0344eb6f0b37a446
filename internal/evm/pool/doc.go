// Package pool plans the lens call for a token's pools and reads its answer
// into the token's DEX pools: reserves,
// USD values priced only from the chain's own pools, LP burned and locked
// shares, and the pool a simulation trades on. A new pool kind (e.g. V4 and
// its hooks) gets its own package beside this one.
package pool
