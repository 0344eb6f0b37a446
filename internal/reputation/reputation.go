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

// Record keeps o's verdict for the scans of the creator's later tokens,
// and says what it newly proves against the tokens linked to it.
func (c *Checker) Record(ctx context.Context, o Outcome) (Finding, error) {
	if c.record == nil {
		return Finding{}, nil
	}
	t := store.Token{
		Chain: o.Chain, Address: o.Address, Creator: o.Creator, PoolCreator: o.PoolCreator, Code: o.Code, Dispatcher: o.Dispatcher, ScanID: o.ScanID, Level: o.Level,
		Harm: HarmOfScan(o.Flags, o.Pools), Flags: LevelFlags(o.Flags), ScannedAt: o.ScannedAt,
	}
	rec, err := c.record.RecordToken(ctx, t)
	if err != nil {
		return Finding{}, err
	}
	return newFinding(t, rec), nil
}

// Finding is what a recorded verdict newly proves against the tokens
// linked to it: set only when its harm is new on the record (a re-scan
// finding the same harm again proves nothing new).
type Finding struct {
	// Token is the verdict as recorded.
	Token store.Token
	// Creator: the harm newly condemns the creator's other tokens
	// (CREATOR_SCAM_HISTORY): any proven harm, where the record held
	// none or only a rugged pool before a worse one.
	Creator bool
	// Code: the harm newly condemns the code's twins (KNOWN_SCAM_CODE):
	// a honeypot, seizure or hidden mint where the record held none of
	// those.
	Code bool
}

// Condemns reports whether f condemns any linked token.
func (f Finding) Condemns() bool { return f.Creator || f.Code }

func newFinding(t store.Token, rec store.Recorded) Finding {
	if !rec.Kept {
		return Finding{}
	}
	return Finding{
		Token:   t,
		Creator: (t.Creator != "" || t.PoolCreator != "") && store.HarmRank(t.Harm) > store.HarmRank(rec.PreviousHarm),
		Code:    t.Code != "" && codeHarm(t.Harm) && !codeHarm(rec.PreviousHarm),
	}
}

// Alerts is told of each Finding that condemns a linked token (the keys
// watching those tokens are alerted: internal/watch.ReputationAlerts).
type Alerts interface {
	Condemned(ctx context.Context, f Finding) error
}
