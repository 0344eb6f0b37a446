package solana

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// Bounds of one scan's collection.
const (
	signaturePageSize = 1000
	maxPools          = 40
	// maxLPListings bounds the pools whose LP holders are listed (two
	// getProgramAccounts calls each, in round trip 3).
	maxLPListings = 5
)

// collector gathers one mint's facts in three sequential round trips:
//
//  1. getMultipleAccounts [mint, Metaplex metadata PDA, pump.fun curve
//     PDA] + getEpochInfo: the contract verdict;
//  2. one batch: getProgramAccounts per DEX and mint position, the SOL/USDC
//     price pools, getTokenLargestAccounts, getSignaturesForAddress;
//  3. one batch: getMultipleAccounts [pool vaults, LP mints, largest token
//     accounts, creator] + the LP token accounts of up to maxLPListings
//     pools + getTransaction of the oldest signature + the creator
//     candidate's signatures.
//
// Only a failure of round trip 1 fails the scan; later failures leave
// their analyses partial with warnings.
type collector struct {
	client   *Client
	cfg      *chainConfig
	mint     PublicKey
	sigPages int
	// now is the clock (a dynamic vault's locked profit unlocks with
	// time); nil means time.Now.
	now func() time.Time
	// slot is the cluster's slot from round trip 1 (nil when unknown).
	slot *uint64
	// index, when set, names the mint's pools instead of discovery.
	index PoolIndex
	// indexed are the pools the index named (valid when indexErr is nil).
	indexed  []string
	indexErr error

	facts *analysis.SolanaFacts
	// mintData keeps the decoded mint for later steps.
	mintData *Mint
	// pools found in round trip 2, with their decoded state.
	pools []foundPool
	// largest are the largest token accounts from round trip 2.
	largest []largestAccount
	// signatures of the mint, newest first, and whether the oldest one is
	// known to be the first.
	signatures   []signatureInfo
	sigsComplete bool
	sigErr       error
	// mintFirstSlot is the slot of the mint's first transaction and
	// creatorFirstSlot the creator's, when their whole history was read.
	mintFirstSlot, creatorFirstSlot *uint64
	// insiderBudget bounds the insider check (0: DefaultInsiderBudget).
	insiderBudget time.Duration
}

type foundPool struct {
	dex     string
	address PublicKey
	state   *PoolState
	// program and positions are the DEX's program and position layout
	// (nil where liquidity is not held in positions a scan resolves).
	program   PublicKey
	positions *positionKind
}

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

func (c *collector) collect(ctx context.Context) (*analysis.SolanaFacts, error) {
	c.facts = &analysis.SolanaFacts{BurnAddresses: c.cfg.burns, Lockers: map[string]string{}, Exchanges: map[string]string{}}
	for _, l := range c.cfg.chain.Lockers {
		c.facts.Lockers[l.Address] = l.Name
	}
	for _, e := range c.cfg.chain.Exchanges {
		c.facts.Exchanges[e.Address] = e.Name
	}
	if t, ok := c.cfg.chain.IsTrusted(c.mint.String()); ok {
		c.facts.Trusted = t.Name
	}
	for _, name := range c.cfg.unknownDEXes {
		c.facts.Warnings.Liquidity = append(c.facts.Warnings.Liquidity, "liquidity: DEX "+name+" has a kind this engine cannot read; not searched")
		if c.facts.Trusted == "" {
			c.facts.Liquidity.Unsearched = append(c.facts.Liquidity.Unsearched, name)
		}
	}
	// The index is asked beside round trip 1: it costs no round trip.
	var wg sync.WaitGroup
	if c.index != nil && c.facts.Trusted == "" {
		c.facts.Liquidity.FromIndex = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.indexed, c.indexErr = c.index.Pools(ctx, c.mint.String())
		}()
	}
	err := c.roundTrip1(ctx)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	c.roundTrip2(ctx)
	c.roundTrip3(ctx)
	c.insiders(ctx)
	return c.facts, nil
}

func (c *collector) roundTrip1(ctx context.Context) error {
	keys := []PublicKey{c.mint}
	var metaPDA, curvePDA *PublicKey
	if c.cfg.metadataProgram != nil {
		if k, err := MetadataPDA(*c.cfg.metadataProgram, c.mint); err == nil {
			metaPDA = &k
			keys = append(keys, k)
		}
	}
	if c.cfg.pumpProgram != nil {
		if k, err := BondingCurvePDA(*c.cfg.pumpProgram, c.mint); err == nil {
			curvePDA = &k
			keys = append(keys, k)
		}
	}
	calls, accounts := accountsCalls(keys)
	epoch := &Call{Method: "getEpochInfo", Result: &epochInfo{}}
	if err := c.client.Batch(ctx, append(calls, epoch)); err != nil {
		return upstreamFault(err, "reading the mint")
	}
	accs, err := accounts()
	if err != nil {
		return upstreamFault(err, "reading the mint")
	}
	if epoch.Err == nil {
		e := epoch.Result.(*epochInfo).Epoch
		c.facts.CurrentEpoch = &e
		if s := epoch.Result.(*epochInfo).AbsoluteSlot; s > 0 {
			c.slot = &s
		}
	} else {
		c.facts.Warnings.Contract = append(c.facts.Warnings.Contract, "contract: cluster epoch unknown; the transfer fee in force is not established")
	}
	return c.absorbMint(accs, metaPDA, curvePDA)
}

// absorbMint decodes round trip 1's accounts (mint, then the metadata and
// curve PDAs when asked for) into the facts: the contract verdict.
func (c *collector) absorbMint(accs []*Account, metaPDA, curvePDA *PublicKey) error {
	mintAcc := accs[0]
	if mintAcc == nil {
		return fault.Errorf(fault.TokenNotFound, "no account at %s on solana", c.mint)
	}
	var program string
	switch mintAcc.Owner {
	case c.cfg.tokenProgram:
		program = analysis.SolanaSPLToken
	case c.cfg.token2022:
		program = analysis.SolanaToken2022
	default:
		return fault.Errorf(fault.NotAToken, "%s is not owned by the SPL Token or Token-2022 program", c.mint)
	}
	m, err := DecodeMint(mintAcc.Data)
	if err != nil {
		return fault.Wrap(err, fault.NotAToken, fmt.Sprintf("%s is not a token mint", c.mint))
	}
	if program == analysis.SolanaSPLToken && len(mintAcc.Data) != mintSize {
		return fault.Errorf(fault.NotAToken, "%s is not a token mint", c.mint)
	}
	c.mintData = m
	f := c.facts
	f.Mint = analysis.SolanaMint{
		Address:         c.mint.String(),
		ProgramID:       mintAcc.Owner.String(),
		TokenProgram:    program,
		Supply:          m.Supply,
		Decimals:        m.Decimals,
		MintAuthority:   keyString(m.MintAuthority),
		FreezeAuthority: keyString(m.FreezeAuthority),
	}
	var embedded *analysis.SolanaMetadata
	if m.TLV != nil {
		exts, md, err := DecodeExtensions(m.TLV)
		f.Mint.Extensions = exts
		if err != nil {
			f.Mint.ExtensionsIncomplete = true
			f.Warnings.Contract = append(f.Warnings.Contract, "contract: Token-2022 extension area is malformed; extensions after the bad entry are unknown: "+err.Error())
		}
		if md != nil {
			md.Address = c.mint.String()
			embedded = md
		}
	}

	// Metadata: Token-2022 embedded metadata first, then Metaplex.
	f.MetadataKnown = true
	switch {
	case embedded != nil:
		f.Metadata = embedded
	case metaPDA != nil:
		if acc := accs[1]; acc != nil && acc.Owner == *c.cfg.metadataProgram {
			md, err := DecodeMetaplexMetadata(acc.Data, c.mint)
			if err != nil {
				f.MetadataKnown = false
				f.Warnings.Contract = append(f.Warnings.Contract, "contract: Metaplex metadata account is malformed: "+err.Error())
			} else {
				md.Address = metaPDA.String()
				f.Metadata = md
			}
		}
	default:
		f.MetadataKnown = false
		f.Warnings.Contract = append(f.Warnings.Contract, "contract: no metadata program configured; metadata unknown")
	}
	if f.Metadata == nil && f.MetadataKnown {
		for _, e := range f.Mint.Extensions {
			if p, ok := e.Params.(analysis.SolanaPointerParams); ok && e.Name == analysis.SolanaExtMetadataPointer && p.Address != nil && *p.Address != c.mint.String() {
				f.MetadataKnown = false
				f.Warnings.Contract = append(f.Warnings.Contract, "contract: metadata lives in an external account ("+*p.Address+") that is not read; metadata unknown")
			}
		}
	}

	if curvePDA != nil {
		f.Liquidity.BondingCurveKnown = true
		if acc := accs[len(accs)-1]; acc != nil && acc.Owner == *c.cfg.pumpProgram {
			bc, err := DecodeBondingCurve(acc.Data, *curvePDA)
			if err != nil {
				f.Liquidity.BondingCurveKnown = false
				f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: pump.fun bonding curve account is malformed: "+err.Error())
			} else {
				f.Liquidity.BondingCurve = bc
			}
		}
	}
	return nil
}

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
		if dex.kind.size != 0 && len(acc.Data) != dex.kind.size {
			reject(k, fmt.Sprintf("is not a %s pool (%d bytes)", dex.name, len(acc.Data)))
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
		if err != nil {
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

func (c *collector) roundTrip3(ctx context.Context) {
	f := c.facts
	var keys []PublicKey
	index := map[PublicKey]int{}
	add := func(k PublicKey) {
		if _, ok := index[k]; !ok {
			index[k] = len(keys)
			keys = append(keys, k)
		}
	}
	for _, p := range c.pools {
		add(p.state.VaultA)
		add(p.state.VaultB)
		if p.state.LPMint != nil {
			add(*p.state.LPMint)
		}
		if dv := p.state.DynamicVaults; dv != nil {
			add(dv.LPA)
			add(dv.LPB)
		}
		if p.state.Launch != nil {
			add(p.state.Launch.Config)
		}
	}
	for _, la := range c.largest {
		if k, err := ParsePublicKey(la.Address); err == nil {
			add(k)
		}
	}
	// Creator candidates known after round trip 1, so that their balance
	// needs no extra round trip.
	var candidates []PublicKey
	if bc := f.Liquidity.BondingCurve; bc != nil && bc.Creator != nil {
		candidates = append(candidates, MustPublicKey(*bc.Creator))
	}
	if f.Metadata != nil && f.Metadata.UpdateAuthority != nil {
		if k, err := ParsePublicKey(*f.Metadata.UpdateAuthority); err == nil {
			candidates = append(candidates, k)
		}
	}
	for _, k := range candidates {
		add(k)
	}

	calls, accounts := accountsCalls(keys)
	// Who holds each pool's LP (quote-token pools first): the lock verdict.
	listings := map[PublicKey]*lpListing{}
	order := make([]foundPool, len(c.pools))
	copy(order, c.pools)
	sort.SliceStable(order, func(i, j int) bool { return c.againstQuote(order[i].state) && !c.againstQuote(order[j].state) })
	for _, p := range order {
		if p.state.LPMint == nil || len(listings) == maxLPListings {
			continue
		}
		l := &lpListing{}
		l.splCall = tokenAccountsOfMintCall(c.cfg.tokenProgram, *p.state.LPMint, true, &l.spl)
		l.t22Call = tokenAccountsOfMintCall(c.cfg.token2022, *p.state.LPMint, false, &l.t22)
		listings[p.address] = l
		calls = append(calls, l.splCall, l.t22Call)
		if sf := c.cfg.streamflow; sf != nil {
			lp := *p.state.LPMint
			l.streamCall = programAccountsCall(*sf, streamflowContractSize, []memcmp{{streamflowMintOffset, lp[:]}}, &l.streams)
			calls = append(calls, l.streamCall)
		}
	}
	// Position pools (quote-token pools first): their position accounts.
	posListings := map[PublicKey]*positionListing{}
	for _, p := range order {
		if p.positions == nil || len(posListings) == maxPositionListings {
			continue
		}
		pl := &positionListing{}
		pool := p.address
		pl.call = programAccountsCall(p.program, p.positions.size, []memcmp{{0, p.positions.disc[:]}, {p.positions.poolOffset, pool[:]}}, &pl.out)
		if n := p.positions.slice; n > 0 {
			pl.call.Params[1].(map[string]any)["dataSlice"] = map[string]any{"offset": 0, "length": n}
		}
		posListings[p.address] = pl
		calls = append(calls, pl.call)
		if tail := p.positions.tail; tail != nil {
			// A DLMM position keeps its bin range and lock 6.7 KB after
			// its shares: a second slice, not the whole 8 KB account.
			pl.tailCall = programAccountsCall(p.program, p.positions.size, []memcmp{{0, p.positions.disc[:]}, {p.positions.poolOffset, pool[:]}}, &pl.tailOut)
			pl.tailCall.Params[1].(map[string]any)["dataSlice"] = map[string]any{"offset": tail[0], "length": tail[1]}
			calls = append(calls, pl.tailCall)
		}
	}
	// The first candidate's history (transaction count, first activity)
	// rides along too.
	var history *creatorHistory
	if len(candidates) > 0 {
		history = &creatorHistory{of: candidates[0]}
		history.call = signaturesCall(candidates[0], &history.sigs)
		calls = append(calls, history.call)
	}
	var tx *Call
	if c.sigErr == nil && len(c.signatures) > 0 && c.sigsComplete {
		tx = c.transactionCall(c.signatures[len(c.signatures)-1].Signature)
		calls = append(calls, tx)
	}

	// Past the first page, paging to the oldest signature is sequential:
	// it runs beside round trip 3 and only the deployer waits for it.
	var wg sync.WaitGroup
	var late *lateCreator
	if c.sigErr == nil && !c.sigsComplete && len(c.signatures) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			late = c.pageToOldest(ctx)
		}()
	}

	var accs []*Account
	var accErr error
	if len(calls) > 0 {
		if err := c.client.Batch(ctx, calls); err != nil {
			accErr = err
		} else if len(keys) > 0 {
			accs, accErr = accounts()
		}
	}
	wg.Wait()
	if accErr != nil {
		f.Uncheck(risk.CheckPools)
		f.Uncheck(risk.CheckHolders)
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, "liquidity: pool vaults could not be read: "+describe(accErr))
		f.Warnings.Holder = append(f.Warnings.Holder, "holders: token account owners could not be read: "+describe(accErr))
	}
	get := func(k PublicKey) (*Account, bool) {
		i, ok := index[k]
		if accs == nil || !ok {
			return nil, false
		}
		return accs[i], true
	}

	var vaults map[PublicKey]*vaultReserves
	var positions map[PublicKey]*positionShares
	if accErr == nil {
		// One more request, only when a DAMM v1 pool or a position pool
		// was found: vault LP mints, position NFT mints and holders.
		var fu followUp
		finishVaults := c.prepareDynamicVaults(get, &fu)
		finishPositions := c.preparePositions(posListings, get, &fu)
		batchErr := fu.send(ctx, c.client)
		vaults = finishVaults(batchErr)
		positions = finishPositions(batchErr)
	}
	c.buildPools(get, listings, accErr, vaults, positions)
	c.buildHolders(get)
	c.buildCreator(ctx, get, tx, late, history)
}

// creatorHistory is a getSignaturesForAddress call on a creator.
type creatorHistory struct {
	of   PublicKey
	sigs []signatureInfo
	call *Call
}

func signaturesCall(addr PublicKey, out *[]signatureInfo) *Call {
	return &Call{Method: "getSignaturesForAddress", Params: []any{addr.String(), map[string]any{"limit": signaturePageSize}}, Result: out}
}

func (c *collector) transactionCall(sig string) *Call {
	return &Call{
		Method: "getTransaction",
		Params: []any{sig, map[string]any{"encoding": "json", "maxSupportedTransactionVersion": 0}},
		Result: &transactionResult{},
	}
}

// lateCreator is the outcome of paging to a mint's oldest signature.
type lateCreator struct {
	oldest   *signatureInfo
	complete bool
	tx       *transactionResult
	err      error
}

func (c *collector) pageToOldest(ctx context.Context) *lateCreator {
	out := &lateCreator{}
	last := c.signatures[len(c.signatures)-1]
	for page := 1; page < c.sigPages; page++ {
		var sigs []signatureInfo
		err := c.client.Do(ctx, "getSignaturesForAddress", &sigs, c.mint.String(), map[string]any{"limit": signaturePageSize, "before": last.Signature})
		if err != nil {
			out.err = err
			return out
		}
		if len(sigs) > 0 {
			last = sigs[len(sigs)-1]
		}
		if len(sigs) < signaturePageSize {
			out.complete = true
			break
		}
	}
	out.oldest = &last
	if !out.complete {
		return out
	}
	call := c.transactionCall(last.Signature)
	if err := c.client.Batch(ctx, []*Call{call}); err != nil {
		out.err = err
	} else if call.Err != nil {
		out.err = call.Err
	} else {
		out.tx = call.Result.(*transactionResult)
	}
	return out
}

// vaultReserves are a DAMM v1 pool's reserves read through its dynamic
// vaults: the pool's share of each vault, and each vault's token account.
type vaultReserves struct {
	a, b           uint64
	tokenA, tokenB PublicKey
	err            error
}

// readDynamicVaults values the DAMM v1 pools found: their vaults and
// vault LP balances came with round trip 3; the vault LP mints' supplies
// take one more request (getMultipleAccounts), sent only when such a pool
// was found.
func (c *collector) prepareDynamicVaults(get func(PublicKey) (*Account, bool), fu *followUp) func(error) map[PublicKey]*vaultReserves {
	out := map[PublicKey]*vaultReserves{}
	var todo []pendingVaults
	var keys []PublicKey
	index := map[PublicKey]int{}
	readSide := func(vault, lp PublicKey) (vaultSide, error) {
		vacc, ok := get(vault)
		if !ok || vacc == nil {
			return vaultSide{}, fmt.Errorf("vault %s missing", vault)
		}
		v, err := DecodeDynamicVault(vacc.Data)
		if err != nil {
			return vaultSide{}, err
		}
		lacc, ok := get(lp)
		if !ok || lacc == nil {
			return vaultSide{}, fmt.Errorf("vault LP account %s missing", lp)
		}
		ta, err := DecodeTokenAccount(lacc.Data)
		if err != nil {
			return vaultSide{}, fmt.Errorf("vault LP account %s: %w", lp, err)
		}
		if ta.Mint != v.LPMint {
			return vaultSide{}, fmt.Errorf("vault LP account %s holds %s, not the vault's LP %s", lp, ta.Mint, v.LPMint)
		}
		if _, seen := index[v.LPMint]; !seen {
			index[v.LPMint] = len(keys)
			keys = append(keys, v.LPMint)
		}
		return vaultSide{vault: v, share: ta.Amount}, nil
	}
	for _, p := range c.pools {
		dv := p.state.DynamicVaults
		if dv == nil {
			continue
		}
		a, errA := readSide(p.state.VaultA, dv.LPA)
		b, errB := readSide(p.state.VaultB, dv.LPB)
		switch {
		case errA != nil:
			out[p.address] = &vaultReserves{err: errA}
		case errB != nil:
			out[p.address] = &vaultReserves{err: errB}
		case a.vault.TokenMint != p.state.MintA || b.vault.TokenMint != p.state.MintB:
			out[p.address] = &vaultReserves{err: fmt.Errorf("vaults hold %s/%s, not the pool's mints", a.vault.TokenMint, b.vault.TokenMint)}
		default:
			todo = append(todo, pendingVaults{addr: p.address, a: a, b: b})
		}
	}
	if len(todo) == 0 {
		return func(error) map[PublicKey]*vaultReserves { return out }
	}
	accounts := fu.accounts(keys)
	return func(batchErr error) map[PublicKey]*vaultReserves {
		accs, err := accounts(batchErr)
		c.valueDynamicVaults(out, todo, accs, index, err)
		return out
	}
}

// vaultSide is one side of a DAMM v1 pool: its vault and the pool's vault
// LP balance.
type vaultSide struct {
	vault *DynamicVault
	share uint64
}

// pendingVaults is a DAMM v1 pool waiting for its vault LP supplies.
type pendingVaults struct {
	addr PublicKey
	a, b vaultSide
}

func (c *collector) valueDynamicVaults(out map[PublicKey]*vaultReserves, todo []pendingVaults, accs []*Account, index map[PublicKey]int, err error) {
	now := time.Now
	if c.now != nil {
		now = c.now
	}
	t := now().Unix()
	value := func(s vaultSide) (uint64, error) {
		acc := accs[index[s.vault.LPMint]]
		if acc == nil {
			return 0, fmt.Errorf("vault LP mint %s missing", s.vault.LPMint)
		}
		m, err := DecodeMint(acc.Data)
		if err != nil {
			return 0, fmt.Errorf("vault LP mint %s: %w", s.vault.LPMint, err)
		}
		unlocked, ok := s.vault.Unlocked(t)
		if !ok {
			return 0, fmt.Errorf("vault reported after the clock's time")
		}
		v, ok := s.vault.ShareOf(unlocked, s.share, m.Supply)
		if !ok {
			return 0, fmt.Errorf("pool holds %d of a vault LP supply of %d", s.share, m.Supply)
		}
		return v, nil
	}
	for _, p := range todo {
		r := &vaultReserves{tokenA: p.a.vault.TokenVault, tokenB: p.b.vault.TokenVault}
		if err != nil {
			r.err = fmt.Errorf("vault LP mints could not be read: %s", describe(err))
		} else if r.a, r.err = value(p.a); r.err == nil {
			r.b, r.err = value(p.b)
		}
		out[p.addr] = r
	}
}

func (c *collector) buildPools(get func(PublicKey) (*Account, bool), listings map[PublicKey]*lpListing, batchErr error, vaults map[PublicKey]*vaultReserves, positions map[PublicKey]*positionShares) {
	f := c.facts
	for _, p := range c.pools {
		if p.state.MintB.IsZero() {
			// The layout keeps the quote mint elsewhere (a DBC's config):
			// the quote vault's own mint names it.
			if acc, ok := get(p.state.VaultB); ok && acc != nil {
				if qa, err := DecodeTokenAccount(acc.Data); err == nil {
					p.state.MintB = qa.Mint
				}
			}
		}
		var quoteDec *uint8
		quote := p.state.MintB
		if p.state.MintB == c.mint {
			quote = p.state.MintA
		}
		q, isQuote := c.cfg.quotes[quote]
		if isQuote {
			d := uint8(q.Decimals)
			quoteDec = &d
		}
		pf := poolFacts(p.dex, p.address, p.state, c.mint, c.mintData.Decimals, quoteDec, q.Symbol)
		pf.QuoteUSDStable, pf.QuoteWrapped = q.USDStable, q.Wrapped
		tokenIsA := p.state.MintA == c.mint
		tv, qv := p.state.VaultA, p.state.VaultB
		towed, qowed := p.state.OwedA, p.state.OwedB
		if !tokenIsA {
			tv, qv = qv, tv
			towed, qowed = qowed, towed
		}
		tacc, ok1 := get(tv)
		qacc, ok2 := get(qv)
		if p.state.DynamicVaults != nil {
			// Reserves sit in shared vaults: the pool owns a share.
			ok1, ok2 = false, false
			switch r := vaults[p.address]; {
			case r == nil:
			case r.err != nil:
				f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: reserves unknown: %s", p.dex, p.address, r.err))
			default:
				tr, qr, tva, qva := r.a, r.b, r.tokenA, r.tokenB
				if !tokenIsA {
					tr, qr, tva, qva = qr, tr, qva, tva
				}
				pf.TokenReserve, pf.QuoteReserve = &tr, &qr
				pf.TokenVault, pf.QuoteVault = tva.String(), qva.String()
				pf.Authority = p.address.String()
			}
		}
		if ok1 && ok2 && tacc != nil && qacc != nil {
			ta, err1 := DecodeTokenAccount(tacc.Data)
			qa, err2 := DecodeTokenAccount(qacc.Data)
			if err1 == nil && err2 == nil {
				tr, qr := satSub(ta.Amount, towed), satSub(qa.Amount, qowed)
				pf.TokenReserve, pf.QuoteReserve = &tr, &qr
				pf.Authority = ta.Owner.String()
			}
		}
		if pf.TokenReserve == nil {
			f.Liquidity.SearchComplete = false
		}
		if lc := p.state.Launch; lc != nil {
			c.launchPrice(&pf, p, lc, get)
		}
		if pf.TokenReserve == nil && ok1 && ok2 {
			f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: vaults missing or malformed; reserves unknown", p.dex, p.address))
		}
		if p.state.Creator != nil && !p.state.Creator.IsZero() {
			pf.Creator = p.state.Creator.String()
		}
		if p.state.LPMint != nil && (p.state.LPIssued > 0 || p.state.LPIssuedIsSupply) {
			if acc, ok := get(*p.state.LPMint); ok && acc != nil {
				if lm, err := DecodeMint(acc.Data); err == nil {
					c.lpShares(&pf, p, lm, listings[p.address], batchErr)
				}
			}
		}
		if ps := positions[p.address]; ps != nil {
			if ps.err != nil {
				f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: who holds its positions is unknown: %s", p.dex, p.address, ps.err))
			} else {
				b, l, u, k := ps.burned, ps.locked, ps.unlocked, ps.unknown
				pf.LPBurnedPct, pf.LPLockedPct, pf.LPUnlockedPct, pf.LPUnknownPct = &b, &l, &u, &k
				pf.LPHolders = ps.holders
				for i := range pf.LPHolders {
					if p.state.Creator != nil && pf.LPHolders[i].Owner == p.state.Creator.String() && pf.LPHolders[i].Label == analysis.SolanaLPWallet {
						pf.LPHolders[i].Label = analysis.SolanaLPCreator
					}
				}
			}
		}
		if pf.LPMint != "" && pf.LPBurnedPct == nil {
			f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: LP burned share unknown", p.dex, p.address))
		}
		f.Liquidity.Pools = append(f.Liquidity.Pools, pf)
	}
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
}

// launchPrice prices a LaunchLab curve from its config's curve type (the
// config came with round trip 3). The base vault holds unsold supply, so
// without a price the curve is not valued from its vaults.
func (c *collector) launchPrice(pf *analysis.SolanaPool, p foundPool, lc *LaunchCurve, get func(PublicKey) (*Account, bool)) {
	f := c.facts
	fail := func(why string) {
		pf.TokenReserve, pf.QuoteReserve = nil, nil
		f.Liquidity.SearchComplete = false
		f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s curve %s: %s; not valued", p.dex, p.address, why))
	}
	acc, ok := get(lc.Config)
	if !ok {
		return // the batch failed; said with the vaults
	}
	if acc == nil {
		fail("its config account " + lc.Config.String() + " is missing")
		return
	}
	curveType, err := DecodeLaunchLabConfigCurve(acc.Data)
	if err != nil {
		fail(err.Error())
		return
	}
	raw, ok := lc.Price(curveType)
	if !ok {
		fail(fmt.Sprintf("curve type %d is not priced by this engine", curveType))
		return
	}
	if p.state.MintA != c.mint || pf.QuoteDecimals == nil {
		return
	}
	price := raw * math.Pow10(int(c.mintData.Decimals)-int(*pf.QuoteDecimals))
	if price > 0 && !math.IsInf(price, 0) && !math.IsNaN(price) {
		pf.PriceInQuote = &price
	}
}

// pow10 is 10^n for n < 20.
func pow10(n uint8) uint64 {
	v := uint64(1)
	for range n {
		v *= 10
	}
	return v
}

func satSub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

func (c *collector) buildHolders(get func(PublicKey) (*Account, bool)) {
	f := c.facts
	if c.largest == nil {
		return
	}
	// Fewer accounts than the node's limit is the whole list only if they
	// hold the whole supply: a node with an incomplete token index (or
	// balances the amount field does not show, such as withheld transfer
	// fees) lists fewer.
	h := &analysis.SolanaHolderFacts{}
	unresolved := 0
	var listed uint64
	for _, la := range c.largest {
		amt, err := strconv.ParseUint(la.Amount, 10, 64)
		if err != nil {
			f.Warnings.Holder = append(f.Warnings.Holder, "holders: malformed amount for "+la.Address)
			continue
		}
		ta := analysis.SolanaTokenAccount{Address: la.Address, Amount: amt}
		if k, err := ParsePublicKey(la.Address); err == nil {
			if acc, ok := get(k); ok && acc != nil {
				if tok, err := DecodeTokenAccount(acc.Data); err == nil && tok.Mint == c.mint {
					owner := tok.Owner.String()
					ta.Owner = &owner
					pda := !IsOnCurve(tok.Owner)
					ta.OwnerIsProgramAccount = &pda
				}
			}
		}
		if ta.Owner == nil {
			unresolved++
		}
		listed = satAdd(listed, amt)
		h.Accounts = append(h.Accounts, ta)
	}
	if len(c.largest) < 20 {
		h.Complete = listed == c.mintData.Supply
		h.Inconsistent = !h.Complete
		if !h.Complete {
			f.Warnings.Holder = append(f.Warnings.Holder, fmt.Sprintf("holders: the node listed %d token accounts holding %s of %d raw units of supply; the list is not the whole set of holders", len(c.largest), strconv.FormatUint(listed, 10), c.mintData.Supply))
		}
	}
	sort.SliceStable(h.Accounts, func(i, j int) bool { return h.Accounts[i].Amount > h.Accounts[j].Amount })
	if unresolved > 0 {
		f.Warnings.Holder = append(f.Warnings.Holder, fmt.Sprintf("holders: %d of %d token account owners unresolved", unresolved, len(h.Accounts)))
	}
	f.Holders = h
}

func (c *collector) buildCreator(ctx context.Context, get func(PublicKey) (*Account, bool), tx *Call, late *lateCreator, history *creatorHistory) {
	f := c.facts
	cr := &analysis.SolanaCreator{}
	// Creation transaction evidence.
	var txr *transactionResult
	var oldest *signatureInfo
	switch {
	case c.sigErr != nil:
		f.Uncheck(risk.CheckDeployer)
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the mint's signatures could not be read: "+describe(c.sigErr))
	case len(c.signatures) == 0:
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the node returned no signatures for the mint (history pruned?)")
	case c.sigsComplete:
		oldest = &c.signatures[len(c.signatures)-1]
		cr.OldestSignatureComplete = true
		if tx != nil && tx.Err == nil {
			txr = tx.Result.(*transactionResult)
		} else if tx != nil {
			f.Uncheck(risk.CheckDeployer)
			f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the creation transaction could not be read: "+describe(tx.Err))
		}
	case late != nil:
		oldest = late.oldest
		cr.OldestSignatureComplete = late.complete
		txr = late.tx
		switch {
		case late.err != nil:
			f.Uncheck(risk.CheckDeployer)
			f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: paging to the first transaction failed: "+describe(late.err))
		case !late.complete:
			f.Warnings.Deployer = append(f.Warnings.Deployer, fmt.Sprintf("deployer: more than %d signatures; the first transaction was not reached", c.sigPages*signaturePageSize))
		}
	}
	if oldest != nil && cr.OldestSignatureComplete {
		slot := oldest.Slot
		c.mintFirstSlot = &slot
		s := oldest.Signature
		cr.CreationSignature = &s
		cr.CreationTime = oldest.BlockTime
		if txr != nil && txr.BlockTime != nil {
			cr.CreationTime = txr.BlockTime
		}
	}
	var feePayer string
	if txr != nil && len(txr.Transaction.Message.AccountKeys) > 0 {
		feePayer = txr.Transaction.Message.AccountKeys[0]
	}

	switch {
	case f.Liquidity.BondingCurve != nil && f.Liquidity.BondingCurve.Creator != nil:
		cr.Address, cr.Source = *f.Liquidity.BondingCurve.Creator, analysis.SolanaCreatorBondingCurve
	case feePayer != "":
		cr.Address, cr.Source = feePayer, analysis.SolanaCreatorFeePayer
	case f.Metadata != nil && f.Metadata.UpdateAuthority != nil:
		cr.Address, cr.Source = *f.Metadata.UpdateAuthority, analysis.SolanaCreatorUpdateAuthority
	default:
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: no creator evidence (no bonding curve, first transaction or metadata update authority)")
		return
	}
	key, err := ParsePublicKey(cr.Address)
	if err != nil {
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: creator address is malformed: "+cr.Address)
		return
	}
	pda := !IsOnCurve(key)
	cr.IsProgramAccount = &pda
	if acc, ok := get(key); ok {
		var lamports uint64
		if acc != nil {
			lamports = acc.Lamports
		}
		cr.BalanceLamports = &lamports
	}
	if history == nil || history.of != key {
		history = nil
	}
	if (cr.BalanceLamports == nil || history == nil) && ctx.Err() == nil {
		// The creator was only found in round trip 3 (or its batch
		// failed): one more request for its balance and history.
		var bal balanceResult
		balCall := &Call{Method: "getBalance", Params: []any{cr.Address}, Result: &bal}
		history = &creatorHistory{of: key}
		history.call = signaturesCall(key, &history.sigs)
		if err := c.client.Batch(ctx, []*Call{balCall, history.call}); err == nil && balCall.Err == nil && cr.BalanceLamports == nil {
			cr.BalanceLamports = &bal.Value
		}
	}
	switch {
	case history == nil || history.call.Err != nil:
		f.Uncheck(risk.CheckDeployer)
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: creator transaction history unknown")
	case len(history.sigs) == 0:
		// A creator signed at least the mint's creation: an empty
		// history means the node does not keep it.
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: the node returned no transactions for the creator (history not kept); creator transaction count unknown")
	case len(history.sigs) >= signaturePageSize:
		f.Warnings.Deployer = append(f.Warnings.Deployer, fmt.Sprintf("deployer: creator has at least %d transactions; exact count not established", signaturePageSize))
	default:
		n := len(history.sigs)
		cr.TxCount = &n
		if n > 0 {
			cr.FirstActivity = history.sigs[n-1].BlockTime
			slot := history.sigs[n-1].Slot
			c.creatorFirstSlot = &slot
		}
	}
	if cr.BalanceLamports == nil {
		f.Uncheck(risk.CheckDeployer)
		f.Warnings.Deployer = append(f.Warnings.Deployer, "deployer: creator balance unknown")
	}
	f.Creator = cr
}
