package lens

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// FuzzDecodeLens feeds arbitrary return data to the lens decoder: a node
// (or a hostile override) controls these bytes, so they must never panic.
func FuzzDecodeLens(f *testing.F) {
	lens, err := lensContract()
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{})
	f.Add(make([]byte, 64))
	f.Add(append(common.LeftPadBytes([]byte{0x20}, 32), make([]byte, 600)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := decodeLens(lens.ABI, data, 1, 2)
		if err == nil && res == nil {
			t.Fatal("nil result without error")
		}
	})
}
