package solana

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"

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
}

// positionShares divides a position pool's liquidity like an LP split:
// burned (the NFT was burned: nobody can withdraw), locked (by the
// position itself, or its NFT held by a configured locker), unlocked (NFT
// held by a wallet) and unknown (NFT held by another program, or
// positions not resolved), in percent of the pool's liquidity.
type positionShares struct {
	burned, locked, unlocked, unknown float64
	holders                           []analysis.SolanaLPHolder
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
	holders *[]programAccount
	call    *Call
}

// preparePositions decodes the position accounts round trip 3 listed and
// adds to the follow-up request, for the largest unlocked positions (at
// most maxPositionNFTs in all), their NFT mints (a burned NFT leaves a
// supply of 0) and their NFT token accounts under Token-2022 (position
// NFTs of the DEXes read here are Token-2022 mints).
func (c *collector) preparePositions(listings map[PublicKey]*positionListing, fu *followUp) func(error) map[PublicKey]*positionShares {
	out := map[PublicKey]*positionShares{}
	type poolPositions struct {
		pool      foundPool
		positions []*resolvedPosition
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
			pos, err := p.positions.decode(acc.Data)
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
		pools = append(pools, pp)
	}
	// The largest withdrawable positions are the ones worth resolving.
	sort.SliceStable(all, func(i, j int) bool { return all[i].pos.Unlocked.Cmp(all[j].pos.Unlocked) > 0 })
	var mints []PublicKey
	for _, rp := range all {
		if len(mints) == maxPositionNFTs || rp.pos.Unlocked.Sign() == 0 {
			break
		}
		rp.mintAt = len(mints)
		mints = append(mints, rp.pos.NFTMint)
		var holders []programAccount
		rp.holders = &holders
		rp.call = tokenAccountsOfMintCall(c.cfg.token2022, rp.pos.NFTMint, false, rp.holders)
		fu.calls = append(fu.calls, rp.call)
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
			out[pp.pool.address] = c.splitPositions(pp.pool, pp.positions, accs, mintErr)
		}
		return out
	}
}

// splitPositions divides one pool's liquidity among its positions.
func (c *collector) splitPositions(p foundPool, positions []*resolvedPosition, mints []*Account, mintErr error) *positionShares {
	total := p.state.Liquidity
	if total == nil || total.Sign() == 0 {
		return &positionShares{err: fmt.Errorf("the pool records no liquidity")}
	}
	listed := new(big.Int)
	for _, rp := range positions {
		listed.Add(listed, rp.pos.Unlocked)
		listed.Add(listed, rp.pos.Locked)
	}
	if listed.Cmp(total) > 0 {
		return &positionShares{err: fmt.Errorf("the node listed positions holding %s of the pool's %s liquidity", listed, total)}
	}
	pct := func(v *big.Int) float64 {
		f, _ := new(big.Float).Quo(new(big.Float).SetInt(new(big.Int).Mul(v, big.NewInt(100))), new(big.Float).SetInt(total)).Float64()
		return f
	}
	sh := &positionShares{}
	// Liquidity no listed position accounts for (an incomplete index):
	// unknown, except the part the pool itself records as locked for
	// good that the listed positions do not show.
	rest := new(big.Int).Sub(total, listed)
	if perm := p.state.PermanentLock; perm != nil {
		listedLocked := new(big.Int)
		for _, rp := range positions {
			listedLocked.Add(listedLocked, rp.pos.Locked)
		}
		if missing := new(big.Int).Sub(perm, listedLocked); missing.Sign() > 0 {
			if missing.Cmp(rest) > 0 {
				missing.Set(rest)
			}
			sh.locked += pct(missing)
			rest.Sub(rest, missing)
		}
	}
	sh.unknown = pct(rest)
	sort.SliceStable(positions, func(i, j int) bool {
		a := new(big.Int).Add(positions[i].pos.Unlocked, positions[i].pos.Locked)
		b := new(big.Int).Add(positions[j].pos.Unlocked, positions[j].pos.Locked)
		return a.Cmp(b) > 0
	})
	for _, rp := range positions {
		sh.locked += pct(rp.pos.Locked)
		free := pct(rp.pos.Unlocked)
		label, owner, tokenAccount := c.nftHolder(rp, mints, mintErr)
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
			share := pct(new(big.Int).Add(rp.pos.Unlocked, rp.pos.Locked))
			lockedPct := math.Round(pct(rp.pos.Locked)*100) / 100
			sh.holders = append(sh.holders, analysis.SolanaLPHolder{
				TokenAccount: tokenAccount, Owner: owner, SharePct: math.Round(share*100) / 100, Label: label,
				Position: rp.address.String(), PositionLockedPct: &lockedPct,
			})
		}
	}
	return sh
}

// nftHolder labels who holds a position's NFT: burn (the NFT mint's
// supply is 0, or its holder is a burn address), locker, creator, wallet,
// program, or "" when not resolved.
func (c *collector) nftHolder(rp *resolvedPosition, mints []*Account, mintErr error) (label, owner, tokenAccount string) {
	if rp.mintAt < 0 || mintErr != nil || rp.call == nil || rp.call.Err != nil || rp.mintAt >= len(mints) {
		return "", "", ""
	}
	if acc := mints[rp.mintAt]; acc == nil {
		// The NFT mint was closed: the position can no longer be
		// withdrawn by anyone.
		return analysis.SolanaLPBurn, "", ""
	} else if m, err := DecodeMint(acc.Data); err != nil {
		return "", "", ""
	} else if m.Supply == 0 {
		return analysis.SolanaLPBurn, "", ""
	}
	var holder *lpAccount
	for _, pa := range *rp.holders {
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
	o := holder.owner.String()
	switch {
	case slices.Contains(c.cfg.burns, o):
		return analysis.SolanaLPBurn, o, holder.address.String()
	case c.facts.Lockers[o] != "":
		return analysis.SolanaLPLocker, o, holder.address.String()
	case IsOnCurve(holder.owner):
		return analysis.SolanaLPWallet, o, holder.address.String()
	default:
		return analysis.SolanaLPProgram, o, holder.address.String()
	}
}
