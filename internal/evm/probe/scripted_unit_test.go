package probe

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/tokenrisk/tokenrisk/contracts"
	"github.com/tokenrisk/tokenrisk/internal/evm/bytecode"
)

// The renounce candidates of the time-lock zoo token include its
// lock(uint256) (passed 0), after renounceOwnership(); unlock() is a
// reclaim candidate.
func TestReclaimCandidatesFindTheLock(t *testing.T) {
	c, err := contracts.Artifact("TimeLockOwnerToken")
	if err != nil {
		t.Fatal(err)
	}
	renounces, reclaims := reclaimCandidates(bytecode.AnalyseCode(c.DeployedBytecode))
	if len(renounces) == 0 || renounces[0].sel != bytecode.SelRenounceOwnership {
		t.Fatalf("renounces %v: want renounceOwnership() first", renounces)
	}
	lock, unlock := bytecode.SelectorOf("lock(uint256)"), bytecode.SelectorOf("unlock()")
	found := false
	for _, r := range renounces {
		if r.sel == lock {
			found = len(r.data) == 36 && new(big.Int).SetBytes(r.data[4:]).Sign() == 0
		}
	}
	if !found {
		t.Errorf("renounces %v: want lock(uint256) with 0", renounces)
	}
	hasUnlock := false
	for _, s := range reclaims {
		hasUnlock = hasUnlock || s == unlock
	}
	if !hasUnlock {
		t.Errorf("reclaims %v: want unlock()", reclaims)
	}
}

// fakeListing builds a listing script of one case whose answers are the
// given trades: pool balances and whether each sell and move worked.
type fakeTrade struct {
	got   int64 // what the pool received of 1000 sent (-1: the sell failed)
	moved bool
}

func fakeListing(t *testing.T, lb, ub, la, ua fakeTrade, callOK bool, ownerAfter common.Address) (*listingScript, []rpc.BatchElem) {
	t.Helper()
	ls := &listingScript{sent: big.NewInt(1000), move: big.NewInt(1)}
	answers := map[ref]scriptCallResult{}
	word := func(v int64) scriptCallResult {
		return scriptCallResult{Status: 1, ReturnData: common.LeftPadBytes(big.NewInt(v).Bytes(), 32)}
	}
	okRes := func(ok bool) scriptCallResult {
		if ok {
			return word(1)
		}
		return scriptCallResult{Status: 0}
	}
	owner := common.HexToAddress("0x0a")
	w, pool := common.HexToAddress("0x01"), common.HexToAddress("0x02")
	trade := func(ft fakeTrade) walletTrade {
		var tr walletTrade
		tr.poolBefore = ls.s.call(w, pool, nil)
		answers[tr.poolBefore] = word(5000)
		tr.sell = ls.s.call(w, pool, nil)
		answers[tr.sell] = okRes(ft.got >= 0)
		tr.poolAfter = ls.s.call(w, pool, nil)
		answers[tr.poolAfter] = word(5000 + max(ft.got, 0))
		tr.move = ls.s.call(w, pool, nil)
		answers[tr.move] = okRes(ft.moved)
		return tr
	}
	c := listingCase{caller: probeCaller{addr: owner, role: RoleOwner}, label: "f(address,uint256)"}
	ls.s.block(0, nil)
	c.before.listed, c.before.unlisted = trade(lb), trade(ub)
	ls.s.block(0, nil)
	c.ownerBefore = ls.s.call(owner, pool, nil)
	answers[c.ownerBefore] = scriptCallResult{Status: 1, ReturnData: common.LeftPadBytes(owner.Bytes(), 32)}
	c.call = ls.s.call(owner, pool, nil)
	answers[c.call] = okRes(callOK)
	c.ownerAfter = ls.s.call(owner, pool, nil)
	answers[c.ownerAfter] = scriptCallResult{Status: 1, ReturnData: common.LeftPadBytes(ownerAfter.Bytes(), 32)}
	c.after.listed, c.after.unlisted = trade(la), trade(ua)
	ls.cases = []listingCase{c}
	ls.s.out = make([]scriptBlockResult, len(ls.s.blocks))
	for i, b := range ls.s.blocks {
		ls.s.out[i].Calls = make([]scriptCallResult, len(b.Calls))
	}
	for r, a := range answers {
		ls.s.out[r.block].Calls[r.call] = a
	}
	return ls, []rpc.BatchElem{{Result: &ls.s.out}}
}

func TestListingProofs(t *testing.T) {
	owner := common.HexToAddress("0x0a")
	taxed := func(got int64) fakeTrade { return fakeTrade{got: got, moved: true} }
	cases := []struct {
		name           string
		lb, ub, la, ua fakeTrade
		callOK         bool
		ownerAfter     common.Address
		listed, only   bool
		exempt, feeUp  bool
		before, after  float64
	}{
		{name: "one wallet's fee raised", lb: taxed(970), ub: taxed(970), la: taxed(750), ua: taxed(970), callOK: true, ownerAfter: owner,
			feeUp: true, before: 3, after: 25},
		{name: "everyone's fee raised (a global setter taking an address)", lb: taxed(970), ub: taxed(970), la: taxed(750), ua: taxed(750), callOK: true, ownerAfter: owner},
		{name: "one wallet exempted from the fee", lb: taxed(960), ub: taxed(960), la: taxed(1000), ua: taxed(960), callOK: true, ownerAfter: owner,
			listed: true, exempt: true},
		{name: "only the listed wallet trades", lb: fakeTrade{got: -1}, ub: fakeTrade{got: -1}, la: fakeTrade{got: 1000}, ua: fakeTrade{got: -1}, callOK: true, ownerAfter: owner,
			listed: true, only: true},
		{name: "the call handed the wallet ownership", lb: fakeTrade{got: -1}, ub: fakeTrade{got: -1}, la: fakeTrade{got: 1000}, ua: fakeTrade{got: -1}, callOK: true,
			ownerAfter: common.HexToAddress("0x01")},
		{name: "the call reverted", lb: taxed(970), ub: taxed(970), la: taxed(750), ua: taxed(970), ownerAfter: owner},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ls, elems := fakeListing(t, tc.lb, tc.ub, tc.la, tc.ua, tc.callOK, tc.ownerAfter)
			wl, fee := ls.decode(elems)
			if wl == nil || fee == nil {
				t.Fatal("the script answered, yet no verdict")
			}
			if wl.Listed != tc.listed || wl.OnlyListed != tc.only || (len(wl.Exempt) > 0) != tc.exempt {
				t.Errorf("whitelist %+v, want listed %v only %v exempt %v", *wl, tc.listed, tc.only, tc.exempt)
			}
			if fee.Proven != tc.feeUp {
				t.Fatalf("per-address fee %+v, want proven %v", *fee, tc.feeUp)
			}
			if tc.feeUp && (*fee.TaxBefore != tc.before || *fee.TaxAfter != tc.after) {
				t.Errorf("taxes %v -> %v, want %v -> %v", *fee.TaxBefore, *fee.TaxAfter, tc.before, tc.after)
			}
		})
	}
	// A node that did not run eth_simulateV1: not established.
	ls, elems := fakeListing(t, taxed(970), taxed(970), taxed(750), taxed(970), true, owner)
	elems[0].Error = errors.New("the method eth_simulateV1 does not exist")
	if wl, fee := ls.decode(elems); wl != nil || fee != nil {
		t.Errorf("no eth_simulateV1: got %v %v, want nil (unknown)", wl, fee)
	}
}

// A sell block is a privileged call after which the sell fails and the
// wallet transfer still works; a call naming the wallet (a blacklist),
// the control caller's, or one that also stops wallet transfers (a
// pause) is none.
func TestSellBlocks(t *testing.T) {
	owner := probeCaller{addr: common.HexToAddress("0x0a"), role: RoleOwner}
	base := proberMeasure{SellOk: true, WalletOk: true, VictimBalance: big.NewInt(100), Hits: new(big.Int)}
	after := proberMeasure{SellOk: false, WalletOk: true, VictimBalance: big.NewInt(100), Hits: new(big.Int)}
	paused := proberMeasure{SellOk: false, WalletOk: false, VictimBalance: big.NewInt(100), Hits: new(big.Int)}
	cases := []struct {
		name   string
		c      probeCaller
		p      probeCall
		m      proberMeasure
		blocks int
	}{
		{"owner switch", owner, probeCall{label: "setMode(uint8)"}, after, 1},
		{"blacklist of the wallet", owner, probeCall{label: "ban(address)", victimArg: true}, after, 0},
		{"control caller", probeCaller{addr: ProbeAnyone, role: RoleAnyone}, probeCall{label: "poke()"}, after, 0},
		{"pause", owner, probeCall{label: "pause()"}, paused, 0},
	}
	for _, tc := range cases {
		v := newVerdicts(&owner.addr, scene{})
		v.noteSellBlock(tc.c, tc.p, base, tc.m)
		if len(v.sellBlocks) != tc.blocks {
			t.Errorf("%s: %d sell blocks, want %d", tc.name, len(v.sellBlocks), tc.blocks)
		}
		if tc.blocks == 1 && (v.sellBlocks[0].Function != tc.p.label || v.sellBlocks[0].Role != RoleOwner) {
			t.Errorf("%s: %+v", tc.name, v.sellBlocks[0])
		}
	}
}
