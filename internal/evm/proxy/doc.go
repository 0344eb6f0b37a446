// Package proxy detects proxies (EIP-1967, EIP-1822, ZeppelinOS, beacon,
// EIP-1167 clones) from code and storage slots, and reads the details
// (implementation, admin) that decide whether and by whom the token can be
// upgraded.
package proxy
