// Package reputation answers what a single contract cannot: whether a
// token copies a major token of its chain (impersonation against the
// chains file's major_tokens) and what the creator's other tokens were
// found to be (the record every scan leaves in the store). It runs beside
// the scan, never inside a chain adapter: the engine hands it the token's
// facts and gets back flags with their evidence.
package reputation

import (
	"context"
	"fmt"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Facts are what the engine hands the checks about one scanned token.
type Facts struct {
	Chain   string
	Address string
	Name    string
	Symbol  string
	// Creator is the creator the deployer analysis established ("" when
	// unknown); PoolCreator the creator of the token's main pool where
	// the pool's state records one (see store.RelatedQuery for how it
	// links tokens).
	Creator, PoolCreator string
	// Code and Dispatcher are the fingerprints of the code that runs
	// (internal/codeprint; the implementation's for a proxy), "" when
	// unknown: twins are the tokens sharing Code.
	Code, Dispatcher string
	// Launches are the creator's other deployments the explorer lists
	// (nil without an explorer): they join creator_tokens.
	Launches []string
}

// Verdict is what the checks found: flags, the evidence behind them,
// and the checks that could not run or are turned off.
type Verdict struct {
	Flags []risk.Flag
	// Impersonates is the major token the token copies, or nil.
	Impersonates *Impersonation
	// CreatorTokens are the creator's other scanned tokens (nil when the
	// record was not read: no store, or no creator known).
	CreatorTokens []CreatorToken
	// CreatorRecord sums CreatorTokens up in words ("" when not read).
	CreatorRecord string
	// CodeTwins is what the record says of the code's twins (nil without
	// a code fingerprint; its record fields null when not read).
	CodeTwins *CodeTwins
	// NotConfigured names the checks the operator turned off
	// (risk.CheckImpersonation when the chain lists no major tokens);
	// Unchecked those that could not run (risk.CheckCreatorHistory when
	// the record could not be read).
	NotConfigured, Unchecked []string
	// Warnings say why.
	Warnings []string
}

// Checker holds what the checks compare against. Build one per registry
// with New; it is read-only afterwards and safe for concurrent use.
type Checker struct {
	majors map[string]*Majors
	record store.Reputation
}

// New indexes every chain of reg; record, when not nil, is the store
// every scan's verdict is kept in and the creator's record read from.
func New(reg *chains.Registry, record store.Reputation) *Checker {
	c := &Checker{majors: map[string]*Majors{}, record: record}
	for _, ch := range reg.All() {
		if m := NewMajors(ch); m != nil {
			c.majors[ch.Key] = m
		}
	}
	return c
}

// Keeps reports whether the checker keeps a record (the creator_history
// check runs on every scan).
func (c *Checker) Keeps() bool { return c.record != nil }

// Judge runs the checks on f: the impersonation match, and the creator's
// record and the code's twins in one store query.
func (c *Checker) Judge(ctx context.Context, f Facts) Verdict {
	v := Verdict{CodeTwins: codeTwins(f)}
	if m := c.majors[f.Chain]; m == nil {
		v.NotConfigured = append(v.NotConfigured, risk.CheckImpersonation)
	} else if imp, ok := m.Match(f.Address, f.Name, f.Symbol); ok {
		v.Impersonates = &imp
		v.Flags = append(v.Flags, imp.Flag(f.Name, f.Symbol))
	}
	if c.record == nil || (f.Creator == "" && f.PoolCreator == "" && f.Code == "") {
		return v
	}
	rel, err := c.record.RelatedTokens(ctx, store.RelatedQuery{Chain: f.Chain, Address: f.Address, Creator: f.Creator, PoolCreator: f.PoolCreator,
		Code: f.Code, Dispatcher: f.Dispatcher, Limit: RelatedLimit})
	if err != nil {
		v.Unchecked = append(v.Unchecked, risk.CheckCreatorHistory)
		v.Warnings = append(v.Warnings, fmt.Sprintf("creator_history: the record of the creator's tokens and the code's twins could not be read: %v", err))
		return v
	}
	if f.Creator != "" || f.PoolCreator != "" {
		creatorVerdict(&v, f.Chain, rel.ByCreator, f.Launches)
	}
	if v.CodeTwins != nil {
		twinsVerdict(&v, rel.ByCode, rel.CodeTally)
		sameDispatcher(v.CodeTwins, rel)
	}
	return v
}

// Outcome is what a finished scan leaves on the record.
type Outcome struct {
	Facts
	ScanID    string
	Level     string
	Flags     []risk.Flag
	ScannedAt time.Time
	// Pools counts the pools the scan found (a rugged pool needs one).
	Pools int
}

// Record keeps o's verdict for the scans of the creator's later tokens.
func (c *Checker) Record(ctx context.Context, o Outcome) error {
	if c.record == nil {
		return nil
	}
	return c.record.RecordToken(ctx, store.Token{
		Chain: o.Chain, Address: o.Address, Creator: o.Creator, PoolCreator: o.PoolCreator, Code: o.Code, Dispatcher: o.Dispatcher, ScanID: o.ScanID, Level: o.Level,
		Harm: HarmOfScan(o.Flags, o.Pools), Flags: LevelFlags(o.Flags), ScannedAt: o.ScannedAt,
	})
}
