package poolindex

import (
	"testing"

	"github.com/mr-tron/base58"
)

// FuzzParse: an answer either errors or names distinct 32-byte addresses,
// at most MaxPools, about the mint asked.
func FuzzParse(f *testing.F) {
	const mint = "DA2hWDYUaBxfhkvC3m3Gf65FYuGSojZw4DsYUDUxpump"
	f.Add([]byte(`{"mint":"` + mint + `","pools":["3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv"]}`))
	f.Add([]byte(`{"mint":"` + mint + `","pools":[]}`))
	f.Add([]byte(`{"mint":"` + mint + `","pools":["1"]}`))
	f.Add([]byte(`{"mint":"` + mint + `","pools":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		pools, err := parse(body, mint)
		if err != nil {
			return
		}
		if len(pools) > MaxPools {
			t.Fatalf("%d pools", len(pools))
		}
		seen := map[string]bool{}
		for _, p := range pools {
			raw, err := base58.Decode(p)
			if err != nil || len(raw) != 32 || seen[p] {
				t.Fatalf("pool %q (dup %v)", p, seen[p])
			}
			seen[p] = true
		}
	})
}
