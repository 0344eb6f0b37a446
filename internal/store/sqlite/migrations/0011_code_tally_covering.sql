-- The code twins' tally (issue 20) reads up to store.TwinTallyCap twins
-- of a code for their harm and level: with level and the token's key in
-- the index, the tally is read from the index alone, without a table
-- lookup per twin (the uncached scan's one reputation read, at a million
-- scanned tokens).
DROP INDEX tokens_by_code;
CREATE INDEX tokens_by_code ON tokens (code, harm, scanned_at, level, chain, address) WHERE code <> '';
