-- The code twins' tally (issue 20) reads up to store.TwinTallyCap twins
-- of a code for their harm and level: with level and the token's key
-- carried by the index, the tally can be an index-only scan (once the
-- visibility map is set), without a heap fetch per twin.
DROP INDEX tokens_by_code;
CREATE INDEX tokens_by_code ON tokens (code, harm, scanned_at) INCLUDE (level, chain, address) WHERE code <> '';
