package solana

import (
	"encoding/binary"
	"fmt"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

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
