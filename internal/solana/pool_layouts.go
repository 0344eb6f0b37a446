package solana

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
)

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
