-- Watchlists (issue 10): one row per key and watched token.
CREATE TABLE watches (
    id               text PRIMARY KEY,
    key_id           text NOT NULL,
    address          text NOT NULL,
    chain            text NOT NULL,
    created_at       timestamptz NOT NULL,
    baseline_scan_id text NOT NULL,
    baseline_level   text NOT NULL,
    baseline_score   double precision NOT NULL,
    UNIQUE (key_id, address)
);
CREATE INDEX watches_by_chain ON watches (chain, created_at, id);

-- The watcher's memory of each watched token, shared by every key.
CREATE TABLE watched_tokens (
    chain         text NOT NULL,
    address       text NOT NULL,
    scan_id       text NOT NULL,
    report        bytea NOT NULL,
    pool          text NOT NULL,
    quote_reserve text NOT NULL,
    scanned_at    timestamptz NOT NULL,
    PRIMARY KEY (chain, address)
);

-- One watcher per chain across instances: a lease and the log cursor.
CREATE TABLE watch_leases (
    chain       text PRIMARY KEY,
    owner       text NOT NULL,
    lease_until timestamptz NOT NULL,
    cursor      bigint NOT NULL
);
