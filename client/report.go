// Package client is the Go client of the tokenrisk API: scan a token,
// read a premium key's history and stream its export. Its types mirror
// the API's OpenAPI document (a test keeps the two equal).
package client

import (
	"encoding/json"
	"strconv"
	"time"
)

// Level is a report's risk level, from minimal to critical.
type Level string

// The risk levels, in increasing order of risk.
const (
	Minimal  Level = "minimal"
	Low      Level = "low"
	Medium   Level = "medium"
	High     Level = "high"
	Critical Level = "critical"
)

// Rank orders levels: minimal 0 … critical 4, and -1 for an unknown one.
func (l Level) Rank() int {
	switch l {
	case Minimal:
		return 0
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	case Critical:
		return 4
	}
	return -1
}

// Report is the answer of a scan: a scored risk assessment of one token.
type Report struct {
	ScanID           string   `json:"scan_id"`
	Address          string   `json:"address"`
	Chain            string   `json:"chain"`
	ChainID          *int64   `json:"chain_id"`
	AlsoDeployedOn   []string `json:"also_deployed_on"`
	TokenName        string   `json:"token_name"`
	TokenSymbol      string   `json:"token_symbol"`
	Decimals         *int     `json:"decimals"`
	TotalSupply      *string  `json:"total_supply"`
	OverallRiskScore float64  `json:"overall_risk_score"`
	RiskLevel        Level    `json:"risk_level"`
	// Completeness is "complete" when every check the server's
	// configuration enables ran, "degraded" when one could not.
	Completeness string `json:"completeness"`
	// Unchecked names the checks that could not run: unknown risk, never
	// no risk. NotConfigured names those the operator turned off.
	Unchecked         []string  `json:"unchecked"`
	NotConfigured     []string  `json:"not_configured"`
	ContractAnalysis  Analysis  `json:"contract_analysis"`
	LiquidityAnalysis Analysis  `json:"liquidity_analysis"`
	DeployerAnalysis  Analysis  `json:"deployer_analysis"`
	HolderAnalysis    Analysis  `json:"holder_analysis"`
	SafetyChecklist   Checklist `json:"safety_checklist"`
	// SafetyChecklistStates says whether each false of the checklist is
	// disproven or unknown (nil from servers before it).
	SafetyChecklistStates *ChecklistStates `json:"safety_checklist_states"`
	RiskFlags             []Flag           `json:"risk_flags"`
	Warnings              []string         `json:"warnings"`
	ScannedAt             time.Time        `json:"scanned_at"`
	DurationMS            int64            `json:"duration_ms"`
	Cached                bool             `json:"cached"`
	EngineVersion         string           `json:"engine_version"`
	Disclaimer            string           `json:"disclaimer"`
}

// Complete reports whether every enabled check ran.
func (r *Report) Complete() bool { return r.Completeness == "complete" && len(r.Unchecked) == 0 }

// HasFlag reports whether the report raised the flag code.
func (r *Report) HasFlag(code string) bool {
	for _, f := range r.RiskFlags {
		if f.Code == code {
			return true
		}
	}
	return false
}

// Analysis is one of the four analyses: its score and status, and the
// evidence fields it established (each a JSON value; null where a fact
// could not be established).
type Analysis struct {
	Score  float64 `json:"score"`
	Status string  `json:"status"`
	// Evidence holds every field of the analysis but score and status.
	Evidence map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps score and status and the other fields as Evidence.
func (a *Analysis) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	var head struct {
		Score  float64 `json:"score"`
		Status string  `json:"status"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	delete(m, "score")
	delete(m, "status")
	a.Score, a.Status, a.Evidence = head.Score, head.Status, m
	return nil
}

// MarshalJSON writes score, status and the evidence fields in one object.
func (a Analysis) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(a.Evidence)+2)
	for k, v := range a.Evidence {
		m[k] = v
	}
	m["score"], m["status"] = a.Score, a.Status
	return json.Marshal(m)
}

// Decode decodes the evidence field name into v; it reports false when
// the field is absent or null.
func (a Analysis) Decode(name string, v any) bool {
	raw, ok := a.Evidence[name]
	if !ok || string(raw) == "null" {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

// Checklist is the safety checklist: true only where proven.
type Checklist struct {
	Verified           bool `json:"verified"`
	NotHoneypot        bool `json:"not_honeypot"`
	HealthyHolders     bool `json:"healthy_holders"`
	OwnershipRenounced bool `json:"ownership_renounced"`
	LiquidityLocked    bool `json:"liquidity_locked"`
	NoMint             bool `json:"no_mint"`
}

// The three answers of a checklist question (ChecklistAnswer.State).
const (
	Yes     = "yes"
	No      = "no"
	Unknown = "unknown"
)

// ChecklistAnswer is one checklist question answered yes (proven), no
// (disproven) or unknown, with what decided it: the flag codes or the
// complete analysis for no, the checks that did not run for unknown.
type ChecklistAnswer struct {
	State   string   `json:"state"`
	Because []string `json:"because"`
}

// ChecklistStates is the checklist in three states (nil in reports
// stored before servers wrote it).
type ChecklistStates struct {
	Verified           ChecklistAnswer `json:"verified"`
	NotHoneypot        ChecklistAnswer `json:"not_honeypot"`
	HealthyHolders     ChecklistAnswer `json:"healthy_holders"`
	OwnershipRenounced ChecklistAnswer `json:"ownership_renounced"`
	LiquidityLocked    ChecklistAnswer `json:"liquidity_locked"`
	NoMint             ChecklistAnswer `json:"no_mint"`
}

// Flag is one risk found, with the evidence behind it.
type Flag struct {
	Code     string   `json:"code"`
	Severity string   `json:"severity"`
	Category string   `json:"category"`
	Title    string   `json:"title"`
	Detail   string   `json:"detail"`
	Value    *float64 `json:"value,omitempty"`
	// Evidence is "probe" (an effect observed by simulation) or "code" (a
	// code path exists, not proven) for capability flags.
	Evidence string `json:"evidence,omitempty"`
	// Source names the probe or function behind Evidence.
	Source string `json:"source,omitempty"`
}

// Flag evidence kinds.
const (
	EvidenceProbe = "probe"
	EvidenceCode  = "code"
)

// ScanSummary is one row of a key's history.
type ScanSummary struct {
	ScanID           string    `json:"scan_id"`
	Address          string    `json:"address"`
	Chain            string    `json:"chain"`
	RiskLevel        Level     `json:"risk_level"`
	OverallRiskScore float64   `json:"overall_risk_score"`
	Cached           bool      `json:"cached"`
	CreatedAt        time.Time `json:"created_at"`
}

// ScanPage is one page of history.
type ScanPage struct {
	Scans      []ScanSummary `json:"scans"`
	NextCursor *string       `json:"next_cursor"`
}

// Usage is a key's plan and today's use.
type Usage struct {
	KeyID         string    `json:"key_id"`
	Plan          string    `json:"plan"`
	Day           string    `json:"day"`
	ScansToday    int64     `json:"scans_today"`
	DailyQuota    *int64    `json:"daily_quota"`
	Remaining     *int64    `json:"remaining_today"`
	RatePerMinute *int64    `json:"rate_per_minute"`
	ResetsAt      time.Time `json:"resets_at"`
	Chains        []string  `json:"chains"`
	QueuePriority string    `json:"queue_priority"`
	History       bool      `json:"history"`
}

// Problem is an API error (RFC 9457 problem details with tokenrisk's
// stable code). It is the error type the client's calls return for any
// non-2xx answer.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration `json:"-"`
}

func (p *Problem) Error() string {
	return "tokenrisk: " + p.Code + " (" + strconv.Itoa(p.Status) + "): " + p.Detail
}
