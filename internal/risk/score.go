package risk

import (
	"fmt"
	"math"
)

// Flag is one risk flag as reported to clients.
type Flag struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Category Category `json:"category"`
	Title    string   `json:"title"`
	Detail   string   `json:"detail"`
	Value    *float64 `json:"value,omitempty"`
}

// NewFlag builds a flag of a catalogue code; severity and category come from
// the catalogue. It panics on an unknown code: that is a programming error
// caught by every test that raises the flag.
func NewFlag(code, title, detail string) Flag {
	d, ok := builtin[code]
	if !ok {
		panic(fmt.Sprintf("risk: unknown flag code %q", code))
	}
	return Flag{Code: code, Severity: d.Severity, Category: d.Category, Title: title, Detail: detail}
}

// WithValue returns f carrying a numeric value (a tax, a share, an amount).
func (f Flag) WithValue(v float64) Flag {
	f.Value = &v
	return f
}

// Level is a risk level derived from a score.
type Level string

// Levels in increasing order.
const (
	Minimal       Level = "minimal"
	LevelLow      Level = "low"
	LevelMedium   Level = "medium"
	LevelHigh     Level = "high"
	LevelCritical Level = "critical"
)

// LevelOf maps a score to its level (SPEC §3).
func LevelOf(score float64) Level {
	switch {
	case score < 20:
		return Minimal
	case score < 40:
		return LevelLow
	case score < 60:
		return LevelMedium
	case score < 80:
		return LevelHigh
	default:
		return LevelCritical
	}
}

// Result is the scoring of one scan.
type Result struct {
	Overall    float64
	Level      Level
	Categories map[Category]float64
}

// Score computes category scores, the overall score and the level from
// flags: 100 × (1 − Π(1 − wᵢ)); a critical flag lifts the overall score to
// at least 90; a trusted token that can be sold is capped at low.
func (c *Catalogue) Score(flags []Flag) Result {
	res := Result{Categories: map[Category]float64{Contract: 0, Liquidity: 0, Deployer: 0, Holder: 0}}
	survive := 1.0
	perCat := map[Category]float64{Contract: 1, Liquidity: 1, Deployer: 1, Holder: 1}
	critical, trusted, unsellable := false, false, false
	for _, f := range flags {
		d, ok := c.byCode[f.Code]
		if !ok {
			continue
		}
		survive *= 1 - d.Weight
		perCat[d.Category] *= 1 - d.Weight
		if d.Severity == Critical {
			critical = true
		}
		switch d.Code {
		case TrustedToken:
			trusted = true
		case HoneypotCannotSell:
			unsellable = true
		}
	}
	for cat, s := range perCat {
		res.Categories[cat] = round1(100 * (1 - s))
	}
	res.Overall = round1(100 * (1 - survive))
	if critical && res.Overall < 90 {
		res.Overall = 90
	}
	// A trusted token keeps its flags but is capped at low, unless it
	// cannot be sold: an unsellable token is always critical.
	if trusted && !unsellable && res.Overall >= 40 {
		res.Overall = 39.9
	}
	res.Level = LevelOf(res.Overall)
	return res
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
