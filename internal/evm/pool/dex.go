package pool

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"

	"math/big"
	"sort"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// Pool is one pool of the scanned token with what the simulation needs.
type Pool struct {
	// Report is the pool as liquidity_analysis reports it.
	Report analysis.EVMPool
	DEX    chains.DEX
	Quote  chains.QuoteToken
	// Address and QuoteAddress are the pool and its quote token.
	Address      common.Address
	QuoteAddress common.Address
	// TokenIsToken0 orients the pool's reserves (nil when token0 is unknown).
	TokenIsToken0 *bool
	// TokenReserve and QuoteReserve are raw amounts (V2 reserves, else the
	// pool's token balances); nil when unknown.
	TokenReserve, QuoteReserve *big.Int
	// LiquidityUSD orders pools; 0 when unknown.
	LiquidityUSD float64
	// LPSupply is the pool's LP token supply (V2-style pools), nil otherwise.
	LPSupply *big.Int
}

// lensPlan is a lens request for one token on one chain, with the layout
// needed to read its answer back.
type LensPlan struct {
	Req   lens.LensRequest
	chain chains.Chain
	token common.Address
	// tokenPairs maps a pair index to the quote token it pairs with.
	tokenPairs map[int]chains.QuoteToken
	// pricePairs maps a pair index to (volatile quote, stable quote).
	pricePairs map[int][2]chains.QuoteToken
	// burns and lockers are the LP holder index ranges; the owner is last.
	burns, lockers []common.Address
	lockerNames    []string
}

// newLensPlan plans the lens call for token on ch: the token against every
// quote token (with LP holdings of burn addresses and lockers) and every
// non-stable quote token against every stable one (USD prices).
func NewLensPlan(ch chains.Chain, token common.Address, holders []common.Address) *LensPlan {
	p := &LensPlan{
		chain:      ch,
		token:      token,
		tokenPairs: map[int]chains.QuoteToken{},
		pricePairs: map[int][2]chains.QuoteToken{},
	}
	var pairs []lens.LensPair
	for _, q := range ch.QuoteTokens {
		qa := common.HexToAddress(q.Address)
		if qa == token {
			continue
		}
		p.tokenPairs[len(pairs)] = q
		pairs = append(pairs, lens.LensPair{A: token, B: qa, LP: true})
	}
	for _, q := range ch.QuoteTokens {
		if q.USDStable {
			continue
		}
		for _, s := range ch.QuoteTokens {
			if !s.USDStable {
				continue
			}
			p.pricePairs[len(pairs)] = [2]chains.QuoteToken{q, s}
			pairs = append(pairs, lens.LensPair{A: common.HexToAddress(q.Address), B: common.HexToAddress(s.Address)})
		}
	}
	for _, b := range ch.BurnAddresses {
		p.burns = append(p.burns, common.HexToAddress(b))
	}
	for _, l := range ch.Lockers {
		p.lockers = append(p.lockers, common.HexToAddress(l.Address))
		p.lockerNames = append(p.lockerNames, l.Name)
	}
	p.Req = lens.LensRequest{
		Token:     token,
		Holders:   holders,
		DEXes:     ch.DEXes,
		Pairs:     pairs,
		LPHolders: append(append([]common.Address{}, p.burns...), p.lockers...),
	}
	return p
}

// dexUnits converts a raw amount to a float with decimals applied.
func dexUnits(v *big.Int, decimals int) float64 {
	if v == nil {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)).Float64()
	return f
}

// dexFungibleLP says whether a DEX kind's pools are their own LP token.
func dexFungibleLP(kind string) bool { return kind == "v2" || kind == "solidly" }

// dexReserves orients a pool's reserves as (a, b) for the pair (a, b).
func dexReserves(lp lens.LensPool, a common.Address) (ra, rb *big.Int, aIsToken0 *bool) {
	if lp.Token0 != nil {
		t0 := *lp.Token0 == a
		aIsToken0 = &t0
		if lp.Reserve0 != nil && lp.Reserve1 != nil {
			if t0 {
				return lp.Reserve0, lp.Reserve1, aIsToken0
			}
			return lp.Reserve1, lp.Reserve0, aIsToken0
		}
	}
	return lp.BalanceA, lp.BalanceB, aIsToken0
}

// quotePrices values every quote token in USD from the chain's own pools:
// stables are 1 USD; a volatile quote gets its price from its deepest
// V2-style pool against a stable (V3 balances are not a price).
func (p *LensPlan) quotePrices(res *lens.LensResult) map[common.Address]float64 {
	prices := map[common.Address]float64{}
	for _, q := range p.chain.QuoteTokens {
		if q.USDStable {
			prices[common.HexToAddress(q.Address)] = 1
		}
	}
	depth := map[common.Address]float64{}
	for _, lp := range res.Pools {
		pair, ok := p.pricePairs[lp.LensPair]
		if !ok || lp.DEX >= len(p.chain.DEXes) || !dexFungibleLP(p.chain.DEXes[lp.DEX].Kind) || lp.Stable {
			continue
		}
		q, s := pair[0], pair[1]
		qa := common.HexToAddress(q.Address)
		rq, rs, _ := dexReserves(lp, qa)
		qu, su := dexUnits(rq, q.Decimals), dexUnits(rs, s.Decimals)
		if qu <= 0 || su <= 0 {
			continue
		}
		if su > depth[qa] {
			depth[qa] = su
			prices[qa] = su / qu
		}
	}
	return prices
}

// pools reads the token's pools out of a lens answer, valued in USD,
// deepest first. owner is the owner address when known (LP share held).
func (p *LensPlan) Pools(res *lens.LensResult) []Pool {
	prices := p.quotePrices(res)
	var out []Pool
	for _, lp := range res.Pools {
		q, ok := p.tokenPairs[lp.LensPair]
		if !ok || lp.DEX >= len(p.chain.DEXes) {
			continue
		}
		dex := p.chain.DEXes[lp.DEX]
		qa := common.HexToAddress(q.Address)
		rt, rq, tokenIs0 := dexReserves(lp, p.token)
		pool := Pool{
			DEX: dex, Quote: q, Address: lp.LensAddress, QuoteAddress: qa,
			TokenIsToken0: tokenIs0, TokenReserve: rt, QuoteReserve: rq,
		}
		rep := analysis.EVMPool{
			DEX: dex.Name, Kind: dex.Kind, Address: lp.LensAddress.Hex(),
			QuoteToken: q.Symbol, QuoteAddress: qa.Hex(), Stable: lp.Stable,
		}
		if dex.Kind == "v3" {
			fee := lp.Fee
			rep.Fee = &fee
		}
		if rt != nil {
			s := rt.String()
			rep.TokenReserve = &s
		}
		if rq != nil {
			s := rq.String()
			rep.QuoteReserve = &s
		}
		if price, ok := prices[qa]; ok && rq != nil {
			// Both sides of a constant-product pool are worth the same;
			// for V3 the quote side held is doubled likewise (an estimate).
			usd := 2 * dexUnits(rq, q.Decimals) * price
			usd = float64(int64(usd*100)) / 100
			rep.LiquidityUSD = &usd
			pool.LiquidityUSD = usd
		}
		if dexFungibleLP(dex.Kind) && lp.LPSupply != nil && lp.LPSupply.Sign() > 0 && len(lp.LPBalances) == len(p.burns)+len(p.lockers)+1 {
			pool.LPSupply = lp.LPSupply
			burned := dexSum(lp.LPBalances[:len(p.burns)])
			locked := dexSum(lp.LPBalances[len(p.burns) : len(p.burns)+len(p.lockers)])
			rep.LPBurnedPct = DexPct(burned, lp.LPSupply)
			rep.LPLockedPct = DexPct(locked, lp.LPSupply)
			if res.OwnerFunc && res.Owner != (common.Address{}) {
				rep.LPOwnerPct = DexPct(lp.LPBalances[len(lp.LPBalances)-1], lp.LPSupply)
			}
			for i, b := range lp.LPBalances[len(p.burns) : len(p.burns)+len(p.lockers)] {
				if b != nil && b.Sign() > 0 {
					rep.LPLockers = append(rep.LPLockers, p.lockerNames[i])
				}
			}
		}
		pool.Report = rep
		out = append(out, pool)
	}
	SortDeepest(out)
	return out
}

// SortDeepest orders pools deepest first: valued pools before unvalued
// ones, then by USD liquidity.
func SortDeepest(out []Pool) {
	sort.SliceStable(out, func(i, j int) bool {
		vi, vj := out[i].Report.LiquidityUSD != nil, out[j].Report.LiquidityUSD != nil
		if vi != vj {
			return vi
		}
		return out[i].LiquidityUSD > out[j].LiquidityUSD
	})
}

func dexSum(vs []*big.Int) *big.Int {
	s := new(big.Int)
	for _, v := range vs {
		if v != nil {
			s.Add(s, v)
		}
	}
	return s
}

// dexPct is part/total in percent (two decimals), nil when total is unknown.
func DexPct(part, total *big.Int) *float64 {
	if part == nil || total == nil || total.Sign() <= 0 {
		return nil
	}
	f, _ := new(big.Rat).SetFrac(new(big.Int).Mul(part, big.NewInt(10000)), total).Float64()
	f = float64(int64(f)) / 100
	return &f
}

// fundPool is the deepest V2-style pool of the pair (wrapped, quote) among
// the lens's pricing pools, used to buy quote with the wrapped native.
func (p *LensPlan) FundPool(res *lens.LensResult, wrapped, quote common.Address) *common.Address {
	var best *common.Address
	depth := new(big.Int)
	for _, lp := range res.Pools {
		pair, ok := p.pricePairs[lp.LensPair]
		if !ok || lp.DEX >= len(p.chain.DEXes) || !dexFungibleLP(p.chain.DEXes[lp.DEX].Kind) || lp.Stable {
			continue
		}
		if common.HexToAddress(pair[0].Address) != wrapped || common.HexToAddress(pair[1].Address) != quote {
			continue
		}
		_, rq, _ := dexReserves(lp, wrapped)
		if rq != nil && rq.Cmp(depth) > 0 {
			a := lp.LensAddress
			best, depth = &a, rq
		}
	}
	return best
}
