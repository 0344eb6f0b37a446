package solana

import (
	"context"
	"fmt"
	"sort"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// poolQuery is one getProgramAccounts call of round trip 2.
type poolQuery struct {
	dex  dexConfig
	out  []programAccount
	call *Call
}

func (c *collector) roundTrip2(ctx context.Context) {
	f := c.facts
	var calls []*Call
	var queries []*poolQuery
	var named []PublicKey
	var namedAccounts func() ([]*Account, error)
	switch {
	case f.Trusted != "":
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: pool discovery skipped for a trusted token (its pools are too many to list)")
	case f.Liquidity.FromIndex && c.indexErr != nil:
		// Nothing is known about the pools: unchecked, never absent.
		f.Uncheck(risk.CheckPools)
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: the pool index failed, pools unknown: "+describe(c.indexErr))
	case f.Liquidity.FromIndex:
		for _, s := range c.indexed {
			k, err := ParsePublicKey(s)
			if err != nil {
				continue // the index client checked every address
			}
			named = append(named, k)
		}
		var namedCalls []*Call
		namedCalls, namedAccounts = accountsCalls(named)
		calls = append(calls, namedCalls...)
	default:
		for _, d := range c.cfg.dexes {
			for _, off := range d.kind.mintOffsets {
				q := &poolQuery{dex: d}
				cmps := []memcmp{{off, c.mint[:]}}
				if d.kind.disc != nil {
					cmps = append([]memcmp{{0, d.kind.disc}}, cmps...)
				}
				q.call = programAccountsCall(d.program, d.kind.size, cmps, &q.out)
				queries = append(queries, q)
				calls = append(calls, q.call)
			}
		}
	}
	var price *poolQuery
	if wp, ok := c.cfg.whirlpool(); ok && c.cfg.wsol != nil && c.cfg.usdc != nil && f.Trusted == "" {
		price = &poolQuery{dex: wp}
		price.call = programAccountsCall(wp.program, whirlpoolSize, []memcmp{{101, c.cfg.wsol[:]}, {181, c.cfg.usdc[:]}}, &price.out)
		calls = append(calls, price.call)
	}
	stakePools := c.stakePoolSearches()
	for _, s := range stakePools {
		calls = append(calls, s.call)
	}
	largest := &Call{Method: "getTokenLargestAccounts", Params: []any{c.mint.String()}, Result: &largestAccountsResult{}}
	var sigs []signatureInfo
	sigCall := signaturesCall(c.mint, &sigs)
	calls = append(calls, largest, sigCall)

	if err := c.client.Batch(ctx, calls); err != nil {
		msg := "RPC batch failed: " + describe(err)
		f.Uncheck(risk.CheckPools)
		f.Uncheck(risk.CheckHolders)
		for _, d := range c.cfg.dexes {
			if f.Trusted == "" {
				f.Liquidity.Unsearched = append(f.Liquidity.Unsearched, d.name)
			}
		}
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: pools unknown: "+msg)
		f.Warnings.Holder = append(f.Warnings.Holder, "holders: largest accounts unknown: "+msg)
		c.sigErr = err
		return
	}

	seen := map[PublicKey]bool{}
	failed := map[string]bool{}
	skipped := 0
	if f.Liquidity.FromIndex {
		skipped += c.verifyIndexed(named, namedAccounts, failed, seen)
	}
	for _, q := range queries {
		if q.call.Err != nil {
			f.Uncheck(risk.CheckPools)
			if !failed[q.dex.name] {
				f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pools could not be searched: %s", q.dex.name, describe(q.call.Err)))
			}
			failed[q.dex.name] = true
			continue
		}
		for _, pa := range q.out {
			addr, err := ParsePublicKey(pa.Pubkey)
			if err != nil || seen[addr] {
				continue
			}
			acc, err := pa.Account.decode()
			if err != nil {
				skipped++
				continue
			}
			if why := q.dex.refuse(acc); why != "" {
				// The node answered a search of this DEX with another
				// account: never valued, and the pools are unknown.
				skipped++
				f.Uncheck(risk.CheckPools)
				f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s refused: it %s", q.dex.name, addr, why))
				continue
			}
			st, err := q.dex.kind.decode(acc.Data)
			if err != nil || (st.MintA != c.mint && st.MintB != c.mint) {
				skipped++
				f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s skipped: undecodable", q.dex.name, addr))
				continue
			}
			seen[addr] = true
			c.pools = append(c.pools, foundPool{dex: q.dex.name, address: addr, state: st, program: q.dex.program, positions: q.dex.kind.positions})
		}
	}
	for _, d := range c.cfg.dexes {
		switch {
		case f.Trusted != "":
		case f.Liquidity.FromIndex && c.indexErr != nil:
			f.Liquidity.Unsearched = append(f.Liquidity.Unsearched, d.name)
		case failed[d.name]:
			f.Liquidity.Unsearched = append(f.Liquidity.Unsearched, d.name)
		default:
			f.Liquidity.Searched = append(f.Liquidity.Searched, d.name)
		}
	}
	// The curve is read with the mint; a curve account that exists but
	// cannot be decoded leaves the launchpad side unknown.
	curveUnknown := c.cfg.pumpProgram != nil && !f.Liquidity.BondingCurveKnown
	if curveUnknown && f.Trusted == "" {
		f.Uncheck(risk.CheckPools)
		f.Liquidity.Unsearched = append(f.Liquidity.Unsearched, "pumpfun")
	}
	f.Liquidity.SearchComplete = len(failed) == 0 && skipped == 0 && !curveUnknown && f.Trusted == "" && len(c.cfg.dexes) > 0 && len(c.cfg.unknownDEXes) == 0 && (!f.Liquidity.FromIndex || c.indexErr == nil)
	if len(c.pools) > maxPools {
		// Keep the pools most likely to matter: against a configured
		// quote token first, then Whirlpools by in-range liquidity.
		sort.SliceStable(c.pools, func(i, j int) bool {
			qi, qj := c.againstQuote(c.pools[i].state), c.againstQuote(c.pools[j].state)
			if qi != qj {
				return qi
			}
			li, lj := c.pools[i].state.Liquidity, c.pools[j].state.Liquidity
			return li != nil && lj != nil && li.Cmp(lj) > 0
		})
		f.Liquidity.SearchComplete = false
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %d pools found; only %d (quote-token pools first) are valued", len(c.pools), maxPools))
		c.pools = c.pools[:maxPools]
	}

	if price != nil {
		c.solPrice(price)
	}
	c.attributeStakePools(stakePools)

	if largest.Err != nil {
		f.Uncheck(risk.CheckHolders)
		f.Warnings.Holder = append(f.Warnings.Holder, "holders: getTokenLargestAccounts failed: "+describe(largest.Err))
	} else {
		c.largest = largest.Result.(*largestAccountsResult).Value
	}
	if sigCall.Err != nil {
		c.sigErr = sigCall.Err
	} else {
		c.signatures = sigs
		c.sigsComplete = len(sigs) < signaturePageSize
	}
}

// verifyIndexed reads the pools the index named (their accounts came
// with round trip 2) and keeps those that are what the index says: owned
// by a configured DEX program, decoded by that DEX's layout, pairing the
// mint. It returns how many were not; each is named in a warning. When
// the accounts could not be read at all, every DEX is marked failed.
func (c *collector) verifyIndexed(named []PublicKey, accounts func() ([]*Account, error), failed map[string]bool, seen map[PublicKey]bool) int {
	f := c.facts
	if len(named) == 0 {
		return 0
	}
	accs, err := accounts()
	if err != nil {
		f.Uncheck(risk.CheckPools)
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: the pools the index named could not be read: "+describe(err))
		for _, d := range c.cfg.dexes {
			failed[d.name] = true
		}
		return 0
	}
	rejected := 0
	reject := func(k PublicKey, why string) {
		rejected++
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: the pool index named %s, which %s; ignored", k, why))
	}
	for i, k := range named {
		acc := accs[i]
		if acc == nil {
			reject(k, "does not exist")
			continue
		}
		var dex *dexConfig
		for j := range c.cfg.dexes {
			if c.cfg.dexes[j].program == acc.Owner {
				dex = &c.cfg.dexes[j]
				break
			}
		}
		if dex == nil {
			reject(k, "is owned by "+acc.Owner.String()+", not a configured DEX")
			continue
		}
		if why := dex.refuse(acc); why != "" {
			reject(k, why)
			continue
		}
		st, err := dex.kind.decode(acc.Data)
		if err != nil {
			reject(k, "is not a "+dex.name+" pool: "+err.Error())
			continue
		}
		if !c.tradesMint(dex.kind, acc.Data, st) {
			reject(k, "is a "+dex.name+" pool of other mints")
			continue
		}
		if !seen[k] {
			seen[k] = true
			c.pools = append(c.pools, foundPool{dex: dex.name, address: k, state: st, program: dex.program, positions: dex.kind.positions})
		}
	}
	return rejected
}

// tradesMint reports whether a pool holds the mint at one of the
// positions discovery would have searched.
func (c *collector) tradesMint(kind poolKind, data []byte, st *PoolState) bool {
	for _, off := range kind.mintOffsets {
		if off+32 <= len(data) && PublicKey(data[off:off+32]) == c.mint {
			return st.MintA == c.mint || st.MintB == c.mint
		}
	}
	return false
}

// againstQuote reports whether a pool pairs the token with a configured
// quote token.
func (c *collector) againstQuote(st *PoolState) bool {
	other := st.MintB
	if st.MintB == c.mint {
		other = st.MintA
	}
	_, ok := c.cfg.quotes[other]
	return ok
}

// solPrice reads SOL/USD from the deepest wSOL/USDC Whirlpool by in-range
// liquidity.
func (c *collector) solPrice(q *poolQuery) {
	f := c.facts
	if q.call.Err != nil {
		f.Uncheck(risk.CheckPools)
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: SOL/USDC price pools could not be read: "+describe(q.call.Err))
		return
	}
	var best *PoolState
	var bestAddr string
	for _, pa := range q.out {
		acc, err := pa.Account.decode()
		if err != nil || q.dex.refuse(acc) != "" {
			continue
		}
		st, err := DecodeWhirlpool(acc.Data)
		if err != nil || st.MintA != *c.cfg.wsol || st.MintB != *c.cfg.usdc || st.SqrtPriceX64.Sign() == 0 {
			continue
		}
		if best == nil || st.Liquidity.Cmp(best.Liquidity) > 0 {
			best, bestAddr = st, pa.Pubkey
		}
	}
	if best == nil {
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: no SOL/USDC pool found; SOL-paired liquidity has no USD value")
		return
	}
	wsolQ, usdcQ := c.cfg.quotes[*c.cfg.wsol], c.cfg.quotes[*c.cfg.usdc]
	p := sqrtPriceToPrice(best.SqrtPriceX64, uint8(wsolQ.Decimals), uint8(usdcQ.Decimals))
	f.Liquidity.SOLPriceUSD = &p
	f.Liquidity.SOLPriceSource = q.dex.name + ":" + bestAddr
}

// refuse says why an account the node returned for this DEX is not one of
// its pools ("" when it may be): owned by another program, or not the
// size of the DEX's pool accounts.
func (d dexConfig) refuse(acc *Account) string {
	switch {
	case acc.Owner != d.program:
		return fmt.Sprintf("is owned by %s, not the %s program", acc.Owner, d.name)
	case d.kind.size != 0 && len(acc.Data) != d.kind.size:
		return fmt.Sprintf("has %d bytes, not the %d of a %s pool", len(acc.Data), d.kind.size, d.name)
	}
	return ""
}
