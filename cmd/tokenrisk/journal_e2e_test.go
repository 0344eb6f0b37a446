package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// TestServeJournalsHistory: with the SQLite store, serve appends history
// to the journal beside the database: a scan reads back and counts in
// usage the moment it is answered, /readyz reports the journal, and a
// clean shutdown leaves every row in the database and no segment behind.
// --history-journal none writes rows straight to the database.
func TestServeJournalsHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	for _, mode := range []string{"journal", "none"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "h.db")
			env := map[string]string{"TOKENRISK_DB": db, "TOKENRISK_CACHE_TTL": "1m", "TOKENRISK_SOURCIFY_URL": "none"}
			extra := []string{"--devnet-manifest", filepath.Join(dir, "devnet.json")}
			if mode == "none" {
				extra = append(extra, "--history-journal", "none")
			}
			s := startServer(t, env, extra...)
			clean, _ := readManifest(t, filepath.Join(dir, "devnet.json")).Token("clean")
			key := s.key(t, "premium")
			var answered []string
			for range 5 {
				r := s.scan(t, key, clean.Address)
				if r.status != 200 {
					t.Fatalf("scan: %d %s", r.status, r.body)
				}
				var rep struct {
					ScanID string `json:"scan_id"`
				}
				if err := json.Unmarshal(r.body, &rep); err != nil {
					t.Fatal(err)
				}
				answered = append(answered, rep.ScanID)
				got := s.do(t, "GET", "/api/v1/scans/"+rep.ScanID, key, "")
				if got.status != 200 || !strings.Contains(string(got.body), rep.ScanID) {
					t.Fatalf("the scan just answered reads back %d %s", got.status, got.body)
				}
			}
			usage := s.do(t, "GET", "/api/v1/usage", key, "")
			if !strings.Contains(string(usage.body), `"scans_today":5`) {
				t.Fatalf("usage after 5 scans: %s", usage.body)
			}
			validateSchema(t, "Readiness", s.do(t, "GET", "/readyz", "", "").body)
			code, rd := s.readiness(t)
			b, ok := rd.Backends["history_journal"]
			if mode == "journal" && (code != 200 || !ok || b.Kind != "journal" || b.Status != "ok") {
				t.Fatalf("/readyz %d: history_journal %+v (present %v)", code, b, ok)
			}
			if mode == "none" && ok {
				t.Fatalf("/readyz reports a journal with --history-journal none: %+v", b)
			}
			if err := s.stop(); err != nil {
				t.Fatal(err)
			}
			segments, _ := filepath.Glob(filepath.Join(db+".journal", "*.journal"))
			if len(segments) != 0 {
				t.Fatalf("segments left after a clean shutdown: %v", segments)
			}
			st, err := sqlite.Open(context.Background(), db, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			for _, id := range answered {
				keys, _ := st.ListKeys(context.Background())
				if _, err := st.FindScan(context.Background(), keys[0].ID, id); err != nil {
					t.Fatalf("scan %s not in the database after shutdown: %v", id, err)
				}
			}
			if _, err := os.Stat(db + ".journal"); (mode == "none") != os.IsNotExist(err) {
				t.Fatalf("journal directory with mode %s: %v", mode, err)
			}
		})
	}
}
