package watch

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// FuzzClassify feeds logs with any topics and data (chain input written
// by strangers) to the classifier: it never panics, and only the watched
// event signatures raise changes.
func FuzzClassify(f *testing.F) {
	f.Add(topicTransfer[:], make([]byte, 32), make([]byte, 32), []byte{1, 2, 3}, false)
	f.Add(topicSync[:], []byte{}, []byte{}, make([]byte, 64), true)
	f.Add(topicOwnershipTransferred[:], make([]byte, 32), []byte{}, []byte{}, false)
	f.Add(topicUpgraded[:], []byte{}, []byte{}, []byte{}, false)
	f.Add(topicTransfer[:], common.HexToHash("0xdead").Bytes(), make([]byte, 32), make([]byte, 40), true)
	f.Fuzz(func(t *testing.T, t0, t1, t2, data []byte, pool bool) {
		tokenAddr := common.HexToAddress("0x1000000000000000000000000000000000000001")
		pair := common.HexToAddress("0x2000000000000000000000000000000000000002")
		tk := &token{addr: tokenAddr.Hex(), seen: map[string]bool{}, pool: pair, reserveRef: big.NewInt(1000)}
		l := types.Log{Address: tokenAddr, Data: data}
		if pool {
			l.Address = pair
		}
		for _, b := range [][]byte{t0, t1, t2} {
			if len(b) > 0 {
				l.Topics = append(l.Topics, common.BytesToHash(b))
			}
		}
		w := &Watcher{o: Options{LiquidityDropPct: 20}}
		w.classify(chains.Chain{BurnAddresses: []string{"0x000000000000000000000000000000000000dEaD"}}, []*token{tk}, []types.Log{l})
		if len(tk.changes) > 0 && !known(l.Topics[0]) {
			t.Errorf("topic %s raised %d changes", l.Topics[0], len(tk.changes))
		}
		for _, c := range tk.changes {
			_ = c.fill(Common{})
		}
	})
}

func known(h common.Hash) bool {
	for _, t := range Topics {
		if t == h {
			return true
		}
	}
	return false
}
