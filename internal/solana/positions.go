package solana

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// followUp is the request sent after round trip 3 when a found pool needs
// accounts named only by what round trip 3 read: a DAMM v1 pool's vault LP
// mints, the mints and holders of position NFTs. Nothing is sent when no
// such pool was found.
type followUp struct {
	calls []*Call
}

// accounts adds a getMultipleAccounts of keys and returns their reader,
// given the batch's error.
func (fu *followUp) accounts(keys []PublicKey) func(error) ([]*Account, error) {
	calls, read := accountsCalls(keys)
	fu.calls = append(fu.calls, calls...)
	return func(batchErr error) ([]*Account, error) {
		if batchErr != nil {
			return nil, batchErr
		}
		return read()
	}
}

// send sends the follow-up calls, if any, as one request.
func (fu *followUp) send(ctx context.Context, client *Client) error {
	if len(fu.calls) == 0 {
		return nil
	}
	return client.Batch(ctx, fu.calls)
}

// positionListing lists one pool's position accounts (round trip 3).
type positionListing struct {
	out  []programAccount
	call *Call
	// tailOut lists the second range of a positionKind with a tail.
	tailOut  []programAccount
	tailCall *Call
}

// positionShares divides a position pool's liquidity like an LP split:
// burned (the NFT was burned: nobody can withdraw), locked (by the
// position itself, or its NFT held by a configured locker), unlocked (NFT
// held by a wallet) and unknown (NFT held by another program, or
// positions not resolved), in percent of the pool's liquidity.
type positionShares struct {
	burned, locked, unlocked, unknown float64
	holders                           []analysis.SolanaLPHolder
	// providers counts the positions listed that hold liquidity.
	providers int
	// err is why the split could not be made; the pool then keeps what it
	// records itself.
	err error
}

// resolvedPosition is one listed position with its NFT's holder lookups.
type resolvedPosition struct {
	address PublicKey
	pos     *Position
	// mintAt indexes the NFT mint in the follow-up accounts; holders is
	// the NFT's token accounts (nil when not looked up).
	mintAt  int
	holders []*[]programAccount
	calls   []*Call
}

// preparePositions decodes the position accounts round trip 3 listed and
// adds to the follow-up request, for the largest unlocked positions (at
// most maxPositionNFTs in all), their NFT mints (a burned NFT leaves a
// supply of 0) and their NFT token accounts under Token-2022 (position
// NFTs of the DEXes read here are Token-2022 mints).
func (c *collector) preparePositions(listings map[PublicKey]*positionListing, get func(PublicKey) (*Account, bool), fu *followUp) func(error) map[PublicKey]*positionShares {
	out := map[PublicKey]*positionShares{}
	type poolPositions struct {
		pool      foundPool
		positions []*resolvedPosition
		// bin arrays of a DLMM pair's positions, by index.
		binIndex map[int64]int
		readBins func(error) ([]*Account, error)
	}
	var pools []*poolPositions
	var all []*resolvedPosition
	for _, p := range c.pools {
		l := listings[p.address]
		if l == nil {
			continue
		}
		if l.call.Err != nil {
			out[p.address] = &positionShares{err: fmt.Errorf("positions could not be listed: %s", describe(l.call.Err))}
			continue
		}
		if l.tailCall != nil && l.tailCall.Err != nil {
			out[p.address] = &positionShares{err: fmt.Errorf("positions could not be listed: %s", describe(l.tailCall.Err))}
			continue
		}
		tails := map[string]programAccount{}
		for _, pa := range l.tailOut {
			tails[pa.Pubkey] = pa
		}
		pp := &poolPositions{pool: p}
		var bad error
		for _, pa := range l.out {
			addr, err := ParsePublicKey(pa.Pubkey)
			if err != nil {
				bad = fmt.Errorf("position %q: %w", pa.Pubkey, err)
				break
			}
			acc, err := pa.Account.decode()
			if err != nil {
				bad = fmt.Errorf("position %s: %w", addr, err)
				break
			}
			if acc.Owner != p.program {
				bad = fmt.Errorf("position %s: owned by %s, not the pool's program; refused", addr, acc.Owner)
				break
			}
			data := acc.Data
			if n := p.positions.slice; n > 0 {
				// The listing asked for the leading fields only: the rest
				// of the layout is not read.
				if len(data) != n {
					bad = fmt.Errorf("position %s: %d bytes, asked for %d", addr, len(data), n)
					break
				}
				data = make([]byte, p.positions.size)
				copy(data, acc.Data)
			}
			if tail := p.positions.tail; tail != nil {
				ta, ok := tails[pa.Pubkey]
				var td *Account
				if ok {
					td, err = ta.Account.decode()
				}
				if !ok || err != nil || len(td.Data) != tail[1] {
					// Listed once but not twice: the node's two answers
					// disagree (or the position changed in between).
					bad = fmt.Errorf("position %s: its bin range was not listed", addr)
					break
				}
				copy(data[tail[0]:], td.Data)
			}
			pos, err := p.positions.decode(data)
			if err != nil || pos.Pool != p.address {
				bad = fmt.Errorf("position %s is not a position of the pool", addr)
				break
			}
			rp := &resolvedPosition{address: addr, pos: pos, mintAt: -1}
			pp.positions = append(pp.positions, rp)
			all = append(all, rp)
		}
		if bad != nil {
			out[p.address] = &positionShares{err: bad}
			all = slices.DeleteFunc(all, func(r *resolvedPosition) bool { return slices.Contains(pp.positions, r) })
			continue
		}
		c.prepareBinArrays(pp.pool, pp.positions, &pp.binIndex, &pp.readBins, fu)
		pools = append(pools, pp)
	}
	// The largest withdrawable positions are the ones worth resolving.
	sort.SliceStable(all, func(i, j int) bool { return all[i].pos.Unlocked.Cmp(all[j].pos.Unlocked) > 0 })
	var mints []PublicKey
	for _, rp := range all {
		if rp.pos.Owner != nil {
			continue // the position names its owner: no NFT
		}
		if len(mints) == maxPositionNFTs || rp.pos.Unlocked.Sign() == 0 {
			break
		}
		rp.mintAt = len(mints)
		mints = append(mints, rp.pos.NFTMint)
		programs := []PublicKey{c.cfg.token2022}
		if rp.pos.AnyTokenProgram {
			programs = append(programs, c.cfg.tokenProgram)
		}
		for _, prog := range programs {
			holders := &[]programAccount{}
			call := tokenAccountsOfMintCall(prog, rp.pos.NFTMint, prog == c.cfg.tokenProgram, holders)
			rp.holders = append(rp.holders, holders)
			rp.calls = append(rp.calls, call)
			fu.calls = append(fu.calls, call)
		}
	}
	var readMints func(error) ([]*Account, error)
	if len(mints) > 0 {
		readMints = fu.accounts(mints)
	}
	return func(batchErr error) map[PublicKey]*positionShares {
		var accs []*Account
		var mintErr error
		if readMints != nil {
			accs, mintErr = readMints(batchErr)
		}
		for _, pp := range pools {
			var arrays map[int64]*DLMMBinArray
			if pp.readBins != nil {
				var err error
				if arrays, err = readBinArrays(pp.pool.address, pp.binIndex, pp.readBins, batchErr); err != nil {
					out[pp.pool.address] = &positionShares{err: err}
					continue
				}
			}
			out[pp.pool.address] = c.splitPositions(pp.pool, pp.positions, get, arrays, accs, mintErr)
		}
		return out
	}
}

// splitPositions divides one pool's liquidity among its positions. Each
// position weighs what it holds: its liquidity where every position spans
// the same range (DAMM v2), else its token amounts at the pool's price,
// valued in raw units of B, against the pool's vaults less what it owes
// (concentrated pools).
func (c *collector) splitPositions(p foundPool, positions []*resolvedPosition, get func(PublicKey) (*Account, bool), arrays map[int64]*DLMMBinArray, mints []*Account, mintErr error) *positionShares {
	total, weigh, err := c.positionWeights(p.state, get, arrays)
	if err != nil {
		return &positionShares{err: err}
	}
	type weighted struct {
		rp               *resolvedPosition
		unlocked, locked float64
	}
	var ws []weighted
	var listed, listedLocked float64
	sh0providers := 0
	for _, rp := range positions {
		u, l := weigh(rp.pos)
		ws = append(ws, weighted{rp, u, l})
		if u+l > 0 {
			sh0providers++
		}
		listed += u + l
		listedLocked += l
	}
	if listed > total*(1+1e-9) {
		return &positionShares{err: fmt.Errorf("the node listed positions holding more than the pool (%.6g of %.6g)", listed, total)}
	}
	pct := func(v float64) float64 { return min(100, 100*v/total) }
	sh := &positionShares{providers: sh0providers}
	// What no listed position accounts for (an incomplete index, fees not
	// yet collected): unknown, except the part the pool itself records
	// as locked for good that the listed positions do not show.
	rest := max(0, total-listed)
	if perm := p.state.PermanentLock; perm != nil && p.state.Liquidity != nil && p.state.Liquidity.Sign() > 0 {
		permW, _ := new(big.Float).SetInt(perm).Float64()
		if missing := permW - listedLocked; missing > 0 {
			missing = min(missing, rest)
			sh.locked += pct(missing)
			rest -= missing
		}
	}
	sh.unknown = pct(rest)
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].unlocked+ws[i].locked > ws[j].unlocked+ws[j].locked })
	for _, w := range ws {
		if math.IsNaN(w.unlocked) {
			return &positionShares{err: fmt.Errorf("position %s spans bins whose arrays were not read", w.rp.address)}
		}
		sh.locked += pct(w.locked)
		free := pct(w.unlocked)
		var label, owner, tokenAccount string
		if o := w.rp.pos.Owner; o != nil {
			label, owner = c.classifyOwner(*o), o.String()
		} else {
			label, owner, tokenAccount = c.nftHolder(w.rp, mints, mintErr)
		}
		var until *int64
		var untilSlot *uint64
		if rel := w.rp.pos.LockRelease; rel > 0 {
			locked, known := c.lockedUntil(rel, p.state.PointIsTime)
			switch {
			case !known:
				label = "" // whether it is still locked is not established
			case locked:
				sh.locked += free
				free = 0
			}
			if v := rel; p.state.PointIsTime && v <= math.MaxInt64 {
				t := int64(v)
				until = &t
			} else if !p.state.PointIsTime {
				untilSlot = &v
			}
		}
		switch label {
		case analysis.SolanaLPBurn:
			sh.burned += free
		case analysis.SolanaLPLocker:
			sh.locked += free
		case analysis.SolanaLPWallet, analysis.SolanaLPCreator:
			sh.unlocked += free
		default:
			sh.unknown += free
		}
		if len(sh.holders) < maxLPHolders {
			lockedPct := math.Round(pct(w.locked)*100) / 100
			sh.holders = append(sh.holders, analysis.SolanaLPHolder{
				TokenAccount: tokenAccount, Owner: owner, SharePct: math.Round(pct(w.unlocked+w.locked)*100) / 100, Label: label,
				Position: w.rp.address.String(), PositionLockedPct: &lockedPct,
				LockedUntil: until, LockedUntilSlot: untilSlot,
			})
		}
	}
	return sh
}

// positionWeights returns a pool's total and how much of it a position
// holds (unlocked, locked), in the same unit: liquidity for DAMM v2,
// value in raw units of B at the pool's price otherwise (a position
// whose bins were not read weighs NaN).
func (c *collector) positionWeights(st *PoolState, get func(PublicKey) (*Account, bool), arrays map[int64]*DLMMBinArray) (float64, func(*Position) (float64, float64), error) {
	f := func(v *big.Int) float64 {
		x, _ := new(big.Float).SetInt(v).Float64()
		return x
	}
	if st.PermanentLock != nil {
		// DAMM v2: one range for every position.
		if st.Liquidity == nil || st.Liquidity.Sign() == 0 {
			return 0, nil, fmt.Errorf("the pool records no liquidity")
		}
		return f(st.Liquidity), func(p *Position) (float64, float64) { return f(p.Unlocked), f(p.Locked) }, nil
	}
	var sp, price float64
	switch {
	case st.SqrtPriceX64 != nil && st.SqrtPriceX64.Sign() > 0:
		sp, _ = new(big.Float).Quo(new(big.Float).SetInt(st.SqrtPriceX64), new(big.Float).SetMantExp(big.NewFloat(1), 64)).Float64()
		price = sp * sp
	case st.RawPrice != nil:
		price = *st.RawPrice
	default:
		return 0, nil, fmt.Errorf("the pool has no price")
	}
	va, oka := get(st.VaultA)
	vb, okb := get(st.VaultB)
	if !oka || !okb || va == nil || vb == nil {
		return 0, nil, fmt.Errorf("the pool's vaults could not be read")
	}
	ta, errA := c.vaultOf(va, st.MintA)
	tb, errB := c.vaultOf(vb, st.MintB)
	if errA != nil || errB != nil {
		return 0, nil, fmt.Errorf("the pool's vaults are malformed")
	}
	total := float64(satSub(ta.Amount, st.OwedA))*price + float64(satSub(tb.Amount, st.OwedB))
	if total <= 0 || math.IsInf(total, 0) || math.IsNaN(total) {
		return 0, nil, fmt.Errorf("the pool's vaults hold nothing")
	}
	if arrays != nil {
		// DLMM: a share of each bin's amounts.
		return total, func(p *Position) (float64, float64) {
			var v float64
			for _, b := range p.Bins {
				a := arrays[DLMMBinArrayIndex(b.ID)]
				if a == nil {
					return math.NaN(), 0
				}
				bin := a.Bins[int64(b.ID)-a.Index*dlmmBinsPerArray]
				if bin.Supply.Sign() == 0 {
					continue
				}
				frac, _ := new(big.Rat).SetFrac(b.Share, bin.Supply).Float64()
				v += min(frac, 1) * (float64(bin.X)*price + float64(bin.Y))
			}
			return v, 0
		}, nil
	}
	return total, func(p *Position) (float64, float64) {
		a0, a1 := positionAmounts(f(p.Unlocked), sp, p.TickLower, p.TickUpper)
		return a0*price + a1, 0
	}, nil
}

// positionAmounts are the raw token amounts a concentrated position of
// liquidity l between two ticks holds at sqrt price sp (raw B per raw A).
func positionAmounts(l, sp float64, lower, upper int32) (float64, float64) {
	if lower >= upper {
		return 0, 0
	}
	sa, sb := math.Pow(1.0001, float64(lower)/2), math.Pow(1.0001, float64(upper)/2)
	switch {
	case sp <= sa:
		return l * (sb - sa) / (sa * sb), 0
	case sp >= sb:
		return 0, l * (sb - sa)
	default:
		return l * (sb - sp) / (sp * sb), l * (sp - sa)
	}
}

// prepareBinArrays adds to the follow-up request the bin arrays a DLMM
// pair's positions span (at most maxBinArrays).
func (c *collector) prepareBinArrays(p foundPool, positions []*resolvedPosition, index *map[int64]int, read *func(error) ([]*Account, error), fu *followUp) {
	var keys []PublicKey
	idx := map[int64]int{}
	for _, rp := range positions {
		for _, b := range rp.pos.Bins {
			i := DLMMBinArrayIndex(b.ID)
			if _, ok := idx[i]; ok || len(keys) == maxBinArrays {
				continue
			}
			k, err := DLMMBinArrayPDA(p.program, p.address, i)
			if err != nil {
				continue
			}
			idx[i] = len(keys)
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	*index, *read = idx, fu.accounts(keys)
}

// maxBinArrays bounds the DLMM bin arrays one scan reads.
const maxBinArrays = 20

// readBinArrays decodes the bin arrays read for a pair.
func readBinArrays(pair PublicKey, index map[int64]int, read func(error) ([]*Account, error), batchErr error) (map[int64]*DLMMBinArray, error) {
	accs, err := read(batchErr)
	if err != nil {
		return nil, fmt.Errorf("bin arrays could not be read: %s", describe(err))
	}
	out := map[int64]*DLMMBinArray{}
	for i, at := range index {
		acc := accs[at]
		if acc == nil {
			continue // a position spanning it weighs NaN
		}
		a, err := DecodeDLMMBinArray(acc.Data)
		if err != nil || a.Index != i || a.Pair != pair {
			return nil, fmt.Errorf("bin array %d is malformed or not the pair's", i)
		}
		out[i] = a
	}
	return out, nil
}

// lockedUntil reports whether a lock release point is still ahead, and
// whether that is known (a slot point needs the cluster's slot).
func (c *collector) lockedUntil(release uint64, isTime bool) (locked, known bool) {
	if isTime {
		now := time.Now
		if c.now != nil {
			now = c.now
		}
		t := now().Unix()
		return t < 0 || release > uint64(t), true
	}
	if c.slot == nil {
		return false, false
	}
	return release > *c.slot, true
}

// classifyOwner labels an address that can withdraw liquidity.
func (c *collector) classifyOwner(owner PublicKey) string {
	o := owner.String()
	switch {
	case slices.Contains(c.cfg.burns, o):
		return analysis.SolanaLPBurn
	case c.facts.Lockers[o] != "":
		return analysis.SolanaLPLocker
	case IsOnCurve(owner):
		return analysis.SolanaLPWallet
	default:
		return analysis.SolanaLPProgram
	}
}

// nftHolder labels who holds a position's NFT: burn (the NFT mint's
// supply is 0, or its holder is a burn address), locker, creator, wallet,
// program, or "" when not resolved (a missing mint included).
func (c *collector) nftHolder(rp *resolvedPosition, mints []*Account, mintErr error) (label, owner, tokenAccount string) {
	if rp.mintAt < 0 || mintErr != nil || len(rp.calls) == 0 || rp.mintAt >= len(mints) {
		return "", "", ""
	}
	for _, call := range rp.calls {
		if call.Err != nil {
			return "", "", ""
		}
	}
	if acc := mints[rp.mintAt]; acc == nil {
		// A missing NFT mint is not a burn: a legacy SPL Token mint
		// cannot be closed, so its absence is an inconsistent answer or
		// a position closed mid-scan. Burned is only what is proven:
		// a supply of 0, or a burn address holding the NFT.
		return "", "", ""
	} else if m, err := c.mintOf(acc); err != nil {
		return "", "", ""
	} else if m.Supply == 0 {
		return analysis.SolanaLPBurn, "", ""
	}
	var holder *lpAccount
	var listed []programAccount
	for _, h := range rp.holders {
		listed = append(listed, *h...)
	}
	for _, pa := range listed {
		addr, err := ParsePublicKey(pa.Pubkey)
		if err != nil {
			return "", "", ""
		}
		acc, err := pa.Account.decode()
		if err != nil || len(acc.Data) < tokenAccountSliceLen || PublicKey(acc.Data[:32]) != rp.pos.NFTMint {
			return "", "", ""
		}
		if amt := binary.LittleEndian.Uint64(acc.Data[64:72]); amt > 0 {
			if holder != nil {
				return "", "", "" // an NFT held twice is not an NFT
			}
			holder = &lpAccount{address: addr, owner: PublicKey(acc.Data[32:64]), amount: amt}
		}
	}
	if holder == nil {
		return "", "", ""
	}
	return c.classifyOwner(holder.owner), holder.owner.String(), holder.address.String()
}
