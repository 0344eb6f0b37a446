-- Webhook endpoints, the outbox of events and deliveries, and the attempt log.
CREATE TABLE webhooks (
    id              text COLLATE "C" PRIMARY KEY,
    key_id          text NOT NULL,
    url             text NOT NULL,
    events          text[] NOT NULL,
    description     text NOT NULL,
    secret          bytea NOT NULL, -- sealed by the webhook package
    created_at      timestamptz NOT NULL,
    failing_since   timestamptz,
    disabled_at     timestamptz,
    disabled_reason text NOT NULL DEFAULT ''
);
CREATE INDEX webhooks_by_key ON webhooks (key_id, created_at, id);

CREATE TABLE webhook_events (
    id         text COLLATE "C" NOT NULL,
    key_id     text NOT NULL,
    type       text NOT NULL,
    created_at timestamptz NOT NULL,
    payload    bytea NOT NULL, -- the exact body sent and signed
    PRIMARY KEY (key_id, id) -- ids are the publisher's: unique per key
);

CREATE TABLE webhook_deliveries (
    id              text COLLATE "C" PRIMARY KEY,
    webhook_id      text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    key_id          text NOT NULL,
    event_id        text COLLATE "C" NOT NULL,
    state           text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    lease_owner     text NOT NULL DEFAULT '',
    lease_until     timestamptz NOT NULL DEFAULT '-infinity',
    created_at      timestamptz NOT NULL,
    UNIQUE (event_id, webhook_id),
    FOREIGN KEY (key_id, event_id) REFERENCES webhook_events (key_id, id)
);
-- The worker's scan: pending deliveries by due time.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
    delivery_id text COLLATE "C" NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL,
    status_code integer NOT NULL,
    latency_us  bigint NOT NULL,
    error       text NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, at);
