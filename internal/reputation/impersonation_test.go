package reputation_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/reputation"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

const (
	usdt   = "0xdAC17F958D2ee523a2206206994597C13D831ec7"
	usdce  = "0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8"
	usdc   = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
	weth   = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
	copyAt = "0x1111111111111111111111111111111111111111"
)

// testChain lists USDT, USDC and its bridged USDC.e (as Arbitrum does),
// with WETH a quote and trusted token only.
func testChain() chains.Chain {
	six := 6
	return chains.Chain{
		Key: "testchain", Kind: chains.EVM, ChainID: 42161,
		QuoteTokens: []chains.QuoteToken{{Symbol: "WETH", Address: weth, Decimals: 18, Wrapped: true}},
		Trusted:     []chains.NamedAddress{{Name: "Wrapped Ether", Address: weth}},
		MajorTokens: []chains.MajorToken{
			{Address: usdt, Name: "Tether USD", Symbol: "USDT", Decimals: &six},
			{Address: usdc, Name: "USD Coin", Symbol: "USDC", Decimals: &six},
			{Address: usdce, Name: "Bridged USDC", Symbol: "USDC.e", Decimals: &six},
		},
		MajorTokensSource: "test list",
	}
}

func TestMatchTricks(t *testing.T) {
	m := reputation.NewMajors(testChain())
	for _, tc := range []struct {
		name, addr, tokName, symbol string
		want                        string // the real address, "" for no match
		matched                     string
	}{
		{"exact symbol", copyAt, "Some Token", "USDT", usdt, "symbol"},
		{"lower case", copyAt, "x", "usdt", usdt, "symbol"},
		{"spaces and punctuation", copyAt, "x", " U.S.D-T ", usdt, "symbol"},
		{"cyrillic T", copyAt, "x", "USDТ", usdt, "symbol"},
		{"cyrillic C and greek O-like", copyAt, "x", "USDС", usdc, "symbol"},
		{"greek tau and alpha in name", copyAt, "Tether UЅD", "ZZZ", usdt, "name"},
		{"zero-width space", copyAt, "x", "US\u200bDT", usdt, "symbol"},
		{"zero-width joiner and BOM", copyAt, "x", "\ufeffUSD\u200dT", usdt, "symbol"},
		{"full-width letters", copyAt, "x", "ＵＳＤＴ", usdt, "symbol"},
		{"combining marks", copyAt, "x", "U\u0301SDT", usdt, "symbol"},
		{"bridge suffix on an unlisted copy", copyAt, "x", "USDT.e", usdt, "symbol"},
		{"bracket suffix", copyAt, "x", "USDT (PoS)", usdt, "symbol"},
		{"a copy of the listed bridged token", copyAt, "x", "USDC.e", usdce, "symbol"},
		{"name only", copyAt, "Tether  USD", "TUSD2", usdt, "name"},
		{"quote token symbol", copyAt, "x", "WETH", weth, "symbol"},
		{"trusted token name", copyAt, "Wrapped  Ether", "WE", weth, "name"},
		{"the real USDT", usdt, "Tether USD", "USDT", "", ""},
		{"the real USDT, lower-case address", "0xdac17f958d2ee523a2206206994597c13d831ec7", "Tether USD", "USDT", "", ""},
		{"the listed bridged USDC.e is not a copy of USDC", usdce, "Bridged USDC", "USDC.e", "", ""},
		{"a trusted address never fires against itself", weth, "Wrapped Ether", "WETH", "", ""},
		{"suffix glued on is another symbol", copyAt, "x", "USDTE", "", ""},
		{"a longer symbol", copyAt, "x", "USDT2", "", ""},
		{"unrelated", copyAt, "Clean Token", "CLEAN", "", ""},
		{"one letter", copyAt, "x", "U", "", ""},
		{"empty", copyAt, "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := m.Match(tc.addr, tc.tokName, tc.symbol)
			if ok != (tc.want != "") || got.Address != tc.want || got.Matched != tc.matched {
				t.Fatalf("Match(%q, %q) = %+v, %v; want %s by %s", tc.tokName, tc.symbol, got, ok, tc.want, tc.matched)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	reg, err := chains.Parse([]byte(`{"chains":[{"key":"bare","kind":"evm","chain_id":9,"native":"ETH","rpc":[],"dexes":[],"quote_tokens":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(testChain())
	c := reputation.New(reg, nil)

	v := c.Judge(context.Background(), reputation.Facts{Chain: "testchain", Address: copyAt, Name: "Tether USD", Symbol: "USDT"})
	if len(v.Flags) != 1 || v.Flags[0].Code != risk.FakeToken || v.Flags[0].Severity != risk.Critical {
		t.Fatalf("flags = %+v, want one critical FAKE_TOKEN", v.Flags)
	}
	if v.Impersonates == nil || v.Impersonates.Address != usdt || *v.Impersonates.Decimals != 6 || v.Impersonates.Source != "test list" {
		t.Fatalf("impersonates = %+v, want USDT at %s with its decimals and source", v.Impersonates, usdt)
	}
	if len(v.NotConfigured) != 0 {
		t.Fatalf("not_configured = %v on a chain with a list", v.NotConfigured)
	}

	v = c.Judge(context.Background(), reputation.Facts{Chain: "bare", Address: copyAt, Name: "Tether USD", Symbol: "USDT"})
	if len(v.Flags) != 0 || v.Impersonates != nil || len(v.NotConfigured) != 1 || v.NotConfigured[0] != risk.CheckImpersonation {
		t.Fatalf("chain without major tokens: %+v, want no flag and not_configured [%s]", v, risk.CheckImpersonation)
	}
}

// TestShippedLists checks the chains file lists a real list for every
// chain, with every trusted and quote token among the listed.
func TestShippedLists(t *testing.T) {
	reg, err := chains.Parse(chains.Shipped())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range reg.All() {
		m := reputation.NewMajors(c)
		if m == nil || c.MajorTokensSource == "" {
			t.Errorf("%s: no major tokens or no source", c.Key)
			continue
		}
		for _, tr := range c.Trusted {
			if _, ok := m.Match(tr.Address, tr.Name, ""); ok || !m.Listed(tr.Address) {
				t.Errorf("%s: trusted %s is not listed or matches another", c.Key, tr.Name)
			}
		}
		// Every listed token is itself, never a copy of another.
		for _, mt := range c.MajorTokens {
			if imp, ok := m.Match(mt.Address, mt.Name, mt.Symbol); ok {
				t.Errorf("%s: listed %s matches %+v", c.Key, mt.Symbol, imp)
			}
		}
	}
}

func FuzzKey(f *testing.F) {
	for _, s := range []string{"USDT", "USDТ", "US\u200bDT", "USDC.e", "ＵＳＤＴ", "", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, b := reputation.Key(s), reputation.BaseKey(s)
		if reputation.Key(k) != k {
			t.Fatalf("Key(%q) = %q is not stable", s, k)
		}
		if !strings.HasPrefix(k, b) {
			t.Fatalf("BaseKey(%q) = %q is not a prefix of Key = %q", s, b, k)
		}
	})
}
