package reputation

import (
	"fmt"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// PopularTwins is how many scanned twins, none of them found harmful,
// make a code a popular template (the COMMON_TEMPLATE note).
const PopularTwins = 10

// harmNamed is how many harmful twins a KNOWN_SCAM_CODE detail names
// (the report's code_twins.examples lists up to RelatedLimit).
const harmNamed = 5

// CodeTwins is contract_analysis.code_twins: the code's fingerprints
// and what this service's record says of the other tokens sharing it.
// The record's fields are null when it was not read (no history store,
// or the read failed).
type CodeTwins struct {
	// Fingerprint is the code's skeleton fingerprint (internal/codeprint),
	// the implementation's for a proxy; twins share it.
	Fingerprint string `json:"fingerprint"`
	// Dispatcher is the fingerprint of its selector set (null when the
	// code compares against none).
	Dispatcher *string `json:"dispatcher"`
	// Count is how many other scanned tokens share the fingerprint, on
	// any chain; CountCapped says there are at least that many (the count
	// stops at store.TwinTallyCap).
	Count       *int `json:"count"`
	CountCapped bool `json:"count_capped"`
	// Critical is how many of them read critical at their latest scan,
	// Harms how many were proven harmful, by harm.
	Critical *int           `json:"critical"`
	Harms    map[string]int `json:"harms"`
	// Record sums it up in words ("no earlier scans" when Count is 0).
	Record *string `json:"record"`
	// Examples are up to RelatedLimit twins, the proven harms first,
	// then the newest.
	Examples []Twin `json:"examples"`
	// SameDispatcher is how many other scanned tokens, on any chain,
	// compare calldata against the same selector set with other code
	// (null when the record was not read or the code has no dispatcher);
	// SameDispatcherCapped says there are at least that many. Weaker
	// evidence than a twin: the same functions, not the same code; it
	// raises no flag.
	SameDispatcher       *int `json:"same_dispatcher"`
	SameDispatcherCapped bool `json:"same_dispatcher_capped"`
}

// Twin is one scanned token sharing the code: its latest verdict, the
// proven harm, the flags that made its level, and the scan behind it.
type Twin struct {
	Chain     string    `json:"chain"`
	Address   string    `json:"address"`
	Level     string    `json:"level"`
	Harm      *string   `json:"harm"`
	Flags     []string  `json:"flags"`
	ScanID    string    `json:"scan_id"`
	ScannedAt time.Time `json:"scanned_at"`
}

func twin(t store.Token) Twin {
	tw := Twin{Chain: t.Chain, Address: t.Address, Level: t.Level, Flags: t.Flags, ScanID: t.ScanID, ScannedAt: t.ScannedAt}
	if tw.Flags == nil {
		tw.Flags = []string{}
	}
	if t.Harm != "" {
		h := t.Harm
		tw.Harm = &h
	}
	return tw
}

// codeTwins returns f's code_twins before the record is read (nil
// without a fingerprint).
func codeTwins(f Facts) *CodeTwins {
	if f.Code == "" {
		return nil
	}
	ct := &CodeTwins{Fingerprint: f.Code}
	if f.Dispatcher != "" {
		d := f.Dispatcher
		ct.Dispatcher = &d
	}
	return ct
}

// twinsVerdict fills v.CodeTwins from the record and raises
// KNOWN_SCAM_CODE (critical) when a twin's code was proven harmful (a
// honeypot, a seizure or a hidden mint; codeHarm), or the COMMON_TEMPLATE
// note when many twins and none critical share it.
func twinsVerdict(v *Verdict, twins []store.Token, tally store.CodeTally) {
	ct := v.CodeTwins
	count, critical := tally.Twins, tally.Critical
	ct.Count, ct.CountCapped, ct.Critical = &count, tally.Capped, &critical
	ct.Harms = map[string]int{}
	for h, n := range tally.Harms {
		ct.Harms[h] = n
	}
	ct.Examples = make([]Twin, 0, len(twins))
	var bad []string
	source := ""
	for _, t := range twins {
		ct.Examples = append(ct.Examples, twin(t))
		if !codeHarm(t.Harm) {
			continue
		}
		if source == "" {
			source = t.ScanID
		}
		if len(bad) < harmNamed {
			bad = append(bad, fmt.Sprintf("%s on %s (%s, %s, scan %s at %s)", t.Address, t.Chain, t.Harm, t.Level, t.ScanID, t.ScannedAt.Format("2006-01-02 15:04Z")))
		}
	}
	harmful := 0
	for h, n := range tally.Harms {
		if codeHarm(h) {
			harmful += n
		}
	}
	record := twinsSummary(count, tally.Capped, critical, harmful)
	ct.Record = &record
	switch {
	case len(bad) > 0:
		more := ""
		if harmful > len(bad) {
			more = fmt.Sprintf(" and %d more (contract_analysis.code_twins)", harmful-len(bad))
		}
		f := risk.NewFlag(risk.KnownScamCode,
			fmt.Sprintf("Same code as %d token(s) found harmful", harmful),
			"This service scanned tokens whose runtime code is this token's but for metadata, immutables, addresses and constants, and proved harm: "+
				strings.Join(bad, "; ")+more+".")
		f.Source = source
		v.Flags = append(v.Flags, f.WithSeverity(risk.Critical).WithValue(float64(harmful)))
	case count >= PopularTwins && critical == 0:
		n := fmt.Sprintf("%d", count)
		if tally.Capped {
			n += "+"
		}
		f := risk.NewFlag(risk.CommonTemplate,
			fmt.Sprintf("Same code as %s scanned tokens, none found harmful", n),
			"A popular template: its code is shared by many tokens this service scanned, none of which proved a honeypot, a seizure or a hidden mint. It says nothing of this token's own owner and pool.")
		if len(twins) > 0 {
			f.Source = twins[0].ScanID
		}
		v.Flags = append(v.Flags, f.WithValue(float64(count)))
	}
}

// sameDispatcher fills ct's same_dispatcher from the record (left null
// when the code has no dispatcher fingerprint). It is info only: a
// selector set is shared by every plain token of a standard.
func sameDispatcher(ct *CodeTwins, rel store.Related) {
	if ct.Dispatcher == nil {
		return
	}
	n := rel.SameDispatcher
	ct.SameDispatcher, ct.SameDispatcherCapped = &n, rel.SameDispatcherCapped
}

// codeHarm reports whether a twin's harm says something of the code they
// share: a proven honeypot, seizure or hidden mint. Not a rugged pool
// (liquidity pulled by whoever provided it: a popular template has many
// such twins and its code did nothing), nor a V4 hook's trap (the hook is
// the pool's code, not the token's).
func codeHarm(harm string) bool {
	return provenHarm(harm)
}

// provenHarm reports whether harm is one that makes a twin's code
// critical evidence: a honeypot, a seizure or a hidden mint.
func provenHarm(harm string) bool {
	return harm == HarmHoneypot || harm == HarmSeizure || harm == HarmHiddenMint
}

func twinsSummary(n int, capped bool, critical, harmful int) string {
	if n == 0 {
		return NoEarlierScans
	}
	count := fmt.Sprintf("%d", n)
	if capped {
		count = "at least " + count
	}
	switch {
	case harmful > 0:
		return fmt.Sprintf("same code as %s scanned token(s): %d critical, %d found harmful", count, critical, harmful)
	case critical > 0:
		return fmt.Sprintf("same code as %s scanned token(s): %d critical, none proven harmful", count, critical)
	default:
		return fmt.Sprintf("same code as %s scanned token(s), none found harmful", count)
	}
}
