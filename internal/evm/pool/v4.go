package pool

import (
	"github.com/tokenrisk/tokenrisk/internal/evm/lens"
	v4 "github.com/tokenrisk/tokenrisk/internal/evm/v4"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// V4Pool is a Uniswap V4 pool of the token as the report lists it, valued
// like the others: its reserves are the virtual reserves at its price
// (exact for a full-range position, an upper bound for concentrated ones),
// the quote side priced from the chain's own pools (the native coin at
// the wrapped native's price). Its LP lives in the PoolManager's positions
// (most as the position manager's NFTs): the LP shares stay unknown (nil).
// Address is the PoolManager (where the pool's tokens are held), the
// report's address the pool id. res may be nil (the lens failed): the pool
// is then listed unvalued.
func (p *LensPlan) V4Pool(res *lens.LensResult, dex chains.DEX, vp v4.Pool) Pool {
	quoteAddr := vp.Key.Other(p.token)
	quote, known := p.v4Quote(quoteAddr)
	out := Pool{DEX: dex, Quote: quote, Address: vp.Manager, QuoteAddress: quoteAddr}
	rep := analysis.EVMPool{
		DEX: dex.Name, Kind: "v4", Address: vp.ID.Hex(), QuoteToken: quote.Symbol, QuoteAddress: quoteAddr.Hex(),
		PoolManager: vp.Manager.Hex(), PoolID: vp.ID.Hex(),
		V4Key: &analysis.EVMV4Key{
			Currency0: vp.Key.Currency0.Hex(), Currency1: vp.Key.Currency1.Hex(), Fee: int(vp.Key.Fee),
			TickSpacing: int(vp.Key.TickSpacing), Hooks: vp.Key.Hooks.Hex(),
		},
	}
	fee := int(vp.Key.Fee)
	if vp.Key.Fee != v4.DynamicFee {
		rep.Fee = &fee
	}
	tokenIs0 := vp.Key.Currency0 == p.token
	out.TokenIsToken0 = &tokenIs0
	if st := vp.State; st != nil {
		lpFee := int(st.LPFee)
		rep.LPFee = &lpFee
		r0, r1 := st.Reserves()
		rt, rq := r1, r0
		if tokenIs0 {
			rt, rq = r0, r1
		}
		if rt != nil && rq != nil {
			out.TokenReserve, out.QuoteReserve = rt, rq
			ts, qs := rt.String(), rq.String()
			rep.TokenReserve, rep.QuoteReserve = &ts, &qs
		}
	}
	if known && res != nil && out.QuoteReserve != nil {
		price, ok := p.quotePrices(res)[p.v4PriceKey(quoteAddr)]
		if ok {
			usd := 2 * dexUnits(out.QuoteReserve, quote.Decimals) * price
			usd = float64(int64(usd*100)) / 100
			rep.LiquidityUSD = &usd
			out.LiquidityUSD = usd
		}
	}
	out.Report = rep
	return out
}

// v4Quote is the quote token a V4 pool trades the token against: the
// native coin (address zero, 18 decimals), a configured quote token, or
// an unknown currency (listed, never valued).
func (p *LensPlan) v4Quote(addr common.Address) (chains.QuoteToken, bool) {
	if addr == (common.Address{}) {
		return chains.QuoteToken{Symbol: p.chain.Native, Address: addr.Hex(), Decimals: 18}, true
	}
	for _, q := range p.chain.QuoteTokens {
		if common.HexToAddress(q.Address) == addr {
			return q, true
		}
	}
	return chains.QuoteToken{Address: addr.Hex()}, false
}

// v4PriceKey is the address whose USD price values a V4 quote: the
// wrapped native's for the native coin.
func (p *LensPlan) v4PriceKey(addr common.Address) common.Address {
	if addr == (common.Address{}) {
		if w, ok := p.chain.Wrapped(); ok {
			return common.HexToAddress(w.Address)
		}
	}
	return addr
}
