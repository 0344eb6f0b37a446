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
	// Evidence says how a capability flag is known: EvidenceProbe (an
	// effect was observed by simulation) or EvidenceCode (a code path
	// exists, not proven); "" for flags that are not capabilities.
	Evidence string `json:"evidence,omitempty"`
	// Source names the probe or function behind Evidence (a signature or
	// selector, and what changed).
	Source string `json:"source,omitempty"`
}

// How a capability flag is known (Flag.Evidence).
const (
	EvidenceProbe = "probe"
	EvidenceCode  = "code"
)

// WithEvidence returns f saying how it is known and from which probe or
// function.
func (f Flag) WithEvidence(evidence, source string) Flag {
	f.Evidence, f.Source = evidence, source
	return f
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

// WithSeverity returns f raised at sev instead of its catalogue severity
// (a hidden mint is critical, a capped fee low); the score follows it.
func (f Flag) WithSeverity(sev Severity) Flag {
	f.Severity = sev
	return f
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
	// Floor is the lowest level the checks that could not run allow
	// (Minimal when every check ran).
	Floor Level
}

// Score computes category scores, the overall score and the level from
// flags (SPEC §3 "Scoring"):
//
//   - each flag weighs its catalogue weight, capped by its own severity
//     when an analysis raised it lower than the catalogue's (severityCap),
//     and scaled by CodeEvidenceFactor when it is known from code only;
//   - the flags of one correlation group (Definition.Group) restate one
//     fact and count once, at the heaviest one's weight;
//   - a score is 100 × (1 − Π(1 − wᵢ)) over the facts;
//   - a code-only power that writes no supply and no holder's balance
//     never lifts the score past CodeOnlyCeiling (low) by itself;
//   - a critical flag (at its own severity, not known from code only)
//     lifts the overall score to at least CriticalScore; without one it
//     stays at or below HighCeiling;
//   - unchecked names the checks that could not run (the caller adds
//     their SCAN_INCOMPLETE flag): the overall score is then at least the
//     lowest score of the highest floor among them (see Checks);
//   - a trusted token that can be sold is capped at low.
func (c *Catalogue) Score(flags []Flag, unchecked ...string) Result {
	res := Result{Categories: map[Category]float64{Contract: 0, Liquidity: 0, Deployer: 0, Holder: 0}}
	// The heaviest weight of each fact, overall and per category; a flag
	// of no group is a fact of its own (its code: a code raised twice is
	// one fact too).
	overall := map[string]float64{}
	// proven is overall without the code-only powers that cannot lift a
	// token above low by themselves (see liftsAlone).
	proven := map[string]float64{}
	perCat := map[Category]map[string]float64{Contract: {}, Liquidity: {}, Deployer: {}, Holder: {}}
	critical, trusted, unsellable := false, false, false
	for _, f := range flags {
		d, ok := c.byCode[f.Code]
		if !ok {
			continue
		}
		w, crit := weigh(d, f)
		fact := d.Group
		if fact == "" {
			fact = d.Code
		}
		overall[fact] = max(overall[fact], w)
		if liftsAlone(d, f) {
			proven[fact] = max(proven[fact], w)
		}
		// SCAN_INCOMPLETE is about the scan, not about one analysis: it
		// weighs in the overall score only.
		if d.Code != ScanIncomplete {
			perCat[d.Category][fact] = max(perCat[d.Category][fact], w)
		}
		critical = critical || crit
		switch d.Code {
		case TrustedToken:
			trusted = true
		case HoneypotCannotSell:
			unsellable = true
		}
	}
	for cat, facts := range perCat {
		res.Categories[cat] = combine(facts)
	}
	res.Overall = combine(overall)
	// A code-only power that writes no holder's balance and no supply
	// (a pause, a blacklist, a fee or limit setter read from the code,
	// never called to effect) is thin evidence: it may add up to low,
	// never lift the token past it by itself.
	if base := combine(proven); res.Overall > base {
		res.Overall = min(res.Overall, max(base, CodeOnlyCeiling))
	}
	if critical {
		res.Overall = max(res.Overall, CriticalScore)
	} else {
		res.Overall = min(res.Overall, HighCeiling)
	}
	res.Floor = floorOf(unchecked)
	res.Overall = max(res.Overall, levelFloorScore[res.Floor])
	// A trusted token keeps its flags but is capped at low, unless it
	// cannot be sold: an unsellable token is always critical.
	if trusted && !unsellable && res.Overall >= 40 {
		res.Overall = 39.9
	}
	res.Level = LevelOf(res.Overall)
	return res
}

// liftsAlone says whether a flag may lift the level by itself: every
// flag but a code-only power outside the dilution and balance-control
// groups (those write the supply or other holders' balances behind a
// caller check someone can still pass: the analysis flags them only
// then).
func liftsAlone(d Definition, f Flag) bool {
	return f.Evidence != EvidenceCode || d.Group == GroupDilution || d.Group == GroupBalanceControl
}

// Weight is what f weighs in a score (see Score): its catalogue weight,
// capped by its own severity when lower and scaled when known from code
// only; 0 for a code the catalogue does not know.
func (c *Catalogue) Weight(f Flag) float64 {
	d, ok := c.byCode[f.Code]
	if !ok {
		return 0
	}
	w, _ := weigh(d, f)
	return w
}

// weigh is a flag's weight and whether it counts as critical: its own
// severity (an analysis may raise a flag above or below the catalogue's,
// e.g. a hidden mint critical, a capped fee low) caps the weight when
// lower, and code-only evidence halves it and is never critical.
func weigh(d Definition, f Flag) (float64, bool) {
	sev := f.Severity
	if _, ok := severityRank[sev]; !ok {
		sev = d.Severity
	}
	w := d.Weight
	if severityRank[sev] < severityRank[d.Severity] {
		w = min(w, severityCap[sev])
	}
	if f.Evidence == EvidenceCode {
		return w * CodeEvidenceFactor, false
	}
	return w, sev == Critical
}

// combine is 100 × (1 − Π(1 − wᵢ)), rounded to one decimal.
func combine(weights map[string]float64) float64 {
	survive := 1.0
	for _, w := range weights {
		survive *= 1 - w
	}
	return round1(100 * (1 - survive))
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
