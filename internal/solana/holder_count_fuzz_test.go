package solana

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"
)

// FuzzTallyAmounts: whatever a node answers to the counting query
// (getProgramAccounts with 8-byte data slices), the tally never panics,
// counts at most the accounts listed, and an answer it accepts counts
// exactly the non-zero amounts with their sum (saturating).
func FuzzTallyAmounts(f *testing.F) {
	f.Add([]byte(`[{"pubkey":"a","account":{"data":["AQAAAAAAAAA=","base64"],"owner":"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb","lamports":2039280}},{"pubkey":"b","account":{"data":["AAAAAAAAAAA=","base64"],"owner":"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb","lamports":2039280}}]`))
	f.Add([]byte(`[{"pubkey":"a","account":{"data":["AQAAAA==","base64"],"owner":"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"}}]`))
	f.Add([]byte(`[{"pubkey":"a","account":{"data":["//////////8=","base64"],"owner":"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"}},{"pubkey":"b","account":{"data":["AgAAAAAAAAA=","base64"],"owner":"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"}}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var out []programAccount
		if json.Unmarshal(raw, &out) != nil {
			return
		}
		hc := tallyAmounts(out)
		if hc.err != nil {
			return
		}
		n := 0
		var sum uint64
		for _, pa := range out {
			acc, err := pa.Account.decode()
			if err != nil || len(acc.Data) != 8 {
				t.Fatalf("accepted an answer with account %q undecodable (%v)", pa.Pubkey, err)
			}
			if a := binary.LittleEndian.Uint64(acc.Data); a > 0 {
				n++
				if sum > math.MaxUint64-a {
					sum = math.MaxUint64
				} else {
					sum += a
				}
			}
		}
		if hc.accounts != n || hc.held != sum || n > len(out) {
			t.Fatalf("tally %d/%d, want %d/%d", hc.accounts, hc.held, n, sum)
		}
	})
}
