package solana_test

import (
	"context"
	"encoding/binary"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// memberMint is a Token-2022 mint in the mega token's group, made on a
// local test validator (SYNTHETIC, see testdata/accounts/README.md).
const memberMint = "CXZDzjSrQ5jPaBgk6ckTQrLPTnUURiY2GnAgVCS9Fggz"

// le builds little-endian values written by hand from the Token-2022
// layouts, independent of the decoder under test.
type le []byte

func (b le) u8(v uint8) le   { return append(b, v) }
func (b le) u16(v uint16) le { return binary.LittleEndian.AppendUint16(b, v) }
func (b le) u32(v uint32) le { return binary.LittleEndian.AppendUint32(b, v) }
func (b le) u64(v uint64) le { return binary.LittleEndian.AppendUint64(b, v) }
func (b le) f64(v float64) le {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}
func (b le) key(k string) le {
	if k == "" {
		return append(b, make([]byte, 32)...)
	}
	raw := make([]byte, 32)
	putKey(raw, 0, k)
	return append(b, raw...)
}

// tlvEntry is one TLV entry: u16 type, u16 length, value.
func tlvEntry(typ uint16, v []byte) []byte {
	return append(le{}.u16(typ).u16(uint16(len(v))), v...)
}

// extendedMint is a SYNTHETIC Token-2022 mint (no authorities) carrying
// the given TLV entries.
func extendedMint(supply uint64, decimals uint8, entries ...[]byte) []byte {
	b := make([]byte, 166)
	copy(b, syntheticMint(supply, decimals))
	b[165] = 1 // AccountType::Mint
	for _, e := range entries {
		b = append(b, e...)
	}
	return b
}

func strp(s string) *string { return &s }

func TestDecodeExtensionsTokenGroupMember(t *testing.T) {
	data, _ := fixture(t, memberMint)
	m, err := solana.DecodeMint(data)
	if err != nil {
		t.Fatal(err)
	}
	exts, _, err := solana.DecodeExtensions(m.TLV)
	if err != nil {
		t.Fatal(err)
	}
	if len(exts) != 2 || exts[0].Name != analysis.SolanaExtGroupMemberPointer || exts[1].Name != analysis.SolanaExtTokenGroupMember {
		t.Fatalf("extensions = %+v", exts)
	}
	if p := exts[0].Params.(analysis.SolanaPointerParams); strPtr(p.Authority) != megaAuth || strPtr(p.Address) != memberMint {
		t.Errorf("group member pointer = %s by %s", strPtr(p.Address), strPtr(p.Authority))
	}
	want := analysis.SolanaTokenGroupMemberParams{Mint: memberMint, Group: megaMint, MemberNumber: 1}
	if got := exts[1].Params; !reflect.DeepEqual(got, want) {
		t.Errorf("group member = %+v, want %+v", got, want)
	}
}

// TestDecodeExtensionsSynthetic decodes entries no fixture carries, built
// by hand from the layouts so that each field sits at a distinct value
// (a decoder that swaps two fields or inverts a flag fails).
func TestDecodeExtensionsSynthetic(t *testing.T) {
	const auth, withdraw = megaAuth, "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
	tests := []struct {
		name  string
		typ   uint16
		value []byte
		want  any
	}{
		{"transfer fee: older and newer differ", 1,
			le{}.key(auth).key(withdraw).u64(77).u64(500).u64(1_000).u16(100).u64(612).u64(2_000).u16(300),
			analysis.SolanaTransferFeeParams{
				ConfigAuthority: strp(auth), WithdrawAuthority: strp(withdraw), WithheldAmount: 77,
				Older: analysis.SolanaTransferFee{Epoch: 500, MaximumFee: 1_000, BasisPoints: 100},
				Newer: analysis.SolanaTransferFee{Epoch: 612, MaximumFee: 2_000, BasisPoints: 300},
			}},
		{"pausable, paused", 26, le{}.key(auth).u8(1), analysis.SolanaPausableParams{Authority: strp(auth), Paused: true}},
		{"pausable, running", 26, le{}.key(auth).u8(0), analysis.SolanaPausableParams{Authority: strp(auth), Paused: false}},
		{"pausable, authority revoked while paused", 26, le{}.key("").u8(1), analysis.SolanaPausableParams{Paused: true}},
		{"scaled UI amount", 25, le{}.key(auth).f64(1.5).u64(1_760_000_000).f64(2.25),
			analysis.SolanaScaledUIAmountParams{Authority: strp(auth), Multiplier: 1.5, NewMultiplierEffectiveTimestamp: 1_760_000_000, NewMultiplier: 2.25}},
		{"group member, u64 member number", 23, le{}.key(memberMint).key(megaMint).u64(1 << 40),
			analysis.SolanaTokenGroupMemberParams{Mint: memberMint, Group: megaMint, MemberNumber: 1 << 40}},
		{"token group, first u32 sizes", 21, le{}.key("").key(megaMint).u32(7).u32(9),
			analysis.SolanaTokenGroupParams{Mint: megaMint, Size: 7, MaxSize: 9}},
		{"interest bearing, negative rates", 10, le{}.key(auth).u64(100).u16(uint16(0xffff)).u64(200).u16(uint16(0xfffe)),
			analysis.SolanaInterestBearingParams{RateAuthority: strp(auth), InitializationTimestamp: 100, PreUpdateAverageRateBps: -1, LastUpdateTimestamp: 200, CurrentRateBps: -2}},
		{"default account state frozen", 6, le{}.u8(2), analysis.SolanaDefaultAccountStateParams{State: "frozen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := solana.DecodeMint(extendedMint(1_000, 6, tlvEntry(tt.typ, tt.value)))
			if err != nil {
				t.Fatal(err)
			}
			exts, _, err := solana.DecodeExtensions(m.TLV)
			if err != nil {
				t.Fatal(err)
			}
			if len(exts) != 1 || exts[0].Type != tt.typ {
				t.Fatalf("extensions = %+v", exts)
			}
			if !reflect.DeepEqual(exts[0].Params, tt.want) {
				t.Errorf("params = %+v\nwant     %+v", exts[0].Params, tt.want)
			}
			// One byte short is refused, not read past.
			if _, _, err := solana.DecodeExtensions(tlvEntry(tt.typ, tt.value[:len(tt.value)-1])); err == nil {
				t.Error("a value one byte short decoded without an error")
			}
		})
	}
}

// TestAssessPausedScaledFeeMint scans a SYNTHETIC Token-2022 mint that is
// paused, scales its UI amount and raises its transfer fee at a later
// epoch: the report shows each fact as the bytes say.
func TestAssessPausedScaledFeeMint(t *testing.T) {
	const pauser = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
	tests := []struct {
		name       string
		paused     uint8
		epoch      uint64
		wantFeePct float64
	}{
		{"paused, before the newer fee", 1, 611, 1},
		{"running, at the newer fee", 0, 612, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			srv.SetEpoch(tt.epoch)
			mint := syntheticKey("paused-scaled-fee-mint")
			data := extendedMint(5_000_000, 6,
				tlvEntry(1, le{}.key("").key("").u64(0).u64(500).u64(1_000).u16(100).u64(612).u64(2_000).u16(300)),
				tlvEntry(25, le{}.key("").f64(1.5).u64(0).f64(1.5)),
				tlvEntry(26, le{}.key(pauser).u8(tt.paused)),
			)
			srv.SetAccount(mint, solanatest.Account{Lamports: 3_000_000, Owner: solanatest.Token2022Program, Data: data})
			got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, mint))
			if err != nil {
				t.Fatal(err)
			}
			ev := got.Contract.Evidence.(analysis.SolanaContractEvidence)
			var pause analysis.SolanaPausableParams
			var fee analysis.SolanaTransferFeeParams
			for _, e := range ev.Extensions {
				switch p := e.Params.(type) {
				case analysis.SolanaPausableParams:
					pause = p
				case analysis.SolanaTransferFeeParams:
					fee = p
				}
			}
			if pause.Paused != (tt.paused == 1) || strPtr(pause.Authority) != pauser {
				t.Errorf("pausable = %+v, want paused %v by %s", pause, tt.paused == 1, pauser)
			}
			var pauseFlag, feeFlag *risk.Flag
			for i, f := range got.Contract.Flags {
				switch f.Code {
				case risk.OwnerCanPause:
					pauseFlag = &got.Contract.Flags[i]
				case risk.TransferFee:
					feeFlag = &got.Contract.Flags[i]
				}
			}
			if pauseFlag == nil {
				t.Fatalf("flags = %+v, want %s", got.Contract.Flags, risk.OwnerCanPause)
			}
			if says := strings.Contains(pauseFlag.Detail, "paused now"); says != (tt.paused == 1) {
				t.Errorf("pause flag detail %q; paused = %d", pauseFlag.Detail, tt.paused)
			}
			if feeFlag == nil || feeFlag.Value == nil || *feeFlag.Value != tt.wantFeePct {
				t.Fatalf("fee flag = %+v, want %v%%", feeFlag, tt.wantFeePct)
			}
			if fee.Current == nil || fee.Older.Epoch != 500 || fee.Newer.Epoch != 612 {
				t.Errorf("transfer fee = %+v", fee)
			}
		})
	}
}

// TestDecodeRejectsWrongAccountType: an extended account is decoded only
// as what its AccountType byte says (SYNTHETIC bytes).
func TestDecodeRejectsWrongAccountType(t *testing.T) {
	asAccount := extendedMint(1, 0, tlvEntry(7, nil))
	asAccount[165] = 2 // AccountType::Account with zero padding
	if m, err := solana.DecodeMint(asAccount); err == nil {
		t.Errorf("DecodeMint accepted an account of type 2: %+v", m)
	}
	asMint := extendedMint(1, 0, tlvEntry(9, nil))
	asMint[108] = 1 // a byte that would read as an initialized account state
	if a, err := solana.DecodeTokenAccount(asMint); err == nil {
		t.Errorf("DecodeTokenAccount accepted an account of type 1: %+v", a)
	}
}

// TestDecodeExtensionsGroupSizes: the group extensions have two layouts
// each; any other length is refused.
func TestDecodeExtensionsGroupSizes(t *testing.T) {
	for _, tt := range []struct {
		typ uint16
		n   int
	}{{21, 76}, {21, 64}, {23, 70}, {23, 80}} {
		if exts, _, err := solana.DecodeExtensions(tlvEntry(tt.typ, make([]byte, tt.n))); err == nil {
			t.Errorf("type %d of %d bytes decoded: %+v", tt.typ, tt.n, exts)
		}
	}
}

// TestAssessTrustedStablecoinWithDelegate: PYUSD is a Token-2022 mint
// whose issuer keeps a permanent delegate, a transfer hook authority and
// the pause switch. As a configured trusted token it reads at most low,
// with every one of those facts still flagged. The mint bytes are
// SYNTHETIC (PYUSD's extensions, built here), served at PYUSD's address.
func TestAssessTrustedStablecoinWithDelegate(t *testing.T) {
	const pyusd, issuer = "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
	srv := newServer(t)
	data := extendedMint(1_000_000_000_000, 6,
		tlvEntry(12, le{}.key(issuer)),
		tlvEntry(14, le{}.key(issuer).key("")),
		tlvEntry(26, le{}.key(issuer).u8(0)),
	)
	srv.SetAccount(pyusd, solanatest.Account{Lamports: 3_000_000, Owner: solanatest.Token2022Program, Data: data})
	got, err := newAdapter(t, solana.Options{}, srv.URL()).Assess(context.Background(), request(t, pyusd))
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{risk.TrustedToken, risk.PermanentDelegate, risk.TransferHook, risk.OwnerCanPause} {
		if !hasFlag(got.Contract.Flags, code) {
			t.Errorf("contract flags = %+v, want %s", got.Contract.Flags, code)
		}
	}
	r := scan.Build(risk.NewCatalogue(), request(t, pyusd).Address, got)
	if r.RiskLevel != risk.Minimal && r.RiskLevel != risk.LevelLow {
		t.Errorf("trusted stablecoin level = %s, want at most low", r.RiskLevel)
	}
}
