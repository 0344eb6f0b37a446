package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/reputation"
	"github.com/tokenrisk/tokenrisk/internal/store"
)

// Bounds of one finding's fan-out: a scam template's twins or a serial
// launcher's tokens may be watched by many entries of one key, and one
// finding must not flood it.
const (
	// ReputationPerKey is how many events one finding sends one key: its
	// entries linked by creator first, then by code, the oldest first;
	// each event counts the key's other linked entries in MoreWatched.
	ReputationPerKey = 5
	// ReputationRead is how many linked entries one finding reads, of
	// every key (MoreCapped says the read stopped there).
	ReputationRead = 1000
)

// ReputationAlerts publishes token.reputation_changed to the keys
// watching the tokens a finding condemns (it implements
// reputation.Alerts for the scan engine).
type ReputationAlerts struct {
	Store     store.ReputationWatches
	Publisher Publisher
	// Now is the clock (default time.Now); Logger, if not nil, reports
	// events that could not be published; Observer, if not nil, counts
	// those that were.
	Now      func() time.Time
	Logger   *slog.Logger
	Observer Observer
}

var _ reputation.Alerts = (*ReputationAlerts)(nil)

// Condemned publishes one event per entry watching a token f condemns,
// at most ReputationPerKey per key. Event ids are derived from the entry,
// the harmful token and the scan, so a retry publishes nothing twice.
func (a *ReputationAlerts) Condemned(ctx context.Context, f reputation.Finding) error {
	err := a.condemned(ctx, f)
	if err != nil && a.Logger != nil {
		a.Logger.Warn("watch: reputation alerts", "chain", f.Token.Chain, "address", f.Token.Address, "scan_id", f.Token.ScanID, "err", err)
	}
	return err
}

func (a *ReputationAlerts) condemned(ctx context.Context, f reputation.Finding) error {
	if !f.Condemns() {
		return nil
	}
	t := f.Token
	q := store.LinkedQuery{Chain: t.Chain, Address: t.Address, Limit: ReputationRead}
	if f.Creator {
		q.Creator, q.PoolCreator = t.Creator, t.PoolCreator
	}
	if f.Code {
		q.Code = t.Code
	}
	rows, err := a.Store.LinkedWatches(ctx, q)
	if err != nil {
		return fmt.Errorf("watch: reputation alerts: %w", err)
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	ts := now().UTC()
	flags := t.Flags
	if flags == nil {
		flags = []string{}
	}
	bad := HarmfulToken{Chain: t.Chain, Address: t.Address, Level: t.Level, Harm: t.Harm, Flags: flags, ScanID: t.ScanID, ScannedAt: t.ScannedAt.UTC()}
	var errs []error
	for _, entries := range byKey(rows) {
		sent := entries[:min(len(entries), ReputationPerKey)]
		for _, e := range sent {
			scanID := t.ScanID
			data, err := json.Marshal(ReputationChangedData{
				Common: Common{WatchID: e.Watch.ID, Address: e.Watch.Address, Chain: e.Watch.Chain, ScanID: &scanID},
				Link:   e.Link, Via: e.Via, Token: bad,
				MoreWatched: len(entries) - len(sent), MoreCapped: len(rows) >= ReputationRead,
			})
			if err != nil {
				return fmt.Errorf("watch: encode %s: %w", ReputationChanged, err)
			}
			ev := Event{ID: eventID(e.Watch.ID, ReputationChanged, t.Chain, t.Address, t.ScanID), Type: ReputationChanged, Timestamp: ts, Data: data}
			if err := a.Publisher.Publish(ctx, e.Watch.KeyID, ev); err != nil {
				errs = append(errs, fmt.Errorf("watch: publish %s to %s: %w", ReputationChanged, e.Watch.ID, err))
				continue
			}
			if a.Observer != nil {
				a.Observer.WatchEvent(ReputationChanged)
			}
		}
	}
	return errors.Join(errs...)
}

// byKey groups the linked entries by key, in the order the keys first
// appear, each entry once by its first (strongest) link.
func byKey(rows []store.LinkedWatch) [][]store.LinkedWatch {
	seen := map[string]bool{}
	index := map[string]int{}
	var out [][]store.LinkedWatch
	for _, r := range rows {
		if seen[r.Watch.ID] {
			continue
		}
		seen[r.Watch.ID] = true
		i, ok := index[r.Watch.KeyID]
		if !ok {
			i = len(out)
			index[r.Watch.KeyID] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	return out
}
