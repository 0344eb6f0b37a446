-- Reputation (issue 20): every scanned token's latest verdict, creator
-- and code fingerprint, read by creator and by fingerprint beside each
-- uncached scan.
CREATE TABLE tokens (
    chain      text NOT NULL,
    address    text NOT NULL,
    creator    text NOT NULL, -- '' when unknown
    code       text NOT NULL, -- '' when unknown
    scan_id    text NOT NULL,
    level      text NOT NULL,
    harm       text NOT NULL, -- '' when no proven harm
    flags      text NOT NULL, -- comma-separated codes
    scanned_at timestamptz NOT NULL,
    PRIMARY KEY (chain, address)
);
CREATE INDEX tokens_by_creator ON tokens (chain, creator, harm, scanned_at) WHERE creator <> '';
CREATE INDEX tokens_by_code ON tokens (code, harm, scanned_at) WHERE code <> '';
