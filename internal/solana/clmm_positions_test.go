package solana_test

import (
	"math"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// The real Raydium CLMM position of the developer set's CLMM pool
// (testdata/clmm).
const (
	clmmPosition    = "4GkPbQ8V5ti1Y5jTzwACbSbVZQAhY7VJc5oi43Z7U4U3"
	clmmPositionNFT = "GTm3sPWckSbP4QPjCMRjrfU7FqwurRx6RynfHYwCa2VW"
)

func TestDecodeRaydiumCLMMPosition(t *testing.T) {
	data, owner := fixtureAt(t, "clmm", clmmPosition)
	p, err := solana.DecodeRaydiumCLMMPosition(data)
	if err != nil {
		t.Fatal(err)
	}
	if owner != clmmProgram || p.Pool.String() != clmmPool || p.NFTMint.String() != clmmPositionNFT || p.TickLower != -28304 || p.TickUpper != -20559 ||
		p.Unlocked.String() != "64563576460" || p.Locked.Sign() != 0 || !p.AnyTokenProgram {
		t.Errorf("position = %+v", p)
	}
	// The account is the position PDA of its NFT.
	nft := solana.MustPublicKey(clmmPositionNFT)
	if k, _, err := solana.FindProgramAddress([][]byte{[]byte("position"), nft[:]}, solana.MustPublicKey(clmmProgram)); err != nil || k.String() != clmmPosition {
		t.Errorf("PDA %s (%v)", k, err)
	}
	bad := append([]byte(nil), data...)
	copy(bad[77:81], bad[73:77]) // upper = lower
	if _, err := solana.DecodeRaydiumCLMMPosition(bad); err == nil {
		t.Error("decoded an empty tick range")
	}
	if _, err := solana.DecodeRaydiumCLMMPosition(data[:280]); err == nil {
		t.Error("decoded a position one byte short")
	}
}

// TestAssessRaydiumCLMMPositions: a CLMM pool's positions are valued at
// the pool's price (their token amounts in the range they span) against
// the pool's vaults less the fees it owes, and the holder of each
// position's NFT, an SPL Token or a Token-2022 NFT, decides its lock
// state. The pool is the developer set's real CLMM pool with its USDC side
// rewritten to the mayhem mint (SYNTHETIC edit, vault SYNTHETIC); the
// position is real; its NFT mint and holder account are SYNTHETIC.
func TestAssessRaydiumCLMMPositions(t *testing.T) {
	const owedWSOL, owedUSDC = 123348918 + 56698791, 7625042 + 3643807
	const wsolAmount = 42496858798891
	const tokenAmount = 10_000_000_000_000
	// The position's share, computed here from the Uniswap v3 amounts.
	sp := 5881519752448695797 / math.Pow(2, 64)
	sa, sb := math.Pow(1.0001, -28304/2.0), math.Pow(1.0001, -20559/2.0)
	l := 64563576460.0
	a0, a1 := l*(sb-sp)/(sp*sb), l*(sp-sa)
	if sp <= sa || sp >= sb {
		t.Fatal("the fixture price is out of the position's range")
	}
	share := 100 * (a0*sp*sp + a1) / (float64(wsolAmount-owedWSOL)*sp*sp + tokenAmount)
	for _, tt := range []struct {
		name, holder, program, label string
		burned                       bool
	}{
		{"wallet, SPL Token NFT", "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU", solanatest.TokenProgram, analysis.SolanaLPWallet, false},
		{"locker, Token-2022 NFT", "3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH", solanatest.Token2022Program, analysis.SolanaLPLocker, false},
		{"burned NFT", "", solanatest.Token2022Program, analysis.SolanaLPBurn, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			srv.DeleteAccount(dlmmPair)
			data, _ := fixture(t, clmmPool)
			tokenVault := syntheticKey("clmm-token-vault")
			putKey(data, 105, mayhemMint)
			putKey(data, 169, tokenVault)
			data[234] = 6
			srv.SetAccount(clmmPool, solanatest.Account{Lamports: 1358091805, Owner: clmmProgram, Data: data})
			if err := srv.AddTokenAccount(tokenVault, mayhemMint, clmmPool, tokenAmount+owedUSDC, solanatest.Token2022Program); err != nil {
				t.Fatal(err)
			}
			pos, _ := fixtureAt(t, "clmm", clmmPosition)
			srv.SetAccount(clmmPosition, solanatest.Account{Lamports: 2_846_640, Owner: clmmProgram, Data: pos})
			mint := nftMint(1)
			if tt.burned {
				mint = nftMint(0)
			}
			mint.Owner = tt.program
			srv.SetAccount(clmmPositionNFT, mint)
			if !tt.burned {
				if err := srv.AddTokenAccount(syntheticKey("clmm-nft-account"), clmmPositionNFT, tt.holder, 1, tt.program); err != nil {
					t.Fatal(err)
				}
			}
			_, _, p := assessOnePool(t, srv, mayhemMint, "raydium_clmm")
			if n := srv.Requests(); n != 4 {
				t.Errorf("HTTP requests = %d, want 4 (the NFT's mint and holders after round trip 3)", n)
			}
			if len(p.LPHolders) != 1 || p.LPHolders[0].Position != clmmPosition || p.LPHolders[0].Label != tt.label || p.LPHolders[0].Owner != tt.holder {
				t.Fatalf("holders %+v", p.LPHolders)
			}
			if math.Abs(p.LPHolders[0].SharePct-math.Round(share*100)/100) > 1e-9 {
				t.Errorf("share %v%%, want %v%%", p.LPHolders[0].SharePct, share)
			}
			var got *float64
			switch tt.label {
			case analysis.SolanaLPWallet:
				got = p.LPUnlockedPct
			case analysis.SolanaLPLocker:
				got = p.LPLockedPct
			default:
				got = p.LPBurnedPct
			}
			if got == nil || math.Abs(*got-share) > 1e-6 || p.LPUnknownPct == nil || math.Abs(*p.LPUnknownPct+share-100) > 1e-6 {
				t.Errorf("%s share %v, unknown %v; want %v and the rest", tt.label, got, p.LPUnknownPct, share)
			}
		})
	}
}
