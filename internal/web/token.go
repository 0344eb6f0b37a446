package web

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/client"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// tokenView is a report laid out for the token page: the verdict and the
// facts that set it first, then what could not be checked, the checklist
// and the evidence of each analysis.
type tokenView struct {
	Report client.Report
	Stored bool
	Age    string
	// Gauge is the score's share of the gauge's arc (0–100).
	Gauge string
	// Supply is the total supply in token units.
	Supply string
	// Reasons are the facts that set the level, heaviest first.
	Reasons []reason
	// Glance are the key numbers a buyer looks for (liquidity, taxes,
	// holders), where the report has them.
	Glance []fact
	// Record is what earlier knowledge says (reputation), or nil.
	Record *recordView
	// Unchecked is the box of checks that could not run or are off.
	Unchecked     *uncheckedView
	Checklist     []checkItem
	Analyses      []analysisView
	BadgeHTML     string
	BadgeMarkdown string
}

// Name is the token's name and symbol for titles.
func (v *tokenView) Name() string {
	switch {
	case v.Report.TokenName != "" && v.Report.TokenSymbol != "":
		return v.Report.TokenName + " · " + v.Report.TokenSymbol
	case v.Report.TokenSymbol != "":
		return v.Report.TokenSymbol
	case v.Report.TokenName != "":
		return v.Report.TokenName
	}
	return "Unnamed token"
}

// checkItem is one checklist question answered yes, no or unknown, with
// what decided a no or an unknown (flag codes, checks, an analysis).
type checkItem struct {
	Label   string
	State   string
	Because string
}

type analysisView struct {
	ID     string
	Title  string
	Score  float64
	Status string
	Flags  []client.Flag
	// Evidence is the analysis's fields laid out (its ID is the section's).
	Evidence block
}

// reason is one fact that set the level, in words, with the anchor of its
// evidence on the page.
type reason struct {
	Severity string
	Title    string
	// How says how the fact is known (a probe, a code path), if said.
	How  string
	Href string
}

// uncheckedView is what could not be checked (Unchecked) and what the
// server does not check (Off), each with what the check establishes.
// Raised marks a box whose checks raised the level: shown as a warning.
type uncheckedView struct {
	Unchecked []checkWords
	Off       []checkWords
	Degraded  bool
	Raised    bool
}

type checkWords struct {
	Name    string
	Meaning string
}

func (p *Pages) tokenView(b []byte, stored bool) (*tokenView, error) {
	var rep client.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, err
	}
	u := newUnits(&rep, p.d.Registry)
	v := &tokenView{
		Report: rep, Stored: stored, Age: age(p.d.Now().Sub(rep.ScannedAt)),
		Gauge: strconv.FormatFloat(math.Max(0, math.Min(100, rep.OverallRiskScore)), 'f', 1, 64),
	}
	if rep.TotalSupply != nil {
		if text, _, ok := u.amount("total_supply", json.RawMessage(strconv.Quote(*rep.TotalSupply)), nil); ok {
			v.Supply = text
		}
	}
	v.Checklist = checklist(&rep)
	anchors := map[string]bool{}
	for _, a := range []struct {
		id, title string
		an        client.Analysis
	}{
		{"contract", "Contract", rep.ContractAnalysis},
		{"liquidity", "Liquidity and trading", rep.LiquidityAnalysis},
		{"deployer", "Deployer", rep.DeployerAnalysis},
		{"holder", "Holders", rep.HolderAnalysis},
	} {
		av := analysisView{ID: a.id, Title: a.title, Score: a.an.Score, Status: a.an.Status}
		for _, f := range rep.RiskFlags {
			if f.Category == a.id {
				av.Flags = append(av.Flags, f)
			}
		}
		slices.SortStableFunc(av.Flags, func(x, y client.Flag) int { return severityRank(y.Severity) - severityRank(x.Severity) })
		raw, _ := json.Marshal(a.an)
		fields, _ := objectFields(raw)
		fields = slices.DeleteFunc(fields, func(f field) bool { return f.Name == "score" || f.Name == "status" })
		slices.SortStableFunc(fields, func(x, y field) int { return evidenceOrder(x.Name) - evidenceOrder(y.Name) })
		av.Evidence = u.viewEvidence(a.id, fields)
		av.Evidence.anchors(anchors)
		v.Analyses = append(v.Analyses, av)
	}
	v.Record = record(&rep)
	v.Unchecked = p.unchecked(&rep)
	v.Reasons = p.reasons(&rep, anchors, v.Unchecked)
	v.Glance = glance(&rep, u)
	badge := "/badge/" + rep.Address + ".svg"
	page := "/token/" + rep.Address
	// The public URL or nothing: the script completes a relative snippet
	// with the origin the visitor's browser sees.
	origin := p.d.PublicURL
	v.BadgeHTML = fmt.Sprintf(`<a href="%[1]s%[2]s"><img src="%[1]s%[3]s" alt="tokenrisk verdict"></a>`, origin, page, badge)
	v.BadgeMarkdown = fmt.Sprintf(`[![tokenrisk verdict](%[1]s%[3]s)](%[1]s%[2]s)`, origin, page, badge)
	return v, nil
}

// checklist answers the six questions: from safety_checklist_states
// where the report has them; a report stored before them says yes where
// proven and unknown otherwise (its false did not say which).
func checklist(rep *client.Report) []checkItem {
	ck, st := rep.SafetyChecklist, rep.SafetyChecklistStates
	if st == nil {
		st = &client.ChecklistStates{}
	}
	items := []struct {
		label  string
		proven bool
		a      client.ChecklistAnswer
	}{
		{"Source code verified", ck.Verified, st.Verified},
		{"Can be bought and sold (not a honeypot)", ck.NotHoneypot, st.NotHoneypot},
		{"Holders spread out", ck.HealthyHolders, st.HealthyHolders},
		{"Ownership renounced", ck.OwnershipRenounced, st.OwnershipRenounced},
		{"Liquidity locked or burned", ck.LiquidityLocked, st.LiquidityLocked},
		{"No one can mint more", ck.NoMint, st.NoMint},
	}
	out := make([]checkItem, len(items))
	for i, it := range items {
		state := it.a.State
		switch {
		case it.proven:
			state = client.Yes
		case state != client.No && state != client.Unknown:
			state = client.Unknown
		}
		words := make([]string, len(it.a.Because))
		for j, b := range it.a.Because {
			words[j] = identWords(b)
		}
		out[i] = checkItem{Label: it.label, State: state}
		if state != client.Yes {
			out[i].Because = strings.Join(words, ", ")
		}
	}
	return out
}

// anchors adds the ids of b and every block, fact and table in it.
func (b block) anchors(set map[string]bool) {
	set[b.ID] = true
	for _, f := range b.Facts {
		if f.ID != "" {
			set[f.ID] = true
		}
	}
	for _, t := range b.Tables {
		set[t.ID] = true
	}
	for _, sub := range b.Blocks {
		sub.anchors(set)
	}
}

// evidenceField is the evidence field, in the flag's own analysis, that
// shows the fact a flag reports: a reason links there. Other flags link
// to their entry in their analysis (title, detail and how it is known).
var evidenceField = map[string]string{
	"HONEYPOT_CANNOT_BUY": "simulation", "HONEYPOT_CANNOT_SELL": "simulation", "BUY_TAX_HIGH": "simulation",
	"SELL_TAX_HIGH": "simulation", "TAX_EXTREME": "simulation", "TRANSFER_TAX": "simulation",
	"SIMULATION_FAILED": "simulation", "SELF_DUMP": "simulation",
	"NO_LIQUIDITY": "pools", "LOW_LIQUIDITY": "pools", "LP_NOT_LOCKED": "pools", "NEW_POOL": "pools",
	"BONDING_CURVE":      "bonding_curve",
	"TOP10_CONCENTRATED": "top_holders", "WHALE_HOLDER": "top_holders", "FEW_HOLDERS": "top_holders",
	"INSIDER_SUPPLY":            "insiders",
	"CREATOR_HOLDS_LARGE_SHARE": "creator_share_pct", "OWNER_HOLDS_LARGE_SHARE": "owner_share_pct",
	"PROXY_UPGRADEABLE": "proxy", "HIDDEN_OWNER": "hidden_owner", "OWNER_NOT_RENOUNCED": "owner",
}

// maxReasons is how many facts the verdict names.
const maxReasons = 3

// reasons are the facts that set the level: the heaviest flag of each
// fact (flags restating one fact count once, as in the score), heaviest
// first, at most maxReasons, none more than one severity below the first;
// a trusted token's cap and checks that could not run lead when they moved
// the level. Info flags set nothing.
func (p *Pages) reasons(rep *client.Report, anchors map[string]bool, box *uncheckedView) []reason {
	type weighed struct {
		f client.Flag
		w float64
	}
	heaviest := map[string]weighed{}
	var order []string
	var trusted *client.Flag
	for i, f := range rep.RiskFlags {
		if f.Code == risk.TrustedToken {
			trusted = &rep.RiskFlags[i]
		}
		if f.Severity == string(risk.Info) || f.Code == risk.ScanIncomplete {
			continue
		}
		d, ok := p.catalogue.Lookup(f.Code)
		if !ok {
			continue
		}
		fact := d.Group
		if fact == "" {
			fact = d.Code
		}
		w := p.catalogue.Weight(riskFlag(f))
		cur, seen := heaviest[fact]
		if !seen {
			order = append(order, fact)
		}
		if !seen || w > cur.w || (w == cur.w && severityRank(f.Severity) > severityRank(cur.f.Severity)) {
			heaviest[fact] = weighed{f, w}
		}
	}
	facts := make([]weighed, 0, len(order))
	for _, k := range order {
		facts = append(facts, heaviest[k])
	}
	slices.SortStableFunc(facts, func(a, b weighed) int {
		if a.w != b.w {
			if a.w > b.w {
				return -1
			}
			return 1
		}
		return severityRank(b.f.Severity) - severityRank(a.f.Severity)
	})
	var out []reason
	if box != nil && box.Raised {
		names := make([]string, len(box.Unchecked))
		for i, c := range box.Unchecked {
			names[i] = c.Name
		}
		out = append(out, reason{Severity: string(risk.Medium), Href: "#unchecked",
			Title: "Not every check could run (" + strings.Join(names, ", ") + "): what they would have found counts as risk"})
	}
	if trusted != nil {
		out = append(out, reason{Severity: trusted.Severity, Title: trusted.Title, Href: "#flag-" + trusted.Code})
	}
	for _, f := range facts {
		// A fact two severities below the heaviest does not set the level
		// (it stays listed in its analysis).
		if len(out) >= maxReasons || severityRank(f.f.Severity) < severityRank(facts[0].f.Severity)-1 {
			break
		}
		r := reason{Severity: f.f.Severity, Title: f.f.Title, How: evidenceWords(f.f.Evidence), Href: "#flag-" + f.f.Code}
		if field, ok := evidenceField[f.f.Code]; ok {
			if id := f.f.Category + "-" + strings.ReplaceAll(field, "_", "-"); anchors[id] {
				r.Href = "#" + id
			}
		}
		out = append(out, r)
	}
	return out
}

// evidenceWords says how a capability flag is known.
func evidenceWords(e string) string {
	switch e {
	case client.EvidenceProbe:
		return "proven by a probe"
	case client.EvidenceCode:
		return "a code path exists, not proven"
	}
	return e
}

func riskFlag(f client.Flag) risk.Flag {
	return risk.Flag{Code: f.Code, Severity: risk.Severity(f.Severity), Category: risk.Category(f.Category), Evidence: f.Evidence}
}

// unchecked is the box of checks that could not run or are turned off;
// Raised when, without them, the flags alone score a lower level.
func (p *Pages) unchecked(rep *client.Report) *uncheckedView {
	if len(rep.Unchecked) == 0 && len(rep.NotConfigured) == 0 && rep.Completeness != "degraded" {
		return nil
	}
	meaning := map[string]string{}
	for _, c := range p.catalogue.Checks() {
		meaning[c.Name] = c.Meaning
	}
	words := func(names []string) []checkWords {
		out := make([]checkWords, len(names))
		for i, n := range names {
			out[i] = checkWords{Name: strings.ReplaceAll(n, "_", " "), Meaning: meaning[n]}
		}
		return out
	}
	box := &uncheckedView{Unchecked: words(rep.Unchecked), Off: words(rep.NotConfigured), Degraded: rep.Completeness == "degraded"}
	if len(rep.Unchecked) > 0 {
		var flags []risk.Flag
		for _, f := range rep.RiskFlags {
			if f.Code != risk.ScanIncomplete {
				flags = append(flags, riskFlag(f))
			}
		}
		box.Raised = client.Level(p.catalogue.Score(flags).Level).Rank() < rep.RiskLevel.Rank()
	}
	return box
}

// glance are the numbers a buyer looks at first, where the report has
// them: liquidity, the simulated taxes, holders and the top 10's share.
func glance(rep *client.Report, u *units) []fact {
	var out []fact
	num := func(a client.Analysis, field, label string) {
		var v float64
		if !a.Decode(field, &v) {
			return
		}
		raw, _ := json.Marshal(v)
		f := u.value(field, raw, nil)
		f.Label = label
		out = append(out, f)
	}
	num(rep.LiquidityAnalysis, "total_liquidity_usd", "Liquidity")
	var sim struct {
		CanSell *bool    `json:"can_sell"`
		BuyTax  *float64 `json:"buy_tax"`
		SellTax *float64 `json:"sell_tax"`
	}
	if rep.LiquidityAnalysis.Decode("simulation", &sim) {
		if sim.CanSell != nil && !*sim.CanSell {
			sim.SellTax = nil
		}
		for _, t := range []struct {
			label string
			v     *float64
		}{{"Buy tax", sim.BuyTax}, {"Sell tax", sim.SellTax}} {
			if t.v != nil {
				out = append(out, fact{Label: t.label, Text: number(strconv.FormatFloat(*t.v, 'f', -1, 64), "_tax")})
			}
		}
		if sim.CanSell != nil && !*sim.CanSell {
			out = append(out, fact{Label: "Sell", Text: "fails"})
		}
	}
	num(rep.HolderAnalysis, "holder_count", "Holders")
	num(rep.HolderAnalysis, "top10_pct", "Top 10 hold")
	num(rep.HolderAnalysis, "top10_share_pct", "Top 10 hold")
	return out
}

// evidenceOrder puts what a buyer reads first (simulation, pools,
// holders) before the rest; others keep the report's order.
func evidenceOrder(name string) int {
	switch name {
	case "simulation":
		return 0
	case "pools", "top_holders":
		return 1
	}
	return 2
}

func severityRank(s string) int {
	return map[string]int{"info": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}[s]
}

// age says how long ago, in words.
func age(d time.Duration) string {
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%d seconds ago", int(d.Seconds()))
	case d < 2*time.Minute:
		return "1 minute ago"
	case d < time.Hour:
		return fmt.Sprintf("%d minutes ago", int(d.Minutes()))
	case d < 2*time.Hour:
		return "1 hour ago"
	case d < 48*time.Hour:
		return fmt.Sprintf("%d hours ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}
