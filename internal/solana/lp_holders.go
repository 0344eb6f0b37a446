package solana

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// lpListing lists one pool's LP token accounts under both token programs
// (an LP mint's program is only known once it is read).
type lpListing struct {
	spl, t22         []programAccount
	splCall, t22Call *Call
	// streams are the lock streams of the LP mint (nil call when no
	// lock program is configured).
	streams    []programAccount
	streamCall *Call
}

// locks decodes the lock streams listed, keyed by escrow account; an
// error when the search failed.
func (l *lpListing) locks(lpMint PublicKey) (map[PublicKey]*StreamLock, error) {
	if l.streamCall == nil {
		return nil, nil
	}
	if l.streamCall.Err != nil {
		return nil, l.streamCall.Err
	}
	out := map[PublicKey]*StreamLock{}
	for _, pa := range l.streams {
		acc, err := pa.Account.decode()
		if err != nil {
			return nil, fmt.Errorf("lock stream %s: %w", pa.Pubkey, err)
		}
		s, err := DecodeStreamflowContract(acc.Data)
		if err != nil || s.Mint != lpMint {
			continue // not a stream of this mint: its escrow stays unknown
		}
		out[s.Escrow] = s
	}
	return out, nil
}

// accounts returns the LP token accounts listed, or an error when either
// listing failed.
func (l *lpListing) accounts(lpMint PublicKey) ([]lpAccount, error) {
	if l.splCall.Err != nil {
		return nil, l.splCall.Err
	}
	if l.t22Call.Err != nil {
		return nil, l.t22Call.Err
	}
	var out []lpAccount
	seen := map[PublicKey]bool{}
	for _, pa := range append(append([]programAccount(nil), l.spl...), l.t22...) {
		addr, err := ParsePublicKey(pa.Pubkey)
		if err != nil {
			return nil, fmt.Errorf("LP token account %q: %w", pa.Pubkey, err)
		}
		acc, err := pa.Account.decode()
		if err != nil {
			return nil, fmt.Errorf("LP token account %s: %w", addr, err)
		}
		if len(acc.Data) < tokenAccountSliceLen || PublicKey(acc.Data[:32]) != lpMint {
			return nil, fmt.Errorf("LP token account %s: not an account of %s", addr, lpMint)
		}
		if seen[addr] {
			continue
		}
		seen[addr] = true
		out = append(out, lpAccount{address: addr, owner: PublicKey(acc.Data[32:64]), amount: binary.LittleEndian.Uint64(acc.Data[64:72])})
	}
	return out, nil
}

// lpShares fills a pool's LP split from its LP mint and, when listed, its
// LP holders.
func (c *collector) lpShares(pf *analysis.SolanaPool, p foundPool, lm *Mint, listing *lpListing, batchErr error) {
	f := c.facts
	issued := satSub(p.state.LPIssued, p.state.LPNeverMinted)
	if p.state.LPNeverMintedPow10 && lm.Decimals < 20 {
		issued = satSub(issued, pow10(lm.Decimals))
	}
	if p.state.LPIssuedIsSupply {
		issued = lm.Supply
	}
	if issued == 0 && lm.Supply == 0 {
		return
	}
	var holders []lpAccount
	var streams map[PublicKey]*StreamLock
	listed := false
	switch {
	case listing == nil:
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: LP holders not listed (only %d pools are); lock state unknown", p.dex, p.address, maxLPListings))
	case batchErr != nil:
		// Reported with the vaults.
	default:
		var err error
		if holders, err = listing.accounts(*p.state.LPMint); err != nil {
			f.Uncheck(risk.CheckPools)
			f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: LP holders could not be listed: %s", p.dex, p.address, describe(err)))
		} else {
			listed = true
		}
		if streams, err = listing.locks(*p.state.LPMint); err != nil {
			// Escrows then stay unknown holders: never counted locked.
			f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: lock streams of its LP could not be searched: %s", p.dex, p.address, describe(err)))
		}
	}
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	sh := lpSplit(lpSplitInput{
		issued: issued, supply: lm.Supply, holders: holders, listed: listed,
		burns: c.cfg.burns, lockers: c.facts.Lockers, creator: p.state.Creator,
		escrowed: p.state.LPLocked, streams: streams, now: now().Unix(),
	})
	pf.LPBurnedPct = &sh.burned
	pf.LPLockedPct, pf.LPUnlockedPct, pf.LPUnknownPct = sh.locked, sh.unlocked, sh.unknown
	pf.LPHolders = sh.holders
	pf.LPProviders = sh.providers
}
