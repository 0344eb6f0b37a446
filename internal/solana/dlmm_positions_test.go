package solana_test

import (
	"encoding/binary"
	"math"
	"math/big"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// The DLMM pair's bin arrays holding bins -1 and 1 (testdata/dlmm, from
// the same SDK artifact set as the pair).
const (
	dlmmProgram     = "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo"
	dlmmBinArrayM1  = "Gai2jqUAaJv8S68ibe69beV5DkhdBxAc6zoV3YQpuSNX"
	dlmmBinArray0   = "ERuqwiEFbQwNM8NhUMxUsvgGWbQpEyjbzhQLbBftCMPd"
	dlmmSupplyBinM1 = "18446744073709551616000000"
	dlmmSupplyBin1  = "18465190817783261167000000000"
)

func TestDLMMBinArrays(t *testing.T) {
	for id, want := range map[int32]int64{-1: -1, -70: -1, -71: -2, 0: 0, 69: 0, 70: 1, 141: 2, -141: -3} {
		if got := solana.DLMMBinArrayIndex(id); got != want {
			t.Errorf("bin %d in array %d, want %d", id, got, want)
		}
	}
	pair, prog := solana.MustPublicKey(dlmmPair), solana.MustPublicKey(dlmmProgram)
	for index, key := range map[int64]string{-1: dlmmBinArrayM1, 0: dlmmBinArray0} {
		if k, err := solana.DLMMBinArrayPDA(prog, pair, index); err != nil || k.String() != key {
			t.Errorf("bin array %d at %s, want %s (%v)", index, k, key, err)
		}
		data, _ := fixtureAt(t, "dlmm", key)
		a, err := solana.DecodeDLMMBinArray(data)
		if err != nil || a.Index != index || a.Pair != pair {
			t.Fatalf("bin array %s: %+v (%v)", key, a, err)
		}
	}
	data, _ := fixtureAt(t, "dlmm", dlmmBinArray0)
	a, _ := solana.DecodeDLMMBinArray(data)
	if b := a.Bins[1]; b.X != 1_000_000_000 || b.Y != 0 || b.Supply.String() != dlmmSupplyBin1 {
		t.Errorf("bin 1 = %+v", b)
	}
	if _, err := solana.DecodeDLMMBinArray(data[:10135]); err == nil {
		t.Error("decoded a bin array one byte short")
	}
}

// dlmmPosition is a SYNTHETIC DLMM PositionV2 (no real one was found in
// public fixtures), built from the IDL layout: bins lower..upper with the
// given shares, an owner and a lock release point.
func dlmmPosition(owner string, lower int32, shares []*big.Int, release uint64) []byte {
	data := make([]byte, 8120)
	copy(data, []byte{117, 176, 212, 199, 245, 180, 133, 182})
	putKey(data, 8, dlmmPair)
	putKey(data, 40, owner)
	for i, s := range shares {
		putU128(data[72+16*i:88+16*i], s)
	}
	binary.LittleEndian.PutUint32(data[7912:], uint32(lower))
	binary.LittleEndian.PutUint32(data[7916:], uint32(lower+int32(len(shares))-1))
	binary.LittleEndian.PutUint64(data[7992:], release)
	return data
}

func TestDecodeDLMMPosition(t *testing.T) {
	all, _ := new(big.Int).SetString(dlmmSupplyBinM1, 10)
	data := dlmmPosition("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU", -1, []*big.Int{all, new(big.Int), big.NewInt(5)}, 99)
	p, err := solana.DecodeDLMMPosition(data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Pool.String() != dlmmPair || keyPtr(p.Owner) != "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU" || p.LockRelease != 99 || len(p.Bins) != 2 ||
		p.Bins[0].ID != -1 || p.Bins[0].Share.Cmp(all) != 0 || p.Bins[1].ID != 1 || p.Bins[1].Share.Int64() != 5 {
		t.Errorf("position = %+v", p)
	}
	binary.LittleEndian.PutUint32(data[7916:], uint32(69)) // 71 bins
	if _, err := solana.DecodeDLMMPosition(data); err == nil {
		t.Error("decoded a position of 71 bins")
	}
}

// TestAssessDLMMPositions: a DLMM pair's positions are valued from the
// bins they hold shares of (bin arrays read in the follow-up request) at
// the pair's price, against its reserves; a position names its owner,
// and a lock release point still ahead counts it locked, with the point
// reported. The pair and the bin arrays are the SDK's dumps, the reserves
// and the positions SYNTHETIC. The position holds all of bin -1 (1 000 000
// raw y) and half of bin 1 (500 000 000 raw x at price 1): 501 000 000 of
// the pair's 2 002 000 000.
func TestAssessDLMMPositions(t *testing.T) {
	const share = 100 * 501_000_000.0 / 2_002_000_000
	const slot = 446605268 // the test node's slot
	wallet := "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
	for _, tt := range []struct {
		name    string
		owner   string
		release uint64
		label   string
		locked  bool
	}{
		{"wallet", wallet, 0, analysis.SolanaLPWallet, false},
		{"wallet, locked ahead", wallet, slot + 1000, analysis.SolanaLPWallet, true},
		{"wallet, lock passed", wallet, slot - 1000, analysis.SolanaLPWallet, false},
		{"program", somePDA(t), 0, analysis.SolanaLPProgram, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			if err := srv.AddTokenAccount(dlmmReserveX, dlmmTokenX, dlmmPair, 2_000_000_000, solanatest.TokenProgram); err != nil {
				t.Fatal(err)
			}
			if err := srv.AddTokenAccount(dlmmReserveY, wsolMint, dlmmPair, 2_000_000, solanatest.TokenProgram); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{dlmmBinArrayM1, dlmmBinArray0} {
				data, owner := fixtureAt(t, "dlmm", k)
				srv.SetAccount(k, solanatest.Account{Lamports: 71_437_440, Owner: owner, Data: data})
			}
			allM1, _ := new(big.Int).SetString(dlmmSupplyBinM1, 10)
			half1, _ := new(big.Int).SetString(dlmmSupplyBin1, 10)
			half1.Rsh(half1, 1)
			pos := syntheticKey("dlmm-position")
			srv.SetAccount(pos, solanatest.Account{Lamports: 57_406_080, Owner: dlmmProgram, Data: dlmmPosition(tt.owner, -1, []*big.Int{allM1, new(big.Int), half1}, tt.release)})
			_, _, p := assessOnePool(t, srv, dlmmTokenX, "meteora_dlmm")
			if len(p.LPHolders) != 1 || p.LPHolders[0].Position != pos || p.LPHolders[0].Owner != tt.owner || p.LPHolders[0].Label != tt.label ||
				math.Abs(p.LPHolders[0].SharePct-math.Round(share*100)/100) > 1e-9 {
				t.Fatalf("holders %+v, want %v%%", p.LPHolders, share)
			}
			if tt.release != 0 && (p.LPHolders[0].LockedUntilSlot == nil || *p.LPHolders[0].LockedUntilSlot != tt.release) {
				t.Errorf("locked until slot %v, want %d", p.LPHolders[0].LockedUntilSlot, tt.release)
			}
			want := map[string]*float64{"locked": p.LPLockedPct, "unlocked": p.LPUnlockedPct, "unknown": p.LPUnknownPct}
			expect := map[string]float64{"locked": 0, "unlocked": 0, "unknown": 100 - share}
			switch {
			case tt.locked:
				expect["locked"] = share
			case tt.label == analysis.SolanaLPWallet:
				expect["unlocked"] = share
			default:
				expect["unknown"] = 100
			}
			for k, v := range expect {
				if want[k] == nil || math.Abs(*want[k]-v) > 1e-6 {
					t.Errorf("%s %v, want %v", k, want[k], v)
				}
			}
			if n := srv.Requests(); n != 4+countRequest {
				t.Errorf("HTTP requests = %d, want 4 (the bin arrays after round trip 3) and the holder count's", n)
			}
		})
	}
}
