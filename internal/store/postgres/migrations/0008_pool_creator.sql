-- The creator's record (issues 20, 21): a token's pool creator (Solana:
-- the creator recorded in its main pool's state) is a second key. It
-- links tokens one way only: a token whose pool was made by another
-- token's creator, or whose creator made another token's pool. Two
-- tokens whose pools share a creator are not linked (a launchpad's
-- migration wallet creates the pools of thousands of unrelated tokens).
ALTER TABLE tokens ADD COLUMN pool_creator text NOT NULL DEFAULT ''; -- '' when unknown
CREATE INDEX tokens_by_pool_creator ON tokens (chain, pool_creator, harm, scanned_at) WHERE pool_creator <> '';
