// Package simulation builds and decodes the honeypot simulation: the
// contract path (contracts/src/Simulator.sol placed by state override, one
// eth_call) and the wallet path (one eth_simulateV1 of real transactions
// from a wallet without code), and combines them (see package evm's doc
// for how they decide). A new simulation path goes here.
package simulation
