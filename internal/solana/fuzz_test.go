package solana_test

import (
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

func FuzzDecodeExtensions(f *testing.F) {
	for _, pk := range []string{pumpMint, mayhemMint, megaMint} {
		data, _ := fixture(f, pk)
		tlv := data[166:]
		f.Add(tlv)
		for n := 0; n < len(tlv); n += 37 {
			f.Add(tlv[:n])
		}
	}
	f.Add([]byte{19, 0, 255, 255})
	f.Add([]byte{19, 0, 80, 0, 0})
	f.Fuzz(func(t *testing.T, tlv []byte) {
		exts, _, _ := solana.DecodeExtensions(tlv)
		for _, e := range exts {
			if e.Name == "" {
				t.Fatalf("extension %d without a name", e.Type)
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
// Whirlpool and bonding curves, a synthetic AMM v4 and PumpSwap layout)
// to every pool decoder: an error or a pool, never a panic.
func FuzzDecodePools(f *testing.F) {
	addSeeds(f, cpmmPool, whirlpool, "BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf", "4sp4hbyfAurnXPvBtkRcSNHnBxDXkfXJjqxeFPszjnMQ")
	amm := make([]byte, 752)
	amm[32], amm[40] = 6, 9
	f.Add(amm)
	pumpSwap := make([]byte, 300)
	copy(pumpSwap, []byte{241, 154, 109, 4, 17, 177, 109, 188})
	f.Add(pumpSwap)
	f.Add(pumpSwap[:211])
	decoders := map[string]func([]byte) (*solana.PoolState, error){
		"raydium_amm_v4": solana.DecodeRaydiumAMMv4,
		"raydium_cpmm":   solana.DecodeRaydiumCPMM,
		"orca_whirlpool": solana.DecodeWhirlpool,
		"pumpswap":       solana.DecodePumpSwapPool,
	}
	curve := solana.MustPublicKey("BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf")
	f.Fuzz(func(t *testing.T, data []byte) {
		for name, decode := range decoders {
			st, err := decode(data)
			if err == nil && st == nil {
				t.Fatalf("%s: nil pool without an error", name)
			}
		}
		if bc, err := solana.DecodeBondingCurve(data, curve); err == nil && bc.Address != curve.String() {
			t.Fatalf("bonding curve decoded at %s", bc.Address)
		}
	})
}
