package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"

	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/contracts"
)

func TestSelectorOfKnownSignatures(t *testing.T) {
	tests := []struct {
		sig  string
		want string
	}{
		{"mint(address,uint256)", "0x40c10f19"},
		{"transferOwnership(address)", "0xf2fde38b"},
		{"renounceOwnership()", "0x715018a6"},
		{"owner()", "0x8da5cb5b"},
		{"transfer(address,uint256)", "0xa9059cbb"},
		{"balanceOf(address)", "0x70a08231"},
		{"upgradeTo(address)", "0x3659cfe6"},
		{"pause()", "0x8456cb59"},
	}
	for _, tt := range tests {
		if got := bytecode.SelectorOf(tt.sig).String(); got != tt.want {
			t.Errorf("SelectorOf(%q) = %s, want %s", tt.sig, got, tt.want)
		}
	}
}

func TestCatalogueHasNoStandardFunctions(t *testing.T) {
	for _, p := range bytecode.PrivilegedSignatures {
		if bytecode.IsStandard(bytecode.SelectorOf(p.Signature)) {
			t.Errorf("privileged %q is a standard selector", p.Signature)
		}
	}
}

// asm assembles hex fragments separated by spaces.
func asm(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(strings.Join(parts, ""), " ", ""))
	if err != nil {
		t.Fatalf("asm: %v", err)
	}
	return b
}

func TestAnalyseCodeHandAssembled(t *testing.T) {
	const (
		prologue = "6000 35 60e0 1c"            // PUSH1 0 CALLDATALOAD PUSH1 0xe0 SHR
		mintEQ   = "80 6340c10f19 14 610040 57" // DUP1 PUSH4 mint EQ PUSH2 JUMPI
		pauseEQ  = "80 638456cb59 14 610050 57"
		viaIR    = "63f2fde38b 81 14 610060 57" // PUSH4 s DUP2 EQ (via-IR order)
		vyperXor = "6370a08231 81 18 610070 57" // PUSH4 s DUP2 XOR (vyper)
		binGT    = "80 6395d89b41 11 610080 57" // solc binary search pivot
	)
	tests := []struct {
		name         string
		code         []byte
		wantSel      []string
		notSel       []string
		selfdestruct bool
		delegate     bool
		caps         []string
	}{
		{
			name:    "solc dispatcher",
			code:    asm(t, prologue, mintEQ, pauseEQ, "00"),
			wantSel: []string{"0x40c10f19", "0x8456cb59"},
			caps:    []string{bytecode.CapMint, bytecode.CapPause},
		},
		{
			name:    "via-IR, vyper and binary-search patterns",
			code:    asm(t, prologue, viaIR, vyperXor, binGT, "00"),
			wantSel: []string{"0xf2fde38b", "0x70a08231", "0x95d89b41"},
		},
		{
			name:   "PUSH4 used as a constant, not compared",
			code:   asm(t, "6340c10f19 6000 52 00"), // PUSH4 s PUSH1 0 MSTORE STOP
			notSel: []string{"0x40c10f19"},
		},
		{
			name: "selector hidden inside PUSH32 data",
			code: asm(t, "7f", "80 6340c10f19 14 610040 57", strings.Repeat("00", 22), "00"),
			// the bytes 80 63 40c10f19 14 are push data, not code
			notSel: []string{"0x40c10f19"},
		},
		{
			name:         "reachable SELFDESTRUCT",
			code:         asm(t, "5b 33 ff"),
			selfdestruct: true,
		},
		{
			name: "SELFDESTRUCT byte in push data",
			code: asm(t, "60ff 00"),
		},
		{
			name: "SELFDESTRUCT after STOP with no JUMPDEST is dead",
			code: asm(t, "00 33 ff"),
		},
		{
			name:     "DELEGATECALL reachable",
			code:     asm(t, "5b 6000 6000 6000 6000 33 5a f4 00"),
			delegate: true,
		},
		{
			name: "metadata trailer is not code",
			// STOP, then a fake CBOR map a1 .. containing 0xff, length 0x0004
			code: asm(t, "00", "a1 ff ff ff", "0004"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bytecode.AnalyseCode(tt.code)
			for _, s := range tt.wantSel {
				if !hasSel(r, s) {
					t.Errorf("selector %s not found in %v", s, r.Selectors)
				}
			}
			for _, s := range tt.notSel {
				if hasSel(r, s) {
					t.Errorf("selector %s found but is not a dispatcher compare", s)
				}
			}
			if r.HasSelfdestruct != tt.selfdestruct {
				t.Errorf("HasSelfdestruct = %v, want %v", r.HasSelfdestruct, tt.selfdestruct)
			}
			if r.HasDelegatecall != tt.delegate {
				t.Errorf("HasDelegatecall = %v, want %v", r.HasDelegatecall, tt.delegate)
			}
			if tt.caps != nil && strings.Join(r.Capabilities(), ",") != strings.Join(tt.caps, ",") {
				t.Errorf("Capabilities = %v, want %v", r.Capabilities(), tt.caps)
			}
		})
	}
}

func hasSel(r bytecode.CodeReport, s string) bool {
	for _, x := range r.Selectors {
		if x.String() == s {
			return true
		}
	}
	return false
}

func TestMinimalProxyTarget(t *testing.T) {
	target := common.HexToAddress("0xbebebebebebebebebebebebebebebebebebebebe")
	std := asm(t, "363d3d373d3d3d363d73", hex.EncodeToString(target[:]), "5af43d82803e903d91602b57fd5bf3")
	vanity := asm(t, "363d3d373d3d3d363d72", "00000000000000000000000000000000000000000000"[:0], strings.Repeat("ab", 19), "5af43d82803e903d91602a57fd5bf3")
	tests := []struct {
		name string
		code []byte
		want *common.Address
	}{
		{"standard clone", std, &target},
		{"vanity clone with PUSH19", vanity, new(common.HexToAddress("0x00" + strings.Repeat("ab", 19)))},
		{"truncated clone", std[:20], nil},
		{"not a clone", asm(t, "6080604052"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bytecode.AnalyseCode(tt.code)
			switch {
			case tt.want == nil && r.MinimalProxyTarget != nil:
				t.Errorf("target = %s, want none", r.MinimalProxyTarget.Hex())
			case tt.want != nil && (r.MinimalProxyTarget == nil || *r.MinimalProxyTarget != *tt.want):
				t.Errorf("target = %v, want %s", r.MinimalProxyTarget, tt.want.Hex())
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestAnalyseCodeCompiled runs the analysis on real solc output
// (testdata/*.hex, compiled from testdata/*.sol; see testdata/README).
func TestAnalyseCodeCompiled(t *testing.T) {
	tests := []struct {
		file         string
		caps         []string
		selfdestruct bool
		storageCall  bool
	}{
		{"PlainToken.hex", nil, false, false},
		{"ShadyToken.hex", []string{bytecode.CapBlacklist, bytecode.CapExternalTarget, bytecode.CapFeeChange, bytecode.CapMint, bytecode.CapPause, bytecode.CapSelfdestruct}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			code := readHex(t, tt.file)
			r := bytecode.AnalyseCode(code)
			if got := strings.Join(r.Capabilities(), ","); got != strings.Join(tt.caps, ",") {
				t.Errorf("Capabilities = %q, want %q", got, strings.Join(tt.caps, ","))
			}
			if r.HasSelfdestruct != tt.selfdestruct {
				t.Errorf("HasSelfdestruct = %v, want %v", r.HasSelfdestruct, tt.selfdestruct)
			}
			if r.StorageTargetCall != tt.storageCall {
				t.Errorf("StorageTargetCall = %v, want %v", r.StorageTargetCall, tt.storageCall)
			}
			for _, s := range []bytecode.Selector{bytecode.SelTransfer, bytecode.SelBalanceOf, bytecode.SelTotalSupply} {
				if !r.HasSelector(s) {
					t.Errorf("standard selector %s not found", s)
				}
			}
		})
	}
}

func readHex(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	b, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

func FuzzAnalyseCode(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x63, 0x40, 0xc1})                   // truncated PUSH4
	f.Add([]byte{0x7f})                               // PUSH32 with no data
	f.Add([]byte{0x36, 0x3d, 0x3d, 0x37, 0x3d, 0x3d}) // truncated clone prefix
	f.Add([]byte{0x80, 0x63, 0x40, 0xc1, 0x0f, 0x19, 0x14, 0x54, 0x73})
	f.Add([]byte{0x00, 0xa1, 0xff, 0xff, 0x00, 0xff}) // bogus metadata length
	f.Fuzz(func(t *testing.T, code []byte) {
		r := bytecode.AnalyseCode(code)
		if r.Size != len(code) {
			t.Fatalf("Size = %d, want %d", r.Size, len(code))
		}
		for _, m := range r.Privileged {
			if !r.HasSelector(m.Selector) {
				t.Fatalf("privileged %s not among selectors", m.Selector)
			}
		}
	})
}

// TestAnalyseCodeFindsEveryABIFunction: on every contract of the repo
// (solc output of the devnet, the zoo, the lens, simulator and prober), the
// dispatcher walk finds the selector of every function in the ABI.
func TestAnalyseCodeFindsEveryABIFunction(t *testing.T) {
	for _, name := range contracts.Names() {
		c, err := contracts.Artifact(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.DeployedBytecode) == 0 {
			continue
		}
		r := bytecode.AnalyseCode(c.DeployedBytecode)
		for _, m := range c.ABI.Methods {
			var s bytecode.Selector
			copy(s[:], m.ID)
			if !r.HasSelector(s) {
				t.Errorf("%s: %s (%s) not found", name, m.Sig, s)
			}
		}
	}
}
