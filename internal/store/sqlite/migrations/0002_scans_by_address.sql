-- Public badges and token pages read the newest scan of an address.
CREATE INDEX scans_by_address_time ON scans (address, scanned_at DESC, id DESC);
