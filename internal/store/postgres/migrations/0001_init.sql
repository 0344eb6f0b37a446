CREATE TABLE keys (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    plan        text NOT NULL,
    prefix      text NOT NULL,
    secret_hash bytea NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

CREATE TABLE usage (
    key_id text NOT NULL,
    day    text NOT NULL, -- YYYY-MM-DD, UTC
    count  bigint NOT NULL,
    PRIMARY KEY (key_id, day)
);

CREATE TABLE scans (
    id         text COLLATE "C" PRIMARY KEY,
    key_id     text NOT NULL,
    address    text NOT NULL,
    chain      text NOT NULL,
    risk_level text NOT NULL,
    score      double precision NOT NULL,
    cached     boolean NOT NULL,
    scanned_at timestamptz NOT NULL,
    report     bytea NOT NULL -- the answer's exact bytes, not jsonb
);

-- History is always read per key, newest first, in (scanned_at, id) order.
CREATE INDEX scans_by_key_time ON scans (key_id, scanned_at DESC, id DESC);
