package solana

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzLPSplit feeds arbitrary LP amounts and holders (owners taken from
// the data, on and off the curve) through lpSplit: every share is a
// percentage and together they never exceed 100.
func FuzzLPSplit(f *testing.F) {
	burn := "1nc1nerator11111111111111111111111111111111"
	locker := "3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH"
	lk, bk := MustPublicKey(locker), MustPublicKey(burn)
	f.Add(uint64(6496152650376), uint64(6496152650376), []byte{}, true, uint64(0))
	f.Add(uint64(1000), uint64(500), append(lk[:], 0, 1, 0, 0, 0, 0, 0, 0), true, uint64(0))
	f.Add(uint64(0), uint64(10), append(bk[:], 10, 0, 0, 0, 0, 0, 0, 0), false, uint64(0))
	f.Add(uint64(math.MaxUint64), uint64(math.MaxUint64), append(make([]byte, 32), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), true, uint64(0))
	// The DAMM v1 mSOL/SOL pool: its LP supply and the LP its lock
	// escrows hold (total_locked_lp), listed and not.
	f.Add(uint64(125221911091504), uint64(125221911091504), append(make([]byte, 32), 0x57, 0x02, 0xce, 0, 0, 0, 0, 0), true, uint64(13501271))
	f.Add(uint64(125221911091504), uint64(125221911091504), []byte{}, false, uint64(13501271))
	f.Fuzz(func(t *testing.T, issued, supply uint64, raw []byte, listed bool, escrowed uint64) {
		if issued == 0 && supply == 0 {
			return
		}
		var holders []lpAccount
		for i := 0; i+40 <= len(raw); i += 40 {
			holders = append(holders, lpAccount{owner: PublicKey(raw[i : i+32]), amount: binary.LittleEndian.Uint64(raw[i+32:])})
		}
		sh := lpSplit(lpSplitInput{issued: issued, supply: supply, holders: holders, listed: listed, burns: []string{burn}, lockers: map[string]string{locker: "Raydium"}, escrowed: escrowed})
		sum := sh.burned
		for _, p := range []*float64{sh.locked, sh.unlocked, sh.unknown} {
			if p != nil {
				if *p < 0 || math.IsNaN(*p) {
					t.Fatalf("share %v", *p)
				}
				sum += *p
			}
		}
		if sh.burned < 0 || math.IsNaN(sum) || sum > 100.0001 {
			t.Fatalf("shares burned %v sum %v (issued %d supply %d, %d holders)", sh.burned, sum, issued, supply, len(holders))
		}
		if sh.providers != nil && *sh.providers > len(holders) {
			t.Fatalf("%d providers from %d holders", *sh.providers, len(holders))
		}
		if len(sh.holders) > maxLPHolders {
			t.Fatalf("%d holders listed", len(sh.holders))
		}
	})
}
