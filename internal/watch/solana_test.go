package watch_test

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/scan"
	"github.com/tokenrisk/tokenrisk/internal/solana"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
	"github.com/tokenrisk/tokenrisk/internal/watch"
)

// TestSolanaIsWatchedByPeriodicRescan: a Solana mint (real account bytes)
// has no log query; a supply change is found by the periodic re-scan, not
// before it is due, and said as unannounced.
func TestSolanaIsWatchedByPeriodicRescan(t *testing.T) {
	const mint = "5oVNBeEEQvYi1cX3ir8Dx5n1P7pdxydbGF2X4TxVusJm" // scnSOL, SPL Token
	srv := solanatest.New()
	defer srv.Close()
	if err := srv.LoadFixture("testdata/scnsol-mint.json"); err != nil {
		t.Fatal(err)
	}
	reg, err := chains.Load("")
	if err != nil {
		t.Fatal(err)
	}
	reg.ApplyEnv(func(k string) string {
		if k == "TOKENRISK_RPC_SOLANA" {
			return srv.URL()
		}
		return ""
	}, true)
	engine, err := scan.NewEngine(scan.EngineOptions{Adapters: []scan.Adapter{solana.NewAdapter(reg, solana.Options{})}, Registry: reg,
		ScanTimeout: 30 * time.Second, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "w.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rep, err := engine.Scan(ctx, scan.ScanRequest{Address: mint, Chains: []string{"solana"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := rep.Encode()
	if err := st.SaveScan(ctx, store.Scan{ID: rep.ScanID, KeyID: "key_a", Address: rep.Address, Chain: rep.Chain, ScannedAt: time.Now(), Report: raw}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.CreateWatch(ctx, store.Watch{ID: "wat_sol", KeyID: "key_a", Address: rep.Address, Chain: rep.Chain, CreatedAt: time.Now(),
		BaselineScanID: rep.ScanID, BaselineLevel: string(rep.RiskLevel), BaselineScore: rep.OverallRiskScore}, 10); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	pub := newRecorder()
	w, err := watch.New(watch.Options{Store: st, History: st, Scanner: engine, Publisher: pub, Registry: reg,
		RescanInterval: 10 * time.Minute, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := w.TickChain(ctx, "solana"); err != nil || s.Rescans != 1 || len(pub.all()) != 0 {
		t.Fatalf("first tick %+v %v, %d events: want the baseline compared once, quietly", s, err, len(pub.all()))
	}

	// The mint authority mints: the account's supply (u64 at offset 36)
	// doubles. No log query exists for Solana.
	var fx struct {
		Account struct {
			Lamports uint64   `json:"lamports"`
			Owner    string   `json:"owner"`
			Data     []string `json:"data"`
		} `json:"account"`
	}
	b, err := os.ReadFile("testdata/scnsol-mint.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	data, err := base64.StdEncoding.DecodeString(fx.Account.Data[0])
	if err != nil {
		t.Fatal(err)
	}
	supply := binary.LittleEndian.Uint64(data[36:44])
	binary.LittleEndian.PutUint64(data[36:44], 2*supply)
	srv.SetAccount(mint, solanatest.Account{Lamports: fx.Account.Lamports, Owner: fx.Account.Owner, Data: data})

	now = now.Add(time.Minute)
	if s, _ := w.TickChain(ctx, "solana"); s.Rescans != 0 || len(pub.all()) != 0 {
		t.Errorf("a tick before the re-scan is due: %+v, %d events; want nothing", s, len(pub.all()))
	}
	now = now.Add(10 * time.Minute)
	if s, err := w.TickChain(ctx, "solana"); err != nil || s.Rescans != 1 {
		t.Fatalf("due tick %+v %v, want one re-scan", s, err)
	}
	evs := pub.of(watch.SupplyChanged, mint)
	if len(evs) != 1 || evs[0].data["kind"] != "unannounced" || evs[0].data["total_supply_after"] == evs[0].data["total_supply_before"] {
		t.Fatalf("supply events %+v, want one unannounced change", evs)
	}
	t.Logf("%s", evs[0].ev.Data)
}
