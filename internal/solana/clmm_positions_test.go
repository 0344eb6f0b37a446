package solana_test

import (
	"encoding/binary"
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
		// Raydium Burn & Earn keeps locked CLMM position NFTs under its
		// program authority (PDA ["program_authority_seed"] of the LP lock
		// program, checked in TestRaydiumLockAuthorities).
		{"Burn & Earn, Token-2022 NFT", "kN1kEznaF5Xbd8LYuqtEFcxzWSBk5Fv6ygX6SqEGJVy", solanatest.Token2022Program, analysis.SolanaLPLocker, false},
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
			if n := srv.Requests(); n != 4+countRequest {
				t.Errorf("HTTP requests = %d, want 4 (the NFT's mint and holders after round trip 3) and the holder count's", n)
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

// The real Orca Whirlpool position (testdata/whirlpool).
const (
	whirlpoolPosition    = "8DWSUfcDBokqkt4327zg2QtX3zixp8DGbVzrVqGPeoqG"
	whirlpoolPositionNFT = "5fU2niy2YiGUktHB5mYNJAh9iLZ6uu28D4mf9sfCKeNa"
)

func TestDecodeWhirlpoolPosition(t *testing.T) {
	data, owner := fixtureAt(t, "whirlpool", whirlpoolPosition)
	p, err := solana.DecodeWhirlpoolPosition(data)
	if err != nil {
		t.Fatal(err)
	}
	if owner != "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc" || p.Pool.String() != "Czfq3xZZDmsdGdUyrNLtRhGc47cXcZtLG4crryfu44zE" || p.NFTMint.String() != whirlpoolPositionNFT ||
		p.TickLower != -29960 || p.TickUpper != -21728 || p.Unlocked.String() != "25102504243" || p.Locked.Sign() != 0 {
		t.Errorf("position = %+v", p)
	}
	nft := solana.MustPublicKey(whirlpoolPositionNFT)
	if k, _, err := solana.FindProgramAddress([][]byte{[]byte("position"), nft[:]}, solana.MustPublicKey(owner)); err != nil || k.String() != whirlpoolPosition {
		t.Errorf("PDA %s (%v)", k, err)
	}
	// A DAMM v2 position has the same discriminator and another size.
	v2, _ := fixtureAt(t, "damm_v2", dammV2Position)
	if _, err := solana.DecodeWhirlpoolPosition(v2); err == nil {
		t.Error("decoded a DAMM v2 position as a Whirlpool position")
	}
}

// TestAssessWhirlpoolPositions: a Whirlpool position whose range lies
// above the pool's price holds only token A; it is valued so, and its NFT
// holder decides its share's lock state. The pool is the developer set's
// 2022 SOL/USDC Whirlpool with its USDC side rewritten to the mayhem mint
// (SYNTHETIC edit, vault SYNTHETIC); the position is real with its
// whirlpool field rewritten to that pool (SYNTHETIC edit); NFT mint and
// holder SYNTHETIC.
func TestAssessWhirlpoolPositions(t *testing.T) {
	const pool, vaultA = "HJPjoWUrhoZzkNfRpHuieeFk9WcZWjwy6PBjZ81ngndJ", "3YQm7ujtXWJU2e9jhp2QGHpnn1ShXn12QjvzMvDgabpX"
	srv := newServer(t)
	data, owner := fixture(t, pool)
	tokenVault := syntheticKey("whirlpool-token-vault")
	putKey(data, 181, mayhemMint)
	putKey(data, 213, tokenVault)
	srv.SetAccount(pool, solanatest.Account{Lamports: 5435760, Owner: owner, Data: data})
	const tokenAmount = 1_000_000_000_000
	if err := srv.AddTokenAccount(tokenVault, mayhemMint, pool, tokenAmount, solanatest.Token2022Program); err != nil {
		t.Fatal(err)
	}
	pos, posOwner := fixtureAt(t, "whirlpool", whirlpoolPosition)
	putKey(pos, 8, pool)
	srv.SetAccount(whirlpoolPosition, solanatest.Account{Lamports: 2_394_240, Owner: posOwner, Data: pos})
	srv.SetAccount(whirlpoolPositionNFT, func() solanatest.Account { a := nftMint(1); a.Owner = solanatest.TokenProgram; return a }())
	wallet := "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
	if err := srv.AddTokenAccount(syntheticKey("whirlpool-nft-account"), whirlpoolPositionNFT, wallet, 1, solanatest.TokenProgram); err != nil {
		t.Fatal(err)
	}
	_, _, p := assessOnePool(t, srv, mayhemMint, "orca_whirlpool")
	// Price below the range: the position holds L*(sb-sa)/(sa*sb) raw A.
	va, _ := fixture(t, vaultA)
	amountA := float64(binary.LittleEndian.Uint64(va[64:]))
	owedA := float64(binary.LittleEndian.Uint64(data[85:]))
	owedB := float64(binary.LittleEndian.Uint64(data[93:]))
	sp := 3706015876595606636 / math.Pow(2, 64)
	sa, sb := math.Pow(1.0001, -29960/2.0), math.Pow(1.0001, -21728/2.0)
	if sp >= sa {
		t.Fatal("the fixture price is not below the position's range")
	}
	held := 25102504243 * (sb - sa) / (sa * sb) * sp * sp
	share := 100 * held / ((amountA-owedA)*sp*sp + (tokenAmount - owedB))
	if len(p.LPHolders) != 1 || p.LPHolders[0].Owner != wallet || p.LPHolders[0].Label != analysis.SolanaLPWallet || math.Abs(p.LPHolders[0].SharePct-math.Round(share*100)/100) > 1e-9 {
		t.Fatalf("holders %+v, want the wallet with %v%%", p.LPHolders, share)
	}
	if p.LPUnlockedPct == nil || math.Abs(*p.LPUnlockedPct-share) > 1e-6 {
		t.Errorf("unlocked %v, want %v", p.LPUnlockedPct, share)
	}
}

// TestRaydiumLockAuthorities: the configured Raydium Burn & Earn lockers
// are the LP lock program's authorities, for CPMM LP and for CLMM
// position NFTs.
func TestRaydiumLockAuthorities(t *testing.T) {
	prog := solana.MustPublicKey("LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE")
	for seed, want := range map[string]string{
		"lock_cp_authority_seed": "3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH",
		"program_authority_seed": "kN1kEznaF5Xbd8LYuqtEFcxzWSBk5Fv6ygX6SqEGJVy",
	} {
		if k, _, err := solana.FindProgramAddress([][]byte{[]byte(seed)}, prog); err != nil || k.String() != want {
			t.Errorf("%s: %s (%v), want %s", seed, k, err, want)
		}
	}
}
