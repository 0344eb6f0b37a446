package codeprint_test

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/codeprint"
)

func load(t testing.TB, address string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", address+".hex"))
	if err != nil {
		t.Fatal(err)
	}
	code, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(b)), "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// TestRedeploymentsShareTheFingerprint: pairs of one contract deployed
// twice on Ethereum, differing in what a redeployment changes, read as
// the same code; a renamed function keeps the skeleton but not the
// dispatcher.
func TestRedeploymentsShareTheFingerprint(t *testing.T) {
	for _, tc := range []struct {
		name           string
		a, b           string
		sameDispatcher bool
	}{
		{"metadata hash only", "0x04773124b09d0e3a7a01706f26e1f45810645f6b", "0x09f5e86940fb5427a2f705d93411b9b0aab3c2c8", true},
		{"immutables and a shorter constant", "0x00ef6a5a141eabea8588c8100a96f9773b5ccaf6", "0x14ddda446688b73161aa1382f4e4343353af6fc8", true},
		{"embedded addresses", "0x9cec686ba6f07d6135b2091140c795166ef5b761", "0xa1a6f16d26aa53aec17e4001fd8cb6e6d5b17ff7", true},
		{"a renamed function", "0x17e5f19d430788323863c6798ecd762a40de29f5", "0xf151997c8e7e7e1fed16232127d1d76938de1892", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ca, cb := load(t, tc.a), load(t, tc.b)
			if bytes.Equal(ca, cb) {
				t.Fatal("the pair's bytes are identical: nothing to ignore")
			}
			pa, pb := codeprint.Of(ca), codeprint.Of(cb)
			if pa.Code == "" || pa.Code != pb.Code {
				t.Errorf("code fingerprints %q and %q, want one", pa.Code, pb.Code)
			}
			if pa.Trailer == 0 || pb.Trailer == 0 {
				t.Errorf("trailers %d and %d bytes, want solc's metadata cut off", pa.Trailer, pb.Trailer)
			}
			if pa.Selectors < 4 || pa.Dispatcher == "" {
				t.Errorf("dispatcher %q with %d selectors, want a token's", pa.Dispatcher, pa.Selectors)
			}
			if (pa.Dispatcher == pb.Dispatcher) != tc.sameDispatcher {
				t.Errorf("dispatchers %q and %q: same = %v, want %v", pa.Dispatcher, pb.Dispatcher, !tc.sameDispatcher, tc.sameDispatcher)
			}
		})
	}
}

// TestDifferentContractsDiffer: one file of each pair, the largest and
// the one with a child contract are six contracts, six fingerprints.
func TestDifferentContractsDiffer(t *testing.T) {
	seen := map[string]string{}
	for _, a := range []string{
		"0x04773124b09d0e3a7a01706f26e1f45810645f6b", "0x00ef6a5a141eabea8588c8100a96f9773b5ccaf6",
		"0x9cec686ba6f07d6135b2091140c795166ef5b761", "0x17e5f19d430788323863c6798ecd762a40de29f5",
		"0x14aa9c36d76901fe1ebcc860038aee9318596103", "0x2f22c502a8029d5e64aeafb6e0a214c0323f43c7",
	} {
		p := codeprint.Of(load(t, a))
		if other, dup := seen[p.Code]; dup {
			t.Errorf("%s and %s share %s", a, other, p.Code)
		}
		seen[p.Code] = a
		if !strings.HasPrefix(p.Code, codeprint.CodePrefix) || len(p.Code) != len(codeprint.CodePrefix)+32 ||
			!strings.HasPrefix(p.Dispatcher, codeprint.DispatcherPrefix) {
			t.Errorf("%s: %+v, want versioned fingerprints of 128 bits", a, p)
		}
	}
}

// TestEmbeddedMetadataIsMasked: a token whose runtime holds a child
// contract's code carries the child's metadata too; a child compiled
// from another source (another hash) leaves the fingerprint alone, while
// a change to the code around it does not.
func TestEmbeddedMetadataIsMasked(t *testing.T) {
	code := load(t, "0x2f22c502a8029d5e64aeafb6e0a214c0323f43c7")
	p := codeprint.Of(code)
	if p.Masked != 43 {
		t.Fatalf("masked %d bytes, want the child's 43-byte metadata", p.Masked)
	}
	trailerAt := len(code) - p.Trailer
	child := bytes.LastIndex(code[:trailerAt], []byte("\xa1\x65bzzr0\x58\x20"))
	if child < 0 {
		t.Fatal("no embedded metadata before the trailer")
	}
	other := bytes.Clone(code)
	for i := child + 9; i < child+41; i++ {
		other[i] ^= 0x5a
	}
	if got := codeprint.Of(other); got.Code != p.Code {
		t.Errorf("another child hash: %s, want %s", got.Code, p.Code)
	}
	changed := bytes.Clone(code)
	changed[child-3] = 0x01 // an ADD where the child's code ends
	if got := codeprint.Of(changed); got.Code == p.Code {
		t.Errorf("a changed opcode kept the fingerprint %s", got.Code)
	}
}

// TestTrailers: the trailer is cut only when it is well-formed CBOR of
// the length the last two bytes say (vyper's shape too); code whose last
// bytes merely read as a length keeps them.
func TestTrailers(t *testing.T) {
	body := []byte{0x60, 0x80, 0x60, 0x40, 0x52, 0x34, 0x80, 0x15, 0x00}
	vyper := func(minor byte) []byte { // {"vyper": [0, 3, minor]}
		m := append([]byte{0xa1, 0x65}, "vyper"...)
		m = append(m, 0x83, 0x00, 0x03, minor)
		return append(m, 0x00, byte(len(m)))
	}
	with := func(trailer []byte) []byte { return append(bytes.Clone(body), trailer...) }
	for _, tc := range []struct {
		name    string
		a, b    []byte
		same    bool
		trailer int
	}{
		{"vyper versions", with(vyper(7)), with(vyper(9)), true, 13},
		{"a trailer and none", with(vyper(7)), body, true, 13},
		{"not CBOR: a map missing its value", with([]byte{0xa1, 0x41, 0x01, 0x00, 0x03}), with([]byte{0xa1, 0x41, 0x02, 0x00, 0x03}), false, 0},
		{"a length past the start", with([]byte{0xff, 0xff}), with([]byte{0xff, 0xfe}), false, 0},
		{"indefinite length refused", with([]byte{0xbf, 0xff, 0x00, 0x02}), with([]byte{0xbf, 0xfe, 0x00, 0x02}), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pa, pb := codeprint.Of(tc.a), codeprint.Of(tc.b)
			if (pa.Code == pb.Code) != tc.same {
				t.Errorf("%s vs %s: same = %v, want %v", pa.Code, pb.Code, !tc.same, tc.same)
			}
			if pa.Trailer != tc.trailer {
				t.Errorf("trailer %d bytes, want %d", pa.Trailer, tc.trailer)
			}
		})
	}
	if p := codeprint.Of(nil); !p.IsZero() || p.Dispatcher != "" {
		t.Errorf("empty code: %+v, want no fingerprint", p)
	}
}

// FuzzOf: whatever bytes a chain returns as code, Of returns, and an
// unchanged input gives an unchanged fingerprint.
func FuzzOf(f *testing.F) {
	for _, a := range []string{"0x04773124b09d0e3a7a01706f26e1f45810645f6b", "0x2f22c502a8029d5e64aeafb6e0a214c0323f43c7"} {
		f.Add(load(f, a))
	}
	f.Add([]byte{0xa1, 0x64, 'i', 'p', 'f', 's', 0x58, 0x22, 0x00, 0x08})
	f.Add([]byte{0x63, 0xa9, 0x05, 0x9c, 0xbb, 0x14, 0x7f})
	f.Fuzz(func(t *testing.T, code []byte) {
		p := codeprint.Of(code)
		if len(code) > 0 && !strings.HasPrefix(p.Code, codeprint.CodePrefix) {
			t.Fatalf("non-empty code without a fingerprint: %+v", p)
		}
		if p.Trailer+p.Masked > len(code) {
			t.Fatalf("cut %d+%d bytes of %d", p.Trailer, p.Masked, len(code))
		}
		if q := codeprint.Of(bytes.Clone(code)); q != p {
			t.Fatalf("not deterministic: %+v then %+v", p, q)
		}
	})
}

// BenchmarkOf fingerprints the corpus's largest token (24,267 bytes).
func BenchmarkOf(b *testing.B) {
	code := load(b, "0x14aa9c36d76901fe1ebcc860038aee9318596103")
	b.SetBytes(int64(len(code)))
	b.ReportAllocs()
	for b.Loop() {
		codeprint.Of(code)
	}
}
