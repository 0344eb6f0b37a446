package reputation

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// lookalikes maps Cyrillic and Greek letters (lower case) to the Latin
// letter they are drawn like: "USDТ" with a Cyrillic Т reads as USDT to a
// buyer, so it must to the check too.
var lookalikes = map[rune]rune{
	// Cyrillic.
	'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'ё': 'e', 'һ': 'h', 'н': 'h',
	'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k', 'ӏ': 'l', 'м': 'm', 'о': 'o', 'р': 'p',
	'ԛ': 'q', 'ѕ': 's', 'т': 't', 'ц': 'u', 'ѵ': 'v', 'ԝ': 'w', 'х': 'x', 'у': 'y',
	// Greek.
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'h', 'ι': 'i', 'κ': 'k', 'μ': 'm', 'ν': 'v',
	'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'y', 'χ': 'x', 'ζ': 'z', 'ϲ': 'c', 'ϳ': 'j',
}

// bridgeSuffixes are the endings bridged copies carry after a separator
// ("USDC.e", "WETH (PoS)", "USDT-BSC"): a token's base form drops one.
var bridgeSuffixes = []string{"e", "b", "w", "wh", "pos", "bridged", "axl", "eth", "bsc", "sol", "arb", "base", "poly", "polygon", "old", "legacy"}

// Key is the form a name or symbol is compared in: compatibility-
// decomposed (full-width letters, ligatures), without marks or
// zero-width and other format characters or invalid bytes, look-alike letters read as
// the Latin ones, lower case, letters and digits only.
func Key(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(strings.ToValidUTF8(s, "")) {
		switch {
		case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Cf, r):
			continue
		}
		r = unicode.ToLower(r)
		if l, ok := lookalikes[r]; ok {
			r = l
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// BaseKey is Key without one trailing bridge suffix set off by a
// separator or brackets ("USDC.e", "USDC (PoS)" → "usdc"); a suffix with
// no separator is part of the name ("APE" stays "ape").
func BaseKey(s string) string {
	t := strings.TrimSpace(norm.NFKC.String(strings.ToValidUTF8(s, "")))
	t = strings.TrimRight(t, ")] ")
	if i := strings.LastIndexAny(t, ".-_ ([/"); i > 0 {
		if suffix := Key(t[i+1:]); suffix != "" && isBridgeSuffix(suffix) {
			if k := Key(t[:i]); k != "" {
				return k
			}
		}
	}
	return Key(s)
}

func isBridgeSuffix(s string) bool {
	for _, x := range bridgeSuffixes {
		if s == x {
			return true
		}
	}
	return false
}
