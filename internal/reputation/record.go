package reputation

import (
	"fmt"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// RelatedLimit is how many of a creator's tokens (and of a code's twins)
// a report lists: the worst first.
const RelatedLimit = 20

// Proven harms a token's scan can leave on its record (store.Token.Harm).
const (
	HarmHoneypot   = "honeypot"
	HarmSeizure    = "seizure"
	HarmHiddenMint = "hidden_mint"
)

// NoEarlierScans is deployer_analysis.creator_record when this service
// has scanned none of the creator's other tokens: no record, not a clean
// one.
const NoEarlierScans = "no earlier scans"

// CreatorToken is one of the creator's other scanned tokens
// (deployer_analysis.creator_tokens).
type CreatorToken struct {
	Chain     string    `json:"chain"`
	Address   string    `json:"address"`
	Level     string    `json:"level"`
	Harm      *string   `json:"harm"`
	Flags     []string  `json:"flags"`
	ScanID    string    `json:"scan_id"`
	ScannedAt time.Time `json:"scanned_at"`
}

func creatorToken(t store.Token) CreatorToken {
	ct := CreatorToken{Chain: t.Chain, Address: t.Address, Level: t.Level, Flags: t.Flags, ScanID: t.ScanID, ScannedAt: t.ScannedAt}
	if ct.Flags == nil {
		ct.Flags = []string{}
	}
	if t.Harm != "" {
		h := t.Harm
		ct.Harm = &h
	}
	return ct
}

// HarmOf names the proven harm among a report's flags: a sell that
// failed or an owner call that stops sells (honeypot), a third party's
// balance taken or rewritten (seizure), a mint raised critical (hidden
// mint). Flags known from code only prove nothing; reputation's own
// flags are never a harm of the token (no record feeds on itself).
func HarmOf(flags []risk.Flag) string {
	harm := ""
	for _, f := range flags {
		if f.Evidence == risk.EvidenceCode {
			continue
		}
		switch {
		case f.Code == risk.HoneypotCannotSell || f.Code == risk.OwnerCanBlockSells:
			return HarmHoneypot
		case f.Code == risk.OwnerCanSeize || f.Code == risk.OwnerCanChangeBalance:
			harm = HarmSeizure
		case f.Code == risk.OwnerCanMint && f.Severity == risk.Critical && harm == "":
			harm = HarmHiddenMint
		}
	}
	return harm
}

// LevelFlags are the codes of a report's high and critical flags: what
// made its level, as its record keeps it (reputation's own left out).
func LevelFlags(flags []risk.Flag) []string {
	var out []string
	for _, f := range flags {
		if f.Code == risk.CreatorScamHistory {
			continue
		}
		if f.Severity == risk.High || f.Severity == risk.Critical {
			out = append(out, f.Code)
		}
	}
	return out
}

// creatorVerdict turns the creator's other tokens into evidence and
// CREATOR_SCAM_HISTORY (critical) when one of them was proven harmful.
func creatorVerdict(v *Verdict, mates []store.Token) {
	v.CreatorTokens = make([]CreatorToken, 0, len(mates))
	var bad []string
	for _, t := range mates {
		v.CreatorTokens = append(v.CreatorTokens, creatorToken(t))
		if t.Harm != "" {
			bad = append(bad, fmt.Sprintf("%s (%s, scan %s)", t.Address, t.Harm, t.ScanID))
		}
	}
	v.CreatorRecord = summary(len(mates), len(bad))
	if len(bad) == 0 {
		return
	}
	f := risk.NewFlag(risk.CreatorScamHistory,
		fmt.Sprintf("The creator launched %d token(s) found harmful", len(bad)),
		"Earlier scans of this creator's tokens proved harm: "+strings.Join(bad, "; ")+".")
	f.Source = v.CreatorTokens[0].ScanID
	v.Flags = append(v.Flags, f.WithValue(float64(len(bad))))
}

func summary(n, bad int) string {
	switch {
	case n == 0:
		return NoEarlierScans
	case bad == 0:
		return fmt.Sprintf("%d earlier token(s) scanned, none found harmful", n)
	default:
		return fmt.Sprintf("%d earlier token(s) scanned, %d found harmful", n, bad)
	}
}
