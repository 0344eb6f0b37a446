package corpus

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// maxTradingChanges bounds how many storage words openTrading may set.
const maxTradingChanges = 4

// openTrading gives a token that refuses buys on its seeded state the
// state a launched token has. Real tokens leave their constructor with a
// trading switch the owner turns on at launch, a launch block or time, a
// maximum transaction or wallet size and the router and pair addresses in
// storage; the runtime code alone starts with all of them zero, which
// makes every buy fail where the mainnet token traded. So a buy (a
// transfer from the pool) is tried in the sandbox; while it fails, each
// plain storage word it read is tried with launch-like values (true, the
// pool's balance, a day ago, the router, the pool; never all ones, which
// would also set every flag packed in the word) when empty, with a true
// flag packed above its content when used, and
// the write that lets it run furthest is kept, up to maxTradingChanges
// writes. When the buy still fails, every write is undone. Sells are left
// alone: a token whose buys pass and sells fail is what the engine must
// call a honeypot.
func (c *Chain) openTrading(sb *sandbox, s *Seeded, pool *big.Int) {
	amount := new(big.Int).Div(pool, big.NewInt(500))
	buy := append(withAddress("transfer(address,uint256)", bystander), common.BigToHash(amount).Bytes()...)
	// trade runs the buy; progress is how far it got (opcodes run).
	trade := func() (progress int, read []common.Hash, ok bool) {
		out, err := sb.call(s.Pair, buy)
		return sb.seen.ops, sb.seen.sloads, err == nil && !refused(out)
	}
	progress, read, ok := trade()
	if ok {
		return
	}
	values := []common.Hash{
		common.BigToHash(big.NewInt(1)),
		common.BigToHash(pool),
		common.BigToHash(new(big.Int).SetUint64(sb.now - 86_400)),
		common.BytesToHash(c.router.Bytes()),
		common.BytesToHash(s.Pair.Bytes()),
	}
	type write struct{ key, value, old common.Hash }
	var done []write
	for range maxTradingChanges {
		best, bestProgress, bestOK, bestRead := write{}, progress, false, read
		for _, k := range distinct(read) {
			if !plainKey(k) {
				continue
			}
			old := sb.get(k)
			for _, v := range candidates(old, values) {
				sb.set(k, v)
				p, r, o := trade()
				sb.set(k, old)
				if o && !bestOK || o == bestOK && p > bestProgress {
					best, bestProgress, bestOK, bestRead = write{k, v, old}, p, o, r
				}
			}
		}
		if best == (write{}) {
			break
		}
		sb.set(best.key, best.value)
		done = append(done, best)
		progress, read, ok = bestProgress, bestRead, bestOK
		if ok {
			break
		}
	}
	if !ok {
		for i := len(done) - 1; i >= 0; i-- {
			sb.set(done[i].key, done[i].old)
		}
		s.note("buys refused on the seeded state (a transfer from the pool reverts); no launch-like storage write lets one through")
		return
	}
	for _, w := range done {
		s.note("trading opened: slot %s set to %s", w.key.Hex(), w.value.Hex())
	}
	s.Opened = len(done)
}

// candidates are the values tried in a word holding old: the launch-like
// values in an empty word; in a used one (a packed owner, say), a true
// flag in each of the free bytes above what it holds, where a later
// variable would be packed.
func candidates(old common.Hash, values []common.Hash) []common.Hash {
	if old == (common.Hash{}) {
		return values
	}
	w := new(big.Int).SetBytes(old.Bytes())
	var out []common.Hash
	for b := (w.BitLen() + 7) / 8; b < 32; b++ {
		out = append(out, common.BigToHash(new(big.Int).Or(w, new(big.Int).Lsh(big.NewInt(1), uint(8*b)))))
	}
	return out
}

// plainKey says whether k is a declared variable's slot rather than a
// hashed (mapping or array) one.
func plainKey(k common.Hash) bool {
	return new(big.Int).SetBytes(k.Bytes()).BitLen() <= 64
}

// refused says whether a transfer answered false.
func refused(out []byte) bool {
	return len(out) >= 32 && new(big.Int).SetBytes(out[:32]).Sign() == 0
}
