package solana

import (
	"math"
	"slices"
	"sort"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
)

// lpAccount is one LP token account: its address, owner and amount.
type lpAccount struct {
	address, owner PublicKey
	amount         uint64
}

// maxLPHolders bounds the LP holders a pool's evidence lists.
const maxLPHolders = 10

// lpShares is how a pool's LP divides between burned, locked, wallets and
// unknown holders, in percent of the LP the pool issued.
type lpShares struct {
	burned                    float64
	locked, unlocked, unknown *float64
	holders                   []analysis.SolanaLPHolder
	// providers counts the owners holding LP, burn addresses left out
	// (nil when not listed).
	providers *int
}

// lpSplitInput is what lpSplit divides.
type lpSplitInput struct {
	// issued is what the pool records as outstanding less what it never
	// minted; supply is the LP mint's supply.
	issued, supply uint64
	// holders are every LP token account the node knows, when listed.
	holders []lpAccount
	listed  bool
	burns   []string
	lockers map[string]string
	creator *PublicKey
	// escrowed is LP the pool itself records as held by its lock escrows
	// (program accounts, so listed as unknown holders).
	escrowed uint64
	// streams are lock streams of the LP (Streamflow) by escrow account;
	// now is the time their schedules are read at.
	streams map[PublicKey]*StreamLock
	now     int64
}

// lpSplit divides the LP a pool issued; the difference between issued
// and supply was burned with the token program. When listed, holders
// owned by a burn address count as burned, by a configured locker as
// locked, held in a lock stream's escrow as locked for what the stream
// has not yet released (the rest as its recipient's), by a wallet (an
// address on the ed25519 curve, which can sign a withdrawal) as unlocked,
// and by any other program as unknown, as is supply the listing does not
// account for. When not listed, or the listing holds more than the
// supply, only the burned share (and the pool's own escrowed LP) is
// established.
func lpSplit(in lpSplitInput) lpShares {
	issued, supply := in.issued, in.supply
	total := max(issued, supply)
	pct := func(v uint64) float64 { return 100 * float64(v) / float64(total) }
	out := lpShares{burned: pct(satSub(issued, supply))}
	escrowed := min(in.escrowed, supply)
	if !in.listed {
		if escrowed > 0 {
			l := pct(escrowed)
			out.locked = &l
		}
		return out
	}
	var burned, locked, unlocked, unknown, seen uint64
	providers := map[PublicKey]bool{}
	holders := in.holders
	sort.SliceStable(holders, func(i, j int) bool { return holders[i].amount > holders[j].amount })
	for _, h := range holders {
		owner := h.owner.String()
		label := analysis.SolanaLPProgram
		var until *int64
		stream := in.streams[h.address]
		switch {
		case slices.Contains(in.burns, owner):
			label = analysis.SolanaLPBurn
			burned = satAdd(burned, h.amount)
		case in.lockers[owner] != "":
			label = analysis.SolanaLPLocker
			locked = satAdd(locked, h.amount)
		case stream != nil && stream.LockedAt(in.now) > 0:
			label = analysis.SolanaLPLocker
			l := min(stream.LockedAt(in.now), h.amount)
			locked = satAdd(locked, l)
			// What the stream released belongs to its recipient.
			if IsOnCurve(stream.Recipient) {
				unlocked = satAdd(unlocked, h.amount-l)
			} else {
				unknown = satAdd(unknown, h.amount-l)
			}
			if stream.End > 0 && stream.End <= math.MaxInt64 {
				e := int64(stream.End)
				until = &e
			}
		case IsOnCurve(h.owner):
			label = analysis.SolanaLPWallet
			if in.creator != nil && h.owner == *in.creator {
				label = analysis.SolanaLPCreator
			}
			unlocked = satAdd(unlocked, h.amount)
		default:
			unknown = satAdd(unknown, h.amount)
		}
		seen = satAdd(seen, h.amount)
		if h.amount > 0 && label != analysis.SolanaLPBurn {
			providers[h.owner] = true
		}
		if h.amount > 0 && len(out.holders) < maxLPHolders {
			out.holders = append(out.holders, analysis.SolanaLPHolder{
				TokenAccount: h.address.String(), Owner: owner, Amount: h.amount,
				SharePct: math.Round(pct(h.amount)*100) / 100, Label: label, LockedUntil: until,
			})
		}
	}
	if seen > supply {
		// The node lists more LP than was minted: its answer cannot be
		// trusted to say who holds what.
		in.listed, in.holders = false, nil
		return lpSplit(in)
	}
	unknown = satAdd(unknown, supply-seen)
	// Escrowed LP sits in program accounts, counted unknown above.
	moved := min(escrowed, unknown)
	locked, unknown = satAdd(locked, moved), unknown-moved
	l, u, k := pct(locked), pct(unlocked), pct(unknown)
	out.burned += pct(burned)
	out.locked, out.unlocked, out.unknown = &l, &u, &k
	n := len(providers)
	out.providers = &n
	return out
}
