package solana

import (
	"crypto/sha256"
	"fmt"
	"math"
	"math/big"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Pool account sizes and mint field offsets used for getProgramAccounts
// filters (dataSize + memcmp on each mint position).
const (
	raydiumAMMv4Size   = 752
	raydiumCPMMSize    = 637
	whirlpoolSize      = 653
	raydiumCLMMSize    = 1544
	meteoraDLMMSize    = 904
	meteoraDAMMv2Size  = 1112
	meteoraDBCPoolSize = 424

	bondingCurveMinSize     = 49 // discriminator + 5 u64 + complete
	bondingCurveCreatorSize = 81 // + creator
)

// poolKind describes one DEX layout: how its pool accounts are told apart
// (a fixed size, or an Anchor discriminator when the size has changed
// over upgrades) and where its two mints sit.
type poolKind struct {
	// name is the chains.json kind ("raydium_cpmm", …).
	name string
	size int
	disc []byte
	// mintOffsets are where the token's mint can sit (one getProgramAccounts
	// query each).
	mintOffsets []int
	decode      func(data []byte) (*PoolState, error)
	// positions is set where liquidity is held in position accounts whose
	// holders a scan resolves.
	positions *positionKind
}

// poolKinds maps a chains.json DEX kind to its layout.
var poolKinds = map[string]poolKind{
	"raydium_amm_v4": {name: "raydium_amm_v4", size: raydiumAMMv4Size, mintOffsets: []int{400, 432}, decode: DecodeRaydiumAMMv4},
	"raydium_cpmm":   {name: "raydium_cpmm", size: raydiumCPMMSize, mintOffsets: []int{168, 200}, decode: DecodeRaydiumCPMM},
	"orca_whirlpool": {name: "orca_whirlpool", size: whirlpoolSize, mintOffsets: []int{101, 181}, decode: DecodeWhirlpool,
		positions: &positionKind{size: whirlpoolPositionSize, disc: discPosition, poolOffset: 8, slice: 96, decode: DecodeWhirlpoolPosition}},
	// PumpSwap pools grew from 211 to 243 and 300 bytes: matched by
	// discriminator, not size.
	"pumpswap": {name: "pumpswap", disc: discPumpSwapPool[:], mintOffsets: []int{43, 75}, decode: DecodePumpSwapPool},
	"raydium_clmm": {name: "raydium_clmm", size: raydiumCLMMSize, mintOffsets: []int{73, 105}, decode: DecodeRaydiumCLMM,
		positions: &positionKind{size: raydiumCLMMPositionSize, disc: discPersonalPosition, poolOffset: 41, slice: 97, decode: DecodeRaydiumCLMMPosition}},
	"meteora_dlmm": {name: "meteora_dlmm", size: meteoraDLMMSize, mintOffsets: []int{88, 120}, decode: DecodeMeteoraDLMM,
		positions: &positionKind{size: dlmmPositionSize, disc: discPositionV2, poolOffset: 8, slice: 1192, tail: &[2]int{7912, 88}, decode: DecodeDLMMPosition}},
	"meteora_damm_v2": {name: "meteora_damm_v2", size: meteoraDAMMv2Size, mintOffsets: []int{168, 200}, decode: DecodeMeteoraDAMMv2,
		positions: &positionKind{size: dammV2PositionSize, disc: discPosition, poolOffset: 8, slice: 200, decode: DecodeDAMMv2Position}},
	// A dynamic bonding curve launches its base token: one position.
	"meteora_dbc": {name: "meteora_dbc", size: meteoraDBCPoolSize, mintOffsets: []int{136}, decode: DecodeMeteoraDBCPool},
	// DAMM v1 pools grew past their first layout: matched by
	// discriminator ("Pool").
	"meteora_damm_v1": {name: "meteora_damm_v1", disc: discPumpSwapPool[:], mintOffsets: []int{40, 72}, decode: DecodeMeteoraDAMMv1},
	// A LaunchLab curve launches its base token; matched by discriminator
	// ("PoolState") in case the padding is ever spent.
	"raydium_launchlab": {name: "raydium_launchlab", disc: discCPMMPool[:], mintOffsets: []int{205}, decode: DecodeLaunchLabPool},
}

// anchorDiscriminator is the first 8 bytes of sha256("account:<Name>").
func anchorDiscriminator(name string) [8]byte {
	h := sha256.Sum256([]byte("account:" + name))
	var d [8]byte
	copy(d[:], h[:8])
	return d
}

// Anchor account discriminators, computed once (read-only).
var (
	discCPMMPool     = anchorDiscriminator("PoolState")
	discWhirlpool    = anchorDiscriminator("Whirlpool")
	discBondingCurve = anchorDiscriminator("BondingCurve")
	discPumpSwapPool = anchorDiscriminator("Pool")
	discLbPair       = anchorDiscriminator("LbPair")
	discVirtualPool  = anchorDiscriminator("VirtualPool")
)

// PoolState is the part of a pool account a scan needs, whatever its DEX.
type PoolState struct {
	MintA, MintB   PublicKey
	VaultA, VaultB PublicKey
	// LPMint is nil for pools without a fungible LP token (Whirlpool).
	LPMint *PublicKey
	// LPIssued is the LP amount the pool believes outstanding (CPMM
	// lp_supply, AMM v4 lp_amount, PumpSwap lp_supply); comparing it with
	// the LP mint's supply shows how much was burned.
	LPIssued uint64
	// LPNeverMinted is the part of LPIssued the program keeps locked at
	// creation and never mints (CPMM: 100 units); LPNeverMintedPow10 is
	// set instead when that part is 10^(LP mint decimals) (AMM v4).
	LPNeverMinted      uint64
	LPNeverMintedPow10 bool
	// Creator is the pool's creator where the layout records it (CPMM
	// pool_creator, PumpSwap creator).
	Creator *PublicKey
	// DecimalsA and DecimalsB are stored in the pool where the layout has
	// them.
	DecimalsA, DecimalsB *uint8
	// OwedA and OwedB are vault amounts that are not liquidity (protocol
	// and fund fees, pending PnL), subtracted from the vault balance.
	OwedA, OwedB uint64
	// SqrtPriceX64 is a concentrated pool's sqrt price (Q64.64: Whirlpool,
	// Raydium CLMM), nil otherwise.
	SqrtPriceX64 *big.Int
	// RawPrice is the spot price of one raw unit of A in raw units of B
	// where the pool states it another way (a DLMM's active bin), nil
	// otherwise.
	RawPrice *float64
	// Liquidity is a concentrated pool's in-range liquidity.
	Liquidity *big.Int
	// PermanentLockPct is the share of the pool's liquidity its program
	// records as locked for good (DAMM v2 permanent_lock_liquidity), nil
	// where the pool does not record it.
	PermanentLockPct *float64
	// PermanentLock is that liquidity itself (DAMM v2).
	PermanentLock *big.Int
	// Curve is true for a launchpad curve: its reserves move only by
	// trades until migration, so nobody can withdraw them.
	Curve    bool
	OpenTime *int64
	// LPIssuedIsSupply is set where the pool keeps no record of LP issued
	// apart from its mint (DAMM v1): the LP mint's supply is what is
	// outstanding.
	LPIssuedIsSupply bool
	// LPLocked is LP the pool records as held by its own lock escrows
	// (DAMM v1 total_locked_lp): locked for good.
	LPLocked uint64
	// DynamicVaults is set when VaultA and VaultB are Meteora dynamic
	// vaults rather than token accounts (DAMM v1).
	DynamicVaults *DynamicVaults
	// Stable is a stable-swap pool's pegged price (DAMM v1 stable curve).
	Stable *StablePeg
	// Launch is a LaunchLab curve, priced once its config is read.
	Launch *LaunchCurve
	// PointIsTime is set when the pool's activation and lock points are
	// unix times rather than slots (DLMM activation_type 1).
	PointIsTime bool
	// ActiveBin and BinStep are a DLMM pair's (its bins' prices).
	ActiveBin int32
	BinStep   uint16
}

func checkDisc(data []byte, want [8]byte, what string) error {
	if len(data) < 8 || [8]byte(data[:8]) != want {
		return fmt.Errorf("solana: %s: wrong account discriminator", what)
	}
	return nil
}

func u128(b []byte) *big.Int {
	be := make([]byte, 16)
	for i := range 16 {
		be[i] = b[15-i]
	}
	return new(big.Int).SetBytes(be)
}

func satAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// sqrtPriceToPrice converts a Whirlpool Q64.64 sqrt price to the price of
// token A in token B, decimals applied.
func sqrtPriceToPrice(sqrtX64 *big.Int, decA, decB uint8) float64 {
	return sqrtPriceRaw(sqrtX64) * math.Pow10(int(decA)-int(decB))
}

// sqrtPriceRaw is the price of a raw unit of A in raw units of B.
func sqrtPriceRaw(sqrtX64 *big.Int) float64 {
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(sqrtX64), new(big.Float).SetMantExp(big.NewFloat(1), 64)).Float64()
	return f * f
}

// poolFacts turns a decoded pool into analysis facts from the token's side.
func poolFacts(dex string, address PublicKey, st *PoolState, mint PublicKey, tokenDecimals uint8, quoteDecimals *uint8, quoteSymbol string) analysis.SolanaPool {
	tokenIsA := st.MintA == mint
	p := analysis.SolanaPool{DEX: dex, Address: address.String(), QuoteSymbol: quoteSymbol}
	quote, tv, qv := st.MintB, st.VaultA, st.VaultB
	qdec := st.DecimalsB
	if !tokenIsA {
		quote, tv, qv = st.MintA, st.VaultB, st.VaultA
		qdec = st.DecimalsA
	}
	if qdec == nil {
		qdec = quoteDecimals
	}
	p.QuoteMint, p.TokenVault, p.QuoteVault = quote.String(), tv.String(), qv.String()
	p.QuoteDecimals = qdec
	if st.LPMint != nil {
		p.LPMint = st.LPMint.String()
	}
	p.OpenTime = st.OpenTime
	if st.Curve {
		// A live curve's reserves cannot be withdrawn, only traded.
		locked, rest := 100.0, 0.0
		p.LPLockedPct, p.LPUnknownPct = &locked, &rest
	}
	if st.PermanentLockPct != nil {
		// Locked for good by the pool's own record; who holds the other
		// positions is not resolved.
		locked, rest := *st.PermanentLockPct, 100-*st.PermanentLockPct
		p.LPLockedPct, p.LPUnknownPct = &locked, &rest
	}
	var rawAB *float64
	switch {
	case st.SqrtPriceX64 != nil:
		f := sqrtPriceRaw(st.SqrtPriceX64)
		rawAB = &f
	case st.RawPrice != nil:
		rawAB = st.RawPrice
	case st.Stable != nil:
		f := st.Stable.RawPrice()
		rawAB = &f
	}
	if rawAB != nil && qdec != nil {
		var price float64
		if tokenIsA {
			price = *rawAB * math.Pow10(int(tokenDecimals)-int(*qdec))
		} else if ab := *rawAB * math.Pow10(int(*qdec)-int(tokenDecimals)); ab > 0 {
			price = 1 / ab
		}
		if price > 0 && !math.IsInf(price, 0) && !math.IsNaN(price) {
			p.PriceInQuote = &price
		}
	}
	return p
}
