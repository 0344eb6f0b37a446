package solana

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// Layout sizes of the token programs' accounts.
const (
	mintSize         = 82
	tokenAccountSize = 165
	// accountTypeOffset is where Token-2022 stores the AccountType byte of
	// an extended account; TLV entries follow it.
	accountTypeOffset = tokenAccountSize
	tlvOffset         = accountTypeOffset + 1
)

// Token-2022 AccountType values.
const (
	accountTypeMint    = 1
	accountTypeAccount = 2
)

// ErrNotMint means the account data is not a token mint.
var ErrNotMint = errors.New("solana: not a token mint")

// ErrNotTokenAccount means the account data is not a token account.
var ErrNotTokenAccount = errors.New("solana: not a token account")

// Mint is a decoded mint account.
type Mint struct {
	MintAuthority   *PublicKey
	Supply          uint64
	Decimals        uint8
	IsInitialized   bool
	FreezeAuthority *PublicKey
	// TLV is the Token-2022 extension area (nil for a base mint).
	TLV []byte
}

// TokenAccount is a decoded token account (the fields a scan needs).
type TokenAccount struct {
	Mint   PublicKey
	Owner  PublicKey
	Amount uint64
	// State is 0 uninitialized, 1 initialized, 2 frozen.
	State uint8
}

// cursor reads little-endian fields with bounds checks; the first failure
// sticks so decoders check once at the end.
type cursor struct {
	b   []byte
	off int
	err error
}

func (c *cursor) take(n int) []byte {
	if c.err != nil {
		return nil
	}
	if n < 0 || c.off+n > len(c.b) {
		c.err = fmt.Errorf("truncated at byte %d (need %d of %d)", c.off, n, len(c.b))
		return nil
	}
	out := c.b[c.off : c.off+n]
	c.off += n
	return out
}

func (c *cursor) u8() uint8 {
	if b := c.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (c *cursor) u16() uint16 {
	if b := c.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (c *cursor) u32() uint32 {
	if b := c.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (c *cursor) u64() uint64 {
	if b := c.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (c *cursor) key() PublicKey {
	var k PublicKey
	if b := c.take(32); b != nil {
		copy(k[:], b)
	}
	return k
}

// optKey reads a fixed 32-byte key where all zeros means none.
func (c *cursor) optKey() *PublicKey {
	k := c.key()
	if c.err != nil || k.IsZero() {
		return nil
	}
	return &k
}

// coptionKey reads a COption<Pubkey>: u32 tag (0 none, 1 some) + 32 bytes.
func (c *cursor) coptionKey() *PublicKey {
	tag := c.u32()
	k := c.key()
	if c.err != nil {
		return nil
	}
	switch tag {
	case 0:
		return nil
	case 1:
		return &k
	default:
		c.err = fmt.Errorf("COption tag %d at byte %d", tag, c.off-36)
		return nil
	}
}

// borshString reads a u32-length-prefixed UTF-8 string.
func (c *cursor) borshString() string {
	n := c.u32()
	if c.err != nil {
		return ""
	}
	if int64(n) > int64(len(c.b)-c.off) {
		c.err = fmt.Errorf("string of %d bytes at byte %d exceeds the data", n, c.off-4)
		return ""
	}
	return string(c.take(int(n)))
}

// DecodeMint decodes an SPL Token or Token-2022 mint. Token-2022 mints with
// extensions keep their TLV area for DecodeExtensions.
func DecodeMint(data []byte) (*Mint, error) {
	if len(data) < mintSize {
		return nil, fmt.Errorf("%w: %d bytes, a mint has at least %d", ErrNotMint, len(data), mintSize)
	}
	if len(data) > mintSize {
		// A token account (165 bytes) or an extended account: the type
		// byte decides.
		if len(data) <= accountTypeOffset || data[accountTypeOffset] != accountTypeMint {
			return nil, fmt.Errorf("%w: %d bytes without the mint account type", ErrNotMint, len(data))
		}
		for _, b := range data[mintSize:accountTypeOffset] {
			if b != 0 {
				return nil, fmt.Errorf("%w: non-zero padding before the account type", ErrNotMint)
			}
		}
	}
	c := &cursor{b: data}
	m := &Mint{}
	m.MintAuthority = c.coptionKey()
	m.Supply = c.u64()
	m.Decimals = c.u8()
	m.IsInitialized = c.u8() == 1
	m.FreezeAuthority = c.coptionKey()
	if c.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotMint, c.err)
	}
	if !m.IsInitialized {
		return nil, fmt.Errorf("%w: not initialized", ErrNotMint)
	}
	if len(data) > tlvOffset {
		m.TLV = data[tlvOffset:]
	}
	return m, nil
}

// DecodeTokenAccount decodes an SPL Token or Token-2022 token account.
func DecodeTokenAccount(data []byte) (*TokenAccount, error) {
	if len(data) < tokenAccountSize {
		return nil, fmt.Errorf("%w: %d bytes, want at least %d", ErrNotTokenAccount, len(data), tokenAccountSize)
	}
	if len(data) > tokenAccountSize && data[accountTypeOffset] != accountTypeAccount {
		return nil, fmt.Errorf("%w: account type %d", ErrNotTokenAccount, data[accountTypeOffset])
	}
	c := &cursor{b: data}
	a := &TokenAccount{Mint: c.key(), Owner: c.key(), Amount: c.u64()}
	c.take(36) // delegate
	a.State = c.u8()
	if c.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotTokenAccount, c.err)
	}
	if a.State == 0 || a.State > 2 {
		return nil, fmt.Errorf("%w: state %d", ErrNotTokenAccount, a.State)
	}
	return a, nil
}

// extensionNames maps Token-2022 extension type numbers to report names.
var extensionNames = map[uint16]string{
	1:  analysis.SolanaExtTransferFeeConfig,
	2:  analysis.SolanaExtTransferFeeAmount,
	3:  analysis.SolanaExtMintCloseAuthority,
	4:  analysis.SolanaExtConfidentialTransferMint,
	5:  analysis.SolanaExtConfidentialTransferAccount,
	6:  analysis.SolanaExtDefaultAccountState,
	7:  analysis.SolanaExtImmutableOwner,
	8:  analysis.SolanaExtMemoTransfer,
	9:  analysis.SolanaExtNonTransferable,
	10: analysis.SolanaExtInterestBearingConfig,
	11: analysis.SolanaExtCPIGuard,
	12: analysis.SolanaExtPermanentDelegate,
	13: analysis.SolanaExtNonTransferableAccount,
	14: analysis.SolanaExtTransferHook,
	15: analysis.SolanaExtTransferHookAccount,
	16: analysis.SolanaExtConfidentialTransferFeeConfig,
	17: analysis.SolanaExtConfidentialTransferFeeAmount,
	18: analysis.SolanaExtMetadataPointer,
	19: analysis.SolanaExtTokenMetadata,
	20: analysis.SolanaExtGroupPointer,
	21: analysis.SolanaExtTokenGroup,
	22: analysis.SolanaExtGroupMemberPointer,
	23: analysis.SolanaExtTokenGroupMember,
	24: analysis.SolanaExtConfidentialMintBurn,
	25: analysis.SolanaExtScaledUIAmount,
	26: analysis.SolanaExtPausable,
	27: analysis.SolanaExtPausableAccount,
}

// ExtensionName returns the report name of a Token-2022 extension type;
// unknown types are named "unknown_<n>".
func ExtensionName(t uint16) string {
	if n, ok := extensionNames[t]; ok {
		return n
	}
	return fmt.Sprintf("unknown_%d", t)
}

// DecodeExtensions walks a Token-2022 TLV area and decodes every entry it
// knows. A type-0 entry ends the area (zero padding). A malformed known
// entry is an error; an unknown type is listed with its length.
func DecodeExtensions(tlv []byte) ([]analysis.SolanaExtension, *analysis.SolanaMetadata, error) {
	var (
		exts []analysis.SolanaExtension
		meta *analysis.SolanaMetadata
	)
	for off := 0; off < len(tlv); {
		if len(tlv)-off < 4 {
			// Trailing bytes shorter than a header must be padding.
			for _, b := range tlv[off:] {
				if b != 0 {
					return exts, meta, fmt.Errorf("solana: TLV: truncated header at byte %d", off)
				}
			}
			break
		}
		typ := binary.LittleEndian.Uint16(tlv[off:])
		length := int(binary.LittleEndian.Uint16(tlv[off+2:]))
		if typ == 0 {
			break
		}
		start := off + 4
		if start+length > len(tlv) {
			return exts, meta, fmt.Errorf("solana: TLV: extension %d of %d bytes at byte %d exceeds the data", typ, length, off)
		}
		value := tlv[start : start+length]
		ext := analysis.SolanaExtension{Type: typ, Name: ExtensionName(typ)}
		params, md, err := decodeExtension(typ, value)
		if err != nil {
			return exts, meta, fmt.Errorf("solana: TLV: %s: %w", ext.Name, err)
		}
		ext.Params = params
		if md != nil {
			meta = md
		}
		exts = append(exts, ext)
		off = start + length
	}
	return exts, meta, nil
}

func keyString(k *PublicKey) *string {
	if k == nil {
		return nil
	}
	s := k.String()
	return &s
}

func decodeExtension(typ uint16, v []byte) (any, *analysis.SolanaMetadata, error) {
	c := &cursor{b: v}
	var params any
	var meta *analysis.SolanaMetadata
	fixed := func(n int) {
		if len(v) != n {
			c.err = fmt.Errorf("%d bytes, want %d", len(v), n)
		}
	}
	switch typ {
	case 1:
		fixed(108)
		p := analysis.SolanaTransferFeeParams{}
		p.ConfigAuthority = keyString(c.optKey())
		p.WithdrawAuthority = keyString(c.optKey())
		p.WithheldAmount = c.u64()
		p.Older = analysis.SolanaTransferFee{Epoch: c.u64(), MaximumFee: c.u64(), BasisPoints: c.u16()}
		p.Newer = analysis.SolanaTransferFee{Epoch: c.u64(), MaximumFee: c.u64(), BasisPoints: c.u16()}
		params = p
	case 3, 12:
		fixed(32)
		params = analysis.SolanaAuthorityParams{Authority: keyString(c.optKey())}
	case 4:
		fixed(65)
		p := analysis.SolanaConfidentialTransferParams{Authority: keyString(c.optKey())}
		p.AutoApproveNewAccounts = c.u8() != 0
		if b := c.take(32); b != nil && !allZero(b) {
			h := hex.EncodeToString(b)
			p.AuditorElGamalPubkey = &h
		}
		params = p
	case 6:
		fixed(1)
		states := []string{"uninitialized", "initialized", "frozen"}
		s := c.u8()
		name := fmt.Sprintf("unknown_%d", s)
		if int(s) < len(states) {
			name = states[s]
		}
		params = analysis.SolanaDefaultAccountStateParams{State: name}
	case 7, 9, 13, 15, 27:
		// Marker extensions (an account flag or a byte of state); their
		// presence is the fact.
	case 10:
		fixed(52)
		p := analysis.SolanaInterestBearingParams{RateAuthority: keyString(c.optKey())}
		p.InitializationTimestamp = int64(c.u64())
		p.PreUpdateAverageRateBps = int16(c.u16())
		p.LastUpdateTimestamp = int64(c.u64())
		p.CurrentRateBps = int16(c.u16())
		params = p
	case 14:
		fixed(64)
		params = analysis.SolanaTransferHookParams{Authority: keyString(c.optKey()), ProgramID: keyString(c.optKey())}
	case 16:
		fixed(129)
		p := analysis.SolanaConfidentialTransferFeeParams{Authority: keyString(c.optKey())}
		p.WithdrawWithheldAuthorityElGamalPubkey = hex.EncodeToString(c.take(32))
		p.HarvestToMintEnabled = c.u8() != 0
		params = p
	case 18, 20, 22:
		fixed(64)
		params = analysis.SolanaPointerParams{Authority: keyString(c.optKey()), Address: keyString(c.optKey())}
	case 19:
		md, err := decodeTokenMetadata(v)
		if err != nil {
			return nil, nil, err
		}
		meta = md
		params = *md
	case 21:
		// Sizes were u32 in the first group interface, u64 since.
		if len(v) != 72 && len(v) != 80 {
			fixed(80)
		}
		p := analysis.SolanaTokenGroupParams{UpdateAuthority: keyString(c.optKey())}
		p.Mint = c.key().String()
		if len(v) == 72 {
			p.Size, p.MaxSize = uint64(c.u32()), uint64(c.u32())
		} else {
			p.Size, p.MaxSize = c.u64(), c.u64()
		}
		params = p
	case 23:
		if len(v) != 68 && len(v) != 72 {
			fixed(72)
		}
		p := analysis.SolanaTokenGroupMemberParams{}
		p.Mint = c.key().String()
		p.Group = c.key().String()
		if len(v) == 68 {
			p.MemberNumber = uint64(c.u32())
		} else {
			p.MemberNumber = c.u64()
		}
		params = p
	case 25:
		fixed(56)
		p := analysis.SolanaScaledUIAmountParams{Authority: keyString(c.optKey())}
		p.Multiplier = math.Float64frombits(c.u64())
		p.NewMultiplierEffectiveTimestamp = int64(c.u64())
		p.NewMultiplier = math.Float64frombits(c.u64())
		params = p
	case 26:
		fixed(33)
		p := analysis.SolanaPausableParams{Authority: keyString(c.optKey())}
		p.Paused = c.u8() != 0
		params = p
	default:
		params = analysis.SolanaRawParams{Length: len(v)}
	}
	if c.err != nil {
		return nil, nil, c.err
	}
	return params, meta, nil
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// decodeTokenMetadata decodes a Token-2022 TokenMetadata entry:
// update_authority (32, zero = none), mint (32), name, symbol, uri, and a
// vec of (key, value) strings.
func decodeTokenMetadata(v []byte) (*analysis.SolanaMetadata, error) {
	c := &cursor{b: v}
	md := &analysis.SolanaMetadata{Source: analysis.SolanaToken2022Metadata}
	md.UpdateAuthority = keyString(c.optKey())
	md.Address = c.key().String()
	md.Name = c.borshString()
	md.Symbol = c.borshString()
	md.URI = c.borshString()
	n := c.u32()
	if c.err == nil && int64(n)*8 > int64(len(v)-c.off) {
		c.err = fmt.Errorf("%d additional metadata entries exceed the data", n)
	}
	for i := uint32(0); i < n && c.err == nil; i++ {
		k := c.borshString()
		val := c.borshString()
		md.AdditionalMetadata = append(md.AdditionalMetadata, [2]string{k, val})
	}
	if c.err != nil {
		return nil, fmt.Errorf("token metadata: %w", c.err)
	}
	// Token-2022 metadata can be changed exactly while it has an update
	// authority.
	mutable := md.UpdateAuthority != nil
	md.IsMutable = &mutable
	return md, nil
}

// tokenAccountOf decodes a token account the node returned, refusing
// bytes under an owner other than the two token programs: a node's
// answer for another program's account is not a balance.
func (c *collector) tokenAccountOf(acc *Account) (*TokenAccount, error) {
	if acc.Owner != c.cfg.tokenProgram && acc.Owner != c.cfg.token2022 {
		return nil, fmt.Errorf("owned by %s, not a token program", acc.Owner)
	}
	return DecodeTokenAccount(acc.Data)
}

// vaultOf decodes a pool vault: a token account of mint (any mint when
// mint is zero, a layout that keeps it elsewhere).
func (c *collector) vaultOf(acc *Account, mint PublicKey) (*TokenAccount, error) {
	ta, err := c.tokenAccountOf(acc)
	if err != nil {
		return nil, err
	}
	if !mint.IsZero() && ta.Mint != mint {
		return nil, fmt.Errorf("holds %s, not %s", ta.Mint, mint)
	}
	return ta, nil
}

// mintOf decodes a mint the node returned, refusing bytes under an owner
// other than the two token programs (or an SPL Token mint of the wrong
// size).
func (c *collector) mintOf(acc *Account) (*Mint, error) {
	switch {
	case acc.Owner == c.cfg.tokenProgram && len(acc.Data) != mintSize:
		return nil, fmt.Errorf("an SPL Token mint of %d bytes", len(acc.Data))
	case acc.Owner != c.cfg.tokenProgram && acc.Owner != c.cfg.token2022:
		return nil, fmt.Errorf("owned by %s, not a token program", acc.Owner)
	}
	return DecodeMint(acc.Data)
}
