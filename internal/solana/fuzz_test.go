package solana_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/solana"
)

// addSeeds adds every fixture, and truncations of each, to f's corpus.
func addSeeds(f *testing.F, pubkeys ...string) {
	f.Helper()
	for _, pk := range pubkeys {
		data, _ := fixture(f, pk)
		f.Add(data)
		for _, n := range []int{0, 1, 36, 82, 165, 166, 170, len(data) - 1} {
			if n >= 0 && n <= len(data) {
				f.Add(data[:n])
			}
		}
	}
}

var allFixtures = []string{
	pumpMint, mayhemMint, megaMint, scnSOL, usdcMint, wsolMint, cpmmPool, whirlpool,
	"5iU74sxq9PbpiYdw7srLkh69CrywuSnSu2Pxnn2ezwM2", "BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf",
	"47KLLXNKUMuJBgis11NWmZ9iNPW2wHX2ZKQKUDCL3LA6", "5Ap19VZWbmP9NnvFabeyGzWjTqXFcFLPcuFDsNyAB9Sg",
}

func FuzzDecodeMint(f *testing.F) {
	addSeeds(f, allFixtures...)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := solana.DecodeMint(data)
		if err != nil {
			return
		}
		exts, md, err := solana.DecodeExtensions(m.TLV)
		if err == nil && len(m.TLV) == 0 && (len(exts) != 0 || md != nil) {
			t.Fatalf("extensions from an empty TLV area: %v", exts)
		}
	})
}

// FuzzDecodeExtensions checks the TLV decoder against an independent walk
// of the entry headers and against a re-encoding of every decoded entry
// from the layouts (tlv_encode_test.go): a decoded area lists exactly the
// entries the headers name, in order; each decoded value encodes back to
// its bytes (booleans read as non-zero); an entry that runs past the data
// or has the wrong size for its type is an error, never a panic.
func FuzzDecodeExtensions(f *testing.F) {
	for _, pk := range []string{pumpMint, mayhemMint, megaMint, memberMint} {
		data, _ := fixture(f, pk)
		tlv := data[166:]
		f.Add(tlv)
		for n := 0; n < len(tlv); n += 37 {
			f.Add(tlv[:n])
		}
	}
	for _, e := range syntheticEntries() {
		f.Add(e)
		f.Add(e[:len(e)-1])
	}
	f.Add([]byte{19, 0, 255, 255})
	f.Add([]byte{19, 0, 80, 0, 0})
	f.Add([]byte{26, 0, 33, 0})
	f.Fuzz(func(t *testing.T, tlv []byte) {
		exts, _, err := solana.DecodeExtensions(tlv)
		entries, walkErr := walkTLV(tlv)
		if walkErr != nil && err == nil {
			t.Fatalf("decoded %d bytes the header walk refuses (%v): %+v", len(tlv), walkErr, exts)
		}
		if err != nil {
			// What was decoded before the error is a prefix of the entries.
			if len(exts) > len(entries) {
				t.Fatalf("%d extensions before the error, the headers name %d", len(exts), len(entries))
			}
			if walkErr == nil {
				// The headers are sound: the refused entry must be a
				// known layout its bytes do not fit.
				if len(exts) == len(entries) {
					t.Fatalf("error %v after every entry decoded", err)
				}
				bad := entries[len(exts)]
				size, fixed := fixedExtensionSize(bad.typ, len(bad.value))
				if (fixed && size == len(bad.value)) || (!fixed && bad.typ != 19) {
					t.Fatalf("entry %d of %d bytes refused: %v", bad.typ, len(bad.value), err)
				}
			}
			entries = entries[:len(exts)]
		} else if len(exts) != len(entries) {
			t.Fatalf("decoded %d extensions, the headers name %d", len(exts), len(entries))
		}
		for i, e := range exts {
			if e.Type != entries[i].typ || e.Name != solana.ExtensionName(e.Type) {
				t.Fatalf("extension %d is %d %q, the header says %d", i, e.Type, e.Name, entries[i].typ)
			}
			if size, ok := fixedExtensionSize(e.Type, len(entries[i].value)); ok && size != len(entries[i].value) {
				t.Fatalf("type %d decoded from %d bytes, its layout has %d", e.Type, len(entries[i].value), size)
			}
			enc, ok := encodeExtension(t, e, len(entries[i].value))
			if !ok {
				continue
			}
			want := canonicalValue(e.Type, entries[i].value)
			switch {
			case e.Type == 19 && len(want) > len(enc):
				want = want[:len(enc)] // trailing bytes after the metadata are not read
			case e.Type == 16:
				want = want[:65] // the encrypted withheld amount (64 bytes) is not reported
			}
			if !bytes.Equal(enc, want) {
				t.Fatalf("type %d: decoded %+v re-encodes to\n%x\nthe bytes are\n%x", e.Type, e.Params, enc, want)
			}
		}
	})
}

func FuzzDecodeTokenAccount(f *testing.F) {
	addSeeds(f, allFixtures...)
	f.Fuzz(func(t *testing.T, data []byte) {
		if a, err := solana.DecodeTokenAccount(data); err == nil && len(data) < 165 {
			t.Fatalf("decoded %d bytes as a token account: %+v", len(data), a)
		}
	})
}

func FuzzDecodeMetaplexMetadata(f *testing.F) {
	addSeeds(f, "5iU74sxq9PbpiYdw7srLkh69CrywuSnSu2Pxnn2ezwM2")
	mint := solana.MustPublicKey(scnSOL)
	f.Fuzz(func(t *testing.T, data []byte) {
		md, err := solana.DecodeMetaplexMetadata(data, mint)
		if err == nil && md.IsMutable == nil {
			t.Fatal("decoded metadata without is_mutable")
		}
	})
}

// FuzzDecodePools feeds arbitrary bytes (seeded with the real CPMM pool,
// Whirlpool, CLMM pool, DLMM pair, DAMM v2 pool, DBC pool and bonding curves, a synthetic AMM v4 and PumpSwap layout)
// to every pool decoder: an error or a pool, never a panic.
func FuzzDecodePools(f *testing.F) {
	addSeeds(f, cpmmPool, whirlpool, clmmPool, dlmmPair, dammV2Pool, "BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf", "4sp4hbyfAurnXPvBtkRcSNHnBxDXkfXJjqxeFPszjnMQ")
	f.Add(dbcPool(f))
	amm := make([]byte, 752)
	amm[32], amm[40] = 6, 9
	f.Add(amm)
	pumpSwap := make([]byte, 300)
	copy(pumpSwap, []byte{241, 154, 109, 4, 17, 177, 109, 188})
	f.Add(pumpSwap)
	f.Add(pumpSwap[:211])
	decoders := map[string]func([]byte) (*solana.PoolState, error){
		"raydium_amm_v4":  solana.DecodeRaydiumAMMv4,
		"raydium_cpmm":    solana.DecodeRaydiumCPMM,
		"orca_whirlpool":  solana.DecodeWhirlpool,
		"pumpswap":        solana.DecodePumpSwapPool,
		"raydium_clmm":    solana.DecodeRaydiumCLMM,
		"meteora_dlmm":    solana.DecodeMeteoraDLMM,
		"meteora_damm_v2": solana.DecodeMeteoraDAMMv2,
		"meteora_dbc":     solana.DecodeMeteoraDBCPool,
	}
	curve := solana.MustPublicKey("BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf")
	f.Fuzz(func(t *testing.T, data []byte) {
		for name, decode := range decoders {
			st, err := decode(data)
			if err == nil && st == nil {
				t.Fatalf("%s: nil pool without an error", name)
			}
			if err == nil && st.RawPrice != nil && (*st.RawPrice <= 0 || math.IsInf(*st.RawPrice, 0) || math.IsNaN(*st.RawPrice)) {
				t.Fatalf("%s: price %v", name, *st.RawPrice)
			}
			if err == nil && st.PermanentLockPct != nil && (*st.PermanentLockPct < 0 || *st.PermanentLockPct > 100) {
				t.Fatalf("%s: permanently locked %v%%", name, *st.PermanentLockPct)
			}
		}
		if bc, err := solana.DecodeBondingCurve(data, curve); err == nil && bc.Address != curve.String() {
			t.Fatalf("bonding curve decoded at %s", bc.Address)
		}
	})
}

// FuzzDecodeUpgradeableLoader: the loader's Program and ProgramData
// decoders never panic; a ProgramData header they accept names an upgrade
// authority exactly when its option tag is 1, and it is the 32 bytes
// after the tag.
func FuzzDecodeUpgradeableLoader(f *testing.F) {
	f.Add(append([]byte{2, 0, 0, 0}, bytes.Repeat([]byte{7}, 32)...))
	f.Add(append([]byte{3, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1}, bytes.Repeat([]byte{9}, 32)...))
	f.Add([]byte{3, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0})
	f.Add([]byte{3, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if pd, err := solana.DecodeUpgradeableProgram(data); err == nil && !bytes.Equal(pd[:], data[4:36]) {
			t.Fatalf("program data %s from %x", pd, data)
		}
		_, auth, err := solana.DecodeProgramDataHeader(data)
		if err != nil {
			return
		}
		if (auth != nil) != (data[12] == 1) || auth != nil && !bytes.Equal(auth[:], data[13:45]) {
			t.Fatalf("authority %v from %x", auth, data)
		}
	})
}
