// Package lens builds and decodes the lens call (contracts/src/Lens.sol):
// one eth_call, by state override or from creation code, that reads a
// token's metadata, owner, supply, holders' balances and its candidate pools
// on every configured DEX.
package lens
