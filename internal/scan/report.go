// Package scan is the domain at the centre of tokenrisk: the report a scan
// answers with, the adapter seam each chain kind implements, and the engine
// that runs scans (cache, in-flight dedupe, admission, scoring).
package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/tokenrisk/tokenrisk/internal/codeprint"
	"slices"
	"strconv"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// Disclaimer is carried by every report.
const Disclaimer = "Scores are probabilistic and informational only. Not financial advice."

// Status says how much of an analysis could be established.
type Status string

// Analysis statuses.
const (
	Complete    Status = "complete"
	Partial     Status = "partial"
	Unavailable Status = "unavailable"
)

// Completeness says whether every check the configuration enables ran.
type Completeness string

// Report completeness values.
const (
	// AllChecked: every enabled check ran.
	AllChecked Completeness = "complete"
	// Degraded: at least one check could not run (node error, deadline,
	// refused query); Report.Unchecked names them.
	Degraded Completeness = "degraded"
)

// Request is what an adapter is asked to assess.
type Request struct {
	Address chains.Address
	// Chains are the chain keys the caller's plan may use, sorted.
	Chains []string
}

// Section is one analysis as an adapter produced it: its status, the flags
// it raised and its evidence (a struct whose JSON fields are merged into the
// analysis object next to score and status).
type Section struct {
	Status   Status
	Flags    []risk.Flag
	Evidence any
}

// Checklist is the report's safety checklist: true only where proven.
type Checklist struct {
	Verified           bool `json:"verified"`
	NotHoneypot        bool `json:"not_honeypot"`
	HealthyHolders     bool `json:"healthy_holders"`
	OwnershipRenounced bool `json:"ownership_renounced"`
	LiquidityLocked    bool `json:"liquidity_locked"`
	NoMint             bool `json:"no_mint"`
}

// Token is the token's identity as read from the chain.
type Token struct {
	Name        string
	Symbol      string
	Decimals    *int
	TotalSupply *string
}

// Assessment is an adapter's answer: everything but scores, which the
// engine computes from the flags with one catalogue.
type Assessment struct {
	Chain          string
	ChainID        *int64
	AlsoDeployedOn []string
	Token          Token
	Contract       Section
	Liquidity      Section
	Deployer       Section
	Holder         Section
	Checklist      Checklist
	Warnings       []string
	// Unchecked names the checks that could not run (risk.Check* names);
	// NotConfigured those the operator turned off (e.g. no explorer).
	Unchecked     []string
	NotConfigured []string
	// CodePrint fingerprints the code that runs (the implementation's for
	// a proxy; internal/codeprint); zero when unknown or not EVM. The
	// engine hands it to reputation (code twins), it is never scored.
	CodePrint codeprint.Print
}

// Analysis is one analysis object of a report.
type Analysis struct {
	Score    float64
	Status   Status
	Evidence any
}

// MarshalJSON writes {"score":…,"status":…} followed by the evidence fields.
func (a Analysis) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Score  float64 `json:"score"`
		Status Status  `json:"status"`
	}{a.Score, a.Status})
	if err != nil {
		return nil, err
	}
	if a.Evidence == nil {
		return head, nil
	}
	ev, err := json.Marshal(a.Evidence)
	if err != nil {
		return nil, fmt.Errorf("analysis evidence: %w", err)
	}
	ev = bytes.TrimSpace(ev)
	if len(ev) < 2 || ev[0] != '{' {
		return nil, fmt.Errorf("analysis evidence must be a JSON object, got %.20s", ev)
	}
	if len(ev) == 2 { // {}
		return head, nil
	}
	out := make([]byte, 0, len(head)+len(ev))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	out = append(out, ev[1:]...)
	return out, nil
}

// UnmarshalJSON keeps score and status and the whole object as evidence
// (a map), so that stored reports round-trip.
func (a *Analysis) UnmarshalJSON(b []byte) error {
	var head struct {
		Score  float64 `json:"score"`
		Status Status  `json:"status"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	delete(m, "score")
	delete(m, "status")
	a.Score, a.Status = head.Score, head.Status
	if len(m) > 0 {
		a.Evidence = m
	}
	return nil
}

// Report is the 200 response of a scan (SPEC §3).
type Report struct {
	ScanID           string     `json:"scan_id"`
	Address          string     `json:"address"`
	Chain            string     `json:"chain"`
	ChainID          *int64     `json:"chain_id"`
	AlsoDeployedOn   []string   `json:"also_deployed_on"`
	TokenName        string     `json:"token_name"`
	TokenSymbol      string     `json:"token_symbol"`
	Decimals         *int       `json:"decimals"`
	TotalSupply      *string    `json:"total_supply"`
	OverallRiskScore float64    `json:"overall_risk_score"`
	RiskLevel        risk.Level `json:"risk_level"`
	// Completeness is complete when every check the configuration
	// enables ran, degraded when one could not (named in Unchecked).
	Completeness      Completeness `json:"completeness"`
	Unchecked         []string     `json:"unchecked"`
	NotConfigured     []string     `json:"not_configured"`
	ContractAnalysis  Analysis     `json:"contract_analysis"`
	LiquidityAnalysis Analysis     `json:"liquidity_analysis"`
	DeployerAnalysis  Analysis     `json:"deployer_analysis"`
	HolderAnalysis    Analysis     `json:"holder_analysis"`
	SafetyChecklist   Checklist    `json:"safety_checklist"`
	// SafetyChecklistStates answers the checklist in three states (yes,
	// no, unknown) with what decided each; nil in reports stored before it.
	SafetyChecklistStates *ChecklistStates `json:"safety_checklist_states,omitempty"`
	RiskFlags             []risk.Flag      `json:"risk_flags"`
	Warnings              []string         `json:"warnings"`
	ScannedAt             time.Time        `json:"scanned_at"`
	DurationMS            int64            `json:"duration_ms"`
	Cached                bool             `json:"cached"`
	EngineVersion         string           `json:"engine_version"`
	Disclaimer            string           `json:"disclaimer"`

	// stored is the encoding the engine answered this report from, if any
	// (see Encode).
	stored *stored
}

// HasFlag reports whether the report raised code.
func (r *Report) HasFlag(code string) bool {
	for _, f := range r.RiskFlags {
		if f.Code == code {
			return true
		}
	}
	return false
}

// Build turns an adapter's assessment into a scored report. A check that
// could not run makes the report degraded: it carries SCAN_INCOMPLETE and
// its level respects the missing checks' floor (risk.Catalogue.Score).
func Build(cat *risk.Catalogue, addr chains.Address, a *Assessment) *Report {
	var flags []risk.Flag
	for _, s := range []Section{a.Contract, a.Liquidity, a.Deployer, a.Holder} {
		flags = append(flags, s.Flags...)
	}
	unchecked, notConfigured := checkNames(a.Unchecked), checkNames(a.NotConfigured)
	completeness := AllChecked
	if len(unchecked) > 0 {
		completeness = Degraded
		flags = append(flags, risk.IncompleteFlag(unchecked))
	}
	res := cat.Score(flags, unchecked...)
	section := func(s Section, c risk.Category) Analysis {
		st := s.Status
		if st == "" {
			st = Unavailable
		}
		return Analysis{Score: res.Categories[c], Status: st, Evidence: s.Evidence}
	}
	also := a.AlsoDeployedOn
	if also == nil {
		also = []string{}
	}
	warnings := a.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	if flags == nil {
		flags = []risk.Flag{}
	}
	states := checklistStates(a.Checklist, flags, slices.Concat(unchecked, notConfigured), map[string]Status{
		"contract_analysis": a.Contract.Status, "liquidity_analysis": a.Liquidity.Status,
		"deployer_analysis": a.Deployer.Status, "holder_analysis": a.Holder.Status,
	})
	return &Report{
		SafetyChecklistStates: &states,
		Address:               addr.Canonical,
		Chain:                 a.Chain,
		ChainID:               a.ChainID,
		AlsoDeployedOn:        also,
		TokenName:             a.Token.Name,
		TokenSymbol:           a.Token.Symbol,
		Decimals:              a.Token.Decimals,
		TotalSupply:           a.Token.TotalSupply,
		OverallRiskScore:      res.Overall,
		RiskLevel:             res.Level,
		Completeness:          completeness,
		Unchecked:             unchecked,
		NotConfigured:         notConfigured,
		ContractAnalysis:      section(a.Contract, risk.Contract),
		LiquidityAnalysis:     section(a.Liquidity, risk.Liquidity),
		DeployerAnalysis:      section(a.Deployer, risk.Deployer),
		HolderAnalysis:        section(a.Holder, risk.Holder),
		SafetyChecklist:       a.Checklist,
		RiskFlags:             flags,
		Warnings:              warnings,
		Disclaimer:            Disclaimer,
	}
}

// checkNames sorts and deduplicates check names (never nil: JSON []).
func checkNames(names []string) []string {
	out := make([]string, 0, len(names))
	out = append(out, names...)
	slices.Sort(out)
	return slices.Compact(out)
}

// extended is an analysis's evidence with fields the engine adds beside
// the adapter's (the reputation checks'): it encodes as one object.
type extended struct {
	base   any
	fields []evidenceField
}

// evidenceField is one added evidence field.
type evidenceField struct {
	name  string
	value any
}

// extend returns base with fields added.
func extend(base any, fields ...evidenceField) any {
	return extended{base: base, fields: fields}
}

// MarshalJSON writes base's fields followed by the added ones.
func (x extended) MarshalJSON() ([]byte, error) {
	out := []byte("{")
	if x.base != nil {
		b, err := json.Marshal(x.base)
		if err != nil {
			return nil, err
		}
		b = bytes.TrimSpace(b)
		if len(b) < 2 || b[0] != '{' {
			return nil, fmt.Errorf("analysis evidence must be a JSON object, got %.20s", b)
		}
		out = append(out, b[1:len(b)-1]...)
	}
	for _, f := range x.fields {
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, f.name)
		out = append(out, ':')
		out = append(out, v...)
	}
	return append(out, '}'), nil
}
