//go:build !race

package storetest

// The big export: 100k rows of 2 KiB, about 200 MiB if held at once.
const exportRows, exportRowSize = 100_000, 2 << 10
