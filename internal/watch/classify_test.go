package watch

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

func word(v int64) []byte { return common.BigToHash(big.NewInt(v)).Bytes() }

func TestClassifyPoolLogs(t *testing.T) {
	tokenAddr := common.HexToAddress("0x1000000000000000000000000000000000000001")
	pair := common.HexToAddress("0x2000000000000000000000000000000000000002")
	dead := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
	locker := common.HexToAddress("0x3000000000000000000000000000000000000003")
	holder := common.HexToAddress("0x4000000000000000000000000000000000000004")
	ch := chains.Chain{BurnAddresses: []string{common.Address{}.Hex(), dead.Hex()}, Lockers: []chains.NamedAddress{{Name: "locker", Address: locker.Hex()}}}
	sync := func(r0, r1 int64) types.Log {
		return types.Log{Address: pair, Topics: []common.Hash{topicSync}, Data: append(word(r0), word(r1)...)}
	}
	lp := func(from, to common.Address) types.Log {
		return types.Log{Address: pair, Topics: []common.Hash{topicTransfer, common.BytesToHash(from.Bytes()), common.BytesToHash(to.Bytes())}, Data: word(5)}
	}
	tests := []struct {
		name       string
		quoteIsOne bool
		logs       []types.Log
		want       int  // liquidity_removed changes
		moved      bool // re-scan
		ref        int64
	}{
		{"a buy raises the reference", true, []types.Log{sync(900, 1200)}, 0, false, 1200},
		{"a 19% fall is noise", true, []types.Log{sync(1100, 810)}, 0, false, 1000},
		{"a 20% fall from the reference", true, []types.Log{sync(1100, 800)}, 1, true, 800},
		{"from the high, not the start", true, []types.Log{sync(900, 2000), sync(1000, 1500)}, 1, true, 1500},
		{"the quote is token0", false, []types.Log{sync(700, 5)}, 1, true, 700},
		{"LP leaving the burn address", true, []types.Log{lp(dead, holder)}, 1, true, 1000},
		{"LP leaving the locker", true, []types.Log{lp(locker, holder)}, 1, true, 1000},
		{"LP minted (from 0x0) is not unlocked", true, []types.Log{lp(common.Address{}, holder)}, 0, false, 1000},
		{"LP between wallets", true, []types.Log{lp(holder, dead)}, 0, false, 1000},
		{"a pool Burn re-scans", true, []types.Log{{Address: pair, Topics: []common.Hash{topicBurn}}}, 0, true, 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tk := &token{addr: tokenAddr.Hex(), seen: map[string]bool{}, pool: pair, quoteIsOne: tc.quoteIsOne, reserveRef: big.NewInt(1000)}
			w := &Watcher{o: Options{LiquidityDropPct: 20}}
			w.classify(ch, []*token{tk}, tc.logs)
			n := 0
			for _, c := range tk.changes {
				if c.typ == LiquidityRemoved {
					n++
				}
			}
			if n != tc.want || tk.moved != tc.moved || tk.reserveRef.Int64() != tc.ref {
				t.Errorf("changes %d moved %v reference %s; want %d, %v, %d", n, tk.moved, tk.reserveRef, tc.want, tc.moved, tc.ref)
			}
		})
	}
}

func TestClassifyTokenLogs(t *testing.T) {
	tokenAddr := common.HexToAddress("0x1000000000000000000000000000000000000001")
	a := common.HexToAddress("0x4000000000000000000000000000000000000004")
	b := common.HexToAddress("0x5000000000000000000000000000000000000005")
	topic := func(x common.Address) common.Hash { return common.BytesToHash(x.Bytes()) }
	zero := common.Address{}
	tests := []struct {
		name string
		log  types.Log
		want string // "" = no change
	}{
		{"a trade", types.Log{Topics: []common.Hash{topicTransfer, topic(a), topic(b)}, Data: word(1)}, ""},
		{"a mint", types.Log{Topics: []common.Hash{topicTransfer, topic(zero), topic(b)}, Data: word(1)}, SupplyChanged},
		{"a burn", types.Log{Topics: []common.Hash{topicTransfer, topic(a), topic(zero)}, Data: word(1)}, SupplyChanged},
		{"an ERC-721 transfer shape", types.Log{Topics: []common.Hash{topicTransfer, topic(zero), topic(b), {}}}, ""},
		{"ownership", types.Log{Topics: []common.Hash{topicOwnershipTransferred, topic(a), topic(zero)}}, OwnerChanged},
		{"upgrade", types.Log{Topics: []common.Hash{topicUpgraded, topic(b)}}, ContractUpgraded},
		{"pause", types.Log{Topics: []common.Hash{topicPaused}, Data: word(1)}, TradingChanged},
		{"unpause", types.Log{Topics: []common.Hash{topicUnpaused}, Data: word(1)}, TradingChanged},
		{"an unknown event", types.Log{Topics: []common.Hash{common.HexToHash("0x1234")}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tk := &token{addr: tokenAddr.Hex(), seen: map[string]bool{}}
			tc.log.Address = tokenAddr
			(&Watcher{o: Options{LiquidityDropPct: 20}}).classify(chains.Chain{}, []*token{tk}, []types.Log{tc.log})
			got := ""
			if len(tk.changes) == 1 {
				got = tk.changes[0].typ
			}
			if got != tc.want || len(tk.changes) > 1 || tk.moved != (tc.want != "") {
				t.Errorf("changes %d (%q) moved %v, want %q", len(tk.changes), got, tk.moved, tc.want)
			}
		})
	}
}
