package reputation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// RelatedLimit is how many of a creator's tokens (and of a code's twins)
// a report lists: the worst first.
const RelatedLimit = 20

// Proven harms a token's scan can leave on its record (store.Token.Harm).
// The first three make a creator's next token critical, a rugged pool
// high.
const (
	HarmHoneypot   = "honeypot"
	HarmSeizure    = "seizure"
	HarmHiddenMint = "hidden_mint"
	// HarmRugged: the scan found the token's pools and together they hold
	// less than RuggedDustUSD: liquidity provided and pulled, or a pool
	// opened and abandoned; either way a holder has nothing to sell into.
	HarmRugged = "rugged"
	// HarmHookTrap: sells were refused while the pool's Uniswap V4 hook
	// refuses them (HOOK_CAN_BLOCK_SELLS beside HONEYPOT_CANNOT_SELL, and
	// no owner call or token rule of the token's own proving it). The
	// creator's record counts it as a honeypot; the code's twins do not,
	// since the trap is in the hook the pool runs, not in the token's code.
	HarmHookTrap = "hook_honeypot"
)

// RuggedDustUSD is what pools found may hold together and still count as
// emptied: a Uniswap V2 pair whose providers all withdrew keeps its
// locked minimum liquidity, worth a fraction of a cent.
const RuggedDustUSD = 1.0

// NoEarlierScans is deployer_analysis.creator_record when this service
// has scanned none of the creator's other tokens: no record, not a clean
// one.
const NoEarlierScans = "no earlier scans"

// How a creator token is tied to the scanned one (CreatorToken.Link).
const (
	// LinkCreator: the two tokens have the same creator.
	LinkCreator = store.LinkCreator
	// LinkPoolCreator: one token's pool was created by the other's
	// creator.
	LinkPoolCreator = store.LinkPoolCreator
	// LinkExplorer: the explorer lists the token among the creator's
	// deployments.
	LinkExplorer = "explorer"
)

// CreatorToken is one of the creator's other tokens
// (deployer_analysis.creator_tokens): one this service scanned (its
// latest verdict and the scan behind it), or one the explorer lists as
// the creator's deployment and this service never scanned (level, scan
// id and time null: no verdict).
type CreatorToken struct {
	Chain     string     `json:"chain"`
	Address   string     `json:"address"`
	Level     *string    `json:"level"`
	Harm      *string    `json:"harm"`
	Flags     []string   `json:"flags"`
	ScanID    *string    `json:"scan_id"`
	ScannedAt *time.Time `json:"scanned_at"`
	// Link says how the token is tied to the scanned one (a Link* value);
	// Via is the address they share.
	Link string `json:"link"`
	Via  string `json:"via"`
}

func creatorToken(t store.Token) CreatorToken {
	level, id, at := t.Level, t.ScanID, t.ScannedAt
	ct := CreatorToken{Chain: t.Chain, Address: t.Address, Level: &level, Flags: t.Flags, ScanID: &id, ScannedAt: &at, Link: LinkCreator, Via: t.Via}
	if t.ViaPool {
		ct.Link = LinkPoolCreator
	}
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
// mint). On Solana the token program's rules are the proof: a
// non-transferable mint is a honeypot, a permanent delegate a seizure.
// A failed sell beside a V4 hook that refuses sells is the hook's trap
// (HarmHookTrap) unless the token's own flags prove a harm. Flags known
// from code only prove nothing; reputation's own flags are never a harm
// of the token (no record feeds on itself).
func HarmOf(flags []risk.Flag) string {
	harm := ""
	hookTrap, cannotSell := false, false
	for _, f := range flags {
		if f.Evidence == risk.EvidenceCode {
			continue
		}
		switch {
		case f.Code == risk.OwnerCanBlockSells || f.Code == risk.NonTransferable:
			return HarmHoneypot
		case f.Code == risk.HoneypotCannotSell:
			cannotSell = true
		case f.Code == risk.HookCanBlockSells:
			hookTrap = true
		case f.Code == risk.OwnerCanSeize || f.Code == risk.OwnerCanChangeBalance || f.Code == risk.PermanentDelegate:
			harm = HarmSeizure
		case f.Code == risk.OwnerCanMint && f.Severity == risk.Critical && harm == "":
			harm = HarmHiddenMint
		}
	}
	switch {
	case cannotSell && hookTrap && harm == "":
		return HarmHookTrap
	case cannotSell && !hookTrap:
		return HarmHoneypot
	}
	return harm
}

// HarmOfScan is HarmOf(flags), or HarmRugged when no other harm is
// proven and the scan found pools (pools > 0) that hold less than
// RuggedDustUSD together: NO_LIQUIDITY over pools found, or
// LOW_LIQUIDITY valued under the dust.
func HarmOfScan(flags []risk.Flag, pools int) string {
	if h := HarmOf(flags); h != "" || pools <= 0 {
		return h
	}
	for _, f := range flags {
		switch {
		case f.Code == risk.NoLiquidity:
			return HarmRugged
		case f.Code == risk.LowLiquidity && f.Value != nil && *f.Value < RuggedDustUSD:
			return HarmRugged
		}
	}
	return ""
}

// LevelFlags are the codes of a report's high and critical flags: what
// made its level, as its record keeps it (reputation's own left out).
func LevelFlags(flags []risk.Flag) []string {
	var out []string
	for _, f := range flags {
		if f.Code == risk.CreatorScamHistory || f.Code == risk.KnownScamCode {
			continue
		}
		if f.Severity == risk.High || f.Severity == risk.Critical {
			out = append(out, f.Code)
		}
	}
	return out
}

// creatorVerdict turns the creator's other tokens into evidence, and
// into CREATOR_SCAM_HISTORY when one of them was proven harmful:
// critical for a honeypot, seizure or hidden mint, high when the worst
// was a rugged pool. launches are the creator's deployments the explorer
// lists: those the record does not hold join the list without a verdict.
func creatorVerdict(v *Verdict, chain string, mates []store.Token, launches []string) {
	v.CreatorTokens = make([]CreatorToken, 0, len(mates)+len(launches))
	var bad []string
	critical := false
	for _, t := range mates {
		v.CreatorTokens = append(v.CreatorTokens, creatorToken(t))
		if t.Harm != "" {
			bad = append(bad, fmt.Sprintf("%s (%s, scan %s)", t.Address, t.Harm, t.ScanID))
			critical = critical || t.Harm != HarmRugged
		}
	}
	scanned := len(v.CreatorTokens)
	for _, a := range launches {
		if slices.ContainsFunc(v.CreatorTokens, func(c CreatorToken) bool { return strings.EqualFold(c.Address, a) }) {
			continue
		}
		v.CreatorTokens = append(v.CreatorTokens, CreatorToken{Chain: chain, Address: a, Flags: []string{}, Link: LinkExplorer})
	}
	v.CreatorRecord = summary(scanned, len(bad), len(v.CreatorTokens)-scanned)
	if len(bad) == 0 {
		return
	}
	f := risk.NewFlag(risk.CreatorScamHistory,
		fmt.Sprintf("The creator launched %d token(s) found harmful", len(bad)),
		"Earlier scans of this creator's tokens proved harm: "+strings.Join(bad, "; ")+".")
	if !critical {
		f = risk.NewFlag(risk.CreatorScamHistory,
			fmt.Sprintf("The creator launched %d token(s) whose pools were emptied", len(bad)),
			"Earlier scans of this creator's tokens found their pools holding next to nothing (liquidity pulled or abandoned): "+strings.Join(bad, "; ")+".").
			WithSeverity(risk.High)
	}
	f.Source = *v.CreatorTokens[0].ScanID
	v.Flags = append(v.Flags, f.WithValue(float64(len(bad))))
}

// summary is creator_record: what the record holds in words.
func summary(n, bad, listed int) string {
	var s string
	switch {
	case n == 0:
		s = NoEarlierScans
	case bad == 0:
		s = fmt.Sprintf("%d earlier token(s) scanned, none found harmful", n)
	default:
		s = fmt.Sprintf("%d earlier token(s) scanned, %d found harmful", n, bad)
	}
	if listed > 0 {
		s += fmt.Sprintf("; %d more deployment(s) listed by the explorer, not scanned here", listed)
	}
	return s
}
