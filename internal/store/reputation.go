package store

import (
	"context"
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
	// Code is the code fingerprint ("" when unknown).
	Code   string
	ScanID string
	Level  string
	// Harm is the proven harm the scan found ("honeypot", "seizure",
	// "hidden_mint"), or "".
	Harm string
	// Flags are the codes of the flags that made the level (high and
	// critical), in report order.
	Flags     []string
	ScannedAt time.Time
}

// Related is what the record holds about a token's creator and code.
type Related struct {
	// ByCreator are the creator's other tokens on the chain, the worst
	// first (a proven harm, then the newest).
	ByCreator []Token
	// ByCode are other tokens with the same code fingerprint, on any
	// chain, the worst first.
	ByCode []Token
}

// Reputation keeps every scanned token's verdict, creator and code
// fingerprint (internal/reputation reads it beside each uncached scan).
type Reputation interface {
	// RecordToken replaces the row of t's chain and address.
	RecordToken(ctx context.Context, t Token) error
	// RelatedTokens reads, in one query, up to limit of the creator's
	// other tokens on chain and up to limit of the code's twins ("" for
	// an unknown creator or code reads nothing of it), never the token at
	// address itself.
	RelatedTokens(ctx context.Context, chain, address, creator, code string, limit int) (Related, error)
}
