-- The dispatcher fingerprint (issue 20): the sorted selector set of a
-- token's code (ds1_), kept beside the skeleton fingerprint so a scan can
-- count the tokens with the same functions but other code
-- (code_twins.same_dispatcher: weaker evidence than a code twin).
ALTER TABLE tokens ADD COLUMN dispatcher TEXT NOT NULL DEFAULT ''; -- '' when unknown
CREATE INDEX tokens_by_dispatcher ON tokens (dispatcher, code) WHERE dispatcher <> '';
