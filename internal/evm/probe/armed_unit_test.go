package probe

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
	"github.com/tokenrisk/tokenrisk/internal/evm/method"
)

// deskToken is a token played in Go to answer the armed scripts: the
// owner names a desk with setDesk(address); take(address,uint256)
// moves a holder's tokens to the caller, mint(address,uint256) creates
// tokens, freeze(address) stops a holder's transfers; each only for the
// desk, or for anyone when open. halt makes freeze stop every wallet's
// transfers (a pause), move makes mint hand out the owner's tokens,
// handover makes freeze name a new desk (a role setter: the code shows
// it stores its argument) whose own transfers fail.
type deskToken struct {
	owner, desk       common.Address
	supply            *big.Int
	bal               map[common.Address]*big.Int
	frozen            map[common.Address]bool
	halted            bool
	take, mint, block bool // the desk's powers
	open              bool // the powers need no desk
	halt, move        bool
	handover          bool
	// The owner's mint through a stored amount: setReward(uint256)
	// stores an amount, credit(address) hands it out (reward: the
	// amount at launch). rewardOpen lets anyone call both, rewardMove
	// makes credit move the owner's tokens; rewardCode and creditCode
	// say the code has the setter and the credit function.
	reward                 *big.Int
	rewardCode, creditCode bool
	rewardOpen, rewardMove bool
	// deskOwns makes setDesk hand the owner's role to the desk.
	deskOwns bool
}

var (
	selSetDesk = bytecode.SelectorOf("setDesk(address)")
	selTake    = bytecode.SelectorOf("take(address,uint256)")
	selMint    = bytecode.SelectorOf("mint(address,uint256)")
	selFreeze  = bytecode.SelectorOf("freeze(address)")
	selReward  = bytecode.SelectorOf("setReward(uint256)")
	selCredit  = bytecode.SelectorOf("credit(address)")
)

func (t *deskToken) balance(a common.Address) *big.Int {
	if b := t.bal[a]; b != nil {
		return b
	}
	return new(big.Int)
}

func (t *deskToken) moveFrom(from, to common.Address, n *big.Int) bool {
	if t.balance(from).Cmp(n) < 0 {
		return false
	}
	t.bal[from] = new(big.Int).Sub(t.balance(from), n)
	t.bal[to] = new(big.Int).Add(t.balance(to), n)
	return true
}

// exec answers one call of a script.
func (t *deskToken) exec(from common.Address, in []byte) scriptCallResult {
	word := func(v *big.Int) scriptCallResult {
		return scriptCallResult{Status: 1, ReturnData: common.LeftPadBytes(v.Bytes(), 32)}
	}
	fail := scriptCallResult{Status: 0}
	arg := func(i int) []byte { return in[4+32*i : 4+32*(i+1)] }
	addrArg := func(i int) common.Address { return common.BytesToAddress(arg(i)) }
	numArg := func(i int) *big.Int { return new(big.Int).SetBytes(arg(i)) }
	allowed := t.open || (from == t.desk && t.desk != common.Address{})
	switch bytecode.Selector(in[:4]) {
	case bytecode.SelTotalSupply:
		return word(t.supply)
	case bytecode.SelBalanceOf:
		return word(t.balance(addrArg(0)))
	case bytecode.SelTransfer:
		if t.halted || t.frozen[from] || (t.handover && from == t.desk) || !t.moveFrom(from, addrArg(0), numArg(1)) {
			return fail
		}
		return word(big.NewInt(1))
	case selSetDesk:
		if from != t.owner {
			return fail
		}
		t.desk = addrArg(0)
		if t.deskOwns {
			t.owner = t.desk
		}
	case selTake:
		if !t.take || !allowed || !t.moveFrom(addrArg(0), from, numArg(1)) {
			return fail
		}
	case selMint:
		switch {
		case !t.mint || !allowed:
			return fail
		case t.move:
			if !t.moveFrom(t.owner, addrArg(0), numArg(1)) {
				return fail
			}
		default:
			t.supply = new(big.Int).Add(t.supply, numArg(1))
			t.bal[addrArg(0)] = new(big.Int).Add(t.balance(addrArg(0)), numArg(1))
		}
	case selReward:
		if !t.rewardCode || (from != t.owner && !t.rewardOpen) {
			return fail
		}
		t.reward = numArg(0)
	case selCredit:
		if !t.creditCode || (from != t.owner && !t.rewardOpen) {
			return fail
		}
		switch {
		case t.reward == nil:
		case t.rewardMove:
			if !t.moveFrom(t.owner, addrArg(0), t.reward) {
				return fail
			}
		default:
			t.supply = new(big.Int).Add(t.supply, t.reward)
			t.bal[addrArg(0)] = new(big.Int).Add(t.balance(addrArg(0)), t.reward)
		}
	case selFreeze:
		if !t.block || !allowed {
			return fail
		}
		switch {
		case t.halt:
			t.halted = true
		case t.handover:
			t.desk = addrArg(0)
		default:
			t.frozen[addrArg(0)] = true
		}
	default:
		return fail
	}
	return scriptCallResult{Status: 1}
}

// runArmed builds the armed scripts of the desk token's code, plays
// every script on a fresh copy of the token (each script is a
// simulation of its own) and decodes them.
func runArmed(t *testing.T, tok deskToken) []analysis.EVMCapability {
	t.Helper()
	owner, holder := common.HexToAddress("0x0a"), common.HexToAddress("0x0b")
	guarded := func(sel bytecode.Selector, args ...method.Kind) method.Method {
		m := method.Method{Selector: sel, Complete: true, Reaches: true, Guarded: true, Mutates: true, MapWrites: true}
		for _, k := range args {
			m.Args = append(m.Args, method.Arg{Kind: k})
		}
		return m
	}
	setDesk := guarded(selSetDesk, method.Address)
	setDesk.MapWrites, setDesk.Writes = false, []uint256.Int{*uint256.NewInt(7)}
	freeze := guarded(selFreeze, method.Address)
	if tok.handover {
		freeze.SetSlots = []uint256.Int{*uint256.NewInt(8)}
	}
	methods := []method.Method{
		setDesk,
		guarded(selTake, method.Address, method.Uint),
		guarded(selMint, method.Address, method.Uint),
		freeze,
	}
	if tok.rewardCode {
		// A setter: one fixed slot written with the argument.
		m := guarded(selReward, method.Uint)
		m.MapWrites, m.Writes, m.SetSlots = false, []uint256.Int{*uint256.NewInt(9)}, []uint256.Int{*uint256.NewInt(9)}
		methods = append(methods, m)
	}
	if tok.creditCode {
		// A balance and the supply slot written.
		m := guarded(selCredit, method.Address)
		m.Writes, m.GuardedCredit = []uint256.Int{*uint256.NewInt(2)}, true
		methods = append(methods, m)
	}
	req := ProbeRequest{Token: common.HexToAddress("0x70"), Supply: big.NewInt(1_000_000),
		Code: bytecode.CodeReport{Methods: method.Report{Methods: methods}}}
	callers := []probeCaller{{addr: owner, role: RoleOwner}, {addr: ProbeAnyone, role: RoleAnyone}}
	sc := scene{token: req.Token, watch: []common.Address{holder, owner}, holder: holder}
	as := newArmedScripts(req, callers, sc)
	if len(as.scripts) != 1 {
		t.Fatalf("%d scripts, want one (the owner's)", len(as.scripts))
	}
	elems := as.elems()
	for i, s := range as.scripts {
		play := tok
		play.owner, play.supply = owner, new(big.Int).Set(req.Supply)
		play.bal = map[common.Address]*big.Int{holder: big.NewInt(400_000), owner: big.NewInt(600_000)}
		play.frozen = map[common.Address]bool{}
		s.out = make([]scriptBlockResult, len(s.blocks))
		for b, blk := range s.blocks {
			for _, c := range blk.Calls {
				s.out[b].Calls = append(s.out[b].Calls, play.exec(c.From, c.Input))
			}
		}
		elems[i] = rpc.BatchElem{Result: &s.out}
	}
	return as.decode(elems)
}

// The appointee's powers are the appointing owner's, in two steps, and
// only when the control caller cannot do the same: a desk that takes
// is a seizure, one that mints a mint, one that freezes a holder a
// blacklist.
func TestArmedAppointeePowers(t *testing.T) {
	cases := []struct {
		name string
		tok  deskToken
		want []string // capabilities proven, in order
	}{
		{"appointee takes", deskToken{take: true}, []string{bytecode.CapSeize}},
		{"control caller takes too", deskToken{take: true, open: true}, nil},
		{"appointee mints", deskToken{mint: true}, []string{bytecode.CapMint}},
		{"control caller mints too", deskToken{mint: true, open: true}, nil},
		{"appointee hands out the owner's tokens", deskToken{mint: true, move: true}, nil},
		{"appointee blocks the holder", deskToken{block: true}, []string{bytecode.CapBlacklist}},
		{"control caller blocks too", deskToken{block: true, open: true}, nil},
		{"appointee stops every wallet", deskToken{block: true, halt: true}, nil},
		{"appointee hands the holder a role whose transfers fail", deskToken{block: true, handover: true}, nil},
		{"appointee takes, mints and blocks", deskToken{take: true, mint: true, block: true}, []string{bytecode.CapSeize, bytecode.CapMint, bytecode.CapBlacklist}},
		{"nothing happens", deskToken{}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runArmed(t, tc.tok)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %v", got, tc.want)
			}
			for i, c := range got {
				if c.Name != tc.want[i] || !c.TwoStep || c.Proven == nil || !*c.Proven || c.Role != RoleOwner {
					t.Errorf("%d: %+v, want the owner's %s proven in two steps", i, c, tc.want[i])
				}
				if !strings.HasPrefix(c.Evidence, "two steps: the owner calls "+selSetDesk.String()+"(appointee), then the appointee calls ") {
					t.Errorf("%d: evidence %q does not name both steps", i, c.Evidence)
				}
			}
		})
	}
}

// A mint through a stored amount is the owner's, in two steps, only when
// the setter is needed, the credit raises the supply by what it credits,
// and the control caller cannot do the same.
func TestArmedAmountThenCredit(t *testing.T) {
	cases := []struct {
		name string
		tok  deskToken
		mint bool
	}{
		{"owner sets an amount, then credits it", deskToken{rewardCode: true, creditCode: true}, true},
		{"owner sets and credits, and an address setter hands its role away", deskToken{rewardCode: true, creditCode: true, deskOwns: true}, true},
		{"the credit moves the owner's tokens", deskToken{rewardCode: true, creditCode: true, rewardMove: true}, false},
		{"control caller sets and credits too", deskToken{rewardCode: true, creditCode: true, rewardOpen: true}, false},
		{"a setter and no credit function", deskToken{rewardCode: true}, false},
		{"an amount set at launch: one step", deskToken{rewardCode: true, creditCode: true, reward: big.NewInt(5)}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runArmed(t, tc.tok)
			if !tc.mint {
				if len(got) != 0 {
					t.Fatalf("got %+v, want nothing", got)
				}
				return
			}
			if len(got) != 1 || got[0].Name != bytecode.CapMint || !got[0].TwoStep || got[0].Proven == nil || !*got[0].Proven || got[0].Role != RoleOwner {
				t.Fatalf("got %+v, want the owner's mint proven in two steps", got)
			}
			want := "two steps: the owner calls " + selReward.String() + "(1000), then " + selCredit.String() +
				"(address) with a fresh address: 1000 units credited to it and the total supply rose by 1000"
			if !strings.HasPrefix(got[0].Evidence, want) {
				t.Errorf("evidence %q, want %q", got[0].Evidence, want)
			}
		})
	}
}
