-- Webhook endpoints, the outbox of events and deliveries, and the attempt log.
CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY,
    key_id          TEXT NOT NULL,
    url             TEXT NOT NULL,
    events          TEXT NOT NULL, -- JSON array of event types
    description     TEXT NOT NULL,
    secret          BLOB NOT NULL, -- sealed by the webhook package
    created_at      INTEGER NOT NULL, -- unix microseconds
    failing_since   INTEGER,
    disabled_at     INTEGER,
    disabled_reason TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX webhooks_by_key ON webhooks (key_id, created_at, id);

CREATE TABLE webhook_events (
    id         TEXT NOT NULL,
    key_id     TEXT NOT NULL,
    type       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    payload    BLOB NOT NULL, -- the exact body sent and signed
    PRIMARY KEY (key_id, id) -- ids are the publisher's: unique per key
) STRICT;

CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    webhook_id      TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    key_id          TEXT NOT NULL,
    event_id        TEXT NOT NULL,
    state           TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_owner     TEXT NOT NULL DEFAULT '',
    lease_until     INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    UNIQUE (event_id, webhook_id),
    FOREIGN KEY (key_id, event_id) REFERENCES webhook_events (key_id, id)
) STRICT;
-- The worker's scan: pending deliveries by due time.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at          INTEGER NOT NULL,
    status_code INTEGER NOT NULL,
    latency_us  INTEGER NOT NULL,
    error       TEXT NOT NULL
) STRICT;
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, at);
