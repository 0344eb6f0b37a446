package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

var _ store.WebhookStore = (*Store)(nil)

const webhookColumns = `id, key_id, url, events, description, secret, created_at, failing_since, disabled_at, disabled_reason`

func micros(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

func fromMicros(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMicro(v.Int64).UTC()
	return &t
}

// CreateWebhook stores a new endpoint.
func (s *Store) CreateWebhook(ctx context.Context, w store.Webhook) error {
	events, err := json.Marshal(w.Events)
	if err != nil {
		return fmt.Errorf("sqlite: create webhook %s: %w", w.ID, err)
	}
	_, err = s.write.ExecContext(ctx, `INSERT INTO webhooks (`+webhookColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		w.ID, w.KeyID, w.URL, string(events), w.Description, w.Secret, w.CreatedAt.UnixMicro(),
		micros(w.FailingSince), micros(w.DisabledAt), w.DisabledReason)
	if err != nil {
		return fmt.Errorf("sqlite: create webhook %s: %w", w.ID, err)
	}
	return nil
}

func scanWebhook(row scanner) (store.Webhook, error) {
	var (
		w                 store.Webhook
		events            string
		created           int64
		failing, disabled sql.NullInt64
	)
	if err := row.Scan(&w.ID, &w.KeyID, &w.URL, &events, &w.Description, &w.Secret, &created,
		&failing, &disabled, &w.DisabledReason); err != nil {
		return store.Webhook{}, err
	}
	if err := json.Unmarshal([]byte(events), &w.Events); err != nil {
		return store.Webhook{}, fmt.Errorf("events of %s: %w", w.ID, err)
	}
	w.CreatedAt = time.UnixMicro(created).UTC()
	w.FailingSince = fromMicros(failing)
	w.DisabledAt = fromMicros(disabled)
	return w, nil
}

// Webhook returns keyID's endpoint id, or store.ErrNotFound.
func (s *Store) Webhook(ctx context.Context, keyID, id string) (store.Webhook, error) {
	w, err := scanWebhook(s.read.QueryRowContext(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE id = ? AND key_id = ?`, id, keyID))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Webhook{}, store.ErrNotFound
	}
	if err != nil {
		return store.Webhook{}, fmt.Errorf("sqlite: webhook %s: %w", id, err)
	}
	return w, nil
}

// Webhooks lists keyID's endpoints, oldest first.
func (s *Store) Webhooks(ctx context.Context, keyID string) ([]store.Webhook, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE key_id = ? ORDER BY created_at, id`, keyID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: webhooks: %w", err)
	}
	defer rows.Close()
	var out []store.Webhook
	for rows.Next() {
		w, err := scanWebhook(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: webhooks: %w", err)
		}
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: webhooks: %w", err)
	}
	return out, nil
}

func affected(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// DeleteWebhook removes the endpoint and its deliveries.
func (s *Store) DeleteWebhook(ctx context.Context, keyID, id string) error {
	err := affected(s.write.ExecContext(ctx, `DELETE FROM webhooks WHERE id = ? AND key_id = ?`, id, keyID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("sqlite: delete webhook %s: %w", id, err)
	}
	return err
}

// SetWebhookSecret replaces the endpoint's sealed secret.
func (s *Store) SetWebhookSecret(ctx context.Context, keyID, id string, secret []byte) error {
	err := affected(s.write.ExecContext(ctx, `UPDATE webhooks SET secret = ? WHERE id = ? AND key_id = ?`, secret, id, keyID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("sqlite: set webhook secret %s: %w", id, err)
	}
	return err
}

// EnqueueEvent stores ev once and a pending delivery per subscribed,
// enabled endpoint of keyID (or only onlyWebhook).
func (s *Store) EnqueueEvent(ctx context.Context, keyID string, ev store.WebhookEvent, onlyWebhook string) (int, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: enqueue event %s: %w", ev.ID, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	res, err := tx.ExecContext(ctx, `INSERT INTO webhook_events (id, key_id, type, created_at, payload) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (key_id, id) DO NOTHING`, ev.ID, keyID, ev.Type, ev.CreatedAt.UnixMicro(), ev.Payload)
	if err == nil {
		err = affected(res, nil)
	}
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil // enqueued before
	}
	if err != nil {
		return 0, fmt.Errorf("sqlite: enqueue event %s: %w", ev.ID, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+webhookColumns+` FROM webhooks
		WHERE key_id = ?1 AND disabled_at IS NULL AND (?2 = '' OR id = ?2) ORDER BY created_at, id`, keyID, onlyWebhook)
	if err != nil {
		return 0, fmt.Errorf("sqlite: enqueue event %s: %w", ev.ID, err)
	}
	var targets []string
	for rows.Next() {
		w, err := scanWebhook(rows)
		if err != nil {
			rows.Close()
			return 0, fmt.Errorf("sqlite: enqueue event %s: %w", ev.ID, err)
		}
		if onlyWebhook != "" || w.Wants(ev.Type) {
			targets = append(targets, w.ID)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("sqlite: enqueue event %s: %w", ev.ID, err)
	}
	for _, wid := range targets {
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries
			(id, webhook_id, key_id, event_id, state, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			store.NewDeliveryID(), wid, keyID, ev.ID, store.DeliveryPending, ev.CreatedAt.UnixMicro(), ev.CreatedAt.UnixMicro()); err != nil {
			return 0, fmt.Errorf("sqlite: enqueue event %s: %w", ev.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("sqlite: enqueue event %s: %w", ev.ID, err)
	}
	return len(targets), nil
}

const deliveryColumns = `d.id, d.webhook_id, d.key_id, d.state, d.attempts, d.next_attempt_at, d.created_at,
	e.id, e.type, e.created_at, e.payload`

const deliveryJoin = ` FROM webhook_deliveries d JOIN webhook_events e ON e.key_id = d.key_id AND e.id = d.event_id`

func scanDelivery(row scanner, extra ...any) (store.WebhookDelivery, error) {
	var (
		d                   store.WebhookDelivery
		next, created, evAt int64
	)
	dest := append([]any{&d.ID, &d.WebhookID, &d.KeyID, &d.State, &d.Attempts, &next, &created,
		&d.Event.ID, &d.Event.Type, &evAt, &d.Event.Payload}, extra...)
	if err := row.Scan(dest...); err != nil {
		return store.WebhookDelivery{}, err
	}
	d.NextAttemptAt = time.UnixMicro(next).UTC()
	d.CreatedAt = time.UnixMicro(created).UTC()
	d.Event.CreatedAt = time.UnixMicro(evAt).UTC()
	return d, nil
}

// ClaimDeliveries leases up to limit due deliveries to owner.
func (s *Store) ClaimDeliveries(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]store.ClaimedDelivery, error) {
	// An idle outbox is the common case: a read answers it without taking
	// the one write lock (the worker asks every second).
	var due int
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries
		WHERE state = 'pending' AND next_attempt_at <= ?1 AND lease_until <= ?1 LIMIT 1)`, now.UnixMicro()).Scan(&due)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	if due == 0 {
		return nil, nil
	}
	tx, err := s.write.BeginTx(ctx, nil) // BEGIN IMMEDIATE: one claimer at a time
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	ids, err := claimIDs(ctx, tx, owner, now.Add(lease).UnixMicro(), now.UnixMicro(), limit)
	if err != nil || len(ids) == 0 {
		if err != nil {
			return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
		}
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+deliveryColumns+`, w.url, w.secret, w.failing_since`+deliveryJoin+`
		JOIN webhooks w ON w.id = d.webhook_id
		WHERE d.id IN (?`+strings.Repeat(", ?", len(ids)-1)+`) ORDER BY d.next_attempt_at, d.id`, ids...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	var out []store.ClaimedDelivery
	for rows.Next() {
		var (
			c       store.ClaimedDelivery
			failing sql.NullInt64
		)
		c.WebhookDelivery, err = scanDelivery(rows, &c.URL, &c.Secret, &failing)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
		}
		c.FailingSince = fromMicros(failing)
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: claim deliveries: %w", err)
	}
	return out, nil
}

// claimIDs leases up to limit due deliveries and returns their ids.
func claimIDs(ctx context.Context, tx *sql.Tx, owner string, until, now int64, limit int) ([]any, error) {
	rows, err := tx.QueryContext(ctx, `UPDATE webhook_deliveries SET lease_owner = ?1, lease_until = ?2
		WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
			WHERE d.state = 'pending' AND d.next_attempt_at <= ?3 AND d.lease_until <= ?3 AND w.disabled_at IS NULL
			ORDER BY d.next_attempt_at, d.id LIMIT ?4)
		RETURNING id`, owner, until, now, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// RecordAttempt logs a and applies out while owner holds the lease.
func (s *Store) RecordAttempt(ctx context.Context, owner string, a store.WebhookAttempt, out store.AttemptOutcome) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: record attempt %s: %w", a.DeliveryID, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var webhookID string
	err = tx.QueryRowContext(ctx, `UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?,
		lease_owner = '', lease_until = 0 WHERE id = ? AND lease_owner = ? RETURNING webhook_id`,
		out.State, out.NextAttemptAt.UnixMicro(), a.DeliveryID, owner).Scan(&webhookID)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrDeliveryLeaseLost
	}
	if err != nil {
		return fmt.Errorf("sqlite: record attempt %s: %w", a.DeliveryID, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, at, status_code, latency_us, error) VALUES (?, ?, ?, ?, ?)`,
		a.DeliveryID, a.At.UnixMicro(), a.StatusCode, a.Latency.Microseconds(), a.Error); err != nil {
		return fmt.Errorf("sqlite: record attempt %s: %w", a.DeliveryID, err)
	}
	if out.Success {
		_, err = tx.ExecContext(ctx, `UPDATE webhooks SET failing_since = NULL WHERE id = ?`, webhookID)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE webhooks SET failing_since = coalesce(failing_since, ?) WHERE id = ?`, a.At.UnixMicro(), webhookID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: record attempt %s: %w", a.DeliveryID, err)
	}
	if out.DisableReason != "" {
		if _, err := tx.ExecContext(ctx, `UPDATE webhooks SET disabled_at = coalesce(disabled_at, ?), disabled_reason = ? WHERE id = ?`,
			a.At.UnixMicro(), out.DisableReason, webhookID); err != nil {
			return fmt.Errorf("sqlite: disable webhook %s: %w", webhookID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = 'failed', lease_owner = '', lease_until = 0
			WHERE webhook_id = ? AND state = 'pending'`, webhookID); err != nil {
			return fmt.Errorf("sqlite: disable webhook %s: %w", webhookID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: record attempt %s: %w", a.DeliveryID, err)
	}
	return nil
}

// Deliveries lists the endpoint's newest deliveries with their attempts.
func (s *Store) Deliveries(ctx context.Context, keyID, webhookID string, limit int) ([]store.WebhookDelivery, error) {
	if _, err := s.Webhook(ctx, keyID, webhookID); err != nil {
		return nil, err
	}
	// One read transaction: the deliveries and their attempts from the
	// same snapshot, never a state older than its attempts.
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: deliveries of %s: %w", webhookID, err)
	}
	defer tx.Rollback() //nolint:errcheck // read only
	rows, err := tx.QueryContext(ctx, `SELECT `+deliveryColumns+deliveryJoin+`
		WHERE d.webhook_id = ? AND d.key_id = ? ORDER BY d.created_at DESC, d.id DESC LIMIT ?`, webhookID, keyID, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: deliveries of %s: %w", webhookID, err)
	}
	var out []store.WebhookDelivery
	index := map[string]int{}
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("sqlite: deliveries of %s: %w", webhookID, err)
		}
		index[d.ID] = len(out)
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: deliveries of %s: %w", webhookID, err)
	}
	if len(out) == 0 {
		return out, nil
	}
	ids := make([]any, len(out))
	for i, d := range out {
		ids[i] = d.ID
	}
	arows, err := tx.QueryContext(ctx, `SELECT delivery_id, at, status_code, latency_us, error FROM webhook_attempts
		WHERE delivery_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`) ORDER BY at, rowid`, ids...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: attempts of %s: %w", webhookID, err)
	}
	defer arows.Close()
	for arows.Next() {
		var (
			a         store.WebhookAttempt
			at, latUS int64
		)
		if err := arows.Scan(&a.DeliveryID, &at, &a.StatusCode, &latUS, &a.Error); err != nil {
			return nil, fmt.Errorf("sqlite: attempts of %s: %w", webhookID, err)
		}
		a.At = time.UnixMicro(at).UTC()
		a.Latency = time.Duration(latUS) * time.Microsecond
		i := index[a.DeliveryID]
		out[i].History = append(out[i].History, a)
	}
	if err := arows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: attempts of %s: %w", webhookID, err)
	}
	return out, nil
}

// RetryDelivery makes a delivery pending again, due at now.
func (s *Store) RetryDelivery(ctx context.Context, keyID, webhookID, deliveryID string, now time.Time) error {
	err := affected(s.write.ExecContext(ctx, `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?
		WHERE id = ? AND webhook_id = ? AND key_id = ?`,
		now.UnixMicro(), deliveryID, webhookID, keyID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("sqlite: retry delivery %s: %w", deliveryID, err)
	}
	return err
}

// PruneDeliveries deletes finished deliveries created before before and
// the events left without deliveries.
func (s *Store) PruneDeliveries(ctx context.Context, before time.Time) (int64, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sqlite: prune deliveries: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	res, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE created_at < ? AND state <> 'pending'`, before.UnixMicro())
	if err != nil {
		return 0, fmt.Errorf("sqlite: prune deliveries: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite: prune deliveries: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_events WHERE created_at < ? AND NOT EXISTS
		(SELECT 1 FROM webhook_deliveries d WHERE d.key_id = webhook_events.key_id AND d.event_id = webhook_events.id)`,
		before.UnixMicro()); err != nil {
		return 0, fmt.Errorf("sqlite: prune events: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("sqlite: prune deliveries: %w", err)
	}
	return n, nil
}
