package solana

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"

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

// DecodeRaydiumAMMv4 decodes a Raydium AMM v4 (liquidity pool v4) state.
func DecodeRaydiumAMMv4(data []byte) (*PoolState, error) {
	if len(data) != raydiumAMMv4Size {
		return nil, fmt.Errorf("solana: raydium amm v4: %d bytes, want %d", len(data), raydiumAMMv4Size)
	}
	le := binary.LittleEndian
	decA, decB := le.Uint64(data[32:]), le.Uint64(data[40:])
	if decA > 255 || decB > 255 {
		return nil, fmt.Errorf("solana: raydium amm v4: decimals %d/%d", decA, decB)
	}
	da, db := uint8(decA), uint8(decB)
	p := &PoolState{
		DecimalsA: &da, DecimalsB: &db,
		OwedA:    le.Uint64(data[192:]),
		OwedB:    le.Uint64(data[200:]),
		VaultA:   PublicKey(data[336:368]),
		VaultB:   PublicKey(data[368:400]),
		MintA:    PublicKey(data[400:432]),
		MintB:    PublicKey(data[432:464]),
		LPIssued: le.Uint64(data[720:]),
	}
	lp := PublicKey(data[464:496])
	p.LPMint = &lp
	// Initialization mints liquidity - 10^lp_decimals to the creator and
	// records the whole liquidity in lp_amount.
	p.LPNeverMintedPow10 = true
	if t := int64(le.Uint64(data[224:])); t > 0 {
		p.OpenTime = &t
	}
	return p, nil
}

// DecodeRaydiumCPMM decodes a Raydium CPMM PoolState.
func DecodeRaydiumCPMM(data []byte) (*PoolState, error) {
	if len(data) != raydiumCPMMSize {
		return nil, fmt.Errorf("solana: raydium cpmm: %d bytes, want %d", len(data), raydiumCPMMSize)
	}
	if err := checkDisc(data, discCPMMPool, "raydium cpmm"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	da, db := data[331], data[332]
	p := &PoolState{
		VaultA:    PublicKey(data[72:104]),
		VaultB:    PublicKey(data[104:136]),
		MintA:     PublicKey(data[168:200]),
		MintB:     PublicKey(data[200:232]),
		DecimalsA: &da, DecimalsB: &db,
		LPIssued: le.Uint64(data[333:]),
	}
	lp := PublicKey(data[136:168])
	p.LPMint = &lp
	// Initialization records the whole liquidity in lp_supply but mints
	// 100 units less: those stay locked in the pool forever.
	p.LPNeverMinted = 100
	creator := PublicKey(data[40:72])
	p.Creator = &creator
	// Vault amounts owed to the protocol, the fund and the pool creator
	// (creator fees since the 2025 upgrade, at 397 and 405) are not
	// liquidity.
	p.OwedA = satAdd(satAdd(le.Uint64(data[341:]), le.Uint64(data[357:])), le.Uint64(data[397:]))
	p.OwedB = satAdd(satAdd(le.Uint64(data[349:]), le.Uint64(data[365:])), le.Uint64(data[405:]))
	if t := int64(le.Uint64(data[373:])); t > 0 {
		p.OpenTime = &t
	}
	return p, nil
}

// DecodeWhirlpool decodes an Orca Whirlpool.
func DecodeWhirlpool(data []byte) (*PoolState, error) {
	if len(data) != whirlpoolSize {
		return nil, fmt.Errorf("solana: orca whirlpool: %d bytes, want %d", len(data), whirlpoolSize)
	}
	if err := checkDisc(data, discWhirlpool, "orca whirlpool"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	return &PoolState{
		Liquidity:    u128(data[49:65]),
		SqrtPriceX64: u128(data[65:81]),
		OwedA:        le.Uint64(data[85:]),
		OwedB:        le.Uint64(data[93:]),
		MintA:        PublicKey(data[101:133]),
		VaultA:       PublicKey(data[133:165]),
		MintB:        PublicKey(data[181:213]),
		VaultB:       PublicKey(data[213:245]),
	}, nil
}

// pumpSwapMinSize is the first PumpSwap Pool layout: through lp_supply.
const pumpSwapMinSize = 211

// DecodePumpSwapPool decodes a PumpSwap (pump.fun AMM) Pool: bump, index,
// creator, base and quote mints, LP mint, base and quote vaults,
// lp_supply.
func DecodePumpSwapPool(data []byte) (*PoolState, error) {
	if len(data) < pumpSwapMinSize {
		return nil, fmt.Errorf("solana: pumpswap pool: %d bytes, want at least %d", len(data), pumpSwapMinSize)
	}
	if err := checkDisc(data, discPumpSwapPool, "pumpswap pool"); err != nil {
		return nil, err
	}
	lp := PublicKey(data[107:139])
	creator := PublicKey(data[11:43])
	return &PoolState{
		Creator:  &creator,
		MintA:    PublicKey(data[43:75]),
		MintB:    PublicKey(data[75:107]),
		LPMint:   &lp,
		VaultA:   PublicKey(data[139:171]),
		VaultB:   PublicKey(data[171:203]),
		LPIssued: binary.LittleEndian.Uint64(data[203:]),
	}, nil
}

// DecodeRaydiumCLMM decodes a Raydium CLMM (concentrated liquidity)
// PoolState: bump, amm_config, owner, token_mint_0/1 at 73/105,
// token_vault_0/1 at 137/169, mint decimals at 233/234, liquidity and
// sqrt_price_x64 (u128) at 237/253, protocol fees at 309/317, status at
// 389, fund fees at 1064/1072, open_time at 1080. Positions are NFTs: the
// pool has no LP mint.
func DecodeRaydiumCLMM(data []byte) (*PoolState, error) {
	if len(data) != raydiumCLMMSize {
		return nil, fmt.Errorf("solana: raydium clmm: %d bytes, want %d", len(data), raydiumCLMMSize)
	}
	// The CLMM program names its pool account PoolState too.
	if err := checkDisc(data, discCPMMPool, "raydium clmm"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	da, db := data[233], data[234]
	p := &PoolState{
		MintA:        PublicKey(data[73:105]),
		MintB:        PublicKey(data[105:137]),
		VaultA:       PublicKey(data[137:169]),
		VaultB:       PublicKey(data[169:201]),
		DecimalsA:    &da,
		DecimalsB:    &db,
		Liquidity:    u128(data[237:253]),
		SqrtPriceX64: u128(data[253:269]),
		// Protocol and fund fees sit in the vaults until collected.
		OwedA: satAdd(le.Uint64(data[309:]), le.Uint64(data[1064:])),
		OwedB: satAdd(le.Uint64(data[317:]), le.Uint64(data[1072:])),
	}
	if t := int64(le.Uint64(data[1080:])); t > 0 {
		p.OpenTime = &t
	}
	return p, nil
}

// DecodeMeteoraDLMM decodes a Meteora DLMM LbPair: active_id (i32) at 76,
// bin_step (u16, basis points) at 80, token_x/y mints at 88/120, reserve
// x/y vaults at 152/184, protocol fees owed (u64 x, y) at 216. The spot
// price of the active bin is (1 + bin_step/10000)^active_id raw y per raw
// x. Positions are program accounts: the pair has no LP mint.
func DecodeMeteoraDLMM(data []byte) (*PoolState, error) {
	if len(data) != meteoraDLMMSize {
		return nil, fmt.Errorf("solana: meteora dlmm: %d bytes, want %d", len(data), meteoraDLMMSize)
	}
	if err := checkDisc(data, discLbPair, "meteora dlmm"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	activeID := int32(le.Uint32(data[76:]))
	binStep := le.Uint16(data[80:])
	p := &PoolState{
		MintA:  PublicKey(data[88:120]),
		MintB:  PublicKey(data[120:152]),
		VaultA: PublicKey(data[152:184]),
		VaultB: PublicKey(data[184:216]),
		OwedA:  le.Uint64(data[216:]),
		OwedB:  le.Uint64(data[224:]),
	}
	if price := math.Pow(1+float64(binStep)/10_000, float64(activeID)); price > 0 && !math.IsInf(price, 0) {
		p.RawPrice = &price
	}
	p.PointIsTime = data[86] == 1
	p.ActiveBin, p.BinStep = activeID, binStep
	return p, nil
}

// DecodeMeteoraDAMMv2 decodes a Meteora DAMM v2 (cp-amm) Pool: fees
// struct, token_a/b mints at 168/200, vaults at 232/264, liquidity (u128)
// at 360, protocol fees owed (u64 a, b) at 392/400, sqrt_price (Q64.64)
// at 456, permanent_lock_liquidity (u128) at 552. Positions are NFTs;
// the pool itself records how much liquidity is locked for good.
func DecodeMeteoraDAMMv2(data []byte) (*PoolState, error) {
	if len(data) != meteoraDAMMv2Size {
		return nil, fmt.Errorf("solana: meteora damm v2: %d bytes, want %d", len(data), meteoraDAMMv2Size)
	}
	// The cp-amm program names its account Pool, as PumpSwap does.
	if err := checkDisc(data, discPumpSwapPool, "meteora damm v2"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	creator := PublicKey(data[648:680])
	p := &PoolState{
		Creator:      &creator,
		MintA:        PublicKey(data[168:200]),
		MintB:        PublicKey(data[200:232]),
		VaultA:       PublicKey(data[232:264]),
		VaultB:       PublicKey(data[264:296]),
		Liquidity:    u128(data[360:376]),
		OwedA:        le.Uint64(data[392:]),
		OwedB:        le.Uint64(data[400:]),
		SqrtPriceX64: u128(data[456:472]),
	}
	p.PermanentLock = u128(data[552:568])
	if p.Liquidity.Sign() > 0 {
		locked := u128(data[552:568])
		if locked.Cmp(p.Liquidity) > 0 {
			return nil, fmt.Errorf("solana: meteora damm v2: permanently locked liquidity %s exceeds the pool's %s", locked, p.Liquidity)
		}
		pct, _ := new(big.Float).Quo(new(big.Float).SetInt(new(big.Int).Mul(locked, big.NewInt(100))), new(big.Float).SetInt(p.Liquidity)).Float64()
		p.PermanentLockPct = &pct
	}
	return p, nil
}

// DecodeMeteoraDBCPool decodes a Meteora dynamic bonding curve
// VirtualPool: volatility tracker, config at 72, creator at 104, base_mint
// at 136, base/quote vaults at 168/200, protocol, partner (248..279) and
// creator (352..367) fees owed per side, sqrt_price (Q64.64) at 280,
// is_migrated at 305. The quote mint lives in the config account; MintB
// is left zero and named by the quote vault.
func DecodeMeteoraDBCPool(data []byte) (*PoolState, error) {
	if len(data) != meteoraDBCPoolSize {
		return nil, fmt.Errorf("solana: meteora dbc: %d bytes, want %d", len(data), meteoraDBCPoolSize)
	}
	if err := checkDisc(data, discVirtualPool, "meteora dbc"); err != nil {
		return nil, err
	}
	if data[305] > 1 {
		return nil, fmt.Errorf("solana: meteora dbc: is_migrated byte %d", data[305])
	}
	le := binary.LittleEndian
	creator := PublicKey(data[104:136])
	return &PoolState{
		MintA:        PublicKey(data[136:168]),
		VaultA:       PublicKey(data[168:200]),
		VaultB:       PublicKey(data[200:232]),
		Creator:      &creator,
		OwedA:        satAdd(satAdd(le.Uint64(data[248:]), le.Uint64(data[264:])), le.Uint64(data[352:])),
		OwedB:        satAdd(satAdd(le.Uint64(data[256:]), le.Uint64(data[272:])), le.Uint64(data[360:])),
		SqrtPriceX64: u128(data[280:296]),
		Curve:        data[305] == 0,
	}, nil
}

func satAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// BondingCurvePDA returns the pump.fun bonding curve of mint:
// PDA ["bonding-curve", mint] of the pump program.
func BondingCurvePDA(program, mint PublicKey) (PublicKey, error) {
	k, _, err := FindProgramAddress([][]byte{[]byte("bonding-curve"), mint[:]}, program)
	return k, err
}

// DecodeBondingCurve decodes a pump.fun BondingCurve account.
func DecodeBondingCurve(data []byte, address PublicKey) (*analysis.SolanaBondingCurve, error) {
	if len(data) < bondingCurveMinSize {
		return nil, fmt.Errorf("solana: pump.fun bonding curve: %d bytes, want at least %d", len(data), bondingCurveMinSize)
	}
	if err := checkDisc(data, discBondingCurve, "pump.fun bonding curve"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	if data[48] > 1 {
		return nil, fmt.Errorf("solana: pump.fun bonding curve: complete byte %d", data[48])
	}
	bc := &analysis.SolanaBondingCurve{
		Address:              address.String(),
		VirtualTokenReserves: le.Uint64(data[8:]),
		VirtualSOLReserves:   le.Uint64(data[16:]),
		RealTokenReserves:    le.Uint64(data[24:]),
		RealSOLReserves:      le.Uint64(data[32:]),
		TokenTotalSupply:     le.Uint64(data[40:]),
		Complete:             data[48] == 1,
	}
	if len(data) >= bondingCurveCreatorSize {
		if k := PublicKey(data[49:81]); !k.IsZero() {
			bc.Creator = keyString(&k)
		}
	}
	return bc, nil
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

// lpAccount is one LP token account: its address, owner and amount.
type lpAccount struct {
	address, owner PublicKey
	amount         uint64
}

// maxLPHolders bounds the LP holders a pool's evidence lists.
const maxLPHolders = 10

// lpShares is how a pool's LP divides between burned, locked, wallets and
// unknown holders, in percent of the LP the pool issued.
type lpShares struct {
	burned                    float64
	locked, unlocked, unknown *float64
	holders                   []analysis.SolanaLPHolder
}

// lpSplitInput is what lpSplit divides.
type lpSplitInput struct {
	// issued is what the pool records as outstanding less what it never
	// minted; supply is the LP mint's supply.
	issued, supply uint64
	// holders are every LP token account the node knows, when listed.
	holders []lpAccount
	listed  bool
	burns   []string
	lockers map[string]string
	creator *PublicKey
	// escrowed is LP the pool itself records as held by its lock escrows
	// (program accounts, so listed as unknown holders).
	escrowed uint64
	// streams are lock streams of the LP (Streamflow) by escrow account;
	// now is the time their schedules are read at.
	streams map[PublicKey]*StreamLock
	now     int64
}

// lpSplit divides the LP a pool issued; the difference between issued
// and supply was burned with the token program. When listed, holders
// owned by a burn address count as burned, by a configured locker as
// locked, held in a lock stream's escrow as locked for what the stream
// has not yet released (the rest as its recipient's), by a wallet (an
// address on the ed25519 curve, which can sign a withdrawal) as unlocked,
// and by any other program as unknown, as is supply the listing does not
// account for. When not listed, or the listing holds more than the
// supply, only the burned share (and the pool's own escrowed LP) is
// established.
func lpSplit(in lpSplitInput) lpShares {
	issued, supply := in.issued, in.supply
	total := max(issued, supply)
	pct := func(v uint64) float64 { return 100 * float64(v) / float64(total) }
	out := lpShares{burned: pct(satSub(issued, supply))}
	escrowed := min(in.escrowed, supply)
	if !in.listed {
		if escrowed > 0 {
			l := pct(escrowed)
			out.locked = &l
		}
		return out
	}
	var burned, locked, unlocked, unknown, seen uint64
	holders := in.holders
	sort.SliceStable(holders, func(i, j int) bool { return holders[i].amount > holders[j].amount })
	for _, h := range holders {
		owner := h.owner.String()
		label := analysis.SolanaLPProgram
		var until *int64
		stream := in.streams[h.address]
		switch {
		case slices.Contains(in.burns, owner):
			label = analysis.SolanaLPBurn
			burned = satAdd(burned, h.amount)
		case in.lockers[owner] != "":
			label = analysis.SolanaLPLocker
			locked = satAdd(locked, h.amount)
		case stream != nil && stream.LockedAt(in.now) > 0:
			label = analysis.SolanaLPLocker
			l := min(stream.LockedAt(in.now), h.amount)
			locked = satAdd(locked, l)
			// What the stream released belongs to its recipient.
			if IsOnCurve(stream.Recipient) {
				unlocked = satAdd(unlocked, h.amount-l)
			} else {
				unknown = satAdd(unknown, h.amount-l)
			}
			if stream.End > 0 && stream.End <= math.MaxInt64 {
				e := int64(stream.End)
				until = &e
			}
		case IsOnCurve(h.owner):
			label = analysis.SolanaLPWallet
			if in.creator != nil && h.owner == *in.creator {
				label = analysis.SolanaLPCreator
			}
			unlocked = satAdd(unlocked, h.amount)
		default:
			unknown = satAdd(unknown, h.amount)
		}
		seen = satAdd(seen, h.amount)
		if h.amount > 0 && len(out.holders) < maxLPHolders {
			out.holders = append(out.holders, analysis.SolanaLPHolder{
				TokenAccount: h.address.String(), Owner: owner, Amount: h.amount,
				SharePct: math.Round(pct(h.amount)*100) / 100, Label: label, LockedUntil: until,
			})
		}
	}
	if seen > supply {
		// The node lists more LP than was minted: its answer cannot be
		// trusted to say who holds what.
		in.listed, in.holders = false, nil
		return lpSplit(in)
	}
	unknown = satAdd(unknown, supply-seen)
	// Escrowed LP sits in program accounts, counted unknown above.
	moved := min(escrowed, unknown)
	locked, unknown = satAdd(locked, moved), unknown-moved
	l, u, k := pct(locked), pct(unlocked), pct(unknown)
	out.burned += pct(burned)
	out.locked, out.unlocked, out.unknown = &l, &u, &k
	return out
}

// Meteora DAMM v1 (dynamic AMM) and its dynamic vaults.
const (
	// meteoraDAMMv1MinSize is a DAMM v1 Pool through the curve type's tag:
	// the account grew over upgrades, so it is matched by discriminator.
	meteoraDAMMv1MinSize = 875
	// dynamicVaultMinSize is a Meteora dynamic Vault through its locked
	// profit tracker.
	dynamicVaultMinSize = 1227
	// lockedProfitDenominator scales a vault's locked profit degradation.
	lockedProfitDenominator = 1_000_000_000_000
)

var discDynamicVault = anchorDiscriminator("Vault")

// DynamicVaults names where a DAMM v1 pool keeps its reserves: VaultA and
// VaultB of the PoolState are Meteora dynamic vault accounts, and the
// pool owns LPA and LPB, token accounts of each vault's LP. The pool's
// reserve of a side is the vault's unlocked amount times the pool's
// vault LP over the vault LP supply.
type DynamicVaults struct {
	LPA, LPB PublicKey
}

// StablePeg is a stable-swap pool's pegged price: the curve values both
// sides at parity once each raw amount is scaled by its token multiplier,
// and, for a pool tracking a staking token's growth (depeg), side A by
// 10^6 and side B by its cached virtual price (6 decimals).
type StablePeg struct {
	MultiplierA, MultiplierB uint64
	// VirtualPrice is side B's cached virtual price; 0 when the pool does
	// not track one.
	VirtualPrice uint64
}

// depegPrecision is the scale of a DAMM v1 virtual price.
const depegPrecision = 1_000_000

// RawPrice is the pegged price of one raw unit of A in raw units of B:
// the stable curve's marginal price when the pool is balanced.
func (s *StablePeg) RawPrice() float64 {
	a, b := float64(s.MultiplierA), float64(s.MultiplierB)
	if s.VirtualPrice != 0 {
		a *= depegPrecision
		b *= float64(s.VirtualPrice)
	}
	return a / b
}

// DecodeMeteoraDAMMv1 decodes a Meteora DAMM v1 Pool: lp_mint at 8,
// token_a/b mints at 40/72, dynamic vaults at 104/136, the pool's vault
// LP token accounts at 168/200, enabled at 233, total_locked_lp (LP held
// by the pool's lock escrows) at 395, curve_type at 874 (0 constant
// product; 1 stable with amp, token multipliers and depeg). Protocol fees
// are paid into separate token accounts, so nothing in the vaults is owed.
func DecodeMeteoraDAMMv1(data []byte) (*PoolState, error) {
	if len(data) < meteoraDAMMv1MinSize {
		return nil, fmt.Errorf("solana: meteora damm v1: %d bytes, want at least %d", len(data), meteoraDAMMv1MinSize)
	}
	if err := checkDisc(data, discPumpSwapPool, "meteora damm v1"); err != nil {
		return nil, err
	}
	if data[233] > 1 {
		return nil, fmt.Errorf("solana: meteora damm v1: enabled byte %d", data[233])
	}
	le := binary.LittleEndian
	lp := PublicKey(data[8:40])
	p := &PoolState{
		LPMint:           &lp,
		LPIssuedIsSupply: true,
		LPLocked:         le.Uint64(data[395:]),
		MintA:            PublicKey(data[40:72]),
		MintB:            PublicKey(data[72:104]),
		VaultA:           PublicKey(data[104:136]),
		VaultB:           PublicKey(data[136:168]),
		DynamicVaults:    &DynamicVaults{LPA: PublicKey(data[168:200]), LPB: PublicKey(data[200:232])},
	}
	if t := int64(le.Uint64(data[403:])); t > 0 && data[475] == 1 {
		// Activation by timestamp (type 1); a slot is not a time.
		p.OpenTime = &t
	}
	switch data[874] {
	case 0:
	case 1:
		// Stable: amp u64, token_a/b multiplier u64, precision u8, depeg
		// {base_virtual_price u64, base_cache_updated u64, depeg_type u8}.
		const stableEnd = 875 + 8 + 8 + 8 + 1 + 8 + 8 + 1
		if len(data) < stableEnd {
			return nil, fmt.Errorf("solana: meteora damm v1: stable curve cut short at %d bytes", len(data))
		}
		peg := &StablePeg{MultiplierA: le.Uint64(data[883:]), MultiplierB: le.Uint64(data[891:])}
		if peg.MultiplierA == 0 || peg.MultiplierB == 0 {
			return nil, fmt.Errorf("solana: meteora damm v1: zero token multiplier")
		}
		if data[916] != 0 {
			if peg.VirtualPrice = le.Uint64(data[900:]); peg.VirtualPrice == 0 {
				return nil, fmt.Errorf("solana: meteora damm v1: depeg pool without a virtual price")
			}
		}
		p.Stable = peg
	default:
		return nil, fmt.Errorf("solana: meteora damm v1: curve type %d", data[874])
	}
	return p, nil
}

// DynamicVault is the part of a Meteora dynamic vault a scan needs.
type DynamicVault struct {
	TotalAmount uint64
	TokenVault  PublicKey
	TokenMint   PublicKey
	LPMint      PublicKey
	// Locked profit tracker: profit reported at LastReport unlocks
	// linearly at Degradation/1e12 per second.
	LockedProfit, LastReport, Degradation uint64
}

// DecodeDynamicVault decodes a Meteora dynamic Vault: enabled, bumps,
// total_amount at 11, token_vault 19, fee_vault 51, token_mint 83,
// lp_mint 115, 30 strategies, base, admin, operator, locked profit
// tracker at 1203.
func DecodeDynamicVault(data []byte) (*DynamicVault, error) {
	if len(data) < dynamicVaultMinSize {
		return nil, fmt.Errorf("solana: meteora vault: %d bytes, want at least %d", len(data), dynamicVaultMinSize)
	}
	if err := checkDisc(data, discDynamicVault, "meteora vault"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	return &DynamicVault{
		TotalAmount:  le.Uint64(data[11:]),
		TokenVault:   PublicKey(data[19:51]),
		TokenMint:    PublicKey(data[83:115]),
		LPMint:       PublicKey(data[115:147]),
		LockedProfit: le.Uint64(data[1203:]),
		LastReport:   le.Uint64(data[1211:]),
		Degradation:  le.Uint64(data[1219:]),
	}, nil
}

// Unlocked is the vault's amount less the profit still locked at now
// (unix seconds); ok is false when now is before the last report.
func (v *DynamicVault) Unlocked(now int64) (uint64, bool) {
	if now < 0 || uint64(now) < v.LastReport {
		return 0, false
	}
	elapsed := new(big.Int).SetUint64(uint64(now) - v.LastReport)
	ratio := elapsed.Mul(elapsed, new(big.Int).SetUint64(v.Degradation))
	denom := big.NewInt(lockedProfitDenominator)
	if ratio.Cmp(denom) > 0 {
		return v.TotalAmount, true
	}
	locked := new(big.Int).SetUint64(v.LockedProfit)
	locked.Mul(locked, new(big.Int).Sub(denom, ratio)).Quo(locked, denom)
	return satSub(v.TotalAmount, locked.Uint64()), true
}

// ShareOf is the amount a holder of share of supply vault LP owns.
func (v *DynamicVault) ShareOf(unlocked, share, supply uint64) (uint64, bool) {
	if supply == 0 || share > supply {
		return 0, false
	}
	r := new(big.Int).SetUint64(unlocked)
	r.Mul(r, new(big.Int).SetUint64(share)).Quo(r, new(big.Int).SetUint64(supply))
	return r.Uint64(), true
}

// Raydium LaunchLab (launchpad) curves.
const (
	launchLabPoolSize = 429
	// launchLabConfigMinSize is a GlobalConfig through curve_type.
	launchLabConfigMinSize = 17
)

var discLaunchLabConfig = anchorDiscriminator("GlobalConfig")

// LaunchCurve is a LaunchLab pool's curve state, priced once its global
// config's curve type is known.
type LaunchCurve struct {
	Config                                         PublicKey
	VirtualBase, VirtualQuote, RealBase, RealQuote uint64
}

// Price is the raw price of one base unit in quote units for a curve
// type (0 constant product, 1 fixed price); ok is false for a type whose
// price this engine does not compute (2 linear) or a degenerate curve.
func (l *LaunchCurve) Price(curveType uint8) (float64, bool) {
	var num, den float64
	switch curveType {
	case 0:
		if l.RealBase >= l.VirtualBase {
			return 0, false
		}
		num, den = float64(l.VirtualQuote)+float64(l.RealQuote), float64(l.VirtualBase-l.RealBase)
	case 1:
		num, den = float64(l.VirtualQuote), float64(l.VirtualBase)
	default:
		return 0, false
	}
	if den == 0 || num == 0 {
		return 0, false
	}
	return num / den, true
}

// DecodeLaunchLabConfigCurve returns a LaunchLab GlobalConfig's curve
// type (u8 after the discriminator and epoch).
func DecodeLaunchLabConfigCurve(data []byte) (uint8, error) {
	if len(data) < launchLabConfigMinSize {
		return 0, fmt.Errorf("solana: launchlab config: %d bytes, want at least %d", len(data), launchLabConfigMinSize)
	}
	if err := checkDisc(data, discLaunchLabConfig, "launchlab config"); err != nil {
		return 0, err
	}
	return data[16], nil
}

// DecodeLaunchLabPool decodes a Raydium LaunchLab PoolState: epoch,
// auth_bump, status at 17 (0 trading on the curve, 1 migrating, 2
// migrated), base/quote decimals at 18/19, virtual and real base/quote
// at 37..68, quote protocol and platform fees owed at 77/85, vesting
// schedule, global_config at 141, base/quote mints at 205/237, vaults at
// 269/301, creator at 333.
func DecodeLaunchLabPool(data []byte) (*PoolState, error) {
	if len(data) < launchLabPoolSize {
		return nil, fmt.Errorf("solana: launchlab pool: %d bytes, want at least %d", len(data), launchLabPoolSize)
	}
	// LaunchLab names its account PoolState, as Raydium's AMMs do.
	if err := checkDisc(data, discCPMMPool, "launchlab pool"); err != nil {
		return nil, err
	}
	if data[17] > 2 {
		return nil, fmt.Errorf("solana: launchlab pool: status %d", data[17])
	}
	le := binary.LittleEndian
	da, db := data[18], data[19]
	creator := PublicKey(data[333:365])
	lc := &LaunchCurve{
		Config:       PublicKey(data[141:173]),
		VirtualBase:  le.Uint64(data[37:]),
		VirtualQuote: le.Uint64(data[45:]),
		RealBase:     le.Uint64(data[53:]),
		RealQuote:    le.Uint64(data[61:]),
	}
	return &PoolState{
		MintA:     PublicKey(data[205:237]),
		MintB:     PublicKey(data[237:269]),
		VaultA:    PublicKey(data[269:301]),
		VaultB:    PublicKey(data[301:333]),
		DecimalsA: &da, DecimalsB: &db,
		Creator: &creator,
		// Quote fees owed to the protocol and the platform sit in the
		// quote vault until claimed.
		OwedB:  satAdd(le.Uint64(data[77:]), le.Uint64(data[85:])),
		Launch: lc,
		// Until migration nobody can withdraw the curve's reserves.
		Curve: data[17] < 2,
	}, nil
}

// Liquidity positions (DAMM v2): position accounts of the pool's program
// whose NFT's holder can withdraw the position's unlocked part.
const (
	dammV2PositionSize = 408
	// maxPositionNFTs bounds the position NFTs whose holders one scan
	// resolves (largest unlocked positions first).
	maxPositionNFTs = 10
	// maxPositionListings bounds the pools whose positions are listed.
	maxPositionListings = 3
)

var discPosition = anchorDiscriminator("Position")

// positionKind is how a DEX's position accounts are found and read.
type positionKind struct {
	size       int
	disc       [8]byte
	poolOffset int
	// slice is how many leading bytes of each position a listing asks
	// for (the fields read; a large pool has many positions), 0 for all.
	slice int
	// tail, when set, is a second range {offset, length} of fields the
	// layout keeps far from the head: listed by a second call.
	tail   *[2]int
	decode func(data []byte) (*Position, error)
}

// Position is one liquidity position of a pool.
type Position struct {
	Pool, NFTMint PublicKey
	// Unlocked is the liquidity the NFT's holder can withdraw; Locked the
	// liquidity the position itself keeps locked (permanently, or vesting
	// on a schedule the position account does not hold).
	Unlocked, Locked *big.Int
	// TickLower and TickUpper bound a concentrated position's range; both
	// 0 for a full-range position.
	TickLower, TickUpper int32
	// AnyTokenProgram is set when the NFT may be an SPL Token or a
	// Token-2022 mint (Raydium CLMM minted both over time).
	AnyTokenProgram bool
	// Owner is set where the position names who can withdraw it instead
	// of an NFT (Meteora DLMM); NFTMint is then zero.
	Owner *PublicKey
	// Bins are a DLMM position's liquidity shares per bin.
	Bins []BinShare
	// LockRelease is the point (a slot or a unix time, as the pair's
	// activation type says) before which the position cannot be
	// withdrawn; 0 when not locked.
	LockRelease uint64
}

// BinShare is a DLMM position's liquidity share of one bin.
type BinShare struct {
	ID    int32
	Share *big.Int
}

// Meteora DLMM positions and bin arrays.
const (
	dlmmPositionSize = 8120
	dlmmBinsPerArray = 70
	dlmmBinSize      = 144
	dlmmBinArrayMin  = 56 + dlmmBinsPerArray*dlmmBinSize
)

var (
	discPositionV2 = anchorDiscriminator("PositionV2")
	discBinArray   = anchorDiscriminator("BinArray")
)

// DecodeDLMMPosition decodes a Meteora DLMM PositionV2: lb_pair at 8,
// owner at 40, liquidity_shares (70 u128) at 72 for bins lower_bin_id
// (i32, 7912) to upper_bin_id (7916), lock_release_point (u64) at 7992;
// 8120 bytes. Unlocked is the sum of its shares (for ordering only).
func DecodeDLMMPosition(data []byte) (*Position, error) {
	if len(data) != dlmmPositionSize {
		return nil, fmt.Errorf("solana: meteora dlmm position: %d bytes, want %d", len(data), dlmmPositionSize)
	}
	if err := checkDisc(data, discPositionV2, "meteora dlmm position"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	lo, hi := int32(le.Uint32(data[7912:])), int32(le.Uint32(data[7916:]))
	if hi < lo || int64(hi)-int64(lo) >= dlmmBinsPerArray {
		return nil, fmt.Errorf("solana: meteora dlmm position: bins %d..%d", lo, hi)
	}
	owner := PublicKey(data[40:72])
	p := &Position{
		Pool:        PublicKey(data[8:40]),
		Owner:       &owner,
		Unlocked:    new(big.Int),
		Locked:      new(big.Int),
		TickLower:   lo,
		TickUpper:   hi,
		LockRelease: le.Uint64(data[7992:]),
	}
	for i := int32(0); i <= hi-lo; i++ {
		sh := u128(data[72+16*i : 88+16*i])
		if sh.Sign() > 0 {
			p.Bins = append(p.Bins, BinShare{ID: lo + i, Share: sh})
			p.Unlocked.Add(p.Unlocked, sh)
		}
	}
	return p, nil
}

// DLMMBin is one bin of a bin array: the amounts it holds and the
// liquidity shares outstanding.
type DLMMBin struct {
	X, Y   uint64
	Supply *big.Int
}

// DLMMBinArray is a DLMM bin array: bins index*70 .. index*70+69.
type DLMMBinArray struct {
	Index int64
	Pair  PublicKey
	Bins  [dlmmBinsPerArray]DLMMBin
}

// DecodeDLMMBinArray decodes a Meteora DLMM BinArray: index (i64) at 8,
// version, lb_pair at 24, 70 bins of 144 bytes from 56 (amount_x,
// amount_y u64, price u128, liquidity_supply u128, …).
func DecodeDLMMBinArray(data []byte) (*DLMMBinArray, error) {
	if len(data) < dlmmBinArrayMin {
		return nil, fmt.Errorf("solana: meteora dlmm bin array: %d bytes, want at least %d", len(data), dlmmBinArrayMin)
	}
	if err := checkDisc(data, discBinArray, "meteora dlmm bin array"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	a := &DLMMBinArray{Index: int64(le.Uint64(data[8:])), Pair: PublicKey(data[24:56])}
	for i := range dlmmBinsPerArray {
		o := 56 + i*dlmmBinSize
		a.Bins[i] = DLMMBin{X: le.Uint64(data[o:]), Y: le.Uint64(data[o+8:]), Supply: u128(data[o+32 : o+48])}
	}
	return a, nil
}

// DLMMBinArrayIndex is the index of the bin array holding bin id.
func DLMMBinArrayIndex(id int32) int64 {
	q := int64(id) / dlmmBinsPerArray
	if int64(id)%dlmmBinsPerArray < 0 {
		q--
	}
	return q
}

// DLMMBinArrayPDA is the bin array account of a pair:
// PDA ["bin_array", pair, index (i64 LE)] of the DLMM program.
func DLMMBinArrayPDA(program, pair PublicKey, index int64) (PublicKey, error) {
	var ix [8]byte
	binary.LittleEndian.PutUint64(ix[:], uint64(index))
	k, _, err := FindProgramAddress([][]byte{[]byte("bin_array"), pair[:], ix[:]}, program)
	return k, err
}

// whirlpoolPositionSize is an Orca Whirlpool Position.
const whirlpoolPositionSize = 216

// DecodeWhirlpoolPosition decodes an Orca Whirlpool Position: whirlpool at
// 8, position_mint at 40, liquidity (u128) at 72, tick_lower/upper (i32)
// at 88/92, fee checkpoints and fees owed, reward infos; 216 bytes. Its
// NFT (SPL Token, or Token-2022 for newer positions) holder can withdraw
// it all.
func DecodeWhirlpoolPosition(data []byte) (*Position, error) {
	if len(data) != whirlpoolPositionSize {
		return nil, fmt.Errorf("solana: orca whirlpool position: %d bytes, want %d", len(data), whirlpoolPositionSize)
	}
	if err := checkDisc(data, discPosition, "orca whirlpool position"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	lo, hi := int32(le.Uint32(data[88:])), int32(le.Uint32(data[92:]))
	if lo >= hi {
		return nil, fmt.Errorf("solana: orca whirlpool position: ticks %d..%d", lo, hi)
	}
	return &Position{
		Pool:            PublicKey(data[8:40]),
		NFTMint:         PublicKey(data[40:72]),
		Unlocked:        u128(data[72:88]),
		Locked:          new(big.Int),
		TickLower:       lo,
		TickUpper:       hi,
		AnyTokenProgram: true,
	}, nil
}

// raydiumCLMMPositionSize is a Raydium CLMM PersonalPositionState.
const raydiumCLMMPositionSize = 281

var discPersonalPosition = anchorDiscriminator("PersonalPositionState")

// DecodeRaydiumCLMMPosition decodes a Raydium CLMM PersonalPositionState:
// bump, nft_mint at 9, pool_id at 41, tick_lower/upper (i32) at 73/77,
// liquidity (u128) at 81, fee growth, fees owed at 129/137, rewards,
// recent_epoch; 281 bytes. Its NFT's holder can withdraw it all.
func DecodeRaydiumCLMMPosition(data []byte) (*Position, error) {
	if len(data) != raydiumCLMMPositionSize {
		return nil, fmt.Errorf("solana: raydium clmm position: %d bytes, want %d", len(data), raydiumCLMMPositionSize)
	}
	if err := checkDisc(data, discPersonalPosition, "raydium clmm position"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	lo, hi := int32(le.Uint32(data[73:])), int32(le.Uint32(data[77:]))
	if lo >= hi {
		return nil, fmt.Errorf("solana: raydium clmm position: ticks %d..%d", lo, hi)
	}
	return &Position{
		NFTMint:         PublicKey(data[9:41]),
		Pool:            PublicKey(data[41:73]),
		Unlocked:        u128(data[81:97]),
		Locked:          new(big.Int),
		TickLower:       lo,
		TickUpper:       hi,
		AnyTokenProgram: true,
	}, nil
}

// DecodeDAMMv2Position decodes a Meteora DAMM v2 Position: pool at 8,
// nft_mint at 40, fee checkpoints and pending fees, unlocked_liquidity
// (u128) at 152, vested_liquidity at 168, permanent_locked_liquidity at
// 184; 408 bytes.
func DecodeDAMMv2Position(data []byte) (*Position, error) {
	if len(data) != dammV2PositionSize {
		return nil, fmt.Errorf("solana: meteora damm v2 position: %d bytes, want %d", len(data), dammV2PositionSize)
	}
	if err := checkDisc(data, discPosition, "meteora damm v2 position"); err != nil {
		return nil, err
	}
	locked := u128(data[168:184])
	locked.Add(locked, u128(data[184:200]))
	return &Position{
		Pool:     PublicKey(data[8:40]),
		NFTMint:  PublicKey(data[40:72]),
		Unlocked: u128(data[152:168]),
		Locked:   locked,
	}, nil
}
