package web

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tokenrisk/tokenrisk/client"
	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// units is how the page shows the amounts of one report: raw base units
// become token units with the symbol (decimals applied, thousands
// separated) and, where the token's price is known, US dollars.
type units struct {
	// token is the scanned token; its Decimals is -1 when unknown.
	token unit
	// priceUSD is one whole token's price in USD (0: unknown).
	priceUSD float64
	// quotes are the chain's quote tokens by lower-case address, native
	// its wrapped native token.
	quotes map[string]unit
	native unit
}

// unit is a token whose amounts can be shown: its symbol and decimals
// (-1: unknown, amounts stay raw).
type unit struct {
	Symbol   string
	Decimals int
}

// tokenAmountFields are the evidence fields that hold raw amounts of the
// scanned token; quoteAmountFields those in its pool's quote token, and
// nativeAmountFields those in the chain's wrapped native token.
var (
	tokenAmountFields = map[string]bool{
		"balance": true, "token_reserve": true, "total_supply": true, "amount": true,
		"virtual_token_reserves": true, "real_token_reserves": true, "token_total_supply": true,
	}
	quoteAmountFields  = map[string]bool{"quote_reserve": true}
	nativeAmountFields = map[string]bool{"quote_in": true}
)

// newUnits reads what the amounts of rep need: its decimals and symbol,
// the chain's quote tokens (reg may be nil: quote amounts then stay raw),
// and its USD price at its main constant-product pool.
func newUnits(rep *client.Report, reg *chains.Registry) *units {
	u := &units{token: unit{Symbol: rep.TokenSymbol, Decimals: -1}, quotes: map[string]unit{}, native: unit{Decimals: -1}}
	if rep.Decimals != nil && *rep.Decimals >= 0 && *rep.Decimals <= 77 {
		u.token.Decimals = *rep.Decimals
	}
	if reg != nil {
		if ch, ok := reg.Get(rep.Chain); ok {
			for _, q := range ch.QuoteTokens {
				u.quotes[strings.ToLower(q.Address)] = unit{Symbol: q.Symbol, Decimals: q.Decimals}
			}
			if w, ok := ch.Wrapped(); ok {
				u.native = unit{Symbol: w.Symbol, Decimals: w.Decimals}
			}
		}
	}
	u.priceUSD = poolPrice(rep.LiquidityAnalysis, u.token.Decimals)
	return u
}

// constantProduct are the pool kinds whose two reserves are worth the
// same at the pool's price (x·y = k): half the pool's liquidity in USD
// over its token reserve is the token's price.
var constantProduct = map[string]bool{"v2": true, "raydium_amm_v4": true, "raydium_cpmm": true, "pumpswap": true}

// poolPrice is a whole token's USD price at the main pool when that pool
// is a constant-product one with its liquidity valued, else 0.
func poolPrice(liq client.Analysis, decimals int) float64 {
	if decimals < 0 {
		return 0
	}
	var main string
	liq.Decode("main_pool", &main)
	var pools []struct {
		Address      string          `json:"address"`
		Kind         string          `json:"kind"`
		DEX          string          `json:"dex"`
		Stable       bool            `json:"stable"`
		TokenReserve json.RawMessage `json:"token_reserve"`
		LiquidityUSD *float64        `json:"liquidity_usd"`
	}
	if !liq.Decode("pools", &pools) {
		return 0
	}
	for _, p := range pools {
		if !strings.EqualFold(p.Address, main) {
			continue
		}
		kind := p.Kind
		if kind == "" {
			kind = p.DEX
		}
		if (!constantProduct[kind] && !(kind == "solidly" && !p.Stable)) || p.LiquidityUSD == nil || *p.LiquidityUSD <= 0 {
			return 0
		}
		reserve, ok := tokenUnits(rawDigits(p.TokenReserve), decimals)
		if !ok || reserve <= 0 {
			return 0
		}
		return *p.LiquidityUSD / 2 / reserve
	}
	return 0
}

// rawDigits is a raw amount's digits from a JSON string or number.
func rawDigits(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// tokenUnits is a raw amount in whole tokens as a float (for valuing it).
func tokenUnits(raw string, decimals int) (float64, bool) {
	n, ok := new(big.Int).SetString(raw, 10)
	if !ok || decimals < 0 {
		return 0, false
	}
	r := new(big.Rat).SetFrac(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
	f, _ := r.Float64()
	return f, true
}

// amount formats the raw amount of field name (siblings are the other
// fields of its object, for a pool's quote token); ok is false when name
// is not an amount field or raw is not a whole number.
func (u *units) amount(name string, raw json.RawMessage, siblings map[string]json.RawMessage) (text, usd string, ok bool) {
	var in unit
	switch {
	case tokenAmountFields[name]:
		in = u.token
	case quoteAmountFields[name]:
		var addr string
		if !(decodeField(siblings, "quote_address", &addr) || decodeField(siblings, "quote_mint", &addr)) {
			return "", "", false
		}
		q, found := u.quotes[strings.ToLower(addr)]
		if !found {
			return "", "", false
		}
		in = q
	case nativeAmountFields[name]:
		in = u.native
	default:
		return "", "", false
	}
	digits := rawDigits(raw)
	if in.Decimals < 0 {
		return "", "", false
	}
	v, ok := tokenUnits(digits, in.Decimals)
	if !ok {
		return "", "", false
	}
	text = formatUnits(digits, in.Decimals)
	if in.Symbol != "" {
		text += " " + in.Symbol
	}
	if in == u.token && u.priceUSD > 0 {
		usd = "≈ " + dollars(v*u.priceUSD)
	}
	return text, usd, true
}

func decodeField(fields map[string]json.RawMessage, name string, v any) bool {
	raw, ok := fields[name]
	return ok && json.Unmarshal(raw, v) == nil
}

// formatUnits writes a raw amount in whole units: two decimals at or
// above one unit, four significant digits below, thousands separated.
func formatUnits(raw string, decimals int) string {
	n, ok := new(big.Int).SetString(raw, 10)
	if !ok {
		return raw
	}
	r := new(big.Rat).SetFrac(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
	one := big.NewRat(1, 1)
	if n.Sign() == 0 {
		return "0"
	}
	if new(big.Rat).Abs(r).Cmp(one) >= 0 {
		s := r.FloatString(2)
		s = strings.TrimSuffix(s, ".00")
		return groupThousands(s)
	}
	f, _ := r.Float64()
	places := min(decimals, max(0, 3-int(math.Floor(math.Log10(math.Abs(f))))))
	s := strconv.FormatFloat(f, 'f', places, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// dollars formats a USD value: cents below a million, whole dollars above.
func dollars(v float64) string {
	switch {
	case v > 0 && v < 0.01:
		return "< $0.01"
	case v >= 1e6:
		return "$" + groupThousands(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	}
	return "$" + groupThousands(strconv.FormatFloat(v, 'f', 2, 64))
}

// groupThousands puts commas between the thousands of a decimal number's
// integer part.
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}
