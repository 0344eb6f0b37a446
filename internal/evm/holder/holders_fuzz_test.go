package holder

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// FuzzHolderApply replays arbitrary Transfer-shaped logs: balances must
// stay consistent (every non-mint debit has a credit) and nothing panics.
func FuzzHolderApply(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{0, 0, 1}, uint8(3))
	f.Fuzz(func(t *testing.T, from, to []byte, topics uint8) {
		s := &HolderScan{Balances: map[common.Address]*big.Int{}, FirstIn: map[common.Address]Seen{}}
		tp := []common.Hash{TransferTopic, common.BytesToHash(from), common.BytesToHash(to)}
		if int(topics) < len(tp) {
			tp = tp[:topics]
		}
		s.apply([]types.Log{{Topics: tp, Data: append(to, from...)}})
		sum := new(big.Int)
		for _, b := range s.Balances {
			sum.Add(sum, b)
		}
		if s.Transfers > 0 && s.FirstMintTo == nil && sum.Sign() != 0 {
			t.Fatalf("a plain transfer changed the total: %v", sum)
		}
		_ = s.Holders()
	})
}
