package solana

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

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
		ta, err := c.tokenAccountOf(lacc)
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
		m, err := c.mintOf(acc)
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
				if qa, err := c.tokenAccountOf(acc); err == nil {
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
			ta, err1 := c.vaultOf(tacc, c.mint)
			qa, err2 := c.vaultOf(qacc, quote)
			if err := errors.Join(err1, err2); err != nil {
				f.Uncheck(risk.CheckPools)
				f.Warnings.Liquidity = append(f.Warnings.Liquidity, fmt.Sprintf("liquidity: %s pool %s: vault refused (%s); not valued", p.dex, p.address, err))
			} else {
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
				if lm, err := c.mintOf(acc); err == nil {
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
				n := ps.providers
				pf.LPProviders = &n
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
	if acc.Owner != p.program {
		fail("its config account " + lc.Config.String() + " is owned by " + acc.Owner.String() + ", not the pool's program")
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
