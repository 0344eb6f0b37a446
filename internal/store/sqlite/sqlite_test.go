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

// RecordEntries saves rows in statements of many (150 rows: three), each
// base once, charges only the rows it saved, and writing the same entries
// again (a journal replayed after its drain committed) changes nothing.
func TestRecordEntriesIsIdempotent(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "tokenrisk.db"))
	defer s.Close()
	body := []byte(`{"scan_id":"scn_base","risk_level":"low"}`)
	base := &store.Base{Digest: sha256.Sum256(body), Body: body}
	var es []store.Entry
	for i := range 150 {
		sc := store.Scan{ID: fmt.Sprintf("scn_%04d", i), KeyID: "k1", Address: "0xabc", Chain: "devnet",
			RiskLevel: "low", ScannedAt: time.Date(2026, 11, 24, 8, 0, 0, i*1000, time.UTC)}
		if i%3 == 0 {
			sc.Report = []byte(fmt.Sprintf(`{"scan_id":"%s"}`, sc.ID))
		} else {
			sc.Base, sc.Edits = base, []store.Edit{{From: 13, To: 21, With: []byte(sc.ID)}}
		}
		day := "2026-11-24"
		if i == 149 {
			day = "" // saved, not charged
		}
		es = append(es, store.Entry{Scan: sc, Day: day})
	}
	if err := s.RecordEntries(ctx, es[:100]); err != nil {
		t.Fatal(err)
	}
	// The first 100 again with 50 new ones.
	if err := s.RecordEntries(ctx, es); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Usage(ctx, "k1", "2026-11-24"); err != nil || n != 149 {
		t.Fatalf("usage %d %v, want 149 (each charged row once)", n, err)
	}
	n := 0
	if err := s.ExportScans(ctx, store.ScanFilter{KeyID: "k1"}, func(sc store.Scan) error {
		var i int
		fmt.Sscanf(sc.ID, "scn_%04d", &i)
		want := es[i].Scan.Report
		if es[i].Scan.Base != nil {
			want, _ = store.ApplyEdits(body, es[i].Scan.Edits)
		}
		if !bytes.Equal(sc.Report, want) {
			t.Errorf("%s: report %s, want %s", sc.ID, sc.Report, want)
		}
		n++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != 150 {
		t.Fatalf("%d rows, want 150", n)
	}
	if err := s.RecordEntries(ctx, []store.Entry{{Scan: es[0].Scan, Day: "24-11-2026"}}); err == nil {
		t.Fatal("a malformed day was taken")
	}
}
