package store

import (
	"context"
	"slices"
	"time"
)

// Token is one scanned token's reputation: its latest verdict, its
// creator and its code fingerprint, one row per chain and address (a
// re-scan replaces it, so a verdict that changes later is what its
// creator-mates and code twins see).
type Token struct {
	Chain   string
	Address string
	// Creator is the creator's address ("" when unknown).
	Creator string
	// PoolCreator is the creator of the token's main pool where its state
	// records one ("" when unknown): a second key, matched one way only
	// (see RelatedQuery).
	PoolCreator string
	// Code is the code fingerprint ("" when unknown); Dispatcher the
	// fingerprint of its selector set ("" when unknown).
	Code, Dispatcher string
	ScanID           string
	Level            string
	// Harm is the proven harm the scan found ("honeypot", "seizure",
	// "hidden_mint", "rugged", "hook_honeypot"), or "".
	Harm string
	// Flags are the codes of the flags that made the level (high and
	// critical), in report order.
	Flags     []string
	ScannedAt time.Time
	// Via, on a row read by creator, is the address the two tokens share;
	// ViaPool is true when it is a pool's creator on one side.
	Via     string
	ViaPool bool
}

// Recorded is what RecordToken found on the token's row before it wrote.
type Recorded struct {
	// Kept is false when the row held a later scan and t was not kept.
	Kept bool
	// PreviousHarm is the harm the row held ("" when none, or no row).
	PreviousHarm string
}

// RelatedQuery asks for what the record holds about one token.
type RelatedQuery struct {
	Chain, Address string
	// Creator and PoolCreator are the token's keys ("" when unknown). The
	// creator's other tokens are those with the same creator, those
	// whose pool it created, and those whose creator created this
	// token's pool; never two tokens whose pools share only a creator.
	Creator, PoolCreator string
	// Code is the token's code fingerprint ("" when unknown); Dispatcher
	// its selector-set fingerprint ("" when unknown).
	Code, Dispatcher string
	// Limit bounds each list.
	Limit int
}

// Related is what the record holds about a token's creator and code.
type Related struct {
	// ByCreator are the creator's other tokens on the chain, the worst
	// first (a proven harm, then the newest), each once.
	ByCreator []Token
	// ByCode are other tokens with the same code fingerprint, on any
	// chain, the worst first.
	ByCode []Token
	// CodeTally counts every twin of the code (not only ByCode's),
	// read in the same query.
	CodeTally CodeTally
	// SameDispatcher counts the scanned tokens with the same dispatcher
	// fingerprint and other code (never the token itself), at most
	// DispatcherTallyCap; SameDispatcherCapped says there may be more.
	SameDispatcher       int
	SameDispatcherCapped bool
}

// TwinTallyCap bounds how many of a code's twins RelatedTokens counts:
// the count walks the code's index, so a template shared by a hundred
// thousand tokens must not cost every scan of it a hundred thousand
// entries. The proven harms come first in that walk, so they are counted
// whole unless they alone pass the cap.
const TwinTallyCap = 1000

// CodeTally counts a code's twins (never the token itself).
type CodeTally struct {
	// Twins is how many scanned tokens share the code, at most
	// TwinTallyCap; Capped says there may be more.
	Twins  int
	Capped bool
	// Critical is how many of them read critical at their latest scan.
	Critical int
	// Harms counts them by proven harm (Token.Harm; none without).
	Harms map[string]int
}

// Add counts n twins of level and harm (the stores' tally rows).
func (c *CodeTally) Add(level, harm string, n int) {
	c.Twins += n
	if level == "critical" {
		c.Critical += n
	}
	if harm != "" {
		if c.Harms == nil {
			c.Harms = map[string]int{}
		}
		c.Harms[harm] += n
	}
	c.Capped = c.Twins >= TwinTallyCap
}

// DispatcherTallyCap bounds the count of tokens sharing a dispatcher
// with other code. A standard's selector set is shared by most of its
// plain tokens, so the count is weak evidence and kept cheap: the stores
// walk at most twice this many index entries (counting up to the cap
// walked a thousand entries each side and tripled the query's time at a
// million tokens).
const DispatcherTallyCap = 100

// SetSameDispatcher keeps n (the stores' dispatcher row: two ranges,
// each up to DispatcherTallyCap) as SameDispatcher, capped.
func (r *Related) SetSameDispatcher(n int) {
	r.SameDispatcher = min(n, DispatcherTallyCap)
	r.SameDispatcherCapped = n >= DispatcherTallyCap
}

// Reputation keeps every scanned token's verdict, creator and code
// fingerprint (internal/reputation reads it beside each uncached scan).
type Reputation interface {
	// RecordToken replaces the row of t's chain and address unless it
	// holds a later scan, and says what the row held before: read and
	// written atomically, so of two scans recording a token at once
	// (two instances of one PostgreSQL) exactly one sees the harm the
	// other did not.
	RecordToken(ctx context.Context, t Token) (Recorded, error)
	// RelatedTokens reads, in one query, up to q.Limit of the creator's
	// other tokens on q.Chain and up to q.Limit of the code's twins with
	// the tally of all of them (an
	// unknown key reads nothing of it), never the token at q.Address
	// itself.
	RelatedTokens(ctx context.Context, q RelatedQuery) (Related, error)
}

// HarmRank orders proven harms, the worst first: the critical ones
// (honeypot, seizure, hidden mint) before a rugged pool, and any harm
// before none.
func HarmRank(harm string) int {
	switch harm {
	case "":
		return 0
	case "rugged":
		return 1
	}
	return 2
}

// MergeRelated merges the rows a query's branches read into one list of
// at most limit: each token once (its first branch's Via), the worst
// harm first, then the newest.
func MergeRelated(rows []Token, limit int) []Token {
	seen := map[[2]string]bool{}
	out := rows[:0:0]
	for _, t := range rows {
		k := [2]string{t.Chain, t.Address}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, t)
	}
	sortTokens(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// sortTokens orders rows the worst harm first, then the newest.
func sortTokens(ts []Token) {
	slices.SortStableFunc(ts, func(a, b Token) int {
		if ra, rb := HarmRank(a.Harm), HarmRank(b.Harm); ra != rb {
			return rb - ra
		}
		return b.ScannedAt.Compare(a.ScannedAt)
	})
}

// Links a token to a watched one (LinkedWatch.Link).
const (
	// LinkCreator: the watched token has the token's creator.
	LinkCreator = "creator"
	// LinkPoolCreator: one token's pool was created by the other's
	// creator.
	LinkPoolCreator = "pool_creator"
	// LinkCode: the two tokens share the code fingerprint.
	LinkCode = "code"
)

// LinkedQuery asks which watchlist entries watch a token linked to one:
// by creator on its chain (the same keys as RelatedQuery's), or by code
// on any chain. An empty key is not followed.
type LinkedQuery struct {
	Chain, Address       string
	Creator, PoolCreator string
	Code                 string
	// Limit bounds the entries read.
	Limit int
}

// LinkedWatch is one watchlist entry on a token linked to the queried
// one: the link (a Link* value) and the address or fingerprint the two
// share. An entry linked several ways comes once per link.
type LinkedWatch struct {
	Watch Watch
	Link  string
	Via   string
}

// ReputationWatches finds the watchlist entries a token's verdict
// concerns (the token.reputation_changed alerts). Both stores implement
// it.
type ReputationWatches interface {
	// LinkedWatches returns up to q.Limit entries on tokens linked to
	// q's token (never on the token itself), by creator first, then pool
	// creator, then code, each the oldest entry first.
	LinkedWatches(ctx context.Context, q LinkedQuery) ([]LinkedWatch, error)
}
