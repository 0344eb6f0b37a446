-- History's indexes in ascending order (issue 13), as in SQLite: read
-- newest first by a backward index scan, while new rows (later
-- scanned_at) land at the right edge of their key's or address's range.
DROP INDEX scans_by_key_time;
CREATE INDEX scans_by_key_time ON scans (key_id, scanned_at, id);
DROP INDEX scans_by_address_time;
CREATE INDEX scans_by_address_time ON scans (address, scanned_at, id);
