-- Watchlists (issue 10): one row per key and watched token.
CREATE TABLE watches (
    id               TEXT PRIMARY KEY,
    key_id           TEXT NOT NULL,
    address          TEXT NOT NULL,
    chain            TEXT NOT NULL,
    created_at       INTEGER NOT NULL, -- unix microseconds
    baseline_scan_id TEXT NOT NULL,
    baseline_level   TEXT NOT NULL,
    baseline_score   REAL NOT NULL,
    UNIQUE (key_id, address)
) STRICT;
CREATE INDEX watches_by_chain ON watches (chain, created_at, id);

-- The watcher's memory of each watched token, shared by every key.
CREATE TABLE watched_tokens (
    chain         TEXT NOT NULL,
    address       TEXT NOT NULL,
    scan_id       TEXT NOT NULL,
    report        BLOB NOT NULL,
    pool          TEXT NOT NULL,
    quote_reserve TEXT NOT NULL,
    scanned_at    INTEGER NOT NULL, -- unix microseconds
    PRIMARY KEY (chain, address)
) STRICT;

-- One watcher per chain across instances: a lease and the log cursor.
CREATE TABLE watch_leases (
    chain       TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    lease_until INTEGER NOT NULL, -- unix microseconds
    cursor      INTEGER NOT NULL
) STRICT;
