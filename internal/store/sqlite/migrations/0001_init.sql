CREATE TABLE keys (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    plan        TEXT NOT NULL,
    prefix      TEXT NOT NULL,
    secret_hash BLOB NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL, -- unix microseconds
    revoked_at  INTEGER
) STRICT;

CREATE TABLE usage (
    key_id TEXT NOT NULL,
    day    TEXT NOT NULL, -- YYYY-MM-DD, UTC
    count  INTEGER NOT NULL,
    PRIMARY KEY (key_id, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE scans (
    id         TEXT PRIMARY KEY,
    key_id     TEXT NOT NULL,
    address    TEXT NOT NULL,
    chain      TEXT NOT NULL,
    risk_level TEXT NOT NULL,
    score      REAL NOT NULL,
    cached     INTEGER NOT NULL,
    scanned_at INTEGER NOT NULL, -- unix microseconds
    report     BLOB NOT NULL
) STRICT;

-- History is always read per key, newest first, in (scanned_at, id) order.
CREATE INDEX scans_by_key_time ON scans (key_id, scanned_at DESC, id DESC);
