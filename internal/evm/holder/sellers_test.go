package holder

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

func transferLog(block uint64, index uint, from, to common.Address, v int64) types.Log {
	return types.Log{BlockNumber: block, Index: index, Topics: []common.Hash{TransferTopic,
		common.BytesToHash(from.Bytes()), common.BytesToHash(to.Bytes())}, Data: common.LeftPadBytes(big.NewInt(v).Bytes(), 32)}
}

// TestSellersPickHoldersAndLastBuyers: the largest holders that are not
// excluded, then the most recent buyers from a pool still holding, each
// once; a complete rebuild gives each its logged balance and whether it
// ever sent.
func TestSellersPickHoldersAndLastBuyers(t *testing.T) {
	a := func(n byte) common.Address { return common.BytesToAddress([]byte{n}) }
	mint, pool, deployer := common.Address{}, a(0xf0), a(0xd0)
	s := &HolderScan{Balances: map[common.Address]*big.Int{}, FirstIn: map[common.Address]Seen{}, Complete: true}
	s.apply([]types.Log{
		transferLog(1, 0, mint, deployer, 10_000),
		transferLog(2, 0, deployer, pool, 5_000),
		transferLog(3, 0, deployer, a(1), 900), // large holders
		transferLog(3, 1, deployer, a(2), 800),
		transferLog(4, 0, pool, a(3), 10), // buyers, oldest first
		transferLog(5, 0, pool, a(4), 20),
		transferLog(6, 0, pool, a(5), 30),
		transferLog(7, 0, pool, a(6), 40),
		transferLog(7, 1, a(6), pool, 40), // sold everything: not a holder
		transferLog(8, 0, a(1), a(7), 100),
	})
	exclude := func(x common.Address) bool { return x == deployer || x == pool }
	got := Sellers(s, []common.Address{pool}, exclude, 2, 2)
	want := []struct {
		addr      common.Address
		logged    int64
		neverSent bool
		lastBuyer bool
	}{{a(1), 800, false, false}, {a(2), 800, true, false}, {a(5), 30, true, true}, {a(4), 20, true, true}}
	if len(got) != len(want) {
		t.Fatalf("sellers %+v, want %d", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Address != w.addr || g.Logged == nil || g.Logged.Int64() != w.logged || g.NeverSent != w.neverSent || g.LastBuyer != w.lastBuyer {
			t.Errorf("seller %d = %+v, want %+v", i, g, w)
		}
	}
	// A partial rebuild's balances are no measure: nothing to compare.
	s.Complete = false
	for _, g := range Sellers(s, []common.Address{pool}, exclude, 2, 2) {
		if g.Logged != nil || g.NeverSent {
			t.Errorf("partial rebuild: seller %+v has a logged balance", g)
		}
	}
}
