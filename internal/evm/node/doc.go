// Package node talks JSON-RPC to a chain's nodes: batches (split when a
// node refuses their size, the limit learned per client), failover across
// the chain's URLs, retries of transient failures, and the typed calls
// (code, storage, balances, eth_call with state overrides, logs) the other
// evm packages build their requests from. It knows nothing of tokens.
package node
