package solana

import (
	"encoding/binary"
	"fmt"
	"math/big"
)

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
