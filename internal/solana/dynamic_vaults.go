package solana

import (
	"encoding/binary"
	"fmt"
	"math/big"
)

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
