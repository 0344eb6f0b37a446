-- token.reputation_changed (issue 20): the entries watching a token are
-- found from the tokens linked to one found harmful (by creator or code),
-- each looked up by chain and address.
CREATE INDEX watches_by_token ON watches (chain, address);
