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
	raydiumAMMv4Size = 752
	raydiumCPMMSize  = 637
	whirlpoolSize    = 653

	bondingCurveMinSize     = 49 // discriminator + 5 u64 + complete
	bondingCurveCreatorSize = 81 // + creator
)

// poolKind describes one DEX layout: how its pool accounts are told apart
// (a fixed size, or an Anchor discriminator when the size has changed
// over upgrades) and where its two mints sit.
type poolKind struct {
	// name is the chains.json kind ("raydium_cpmm", …).
	name        string
	size        int
	disc        []byte
	mintOffsets [2]int
	decode      func(data []byte) (*PoolState, error)
}

// poolKinds maps a chains.json DEX kind to its layout.
var poolKinds = map[string]poolKind{
	"raydium_amm_v4": {name: "raydium_amm_v4", size: raydiumAMMv4Size, mintOffsets: [2]int{400, 432}, decode: DecodeRaydiumAMMv4},
	"raydium_cpmm":   {name: "raydium_cpmm", size: raydiumCPMMSize, mintOffsets: [2]int{168, 200}, decode: DecodeRaydiumCPMM},
	"orca_whirlpool": {name: "orca_whirlpool", size: whirlpoolSize, mintOffsets: [2]int{101, 181}, decode: DecodeWhirlpool},
	// PumpSwap pools grew from 211 to 243 and 300 bytes: matched by
	// discriminator, not size.
	"pumpswap": {name: "pumpswap", disc: discPumpSwapPool[:], mintOffsets: [2]int{43, 75}, decode: DecodePumpSwapPool},
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
	// SqrtPriceX64 is a Whirlpool's sqrt price (Q64.64), nil otherwise.
	SqrtPriceX64 *big.Int
	// Liquidity is a Whirlpool's in-range liquidity.
	Liquidity *big.Int
	OpenTime  *int64
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
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(sqrtX64), new(big.Float).SetMantExp(big.NewFloat(1), 64)).Float64()
	return f * f * math.Pow10(int(decA)-int(decB))
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
	if st.SqrtPriceX64 != nil && qdec != nil {
		var price float64
		if tokenIsA {
			price = sqrtPriceToPrice(st.SqrtPriceX64, tokenDecimals, *qdec)
		} else if ab := sqrtPriceToPrice(st.SqrtPriceX64, *qdec, tokenDecimals); ab > 0 {
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

// lpSplit divides the LP a pool issued. issued is what the pool records
// as outstanding less what it never minted; supply is the LP mint's
// supply; the difference was burned with the token program. When listed
// is true, holders are every LP token account the node knows: those owned
// by a burn address count as burned, by a configured locker as locked, by
// a wallet (an address on the ed25519 curve, which can sign a withdrawal)
// as unlocked, and by any other program as unknown, as is supply the
// listing does not account for. When listed is false, or the listing
// holds more than the supply, only the burned share is established.
func lpSplit(issued, supply uint64, holders []lpAccount, listed bool, burns []string, lockers map[string]string, creator *PublicKey) lpShares {
	total := max(issued, supply)
	pct := func(v uint64) float64 { return 100 * float64(v) / float64(total) }
	out := lpShares{burned: pct(satSub(issued, supply))}
	if !listed {
		return out
	}
	var burned, locked, unlocked, unknown, seen uint64
	sort.SliceStable(holders, func(i, j int) bool { return holders[i].amount > holders[j].amount })
	for _, h := range holders {
		owner := h.owner.String()
		label := analysis.SolanaLPProgram
		switch {
		case slices.Contains(burns, owner):
			label = analysis.SolanaLPBurn
			burned = satAdd(burned, h.amount)
		case lockers[owner] != "":
			label = analysis.SolanaLPLocker
			locked = satAdd(locked, h.amount)
		case IsOnCurve(h.owner):
			label = analysis.SolanaLPWallet
			if creator != nil && h.owner == *creator {
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
				SharePct: math.Round(pct(h.amount)*100) / 100, Label: label,
			})
		}
	}
	if seen > supply {
		// The node lists more LP than was minted: its answer cannot be
		// trusted to say who holds what.
		return lpShares{burned: out.burned}
	}
	unknown = satAdd(unknown, supply-seen)
	l, u, k := pct(locked), pct(unlocked), pct(unknown)
	out.burned += pct(burned)
	out.locked, out.unlocked, out.unknown = &l, &u, &k
	return out
}
