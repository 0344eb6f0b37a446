//go:build race

package storetest

// The race detector slows the embedded SQLite engine tenfold: the big
// export runs with fewer, larger rows so it still weighs about 200 MiB.
const exportRows, exportRowSize = 10_000, 20 << 10
