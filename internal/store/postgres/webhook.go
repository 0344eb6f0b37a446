package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

var _ store.WebhookStore = (*Store)(nil)

const webhookColumns = `id, key_id, url, events, description, secret, created_at, failing_since, disabled_at, disabled_reason`

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func scanWebhook(row pgx.Row) (store.Webhook, error) {
	var w store.Webhook
	if err := row.Scan(&w.ID, &w.KeyID, &w.URL, &w.Events, &w.Description, &w.Secret, &w.CreatedAt,
		&w.FailingSince, &w.DisabledAt, &w.DisabledReason); err != nil {
		return store.Webhook{}, err
	}
	w.CreatedAt = w.CreatedAt.UTC()
	w.FailingSince = utc(w.FailingSince)
	w.DisabledAt = utc(w.DisabledAt)
	return w, nil
}

// CreateWebhook stores a new endpoint.
func (s *Store) CreateWebhook(ctx context.Context, w store.Webhook) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO webhooks (`+webhookColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		w.ID, w.KeyID, w.URL, w.Events, w.Description, w.Secret, w.CreatedAt, w.FailingSince, w.DisabledAt, w.DisabledReason)
	if err != nil {
		return fmt.Errorf("postgres: create webhook %s: %w", w.ID, err)
	}
	return nil
}

// Webhook returns keyID's endpoint id, or store.ErrNotFound.
func (s *Store) Webhook(ctx context.Context, keyID, id string) (store.Webhook, error) {
	w, err := scanWebhook(s.pool.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE id = $1 AND key_id = $2`, id, keyID))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Webhook{}, store.ErrNotFound
	}
	if err != nil {
		return store.Webhook{}, fmt.Errorf("postgres: webhook %s: %w", id, err)
	}
	return w, nil
}

// Webhooks lists keyID's endpoints, oldest first.
func (s *Store) Webhooks(ctx context.Context, keyID string) ([]store.Webhook, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE key_id = $1 ORDER BY created_at, id`, keyID)
	if err != nil {
		return nil, fmt.Errorf("postgres: webhooks: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Webhook, error) { return scanWebhook(r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: webhooks: %w", err)
	}
	return out, nil
}

func (s *Store) execOne(ctx context.Context, what, sql string, args ...any) error {
	tag, err := s.pool.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("postgres: %s: %w", what, err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

// DeleteWebhook removes the endpoint and its deliveries.
func (s *Store) DeleteWebhook(ctx context.Context, keyID, id string) error {
	return s.execOne(ctx, "delete webhook "+id, `DELETE FROM webhooks WHERE id = $1 AND key_id = $2`, id, keyID)
}

// SetWebhookSecret replaces the endpoint's sealed secret.
func (s *Store) SetWebhookSecret(ctx context.Context, keyID, id string, secret []byte) error {
	return s.execOne(ctx, "set webhook secret "+id, `UPDATE webhooks SET secret = $1 WHERE id = $2 AND key_id = $3`, secret, id, keyID)
}

// EnqueueEvent stores ev once and a pending delivery per subscribed,
// enabled endpoint of keyID (or only onlyWebhook).
func (s *Store) EnqueueEvent(ctx context.Context, keyID string, ev store.WebhookEvent, onlyWebhook string) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO webhook_events (id, key_id, type, created_at, payload) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (key_id, id) DO NOTHING`, ev.ID, keyID, ev.Type, ev.CreatedAt, ev.Payload)
		if err != nil || tag.RowsAffected() == 0 {
			return err // enqueued before: nothing more
		}
		rows, err := tx.Query(ctx, `SELECT `+webhookColumns+` FROM webhooks
			WHERE key_id = $1 AND disabled_at IS NULL AND ($2 = '' OR id = $2) ORDER BY created_at, id`, keyID, onlyWebhook)
		if err != nil {
			return err
		}
		ws, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Webhook, error) { return scanWebhook(r) })
		if err != nil {
			return err
		}
		for _, w := range ws {
			if onlyWebhook == "" && !w.Wants(ev.Type) {
				continue
			}
			if _, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries
				(id, webhook_id, key_id, event_id, state, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
				store.NewDeliveryID(), w.ID, keyID, ev.ID, store.DeliveryPending, ev.CreatedAt); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: enqueue event %s: %w", ev.ID, err)
	}
	return n, nil
}

const deliveryColumns = `d.id, d.webhook_id, d.key_id, d.state, d.attempts, d.next_attempt_at, d.created_at,
	e.id, e.type, e.created_at, e.payload`

const deliveryJoin = ` FROM webhook_deliveries d JOIN webhook_events e ON e.key_id = d.key_id AND e.id = d.event_id`

func scanDelivery(row pgx.Row, extra ...any) (store.WebhookDelivery, error) {
	var d store.WebhookDelivery
	dest := append([]any{&d.ID, &d.WebhookID, &d.KeyID, &d.State, &d.Attempts, &d.NextAttemptAt, &d.CreatedAt,
		&d.Event.ID, &d.Event.Type, &d.Event.CreatedAt, &d.Event.Payload}, extra...)
	if err := row.Scan(dest...); err != nil {
		return store.WebhookDelivery{}, err
	}
	d.NextAttemptAt = d.NextAttemptAt.UTC()
	d.CreatedAt = d.CreatedAt.UTC()
	d.Event.CreatedAt = d.Event.CreatedAt.UTC()
	return d, nil
}

// ClaimDeliveries leases up to limit due deliveries to owner. Rows
// another instance is claiming are skipped (FOR UPDATE SKIP LOCKED), and
// a row leased to it stays its own until the lease ends.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]store.ClaimedDelivery, error) {
	rows, err := s.pool.Query(ctx, `WITH due AS (
			SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
			WHERE d.state = 'pending' AND d.next_attempt_at <= $3 AND d.lease_until <= $3 AND w.disabled_at IS NULL
			ORDER BY d.next_attempt_at, d.id LIMIT $4
			FOR UPDATE OF d SKIP LOCKED),
		claimed AS (
			UPDATE webhook_deliveries d SET lease_owner = $1, lease_until = $2 FROM due WHERE d.id = due.id
			RETURNING d.*)
		SELECT `+deliveryColumns+`, w.url, w.secret, w.failing_since
		FROM claimed d JOIN webhook_events e ON e.key_id = d.key_id AND e.id = d.event_id
		JOIN webhooks w ON w.id = d.webhook_id
		ORDER BY d.next_attempt_at, d.id`, owner, now.Add(lease), now, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: claim deliveries: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.ClaimedDelivery, error) {
		var c store.ClaimedDelivery
		var err error
		c.WebhookDelivery, err = scanDelivery(r, &c.URL, &c.Secret, &c.FailingSince)
		c.FailingSince = utc(c.FailingSince)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: claim deliveries: %w", err)
	}
	return out, nil
}

// RecordAttempt logs a and applies out while owner holds the lease.
func (s *Store) RecordAttempt(ctx context.Context, owner string, a store.WebhookAttempt, out store.AttemptOutcome) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var webhookID string
		err := tx.QueryRow(ctx, `UPDATE webhook_deliveries SET state = $1, attempts = attempts + 1, next_attempt_at = $2,
			lease_owner = '', lease_until = '-infinity' WHERE id = $3 AND lease_owner = $4 RETURNING webhook_id`,
			out.State, out.NextAttemptAt, a.DeliveryID, owner).Scan(&webhookID)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrDeliveryLeaseLost
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO webhook_attempts (delivery_id, at, status_code, latency_us, error) VALUES ($1, $2, $3, $4, $5)`,
			a.DeliveryID, a.At, a.StatusCode, a.Latency.Microseconds(), a.Error); err != nil {
			return err
		}
		if out.Success {
			_, err = tx.Exec(ctx, `UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`, webhookID)
		} else {
			_, err = tx.Exec(ctx, `UPDATE webhooks SET failing_since = $1 WHERE id = $2 AND failing_since IS NULL`, a.At, webhookID)
		}
		if err != nil {
			return err
		}
		if out.DisableReason == "" {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE webhooks SET disabled_at = coalesce(disabled_at, $1), disabled_reason = $2 WHERE id = $3`,
			a.At, out.DisableReason, webhookID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE webhook_deliveries SET state = 'failed', lease_owner = '', lease_until = '-infinity'
			WHERE webhook_id = $1 AND state = 'pending'`, webhookID)
		return err
	})
	if errors.Is(err, store.ErrDeliveryLeaseLost) {
		return err
	}
	if err != nil {
		return fmt.Errorf("postgres: record attempt %s: %w", a.DeliveryID, err)
	}
	return nil
}

// Deliveries lists the endpoint's newest deliveries with their attempts,
// both from one snapshot.
func (s *Store) Deliveries(ctx context.Context, keyID, webhookID string, limit int) ([]store.WebhookDelivery, error) {
	if _, err := s.Webhook(ctx, keyID, webhookID); err != nil {
		return nil, err
	}
	var out []store.WebhookDelivery
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+deliveryColumns+deliveryJoin+`
			WHERE d.webhook_id = $1 AND d.key_id = $2 ORDER BY d.created_at DESC, d.id DESC LIMIT $3`, webhookID, keyID, limit)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.WebhookDelivery, error) { return scanDelivery(r) })
		if err != nil || len(out) == 0 {
			return err
		}
		index := make(map[string]int, len(out))
		ids := make([]string, len(out))
		for i, d := range out {
			index[d.ID] = i
			ids[i] = d.ID
		}
		arows, err := tx.Query(ctx, `SELECT delivery_id, at, status_code, latency_us, error FROM webhook_attempts
			WHERE delivery_id = ANY($1) ORDER BY at, ctid`, ids)
		if err != nil {
			return err
		}
		defer arows.Close()
		for arows.Next() {
			var (
				a     store.WebhookAttempt
				latUS int64
			)
			if err := arows.Scan(&a.DeliveryID, &a.At, &a.StatusCode, &latUS, &a.Error); err != nil {
				return err
			}
			a.At = a.At.UTC()
			a.Latency = time.Duration(latUS) * time.Microsecond
			i := index[a.DeliveryID]
			out[i].History = append(out[i].History, a)
		}
		return arows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: deliveries of %s: %w", webhookID, err)
	}
	return out, nil
}

// RetryDelivery makes a delivery pending again, due at now.
func (s *Store) RetryDelivery(ctx context.Context, keyID, webhookID, deliveryID string, now time.Time) error {
	return s.execOne(ctx, "retry delivery "+deliveryID, `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $1
		WHERE id = $2 AND webhook_id = $3 AND key_id = $4`, now, deliveryID, webhookID, keyID)
}

// PruneDeliveries deletes finished deliveries created before before and
// the events left without deliveries.
func (s *Store) PruneDeliveries(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM webhook_deliveries WHERE created_at < $1 AND state <> 'pending'`, before)
		if err != nil {
			return err
		}
		n = tag.RowsAffected()
		_, err = tx.Exec(ctx, `DELETE FROM webhook_events e WHERE e.created_at < $1 AND NOT EXISTS
			(SELECT 1 FROM webhook_deliveries d WHERE d.key_id = e.key_id AND d.event_id = e.id)`, before)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: prune deliveries: %w", err)
	}
	return n, nil
}
