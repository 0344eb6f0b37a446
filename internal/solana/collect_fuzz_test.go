package solana

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
)

func fixtureData(tb testing.TB, pubkey string) []byte {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "accounts", pubkey+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var f struct {
		Account struct {
			Data [2]string `json:"data"`
		} `json:"account"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		tb.Fatal(err)
	}
	b, err := base64.StdEncoding.DecodeString(f.Account.Data[0])
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// FuzzAbsorbMint feeds arbitrary bytes as a Token-2022 mint, its Metaplex
// metadata and its pump.fun curve through the contract verdict and every
// analysis: the result is facts or not_a_token, never a panic.
func FuzzAbsorbMint(f *testing.F) {
	const mintAddr = "73edX6xoGY4v5y2hzuKdrUbJXLntqgmo74au1Ki1pump"
	f.Add(fixtureData(f, mintAddr), fixtureData(f, "BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf"), fixtureData(f, "5iU74sxq9PbpiYdw7srLkh69CrywuSnSu2Pxnn2ezwM2"), byte(0))
	f.Add(fixtureData(f, mintAddr), fixtureData(f, "BYUfWyh2nqHeM2sQdrwWa8AiePvLAKjYJLiD9g2DwDGf"), fixtureData(f, "5iU74sxq9PbpiYdw7srLkh69CrywuSnSu2Pxnn2ezwM2"), byte(3))
	f.Add(fixtureData(f, "5gSwsLGzyCwgwPJSnxjsQCaFeE19ZFaibHMLky9TDFim"), []byte{}, []byte{4}, byte(0))
	reg, err := chains.Load("")
	if err != nil {
		f.Fatal(err)
	}
	sol, _ := reg.Get("solana")
	cfg, err := newChainConfig(sol)
	if err != nil {
		f.Fatal(err)
	}
	mint := MustPublicKey(mintAddr)
	metaPDA, _ := MetadataPDA(*cfg.metadataProgram, mint)
	curvePDA, _ := BondingCurvePDA(*cfg.pumpProgram, mint)
	f.Fuzz(func(t *testing.T, mintData, curveData, metaData []byte, foreign byte) {
		c := &collector{cfg: cfg, mint: mint, facts: &analysis.SolanaFacts{}}
		accs := []*Account{
			{Owner: cfg.token2022, Data: mintData},
			{Owner: *cfg.metadataProgram, Data: metaData},
			{Owner: *cfg.pumpProgram, Data: curveData},
		}
		// Bytes the node returned under another owner are refused.
		if foreign&1 != 0 {
			accs[1].Owner = cfg.token2022
		}
		if foreign&2 != 0 {
			accs[2].Owner = cfg.token2022
		}
		if err := c.absorbMint(accs, &metaPDA, &curvePDA); err != nil {
			if fault.CodeOf(err) != fault.NotAToken {
				t.Fatalf("err = %v, want not_a_token", err)
			}
			return
		}
		if foreign&2 != 0 && (c.facts.Liquidity.BondingCurve != nil || c.facts.Liquidity.BondingCurveKnown) {
			t.Fatalf("a curve decoded from another program's account: %+v", c.facts.Liquidity.BondingCurve)
		}
		if foreign&1 != 0 && c.facts.Metadata != nil && c.facts.Metadata.Source == analysis.SolanaMetaplex {
			t.Fatalf("Metaplex metadata decoded from another program's account: %+v", c.facts.Metadata)
		}
		a := analysis.AssessSolana(c.facts, "solana", time.Unix(1_800_000_000, 0))
		if a.Contract.Status == "" || a.Token.TotalSupply == nil {
			t.Fatalf("incomplete assessment: %+v", a)
		}
	})
}
