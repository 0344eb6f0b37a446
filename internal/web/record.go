package web

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tokenrisk/tokenrisk/client"
)

// recordView is what earlier knowledge says about the token (the
// reputation checks): the major token it pretends to be, and the
// creator's other tokens this service scanned, each linking to the
// earlier token's page. Nil when the report carries neither.
type recordView struct {
	// Impersonates says which token this one pretends to be.
	Impersonates *recordLine
	// Creator sums the creator's record up ("creator launched 3 tokens
	// scanned here: 2 critical", or no earlier scans).
	Creator string
	Tokens  []recordLine
	// Code sums the code's twins up ("same code as 14 tokens scanned
	// here: 12 critical, 12 found honeypot", or no earlier scans); Twins
	// are the examples.
	Code  string
	Twins []recordLine
}

// recordLine is one sentence of the record and the page it links to.
type recordLine struct {
	Text string
	Href string
	Link string
}

func record(rep *client.Report) *recordView {
	var v recordView
	var imp struct {
		Address, Name, Symbol string
	}
	if raw, ok := rep.ContractAnalysis.Evidence["impersonates"]; ok && json.Unmarshal(raw, &imp) == nil && imp.Address != "" {
		real := imp.Symbol
		if real == "" {
			real = imp.Name
		}
		v.Impersonates = &recordLine{Text: fmt.Sprintf("Pretends to be %s (real: ", real), Href: "/token/" + imp.Address, Link: imp.Address}
	}
	var mates []struct {
		Chain, Address string
		Level, Harm    *string
	}
	raw, ok := rep.DeployerAnalysis.Evidence["creator_tokens"]
	if ok && json.Unmarshal(raw, &mates) == nil && mates != nil {
		critical, scanned := 0, 0
		for _, m := range mates {
			text := fmt.Sprintf("%s, deployed (listed by the explorer), not scanned here", m.Chain)
			if m.Level != nil {
				scanned++
				if *m.Level == "critical" {
					critical++
				}
				text = fmt.Sprintf("%s, %s risk", m.Chain, *m.Level)
			}
			if m.Harm != nil {
				text += ", found " + *m.Harm
			}
			v.Tokens = append(v.Tokens, recordLine{Text: text, Href: "/token/" + m.Address, Link: m.Address})
		}
		switch {
		case scanned == 0:
			v.Creator = "The creator's other tokens: no earlier scans (nothing known, which is not a clean record)."
		default:
			v.Creator = fmt.Sprintf("Creator launched %d other token(s) scanned here: %d critical.", scanned, critical)
		}
	}
	codeTwins(rep, &v)
	if v.Impersonates == nil && v.Creator == "" && v.Code == "" {
		return nil
	}
	return &v
}

// codeTwins adds the code's twins (contract_analysis.code_twins) to v,
// when the record was read.
func codeTwins(rep *client.Report, v *recordView) {
	var ct struct {
		Count       *int
		CountCapped bool `json:"count_capped"`
		Critical    int
		Harms       map[string]int
		Examples    []struct {
			Chain, Address, Level string
			Harm                  *string
		}
	}
	raw, ok := rep.ContractAnalysis.Evidence["code_twins"]
	if !ok || json.Unmarshal(raw, &ct) != nil || ct.Count == nil {
		return
	}
	if *ct.Count == 0 {
		v.Code = "Tokens with the same code: no earlier scans (nothing known, which is not a clean record)."
		return
	}
	n := fmt.Sprint(*ct.Count)
	if ct.CountCapped {
		n = "at least " + n
	}
	v.Code = fmt.Sprintf("Same code as %s token(s) scanned here: %d critical", n, ct.Critical)
	harms := make([]string, 0, len(ct.Harms))
	for h := range ct.Harms {
		harms = append(harms, h)
	}
	slices.Sort(harms)
	for _, h := range harms {
		v.Code += fmt.Sprintf(", %d found %s", ct.Harms[h], h)
	}
	v.Code += "."
	for _, t := range ct.Examples {
		text := fmt.Sprintf("%s, %s risk", t.Chain, t.Level)
		if t.Harm != nil {
			text += ", found " + *t.Harm
		}
		v.Twins = append(v.Twins, recordLine{Text: text, Href: "/token/" + t.Address, Link: t.Address})
	}
}
