-- Report bases (issue 13): the bytes many scans' reports share (every
-- answer from one cached report), stored once by their SHA-256. A scan
-- row that has a base keeps an empty report and the edits that turn the
-- base into its report (its scan_id, duration_ms, cached); older rows
-- keep their whole report.
CREATE TABLE report_bases (
    digest bytea PRIMARY KEY,
    body   bytea NOT NULL
);

ALTER TABLE scans ADD COLUMN report_base bytea, ADD COLUMN report_edits bytea;
