package watch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/risk"
)

// Event types the watcher publishes.
const (
	RiskChanged      = "token.risk_changed"
	LiquidityRemoved = "token.liquidity_removed"
	SupplyChanged    = "token.supply_changed"
	OwnerChanged     = "token.owner_changed"
	ContractUpgraded = "token.contract_upgraded"
	TradingChanged   = "token.trading_changed"
)

// ReputationChanged is the type of the event ReputationAlerts publishes
// when a scan, not a watcher's tick, newly finds harmful a token linked
// to a watched one (it is not among Types, the tick's types).
const ReputationChanged = "token.reputation_changed"

// Types lists every event type a watcher's tick publishes, in
// documentation order (ReputationAlerts publishes ReputationChanged).
var Types = []string{RiskChanged, LiquidityRemoved, SupplyChanged, OwnerChanged, ContractUpgraded, TradingChanged}

// Event is one alert for one watchlist entry. Its ID is stable: the same
// change seen again (a retry after a restart) gets the same ID, so the
// outbox stores and receivers deliver it once.
type Event struct {
	ID        string
	Type      string
	Timestamp time.Time
	// Data is the event's data object (see the Data types).
	Data json.RawMessage
}

// Publisher takes events for delivery to the key's webhook endpoints
// (durably, idempotent on Event.ID).
type Publisher interface {
	Publish(ctx context.Context, keyID string, ev Event) error
}

// Common is in every event's data: the entry, the token and the scan that
// confirmed the change (null when the re-scan failed and a log alone is
// the evidence), and for a change read from a log, its block and
// transaction.
type Common struct {
	WatchID     string  `json:"watch_id"`
	Address     string  `json:"address"`
	Chain       string  `json:"chain"`
	ScanID      *string `json:"scan_id"`
	BlockNumber *uint64 `json:"block_number"`
	TxHash      *string `json:"tx_hash"`
}

// ScanPoint is one side of a risk change.
type ScanPoint struct {
	ScanID           string  `json:"scan_id"`
	RiskLevel        string  `json:"risk_level"`
	OverallRiskScore float64 `json:"overall_risk_score"`
}

// RiskChangedData is the data of token.risk_changed: the level moved.
type RiskChangedData struct {
	Common
	Before       ScanPoint   `json:"before"`
	After        ScanPoint   `json:"after"`
	FlagsAdded   []risk.Flag `json:"flags_added"`
	FlagsRemoved []risk.Flag `json:"flags_removed"`
}

// LiquidityRemovedData is the data of token.liquidity_removed: the main
// pool's quote reserve fell by at least the threshold from its reference
// (the highest reserve seen since the last such alert), or LP shares left
// a burn address or a locker.
type LiquidityRemovedData struct {
	Common
	Pool               string   `json:"pool"`
	QuoteReserveBefore *string  `json:"quote_reserve_before"`
	QuoteReserveAfter  *string  `json:"quote_reserve_after"`
	DropPct            *float64 `json:"drop_pct"`
	// LPUnlocked is true when LP shares moved out of a burn address or a
	// locker (LPFrom, LPAmount), or the secured LP share fell.
	LPUnlocked bool    `json:"lp_unlocked"`
	LPFrom     *string `json:"lp_from"`
	LPAmount   *string `json:"lp_amount"`
	// LPSecuredPctBefore/After are the main pool's burned-or-locked LP
	// share in the scans before and after, where known.
	LPSecuredPctBefore *float64 `json:"lp_secured_pct_before"`
	LPSecuredPctAfter  *float64 `json:"lp_secured_pct_after"`
}

// SupplyChangedData is the data of token.supply_changed: a mint or burn
// log (Kind, Amount, Account), or a total supply that moved without one.
type SupplyChangedData struct {
	Common
	// Kind is "mint", "burn" or "unannounced" (the scans' total supply
	// differs and no mint or burn log explains it).
	Kind              string  `json:"kind"`
	Amount            *string `json:"amount"`
	Account           *string `json:"account"`
	TotalSupplyBefore *string `json:"total_supply_before"`
	TotalSupplyAfter  *string `json:"total_supply_after"`
}

// OwnerChangedData is the data of token.owner_changed.
type OwnerChangedData struct {
	Common
	PreviousOwner *string `json:"previous_owner"`
	NewOwner      *string `json:"new_owner"`
	Renounced     bool    `json:"renounced"`
	// Reclaimed is true when a renounced token has an owner again.
	Reclaimed bool `json:"reclaimed"`
}

// ContractUpgradedData is the data of token.contract_upgraded.
type ContractUpgradedData struct {
	Common
	PreviousImplementation *string `json:"previous_implementation"`
	Implementation         string  `json:"implementation"`
}

// TaxChange is a tax before and after, in percent (null when unknown).
type TaxChange struct {
	Before *float64 `json:"before"`
	After  *float64 `json:"after"`
}

// TradingChangedData is the data of token.trading_changed.
type TradingChangedData struct {
	Common
	// Changes name what changed: "paused", "unpaused", "fee_changed",
	// "honeypot" (buying or selling now fails), "tradable" (it works
	// again).
	Changes []string   `json:"changes"`
	BuyTax  *TaxChange `json:"buy_tax,omitempty"`
	SellTax *TaxChange `json:"sell_tax,omitempty"`
	CanBuy  *bool      `json:"can_buy"`
	CanSell *bool      `json:"can_sell"`
	// Reason is the simulation's revert reason when trading fails.
	Reason *string `json:"reason"`
}

// ReputationChangedData is the data of token.reputation_changed: a token
// sharing the watched token's creator (on its chain) or its code
// fingerprint (on any chain) was newly found harmful. Common is the
// watched token, with the scan that found the harm.
type ReputationChangedData struct {
	Common
	// Link is how the harmful token is tied to the watched one:
	// "creator", "pool_creator" (one token's pool created by the other's
	// creator) or "code"; Via is the creator address or the fingerprint
	// the two share.
	Link string `json:"link"`
	Via  string `json:"via"`
	// Token is the token found harmful.
	Token HarmfulToken `json:"token"`
	// MoreWatched counts the key's other entries linked to the same
	// finding that got no event of their own (past ReputationPerKey);
	// MoreCapped says there may be more still (the read stopped at
	// ReputationRead).
	MoreWatched int  `json:"more_watched"`
	MoreCapped  bool `json:"more_watched_capped"`
}

// HarmfulToken is the token a finding is about: its verdict as recorded.
type HarmfulToken struct {
	Chain   string `json:"chain"`
	Address string `json:"address"`
	Level   string `json:"level"`
	// Harm is what its scan proved ("honeypot", "seizure", "hidden_mint",
	// "rugged", "hook_honeypot"); Flags the codes that made its level.
	Harm      string    `json:"harm"`
	Flags     []string  `json:"flags"`
	ScanID    string    `json:"scan_id"`
	ScannedAt time.Time `json:"scanned_at"`
}

// eventID derives an event id from what identifies the change (never a
// clock): "evt_" and 32 hex digits of a SHA-256.
func eventID(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return "evt_" + hex.EncodeToString(sum[:16])
}
