// Package revert renders what a failed call says (Error(string), Panic,
// custom errors, raw text) bounded and printable, and decodes ABI values
// without letting a malformed answer panic.
package revert
