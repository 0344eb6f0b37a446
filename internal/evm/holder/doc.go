// Package holder rebuilds a token's holders from its Transfer logs (the
// whole history first, split ranges on refusal, the creation block
// located by historical eth_getCode) and reads the insider facts (the
// first receipts of the top holders) from the same logs.
package holder
