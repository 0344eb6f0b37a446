package reputation

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// Impersonation is the major token a scanned token pretends to be
// (contract_analysis.impersonates).
type Impersonation struct {
	// Matched is what matched: "symbol" or "name".
	Matched string `json:"matched"`
	// Address, Name, Symbol and Decimals are the real token's, from the
	// chains file.
	Address  string `json:"address"`
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals *int   `json:"decimals"`
	// Source is where the chains file took the real token from.
	Source string `json:"source,omitempty"`
}

// minKey is the shortest key compared: one letter matches too much.
const minKey = 2

// Majors is one chain's listed tokens, indexed by the base keys of
// their symbols and names.
type Majors struct {
	chain  string
	source string
	fold   bool // EVM addresses compare without case
	listed map[string]bool
	tokens []chains.MajorToken
	// bySymbol and byName map a base key to the indices of the tokens
	// with that key, in list order.
	bySymbol, byName map[string][]int
}

// NewMajors indexes c's major tokens, with its quote and trusted tokens
// listed too (a trusted token never impersonates, and a copy of it does).
// It returns nil when c lists no major tokens: the check is off.
func NewMajors(c chains.Chain) *Majors {
	if len(c.MajorTokens) == 0 {
		return nil
	}
	m := &Majors{
		chain: c.Key, source: c.MajorTokensSource, fold: c.Kind == chains.EVM,
		listed: map[string]bool{}, bySymbol: map[string][]int{}, byName: map[string][]int{},
	}
	// One entry per address: the quote tokens (symbols), the list, then
	// the trusted tokens (names), each filling what the earlier lacked.
	at := map[string]int{}
	add := func(t chains.MajorToken) {
		a := m.norm(t.Address)
		i, ok := at[a]
		if !ok {
			at[a] = len(m.tokens)
			m.tokens = append(m.tokens, t)
			return
		}
		old := &m.tokens[i]
		old.Name = cmp.Or(old.Name, t.Name)
		old.Symbol = cmp.Or(old.Symbol, t.Symbol)
		if old.Decimals == nil {
			old.Decimals = t.Decimals
		}
	}
	for _, q := range c.QuoteTokens {
		d := q.Decimals
		add(chains.MajorToken{Address: q.Address, Symbol: q.Symbol, Decimals: &d})
	}
	for _, t := range c.MajorTokens {
		add(t)
	}
	for _, t := range c.Trusted {
		add(chains.MajorToken{Address: t.Address, Name: t.Name})
	}
	for i, t := range m.tokens {
		m.listed[m.norm(t.Address)] = true
		if k := BaseKey(t.Symbol); len(k) >= minKey {
			m.bySymbol[k] = append(m.bySymbol[k], i)
		}
		if k := BaseKey(t.Name); len(k) >= minKey {
			m.byName[k] = append(m.byName[k], i)
		}
	}
	return m
}

func (m *Majors) norm(addr string) string {
	if m.fold {
		return strings.ToLower(addr)
	}
	return addr
}

// Listed reports whether addr is one of the listed tokens.
func (m *Majors) Listed(addr string) bool { return m.listed[m.norm(addr)] }

// Len is how many tokens are listed.
func (m *Majors) Len() int { return len(m.tokens) }

// Match finds the listed token a token at addr named name with symbol
// symbol reads as, if any. A listed address never matches: it is the
// real token (a bridged USDC.e listed beside USDC is itself). Among
// tokens of one base key, the one whose full key equals the token's is
// preferred ("USDC.e" copies USDC.e where both are listed).
func (m *Majors) Match(addr, name, symbol string) (Impersonation, bool) {
	if m == nil || m.Listed(addr) {
		return Impersonation{}, false
	}
	for _, try := range []struct {
		what, text string
		index      map[string][]int
		full       func(chains.MajorToken) string
	}{
		{"symbol", symbol, m.bySymbol, func(t chains.MajorToken) string { return t.Symbol }},
		{"name", name, m.byName, func(t chains.MajorToken) string { return t.Name }},
	} {
		k := BaseKey(try.text)
		if len(k) < minKey {
			continue
		}
		hits := try.index[k]
		if len(hits) == 0 {
			continue
		}
		best, full := hits[0], Key(try.text)
		for _, i := range hits {
			if Key(try.full(m.tokens[i])) == full {
				best = i
				break
			}
		}
		t := m.tokens[best]
		return Impersonation{Matched: try.what, Address: t.Address, Name: t.Name, Symbol: t.Symbol, Decimals: t.Decimals, Source: m.source}, true
	}
	return Impersonation{}, false
}

// Flag is FAKE_TOKEN for imp.
func (imp Impersonation) Flag(name, symbol string) risk.Flag {
	shown := symbol
	if imp.Matched == "name" {
		shown = name
	}
	real := imp.Symbol
	if real == "" {
		real = imp.Name
	}
	f := risk.NewFlag(risk.FakeToken, fmt.Sprintf("Pretends to be %s (real: %s)", real, imp.Address),
		fmt.Sprintf("The token's %s %q reads as %s, a major token of this chain at %s: this is another contract.", imp.Matched, shown, real, imp.Address))
	f.Source = imp.Address
	return f
}
