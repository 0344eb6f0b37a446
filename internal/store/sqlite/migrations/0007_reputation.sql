-- Reputation (issue 20): every scanned token's latest verdict, creator
-- and code fingerprint, read by creator and by fingerprint beside each
-- uncached scan.
CREATE TABLE tokens (
    chain      TEXT NOT NULL,
    address    TEXT NOT NULL,
    creator    TEXT NOT NULL, -- '' when unknown
    code       TEXT NOT NULL, -- '' when unknown
    scan_id    TEXT NOT NULL,
    level      TEXT NOT NULL,
    harm       TEXT NOT NULL, -- '' when no proven harm
    flags      TEXT NOT NULL, -- comma-separated codes
    scanned_at INTEGER NOT NULL, -- unix microseconds
    PRIMARY KEY (chain, address)
) STRICT;
CREATE INDEX tokens_by_creator ON tokens (chain, creator, harm, scanned_at) WHERE creator <> '';
CREATE INDEX tokens_by_code ON tokens (code, harm, scanned_at) WHERE code <> '';
