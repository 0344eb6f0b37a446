package sqlite_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/store/storetest"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSuite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, filepath.Join(t.TempDir(), "tokenrisk.db"))
	})
}

func TestSuiteInMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, ":memory:") })
}

func TestReopenKeepsEverything(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tokenrisk.db")
	s := open(t, path)
	key := store.Key{ID: "key_1", Plan: "free", Prefix: "trk_abcdefgh", CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := s.CreateKey(ctx, key, []byte("hash")); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveScan(ctx, store.Scan{ID: "scn_1", KeyID: "key_1", ScannedAt: key.CreatedAt, Report: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddUsage(ctx, "key_1", "2026-11-21", 3); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path) // migrations run again and must be a no-op
	defer s.Close()
	if _, err := s.KeyByHash(ctx, []byte("hash")); err != nil {
		t.Errorf("key lost on reopen: %v", err)
	}
	if _, err := s.FindScan(ctx, "key_1", "scn_1"); err != nil {
		t.Errorf("scan lost on reopen: %v", err)
	}
	if n, err := s.Usage(ctx, "key_1", "2026-11-21"); n != 3 || err != nil {
		t.Errorf("usage after reopen: %d, %v; want 3", n, err)
	}
}

func TestOpenFails(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "missing-dir", "x.db")} {
		if s, err := sqlite.Open(context.Background(), path, sqlite.Options{}); err == nil {
			s.Close()
			t.Errorf("Open(%q): no error", path)
		}
	}
}

// The history of many answers from one cached report holds that report
// once: 2,000 answers of a 5 KB report take well under 1 MB on disk (10 MB
// with each row whole), and read back whole.
func TestAnswersOfOneReportStoreItOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tokenrisk.db")
	s := open(t, path)
	body := []byte(`{"scan_id":"scn_first","cached":false,"risk_flags":[` + strings.Repeat(`{"code":"OWNER_CAN_MINT","severity":"high"},`, 120) + `{}]}`)
	base := &store.Base{Digest: sha256.Sum256(body), Body: body}
	const n = 2000
	var last store.Scan
	for i := 0; i < n; i += 16 {
		batch := make([]store.Scan, 16)
		for j := range batch {
			id := fmt.Sprintf("scn_%06d", i+j)
			sc := store.Scan{ID: id, KeyID: "key_1", Address: "0xab", Chain: "ethereum", RiskLevel: "low", Cached: true,
				ScannedAt: time.Unix(1795000000, int64(i+j)*1000).UTC(), Base: base,
				Edits: []store.Edit{{From: 11, To: 22, With: []byte(`"` + id + `"`)}, {From: 32, To: 37, With: []byte("true")}}}
			var err error
			if sc.Report, err = store.ApplyEdits(body, sc.Edits); err != nil {
				t.Fatal(err)
			}
			batch[j], last = sc, sc
		}
		if _, err := s.RecordScans(ctx, batch, []store.Charge{{KeyID: "key_1", Day: "2026-11-21", N: 16}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d answers of a %d-byte report: %d bytes on disk", n, len(body), fi.Size())
	if fi.Size() > 1<<20 {
		t.Errorf("%d answers of one %d-byte report take %d bytes on disk", n, len(body), fi.Size())
	}
	s = open(t, path)
	defer s.Close()
	got, err := s.FindScan(ctx, "key_1", last.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Report, last.Report) {
		t.Errorf("read back %.80s…, want %.80s…", got.Report, last.Report)
	}
}
