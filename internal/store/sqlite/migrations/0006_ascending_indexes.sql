-- History's indexes in ascending order (issue 13): read newest first by
-- walking them backwards, as before, while new rows (later scanned_at)
-- land at the right edge of their key's or address's range instead of
-- the left, where every insert split a page: fewer pages written per
-- group commit (about a fifth less CPU per row recorded).
DROP INDEX scans_by_key_time;
CREATE INDEX scans_by_key_time ON scans (key_id, scanned_at, id);
DROP INDEX scans_by_address_time;
CREATE INDEX scans_by_address_time ON scans (address, scanned_at, id);
