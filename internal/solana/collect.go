package solana

import (
	"context"
	"fmt"
	"sort"
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
	// holderCount waits for the count of the mint's token accounts (nil
	// when not counted).
	holderCount func() *holderCount
	// derived are authorities proven to be addresses a configured program
	// derived (a stake pool's withdraw authority).
	derived map[PublicKey]derivation
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
	if c.facts.Trusted == "" && c.mintData.Supply > 0 {
		// A trusted token's holders are too many to count.
		c.holderCount = c.startHolderCount(ctx)
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
		if acc := accs[1]; acc != nil && acc.Owner != *c.cfg.metadataProgram {
			// The metadata PDA exists under another owner: not metadata,
			// and not proof there is none.
			f.MetadataKnown = false
			f.Warnings.Contract = append(f.Warnings.Contract, fmt.Sprintf("contract: the Metaplex metadata account %s is owned by %s, not the metadata program; refused, metadata unknown", metaPDA, acc.Owner))
		} else if acc != nil {
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
		if acc := accs[len(accs)-1]; acc != nil && acc.Owner != *c.cfg.pumpProgram {
			// The curve's address holds another program's account: not
			// a curve, and not proof there is none. Never valued.
			f.Liquidity.BondingCurveKnown = false
			f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: the pump.fun bonding curve account %s is owned by %s, not the pump.fun program; refused, curve unknown", curvePDA, acc.Owner))
		} else if acc != nil {
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
	// What holds each authority, and the transfer hook's program: labels
	// at no extra call (the program-data header is one sliced call).
	for _, s := range f.AuthorityAddresses() {
		if k, err := ParsePublicKey(s); err == nil {
			add(k)
		}
	}
	hook := c.prepareHook(add)

	calls, accounts := accountsCalls(keys)
	if hook != nil {
		calls = append(calls, hook.call)
	}
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
	c.buildAuthorities(get, hook)
}
