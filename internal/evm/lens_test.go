package evm

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"
	"github.com/tokenrisk/tokenrisk/internal/evm/node"
	"github.com/tokenrisk/tokenrisk/internal/evm/pool"

	"context"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// runLens sends one lens call, with extra state overrides (hostile
// tokens), and decodes it.
func runLens(t *testing.T, c *node.Client, req lens.LensRequest, extra node.StateOverride) *lens.LensResult {
	t.Helper()
	el, decode, err := req.Call()
	if err != nil {
		t.Fatal(err)
	}
	ov := el.Args[2].(node.StateOverride)
	for a, o := range extra {
		ov[a] = o
	}
	elems := []rpc.BatchElem{el}
	if err := c.Batch(context.Background(), elems); err != nil {
		t.Fatal(err)
	}
	if elems[0].Error != nil {
		t.Fatalf("lens call: %v", elems[0].Error)
	}
	res, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestLensReadsTokenAndPools(t *testing.T) {
	tc := newTestChain(t)
	m := newMarket(t, tc)
	c := node.NewClient("sim", []string{tc.url}, node.ClientOptions{})
	usdc := common.HexToAddress("0x00000000000000000000000000000000000000c1") // no code: finds nothing
	req := lens.LensRequest{
		Token:   m.token,
		Holders: []common.Address{tc.from, m.pair},
		DEXes: []chains.DEX{
			{Name: "devswap", Kind: "v2", Factory: m.factory.Hex()},
			{Name: "nov3", Kind: "v3", Factory: usdc.Hex(), FeeTiers: []int{500, 3000}},
		},
		Pairs:     []lens.LensPair{{A: m.token, B: m.weth, LP: true}, {A: m.token, B: usdc, LP: true}, {A: m.weth, B: m.usd}},
		LPHolders: []common.Address{dead, tc.from},
	}
	res := runLens(t, c, req, nil)
	if res.Name != "USD Coin" || res.Symbol != "USDC" {
		t.Errorf("name, symbol = %q, %q", res.Name, res.Symbol)
	}
	if res.Decimals == nil || *res.Decimals != 6 {
		t.Errorf("decimals = %v, want 6", res.Decimals)
	}
	if !res.IsERC20() || res.TotalSupply.Cmp(mul(ether, 10_000_000)) != 0 {
		t.Errorf("IsERC20 = %v, total supply = %v", res.IsERC20(), res.TotalSupply)
	}
	if res.OwnerFunc {
		t.Errorf("OwnerFunc = true for a token without owner()")
	}
	if len(res.Balances) != 2 || res.Balances[1].Cmp(mul(ether, 1_000_000)) != 0 {
		t.Errorf("balances = %v, want the pool's 1e6 tokens second", res.Balances)
	}
	if len(res.Pools) != 2 {
		t.Fatalf("found %d pools, want 2 (token/WETH and WETH/USD)", len(res.Pools))
	}
	p := res.Pools[0]
	if p.LensAddress != m.pair || p.LensPair != 0 || p.DEX != 0 {
		t.Errorf("pool 0 = %+v, want the token pair on dex 0", p)
	}
	if p.BalanceA.Cmp(mul(ether, 1_000_000)) != 0 || p.BalanceB.Cmp(mul(ether, 1000)) != 0 {
		t.Errorf("pool balances = %v, %v", p.BalanceA, p.BalanceB)
	}
	if p.Reserve0 == nil || p.Token0 == nil {
		t.Fatalf("reserves/token0 missing: %+v", p)
	}
	if len(p.LPBalances) != 3 || p.LPSupply == nil {
		t.Fatalf("LP balances = %v (supply %v), want dead, creator, owner", p.LPBalances, p.LPSupply)
	}
	burned := new(big.Int).Add(p.LPBalances[0], p.LPBalances[1])
	if p.LPBalances[0].Sign() == 0 || burned.Cmp(p.LPSupply) > 0 {
		t.Errorf("LP dead %v + creator %v vs supply %v", p.LPBalances[0], p.LPBalances[1], p.LPSupply)
	}
	if q := res.Pools[1]; q.LensAddress != m.usdPair || len(q.LPBalances) != 0 {
		t.Errorf("pool 1 = %+v, want the WETH/USD pair without LP reads", q)
	}
	if res.BlockNumber == 0 || res.Timestamp == 0 {
		t.Errorf("block %d time %d", res.BlockNumber, res.Timestamp)
	}
}

func TestDeploylessLensMatchesOverrideLens(t *testing.T) {
	tc := newTestChain(t)
	m := newMarket(t, tc)
	c := node.NewClient("sim", []string{tc.url}, node.ClientOptions{})
	req := pool.NewLensPlan(marketChain(m, tc.url), m.token, []common.Address{tc.from}).Req
	want := runLens(t, c, req, nil)
	el, decode, err := req.DeploylessCall()
	if err != nil {
		t.Fatal(err)
	}
	elems := []rpc.BatchElem{el}
	if err := c.Batch(context.Background(), elems); err != nil || elems[0].Error != nil {
		t.Fatalf("deployless lens: %v %v", err, elems[0].Error)
	}
	got, err := decode()
	if err != nil {
		t.Fatal(err)
	}
	got.BlockNumber, got.Timestamp = want.BlockNumber, want.Timestamp
	if !reflect.DeepEqual(got, want) {
		t.Errorf("deployless lens = %+v\nwant %+v", got, want)
	}
}

func TestLensSurvivesHostileTokens(t *testing.T) {
	tc := newTestChain(t)
	c := node.NewClient("sim", []string{tc.url}, node.ClientOptions{})
	tok := common.HexToAddress("0x00000000000000000000000000000000000bad01")
	word := strings.Repeat("41", 30) + "0000" // "AAAA…" as a bytes32
	tests := []struct {
		name     string
		code     string
		wantName string
		wantOK   bool // name() answered
		erc20    bool
	}{
		{"infinite loop burns its gas cap", "0x5b600056", "", false, false},
		{"returns a megabyte", "0x620f42406000f3", "", false, false},
		{"reverts everything", "0x60006000fd", "", false, false},
		{"answers a bytes32 to everything", "0x7f" + word + "60005260206000f3", strings.Repeat("A", 30), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := lens.LensRequest{Token: tok, Holders: []common.Address{tc.from}, GasPerCall: 100_000}
			res := runLens(t, c, req, node.StateOverride{tok: {Code: hexutil.MustDecode(tt.code)}})
			if res.NameRaw != tt.wantOK || res.Name != tt.wantName {
				t.Errorf("name = %q (answered %v), want %q (%v)", res.Name, res.NameRaw, tt.wantName, tt.wantOK)
			}
			if res.IsERC20() != tt.erc20 {
				t.Errorf("IsERC20 = %v, want %v", res.IsERC20(), tt.erc20)
			}
			if res.Decimals != nil {
				t.Errorf("decimals = %d, want unknown", *res.Decimals)
			}
		})
	}
}

func TestSanitiseText(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"plain", []byte("Pepe"), "Pepe"},
		{"unicode kept", []byte("Ünïcødé 🐸"), "Ünïcødé 🐸"},
		{"nul padding and controls", []byte("AB\x00\x00C\x07\n"), "ABC"},
		{"bidi override removed", []byte("evil\u202Egnp.exe"), "evilgnp.exe"},
		{"whitespace collapsed and trimmed", []byte("  a \t\n b  "), "a b"},
		{"invalid utf-8 dropped", []byte{'o', 0xff, 0xfe, 'k'}, "ok"},
		{"bounded", []byte(strings.Repeat("x", 500)), strings.Repeat("x", lens.MaxNameRunes)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lens.SanitiseText(tt.in); got != tt.want {
				t.Errorf("SanitiseText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestABIText(t *testing.T) {
	enc := func(s string) []byte {
		b := make([]byte, 64, 96+len(s))
		b[31] = 32
		b[63] = byte(len(s))
		b = append(b, s...)
		return append(b, make([]byte, 32-len(s)%32)...)
	}
	lying := enc("hi")
	lying[63] = 200 // length beyond the data
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"abi string", enc("Token"), "Token"},
		{"bytes32", append([]byte("MKR"), make([]byte, 29)...), "MKR"},
		{"lying length", lying, "hi"},
		{"short", []byte("x"), "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lens.SanitiseText(lens.AbiText(tt.in)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzTokenText(f *testing.F) {
	f.Add([]byte("Pepe"))
	f.Add(append(make([]byte, 31), 32))
	f.Add(append(append(make([]byte, 31), 32), append(make([]byte, 31), 0xff)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := lens.SanitiseText(lens.AbiText(data))
		if !utf8.ValidString(s) || utf8.RuneCountInString(s) > lens.MaxNameRunes {
			t.Fatalf("unsafe text %q", s)
		}
		if strings.TrimSpace(s) != s {
			t.Fatalf("untrimmed text %q", s)
		}
	})
}

func TestLensOwnerFromAdmin(t *testing.T) {
	tc := newTestChain(t)
	c := node.NewClient("sim", []string{tc.url}, node.ClientOptions{})
	tok := common.HexToAddress("0x00000000000000000000000000000000000bad02")
	admin := "00000000000000000000000000000000000a11ce"
	// Answers admin() (0xf851a440) with an address and reverts anything else.
	code := hexutil.MustDecode("0x60003560e01c63f851a44014601357600080fd5b73" + admin + "60005260206000f3")
	res := runLens(t, c, lens.LensRequest{Token: tok}, node.StateOverride{tok: {Code: code}})
	if !res.OwnerFunc || res.Owner != common.HexToAddress(admin) {
		t.Errorf("owner = %v (getter %v), want the admin()", res.Owner, res.OwnerFunc)
	}
	if res.IsERC20() {
		t.Errorf("a contract without totalSupply is not an ERC-20")
	}
}

func TestDecodeTextFlagsHostileText(t *testing.T) {
	word := func(n int) []byte { b := make([]byte, 32); b[31] = byte(n); return b }
	abiString := func(s []byte) []byte {
		out := append(word(32), word(len(s))...)
		padded := make([]byte, (len(s)+31)/32*32)
		copy(padded, s)
		return append(out, padded...)
	}
	bytes32 := func(s string) []byte { b := make([]byte, 32); copy(b, s); return b }
	tests := map[string]struct {
		raw         lens.LensRaw
		wantText    string
		wantOK      bool
		wantAltered bool
	}{
		"plain string":     {lens.LensRaw{Ok: true, Data: abiString([]byte("Pepe"))}, "Pepe", true, false},
		"bytes32 (MKR)":    {lens.LensRaw{Ok: true, Data: bytes32("Maker")}, "Maker", true, false},
		"spaces collapsed": {lens.LensRaw{Ok: true, Data: abiString([]byte("Wrapped  Ether"))}, "Wrapped Ether", true, false},
		"reverted":         {lens.LensRaw{Ok: false}, "", false, false},
		"invalid utf-8":    {lens.LensRaw{Ok: true, Data: abiString([]byte{0xff, 0xfe, 'A'})}, "A", true, true},
		"bidi override":    {lens.LensRaw{Ok: true, Data: abiString([]byte("USD\u202eC"))}, "USDC", true, true},
		"over long":        {lens.LensRaw{Ok: true, Data: abiString([]byte(strings.Repeat("x", 200)))}, strings.Repeat("x", lens.MaxNameRunes), true, true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			text, ok, altered := lens.DecodeText(tt.raw)
			if text != tt.wantText || ok != tt.wantOK || altered != tt.wantAltered {
				t.Errorf("decodeText = %q, %v, %v; want %q, %v, %v", text, ok, altered, tt.wantText, tt.wantOK, tt.wantAltered)
			}
		})
	}
}
