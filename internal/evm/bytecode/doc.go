// Package bytecode analyses EVM code without running it: the selectors a
// contract dispatches, privileged signatures and the capabilities they
// suggest, opcodes (selfdestruct, delegatecall), minimal-proxy targets.
package bytecode
