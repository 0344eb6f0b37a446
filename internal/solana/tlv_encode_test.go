package solana_test

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// This file writes Token-2022 extension values back to bytes from the
// layouts (spl-token-2022's interface crate: TransferFeeConfig,
// PausableConfig, ScaledUiAmountConfig, TokenGroup, TokenGroupMember, ...)
// so the fuzzer can check that a decoded value says what the bytes say.

type tlvEntryBytes struct {
	typ   uint16
	value []byte
}

// walkTLV reads only the entry headers: u16 type, u16 length; type 0 or
// an all-zero tail shorter than a header ends the area.
func walkTLV(tlv []byte) ([]tlvEntryBytes, error) {
	var out []tlvEntryBytes
	for off := 0; off < len(tlv); {
		if len(tlv)-off < 4 {
			for _, b := range tlv[off:] {
				if b != 0 {
					return out, fmt.Errorf("non-zero tail at %d", off)
				}
			}
			return out, nil
		}
		typ := binary.LittleEndian.Uint16(tlv[off:])
		n := int(binary.LittleEndian.Uint16(tlv[off+2:]))
		if typ == 0 {
			return out, nil
		}
		if off+4+n > len(tlv) {
			return out, fmt.Errorf("entry %d at %d runs past the data", typ, off)
		}
		out = append(out, tlvEntryBytes{typ, tlv[off+4 : off+4+n]})
		off += 4 + n
	}
	return out, nil
}

// fixedExtensionSize is the value size of a fixed-layout extension type
// (for the group types, the layout that n selects).
func fixedExtensionSize(typ uint16, n int) (int, bool) {
	switch typ {
	case 1:
		return 108, true
	case 3, 12:
		return 32, true
	case 4:
		return 65, true
	case 6:
		return 1, true
	case 10:
		return 52, true
	case 14, 18, 20, 22:
		return 64, true
	case 16:
		return 129, true
	case 21:
		if n == 72 {
			return 72, true
		}
		return 80, true
	case 23:
		if n == 68 {
			return 68, true
		}
		return 72, true
	case 25:
		return 56, true
	case 26:
		return 33, true
	}
	return 0, false
}

// canonicalValue is v with its boolean bytes read as 0 or 1, the way the
// token program reads a PodBool.
func canonicalValue(typ uint16, v []byte) []byte {
	at := map[uint16]int{4: 32, 16: 64, 26: 32}
	off, ok := at[typ]
	if !ok || off >= len(v) || v[off] <= 1 {
		return v
	}
	c := append([]byte(nil), v...)
	c[off] = 1
	return c
}

func optKeyBytes(t testing.TB, k *string) []byte {
	if k == nil {
		return make([]byte, 32)
	}
	return keyBytes(t, *k)
}

func keyBytes(t testing.TB, k string) []byte {
	raw, err := base58.Decode(k)
	if err != nil || len(raw) != 32 {
		t.Fatalf("decoded key %q is not 32 bytes of base58", k)
	}
	return raw
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func borshString(b []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(s))), s...)
}

// encodeExtension writes a decoded extension's value back to bytes; n is
// the original length (the group types have two layouts). ok is false
// for markers and raw entries, which carry no decoded fields.
func encodeExtension(t testing.TB, e analysis.SolanaExtension, n int) ([]byte, bool) {
	var b le
	switch p := e.Params.(type) {
	case analysis.SolanaTransferFeeParams:
		b = append(b, optKeyBytes(t, p.ConfigAuthority)...)
		b = append(b, optKeyBytes(t, p.WithdrawAuthority)...)
		b = b.u64(p.WithheldAmount)
		for _, fee := range []analysis.SolanaTransferFee{p.Older, p.Newer} {
			b = b.u64(fee.Epoch).u64(fee.MaximumFee).u16(fee.BasisPoints)
		}
	case analysis.SolanaAuthorityParams:
		b = append(b, optKeyBytes(t, p.Authority)...)
	case analysis.SolanaConfidentialTransferParams:
		b = append(b, optKeyBytes(t, p.Authority)...)
		b = append(b, boolByte(p.AutoApproveNewAccounts))
		auditor := make([]byte, 32)
		if p.AuditorElGamalPubkey != nil {
			auditor = hexBytes(t, *p.AuditorElGamalPubkey)
		}
		b = append(b, auditor...)
	case analysis.SolanaDefaultAccountStateParams:
		states := map[string]uint8{"uninitialized": 0, "initialized": 1, "frozen": 2}
		s, ok := states[p.State]
		if !ok {
			var v int
			if _, err := fmt.Sscanf(p.State, "unknown_%d", &v); err != nil {
				t.Fatalf("default account state %q", p.State)
			}
			s = uint8(v)
		}
		b = b.u8(s)
	case analysis.SolanaInterestBearingParams:
		b = append(b, optKeyBytes(t, p.RateAuthority)...)
		b = b.u64(uint64(p.InitializationTimestamp)).u16(uint16(p.PreUpdateAverageRateBps)).u64(uint64(p.LastUpdateTimestamp)).u16(uint16(p.CurrentRateBps))
	case analysis.SolanaTransferHookParams:
		b = append(b, optKeyBytes(t, p.Authority)...)
		b = append(b, optKeyBytes(t, p.ProgramID)...)
	case analysis.SolanaConfidentialTransferFeeParams:
		b = append(b, optKeyBytes(t, p.Authority)...)
		b = append(b, hexBytes(t, p.WithdrawWithheldAuthorityElGamalPubkey)...)
		b = append(b, boolByte(p.HarvestToMintEnabled))
	case analysis.SolanaPointerParams:
		b = append(b, optKeyBytes(t, p.Authority)...)
		b = append(b, optKeyBytes(t, p.Address)...)
	case analysis.SolanaMetadata:
		b = append(b, optKeyBytes(t, p.UpdateAuthority)...)
		b = append(b, keyBytes(t, p.Address)...)
		for _, s := range []string{p.Name, p.Symbol, p.URI} {
			b = borshString(b, s)
		}
		b = b.u32(uint32(len(p.AdditionalMetadata)))
		for _, kv := range p.AdditionalMetadata {
			b = borshString(borshString(b, kv[0]), kv[1])
		}
		if p.IsMutable == nil || *p.IsMutable != (p.UpdateAuthority != nil) {
			t.Fatalf("token metadata mutability %v with update authority %v", p.IsMutable, p.UpdateAuthority)
		}
	case analysis.SolanaTokenGroupParams:
		b = append(b, optKeyBytes(t, p.UpdateAuthority)...)
		b = append(b, keyBytes(t, p.Mint)...)
		if n == 72 {
			b = b.u32(uint32(p.Size)).u32(uint32(p.MaxSize))
		} else {
			b = b.u64(p.Size).u64(p.MaxSize)
		}
	case analysis.SolanaTokenGroupMemberParams:
		b = append(b, keyBytes(t, p.Mint)...)
		b = append(b, keyBytes(t, p.Group)...)
		if n == 68 {
			b = b.u32(uint32(p.MemberNumber))
		} else {
			b = b.u64(p.MemberNumber)
		}
	case analysis.SolanaScaledUIAmountParams:
		b = append(b, optKeyBytes(t, p.Authority)...)
		b = b.u64(math.Float64bits(p.Multiplier)).u64(uint64(p.NewMultiplierEffectiveTimestamp)).u64(math.Float64bits(p.NewMultiplier))
	case analysis.SolanaPausableParams:
		b = append(b, optKeyBytes(t, p.Authority)...)
		b = b.u8(boolByte(p.Paused))
	case analysis.SolanaRawParams:
		if p.Length != n {
			t.Fatalf("raw extension %d of length %d listed as %d", e.Type, n, p.Length)
		}
		return nil, false
	case nil:
		if !strings.Contains("7 9 13 15 27", fmt.Sprint(e.Type)) {
			t.Fatalf("extension %d decoded without parameters", e.Type)
		}
		return nil, false
	default:
		t.Fatalf("extension %d: parameters of type %T", e.Type, e.Params)
	}
	return b, true
}

func hexBytes(t testing.TB, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("hex %q is not 32 bytes", s)
	}
	return b
}

// syntheticEntries are hand-built TLV areas for the layouts no fixture
// carries (fuzz seeds; SYNTHETIC).
func syntheticEntries() [][]byte {
	return [][]byte{
		tlvEntry(1, le{}.key(megaAuth).key("").u64(77).u64(500).u64(1_000).u16(100).u64(612).u64(2_000).u16(300)),
		tlvEntry(25, le{}.key(megaAuth).f64(1.5).u64(1_760_000_000).f64(2.25)),
		append(tlvEntry(26, le{}.key(megaAuth).u8(1)), tlvEntry(27, nil)...),
		tlvEntry(23, le{}.key(memberMint).key(megaMint).u64(3)),
		tlvEntry(21, le{}.key("").key(megaMint).u32(7).u32(9)),
		tlvEntry(10, le{}.key(megaAuth).u64(100).u16(0xffff).u64(200).u16(0xfffe)),
		tlvEntry(6, le{}.u8(2)),
	}
}
