package lens

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/node"

	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// The lens (contracts/src/Lens.sol) is never deployed: its runtime code is
// placed by a state override at LensAddress for one eth_call. That works on
// every node that supports eth_call state overrides, so it is the single
// path even where Multicall3 is deployed.

// LensAddress is the throwaway address the lens code is injected at.
var LensAddress = common.HexToAddress("0x000000000000000000000000000000004c656e73")

// DefaultLensGas is the gas each of the lens's guarded sub-calls may use.
const DefaultLensGas = 150_000

// MaxNameRunes bounds a sanitised token name or symbol.
const MaxNameRunes = 64

// LensPair is a pair of tokens whose pools the lens looks up on every DEX;
// LP asks for LP supply and the LP balances of LPHolders.
type LensPair struct {
	A, B common.Address
	LP   bool
}

// LensRequest is what one lens call reads.
type LensRequest struct {
	Token common.Address
	// Holders get their token balance read (the owner's is added).
	Holders []common.Address
	DEXes   []chains.DEX
	Pairs   []LensPair
	// LPHolders get their LP balance read in every LP pool (burn
	// addresses, lockers, creator; the owner is added).
	LPHolders []common.Address
	// GasPerCall caps each sub-call (default DefaultLensGas).
	GasPerCall uint64
}

// LensResult is the decoded answer of a lens call. Nil pointers are facts
// the token or pool did not answer.
type LensResult struct {
	BlockNumber uint64
	Timestamp   uint64
	Name        string
	Symbol      string
	// NameRaw and SymbolRaw say whether the token answered at all.
	NameRaw, SymbolRaw bool
	// NameAltered and SymbolAltered say the answer had to be changed to be
	// shown: invalid UTF-8, control characters or over-long text.
	NameAltered, SymbolAltered bool
	Decimals                   *int
	TotalSupply                *big.Int
	// BalanceOfWorks says balanceOf(address) answered a word.
	BalanceOfWorks bool
	// OwnerFunc says owner(), getOwner() or admin() answered an address.
	OwnerFunc bool
	Owner     common.Address
	// Balances are the holders' token balances, in request order.
	Balances     []*big.Int
	OwnerBalance *big.Int
	Pools        []LensPool
}

// IsERC20 reports whether the token answered totalSupply and balanceOf.
func (r *LensResult) IsERC20() bool { return r.TotalSupply != nil && r.BalanceOfWorks }

// LensPool is one pool the lens found.
type LensPool struct {
	// Pair and DEX index the request's Pairs and DEXes.
	LensPair, DEX int
	Fee           int
	Stable        bool
	LensAddress   common.Address
	Token0        *common.Address
	// Reserve0 and Reserve1 come from getReserves (V2-style pools).
	Reserve0, Reserve1 *big.Int
	// BalanceA and BalanceB are the pair's tokens held by the pool.
	BalanceA, BalanceB *big.Int
	LPSupply           *big.Int
	// LPBalances are the LP balances of the request's LPHolders, then of
	// the owner; empty when LP was not asked or the pool has no LP token.
	LPBalances []*big.Int
}

// ABI mirrors of Lens.sol's structs (field names follow the ABI).
type (
	lensDex struct {
		Kind    uint8
		Factory common.Address
		Fees    []*big.Int
	}
	lensPair struct {
		A  common.Address
		B  common.Address
		Lp bool
	}
	lensRequest struct {
		Token      common.Address
		Holders    []common.Address
		Dexes      []lensDex
		Pairs      []lensPair
		LpHolders  []common.Address
		GasPerCall *big.Int
	}
	LensRaw struct {
		Ok   bool
		Data []byte
	}
	lensPool struct {
		LensPair   uint16
		Dex        uint16
		Fee        *big.Int
		Stable     bool
		LensPool   common.Address
		Token0     LensRaw
		Reserves   LensRaw
		BalanceA   LensRaw
		BalanceB   LensRaw
		LpSupply   LensRaw
		LpBalances []LensRaw
	}
	lensResponse struct {
		BlockNumber  *big.Int
		Timestamp    *big.Int
		Name         LensRaw
		Symbol       LensRaw
		Decimals     LensRaw
		TotalSupply  LensRaw
		BalanceProbe LensRaw
		Owner        LensRaw
		GetOwner     LensRaw
		Admin        LensRaw
		Balances     []LensRaw
		Pools        []lensPool
	}
)

// lensContract loads the embedded lens once; the artifact never changes.
var lensContract = sync.OnceValues(func() (contracts.Compiled, error) {
	return contracts.Artifact("Lens")
})

// lensDeployless loads the constructor-run lens once.
var lensDeployless = sync.OnceValues(func() (contracts.Compiled, error) {
	return contracts.Artifact("LensDeployless")
})

func dexKind(kind string) (uint8, bool) {
	switch kind {
	case "v2":
		return 1, true
	case "v3":
		return 2, true
	case "solidly":
		return 3, true
	}
	return 0, false
}

// Call builds the lens's eth_call batch element (the lens injected by
// state override) and the decoder of its result (valid after the batch
// ran).
func (r LensRequest) Call() (rpc.BatchElem, func() (*LensResult, error), error) {
	lens, err := lensContract()
	if err != nil {
		return rpc.BatchElem{}, nil, fmt.Errorf("lens: %w", err)
	}
	req := r.abiRequest()
	input, err := lens.ABI.Pack("scan", req)
	if err != nil {
		return rpc.BatchElem{}, nil, fmt.Errorf("lens: pack: %w", err)
	}
	out := new(hexutil.Bytes)
	el := node.CallElem(node.CallMsg{To: LensAddress, Data: input}, node.StateOverride{LensAddress: {Code: lens.DeployedBytecode}}, out)
	decode := func() (*LensResult, error) {
		return decodeLens(lens.ABI, *out, len(r.Holders), len(r.LPHolders))
	}
	return el, decode, nil
}

// creationCall is an eth_call that runs creation code (no "to").
type creationCall struct {
	Data hexutil.Bytes `json:"data"`
}

// DeploylessCall builds the same lens call for nodes without state
// overrides: eth_call of the lens's creation code, whose constructor
// returns the answer. Answers above the 24 KiB code size limit fail, so
// it is a fallback.
func (r LensRequest) DeploylessCall() (rpc.BatchElem, func() (*LensResult, error), error) {
	lens, err := lensContract()
	if err != nil {
		return rpc.BatchElem{}, nil, fmt.Errorf("lens: %w", err)
	}
	dl, err := lensDeployless()
	if err != nil {
		return rpc.BatchElem{}, nil, fmt.Errorf("lens: %w", err)
	}
	args, err := dl.ABI.Pack("", r.abiRequest())
	if err != nil {
		return rpc.BatchElem{}, nil, fmt.Errorf("lens: pack: %w", err)
	}
	out := new(hexutil.Bytes)
	data := append(append([]byte(nil), dl.Bytecode...), args...)
	el := rpc.BatchElem{Method: "eth_call", Args: []any{creationCall{Data: data}, node.Latest}, Result: out}
	decode := func() (*LensResult, error) {
		return decodeLens(lens.ABI, *out, len(r.Holders), len(r.LPHolders))
	}
	return el, decode, nil
}

// abiRequest converts the request to Lens.sol's Request.
func (r LensRequest) abiRequest() lensRequest {
	gas := r.GasPerCall
	if gas == 0 {
		gas = DefaultLensGas
	}
	req := lensRequest{
		Token:      r.Token,
		Holders:    nonNil(r.Holders),
		LpHolders:  nonNil(r.LPHolders),
		GasPerCall: new(big.Int).SetUint64(gas),
		Dexes:      []lensDex{},
		Pairs:      []lensPair{},
	}
	for _, d := range r.DEXes {
		k, _ := dexKind(d.Kind) // unknown kinds (0) find no pools
		ld := lensDex{Kind: k, Factory: common.HexToAddress(d.Factory), Fees: []*big.Int{}}
		for _, f := range d.FeeTiers {
			ld.Fees = append(ld.Fees, big.NewInt(int64(f)))
		}
		req.Dexes = append(req.Dexes, ld)
	}
	for _, p := range r.Pairs {
		req.Pairs = append(req.Pairs, lensPair{A: p.A, B: p.B, Lp: p.LP})
	}
	return req
}

func nonNil(a []common.Address) []common.Address {
	if a == nil {
		return []common.Address{}
	}
	return a
}

func decodeLens(parsed abi.ABI, data []byte, holders, lpHolders int) (*LensResult, error) {
	if len(data) == 0 {
		return nil, errors.New("lens: empty answer (state overrides unsupported?)")
	}
	vals, err := parsed.Methods["scan"].Outputs.Unpack(data)
	if err != nil {
		return nil, fmt.Errorf("lens: unpack: %w", err)
	}
	if len(vals) != 1 {
		return nil, fmt.Errorf("lens: %d outputs, want 1", len(vals))
	}
	resp, ok := abi.ConvertType(vals[0], new(lensResponse)).(*lensResponse)
	if !ok {
		return nil, errors.New("lens: unexpected output type")
	}
	res := &LensResult{
		BlockNumber: resp.BlockNumber.Uint64(),
		Timestamp:   resp.Timestamp.Uint64(),
	}
	res.Name, res.NameRaw, res.NameAltered = DecodeText(resp.Name)
	res.Symbol, res.SymbolRaw, res.SymbolAltered = DecodeText(resp.Symbol)
	if d := lensWord(resp.Decimals); d != nil && d.IsUint64() && d.Uint64() <= 255 {
		v := int(d.Uint64())
		res.Decimals = &v
	}
	res.TotalSupply = lensWord(resp.TotalSupply)
	res.BalanceOfWorks = lensWord(resp.BalanceProbe) != nil
	// owner(), else getOwner(), else admin(): the first getter that
	// answers an address; a zero owner() is final (renounced).
	for _, raw := range []LensRaw{resp.Owner, resp.GetOwner, resp.Admin} {
		if a, ok := lensAddr(raw); ok {
			res.OwnerFunc, res.Owner = true, a
			break
		}
	}
	if len(resp.Balances) != holders+1 {
		return nil, fmt.Errorf("lens: %d balances, want %d", len(resp.Balances), holders+1)
	}
	for _, b := range resp.Balances[:holders] {
		res.Balances = append(res.Balances, lensWord(b))
	}
	if res.OwnerFunc {
		res.OwnerBalance = lensWord(resp.Balances[holders])
	}
	for _, p := range resp.Pools {
		lp := LensPool{
			LensPair:    int(p.LensPair),
			DEX:         int(p.Dex),
			Fee:         int(p.Fee.Int64()),
			Stable:      p.Stable,
			LensAddress: p.LensPool,
			BalanceA:    lensWord(p.BalanceA),
			BalanceB:    lensWord(p.BalanceB),
			LPSupply:    lensWord(p.LpSupply),
		}
		if a, ok := lensAddr(p.Token0); ok {
			lp.Token0 = &a
		}
		if p.Reserves.Ok && len(p.Reserves.Data) >= 64 {
			lp.Reserve0 = new(big.Int).SetBytes(p.Reserves.Data[:32])
			lp.Reserve1 = new(big.Int).SetBytes(p.Reserves.Data[32:64])
		}
		if len(p.LpBalances) > 0 {
			if len(p.LpBalances) != lpHolders+1 {
				return nil, fmt.Errorf("lens: %d LP balances, want %d", len(p.LpBalances), lpHolders+1)
			}
			for _, b := range p.LpBalances {
				lp.LPBalances = append(lp.LPBalances, lensWord(b))
			}
		}
		res.Pools = append(res.Pools, lp)
	}
	return res, nil
}

// lensWord decodes a successful call's first 32-byte word.
func lensWord(r LensRaw) *big.Int {
	if !r.Ok || len(r.Data) < 32 {
		return nil
	}
	return new(big.Int).SetBytes(r.Data[:32])
}

// lensAddr decodes a successful call's first word as an address; a word
// with bits above 160 is not an address.
func lensAddr(r LensRaw) (common.Address, bool) {
	w := lensWord(r)
	if w == nil || w.BitLen() > 160 {
		return common.Address{}, false
	}
	return common.BigToAddress(w), true
}

// decodeText decodes a name()/symbol() answer: an ABI string, or a bytes32
// (older tokens such as MKR), and sanitises it. ok is false when the call
// failed; altered is true when the text had to be changed to be shown.
func DecodeText(r LensRaw) (text string, ok, altered bool) {
	if !r.Ok {
		return "", false, false
	}
	raw := AbiText(r.Data)
	// A bytes32 answer is zero padded: the padding is no deviation.
	trimmed := strings.TrimRight(string(raw), "\x00")
	altered = !utf8.ValidString(trimmed) || utf8.RuneCountInString(trimmed) > MaxNameRunes ||
		strings.IndexFunc(trimmed, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0
	return SanitiseText(raw), true, altered
}

// abiText extracts the text bytes of an ABI-encoded string or a bytes32,
// tolerating truncated or lying offsets and lengths.
func AbiText(data []byte) []byte {
	if len(data) >= 64 {
		off := new(big.Int).SetBytes(data[:32])
		if off.IsUint64() && off.Uint64() <= uint64(len(data)-32) {
			o := int(off.Uint64())
			n := new(big.Int).SetBytes(data[o : o+32])
			avail := len(data) - o - 32
			if n.IsUint64() && n.Uint64() <= uint64(avail) {
				return data[o+32 : o+32+int(n.Uint64())]
			}
			if n.IsUint64() {
				return data[o+32:] // truncated by the lens's copy bound
			}
		}
	}
	if len(data) >= 32 {
		return data[:32] // bytes32
	}
	return data
}

// SanitiseText makes token-supplied text safe to show: valid UTF-8, no
// control or invisible formatting characters (NULs, bidi overrides),
// whitespace collapsed, at most MaxNameRunes runes.
func SanitiseText(b []byte) string {
	var sb strings.Builder
	space := false
	n := 0
	for len(b) > 0 && n < MaxNameRunes {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		switch {
		case r == utf8.RuneError && size <= 1:
			continue
		case unicode.IsSpace(r):
			space = sb.Len() > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), !unicode.IsPrint(r):
			continue
		}
		if space {
			sb.WriteByte(' ')
			n++
			space = false
			if n >= MaxNameRunes {
				break
			}
		}
		sb.WriteRune(r)
		n++
	}
	return sb.String()
}
