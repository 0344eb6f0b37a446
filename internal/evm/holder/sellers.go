package holder

import (
	"math/big"
	"sort"

	"github.com/ethereum/go-ethereum/common"
)

// The real holders whose sells the simulation tries (issue 18: what
// Honeypot.is reports): the largest holders and the last buyers seen in
// the rebuild's logs, never a pool, a locker, a burn address or the token
// itself (the caller's exclude), each with what the logs say it holds.

// Seller is one real holder whose sell is simulated.
type Seller struct {
	Address common.Address
	// Logged is the balance the Transfer logs give, nil when the rebuild
	// did not read the token's whole history (it is then no measure).
	Logged *big.Int
	// NeverSent is true when the logs show no transfer from it (with a
	// complete rebuild): a real balance below Logged was taken, not sent.
	NeverSent bool
	// LastBuyer is true when it was picked as one of the last buyers.
	LastBuyer bool
}

// Sellers picks up to top of the largest holders and up to last of the
// most recent buyers (addresses whose last receipt came from one of
// pools, still holding), skipping what exclude refuses and duplicates.
func Sellers(hs *HolderScan, pools []common.Address, exclude func(common.Address) bool, top, last int) []Seller {
	if hs == nil {
		return nil
	}
	var out []Seller
	picked := map[common.Address]bool{}
	add := func(a common.Address, lastBuyer bool) {
		s := Seller{Address: a, LastBuyer: lastBuyer}
		if hs.Complete {
			if b, ok := hs.Balances[a]; ok {
				s.Logged = new(big.Int).Set(b)
			}
			s.NeverSent = !hs.Sent[a]
		}
		picked[a] = true
		out = append(out, s)
	}
	skip := func(a common.Address) bool {
		return picked[a] || IsBurn(a) || exclude != nil && exclude(a)
	}
	n := 0
	for _, h := range TopHolders(hs) {
		if n == top {
			break
		}
		if !skip(h.Address) {
			add(h.Address, false)
			n++
		}
	}
	isPool := map[common.Address]bool{}
	for _, p := range pools {
		isPool[p] = true
	}
	type buy struct {
		a    common.Address
		seen Seen
	}
	var buys []buy
	for a, s := range hs.LastIn {
		if isPool[s.from] && !skip(a) && hs.Balances[a] != nil && hs.Balances[a].Sign() > 0 {
			buys = append(buys, buy{a, s})
		}
	}
	sort.Slice(buys, func(i, j int) bool {
		if buys[i].seen.Block != buys[j].seen.Block || buys[i].seen.Index != buys[j].seen.Index {
			return buys[j].seen.before(buys[i].seen)
		}
		return buys[i].a.Cmp(buys[j].a) < 0
	})
	for i := 0; i < len(buys) && i < last; i++ {
		add(buys[i].a, true)
	}
	return out
}
