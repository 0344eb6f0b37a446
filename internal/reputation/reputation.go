// Package reputation answers what a single contract cannot: whether a
// token copies a major token of its chain (impersonation against the
// chains file's major_tokens). It runs beside the scan, never inside a
// chain adapter: the engine hands it the token's facts and gets back
// flags with their evidence.
package reputation

import (
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// Facts are what the engine hands the checks about one scanned token.
type Facts struct {
	Chain   string
	Address string
	Name    string
	Symbol  string
}

// Verdict is what the checks found: flags for the contract analysis,
// the evidence behind them, and the checks the configuration turns off.
type Verdict struct {
	Flags []risk.Flag
	// Impersonates is the major token the token copies, or nil.
	Impersonates *Impersonation
	// NotConfigured names the checks the operator turned off
	// (risk.CheckImpersonation when the chain lists no major tokens).
	NotConfigured []string
}

// Checker holds what the checks compare against. Build one per registry
// with New; it is read-only afterwards and safe for concurrent use.
type Checker struct {
	majors map[string]*Majors
}

// New indexes every chain of reg.
func New(reg *chains.Registry) *Checker {
	c := &Checker{majors: map[string]*Majors{}}
	for _, ch := range reg.All() {
		if m := NewMajors(ch); m != nil {
			c.majors[ch.Key] = m
		}
	}
	return c
}

// Judge runs the checks on f.
func (c *Checker) Judge(f Facts) Verdict {
	var v Verdict
	m := c.majors[f.Chain]
	if m == nil {
		v.NotConfigured = append(v.NotConfigured, risk.CheckImpersonation)
		return v
	}
	if imp, ok := m.Match(f.Address, f.Name, f.Symbol); ok {
		v.Impersonates = &imp
		v.Flags = append(v.Flags, imp.Flag(f.Name, f.Symbol))
	}
	return v
}
