package solana_test

import (
	"encoding/binary"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// The real DAMM v2 position (testdata/damm_v2): half of its pool's
// liquidity, permanently locked; its NFT mint.
const (
	dammV2Position   = "5bYLydDXt1K5zroychcbrVbhGRUpheXdq5w41uccazPB"
	dammV2PosNFT     = "A87b7M7UnQCicj6Ui7ktCL9CoN9xnnLbp3bezoDS26uX"
	dammV2PosPool    = "D9iJqMbgQJLFt5PAAiTJTMNsMAMueukzoe1EK2r1g3WH"
	dammV2PosLocked  = "15750252899414913517964408732526628"
	dammV2PoolLiqTot = "31500505798829827035928817465053256"
)

func TestDecodeDAMMv2Position(t *testing.T) {
	data, owner := fixtureAt(t, "damm_v2", dammV2Position)
	if owner != dammV2Program {
		t.Fatalf("owner %s", owner)
	}
	p, err := solana.DecodeDAMMv2Position(data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Pool.String() != dammV2PosPool || p.NFTMint.String() != dammV2PosNFT || p.Unlocked.Sign() != 0 || p.Locked.String() != dammV2PosLocked {
		t.Errorf("position = pool %s nft %s unlocked %s locked %s", p.Pool, p.NFTMint, p.Unlocked, p.Locked)
	}
	// Vested liquidity (168) is locked too; unlocked (152) is not.
	binary.LittleEndian.PutUint64(data[168:], 5)
	binary.LittleEndian.PutUint64(data[152:], 7)
	if q, err := solana.DecodeDAMMv2Position(data); err != nil || q.Unlocked.Int64() != 7 || new(big.Int).Sub(q.Locked, p.Locked).Int64() != 5 {
		t.Errorf("vested/unlocked: %v %v (%v)", q.Unlocked, q.Locked, err)
	}
	if _, err := solana.DecodeDAMMv2Position(data[:407]); err == nil {
		t.Error("decoded a position one byte short")
	}
	data[0] ^= 1
	if _, err := solana.DecodeDAMMv2Position(data); err == nil {
		t.Error("decoded with a wrong discriminator")
	}
}

// nftMint is a SYNTHETIC Token-2022 NFT mint (supply, 0 decimals).
func nftMint(supply uint64) solanatest.Account {
	data := make([]byte, 82)
	binary.LittleEndian.PutUint64(data[36:], supply)
	data[45] = 1
	return solanatest.Account{Lamports: 1_461_600, Owner: solanatest.Token2022Program, Data: data}
}

// TestAssessDAMMv2Positions: who holds a DAMM v2 pool's positions decides
// its lock state. The pool is the real AVA/USDC pool with its liquidity
// and permanent lock set to those of the real position's pool (half
// locked; SYNTHETIC edit, as are its token side and vaults); its positions
// are the real position (permanently locked half, pool field rewritten)
// and a SYNTHETIC copy holding the other half unlocked, whose NFT is held
// by a wallet (LP_NOT_LOCKED), a configured locker, nobody (NFT burned)
// or a program not known as a locker (lock state unknown). When the node
// lists positions holding more than the pool, only the pool's own record
// counts, with a warning.
func TestAssessDAMMv2Positions(t *testing.T) {
	wallet := "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU" // an on-curve key
	locker := "3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH"
	for _, tt := range []struct {
		name           string
		holder         string // "" burns the NFT
		unlockedFactor int64  // the second position's unlocked liquidity, in halves of the pool
		locked, unlock float64
		notLocked      bool
		checklist      bool
		warns          string
	}{
		{"wallet", wallet, 1, 50, 50, true, false, ""},
		{"locker", locker, 1, 100, 0, false, true, ""},
		{"burned NFT", "", 1, 50, 0, false, true, ""},
		// The node answers no account for the NFT mint: unknown, not
		// burned (nothing proves the burn).
		{"NFT mint missing", "missing", 1, 50, 0, false, false, ""},
		{"program", somePDA(t), 1, 50, 0, false, false, ""},
		{"positions exceed the pool", wallet, 3, 50, -1, false, false, "who holds its positions is unknown"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := dammV2PositionsServer(t, tt.holder, tt.unlockedFactor)
			got, _, p := assessOnePool(t, srv, mayhemMint, "meteora_damm_v2")
			// The NFT mint and holders of the unlocked position take one
			// request after the three round trips; the holder count
			// rides beside them.
			if n := srv.Requests(); n != 4+countRequest {
				t.Errorf("HTTP requests = %d, want 4", n)
			}
			if p.LPLockedPct == nil || math.Abs(*p.LPLockedPct-tt.locked) > 1e-9 {
				t.Errorf("locked %v, want %v", p.LPLockedPct, tt.locked)
			}
			if tt.unlock >= 0 && (p.LPUnlockedPct == nil || math.Abs(*p.LPUnlockedPct-tt.unlock) > 1e-9) {
				t.Errorf("unlocked %v, want %v", p.LPUnlockedPct, tt.unlock)
			}
			if hasFlag(got.Liquidity.Flags, risk.LPNotLocked) != tt.notLocked || got.Checklist.LiquidityLocked != tt.checklist {
				t.Errorf("flags %+v, liquidity_locked %v", got.Liquidity.Flags, got.Checklist.LiquidityLocked)
			}
			if tt.warns != "" {
				said := false
				for _, w := range got.Warnings {
					said = said || strings.Contains(w, tt.warns)
				}
				if !said {
					t.Errorf("no warning %q: %v", tt.warns, got.Warnings)
				}
				return
			}
			// The positions are listed, largest first, with their holders.
			if len(p.LPHolders) != 2 || p.LPHolders[0].Position == "" {
				t.Fatalf("holders %+v", p.LPHolders)
			}
			var real, other analysis.SolanaLPHolder
			for _, h := range p.LPHolders {
				if h.Position == dammV2Position {
					real = h
				} else {
					other = h
				}
			}
			if tt.holder == "missing" {
				if p.LPBurnedPct == nil || *p.LPBurnedPct != 0 || p.LPUnknownPct == nil || *p.LPUnknownPct != 50 || !slices.Contains(got.Unchecked, risk.CheckPools) {
					t.Errorf("burned %v unknown %v unchecked %v, want 0 burned, 50 unknown, pools unchecked", deref(p.LPBurnedPct), deref(p.LPUnknownPct), got.Unchecked)
				}
				return
			}
			if real.PositionLockedPct == nil || *real.PositionLockedPct != 50 || real.SharePct != 50 || other.SharePct != 50 || other.Owner != tt.holder {
				t.Errorf("holders %+v / %+v", real, other)
			}
			// The real position's permanent lock is a lock of half the
			// pool, with no unlock time; two positions provide.
			var own *analysis.SolanaLock
			for i := range p.Lockers {
				if p.Lockers[i].Position == dammV2Position {
					own = &p.Lockers[i]
				}
			}
			if own == nil || own.Kind != "position" || own.SharePct != 50 || own.UnlockTime != nil || own.Amount != nil || p.LPProviders == nil || *p.LPProviders != 2 {
				t.Errorf("lockers %+v, providers %v", p.Lockers, p.LPProviders)
			}
		})
	}
}

// dammV2PositionsServer serves the DAMM v2 setup of
// TestAssessDAMMv2Positions: the real pool and position (edited as said
// there) and a SYNTHETIC second position holding unlockedFactor halves of
// the pool unlocked, whose NFT holder is holder ("" burns the NFT,
// "missing" serves no NFT mint).
func dammV2PositionsServer(tb testing.TB, holder string, unlockedFactor int64) *solanatest.Server {
	tb.Helper()
	srv := newServer(tb)
	data, _ := fixture(tb, dammV2Pool)
	tokenVault, usdcVault := syntheticKey("damm-token-vault"), syntheticKey("damm-usdc-vault")
	putKey(data, 168, mayhemMint)
	putKey(data, 232, tokenVault)
	putKey(data, 264, usdcVault)
	total, _ := new(big.Int).SetString(dammV2PoolLiqTot, 10)
	half, _ := new(big.Int).SetString(dammV2PosLocked, 10)
	putU128(data[360:376], total)
	putU128(data[552:568], half)
	srv.SetAccount(dammV2Pool, solanatest.Account{Lamports: 8_630_400, Owner: dammV2Program, Data: data})
	auth := syntheticKey("damm-authority")
	if err := srv.AddTokenAccount(tokenVault, mayhemMint, auth, 50_000_000_000_000, solanatest.Token2022Program); err != nil {
		tb.Fatal(err)
	}
	if err := srv.AddTokenAccount(usdcVault, usdcMint, auth, 3_000_000_000+1855116578, solanatest.TokenProgram); err != nil {
		tb.Fatal(err)
	}
	pos, _ := fixtureAt(tb, "damm_v2", dammV2Position)
	putKey(pos, 8, dammV2Pool)
	srv.SetAccount(dammV2Position, solanatest.Account{Lamports: 3_730_560, Owner: dammV2Program, Data: pos})
	srv.SetAccount(dammV2PosNFT, nftMint(1))
	second := slices.Clone(pos)
	nft2 := syntheticKey("second-position-nft")
	putKey(second, 40, nft2)
	putU128(second[152:168], new(big.Int).Mul(half, big.NewInt(unlockedFactor)))
	putU128(second[184:200], new(big.Int))
	srv.SetAccount(syntheticKey("second-position"), solanatest.Account{Lamports: 3_730_560, Owner: dammV2Program, Data: second})
	switch holder {
	case "":
		srv.SetAccount(nft2, nftMint(0))
	case "missing":
	default:
		srv.SetAccount(nft2, nftMint(1))
		if err := srv.AddTokenAccount(syntheticKey("nft-holder-account"), nft2, holder, 1, solanatest.Token2022Program); err != nil {
			tb.Fatal(err)
		}
	}
	return srv
}

// somePDA is an address off the curve (a program-derived address).
func somePDA(t *testing.T) string {
	k, _, err := solana.FindProgramAddress([][]byte{[]byte("escrow")}, solana.MustPublicKey(dammV2Program))
	if err != nil || solana.IsOnCurve(k) {
		t.Fatal(err)
	}
	return k.String()
}

func putU128(b []byte, v *big.Int) {
	be := v.FillBytes(make([]byte, 16))
	for i := range 16 {
		b[i] = be[15-i]
	}
}
