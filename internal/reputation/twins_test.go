package reputation_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/reputation"
	"github.com/tokenrisk/tokenrisk/internal/risk"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// TestCodeTwins: a fresh record says "no earlier scans", never clean; a
// twin proven a honeypot makes the next token with its code critical
// with KNOWN_SCAM_CODE naming the honeypot's scan, whoever created it
// and on whichever chain; a twin whose harm is not one of the three
// proven harms makes it high; many benign twins are a COMMON_TEMPLATE
// note, not a risk.
func TestCodeTwins(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg, err := chains.Parse(chains.Shipped())
	if err != nil {
		t.Fatal(err)
	}
	c := reputation.New(reg, st)
	at := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
	token := func(i int, code string) reputation.Facts {
		return reputation.Facts{Chain: "ethereum", Address: fmt.Sprintf("0x%040x", i), Creator: fmt.Sprintf("0x%040x", 0xc000+i),
			Code: code, Dispatcher: "ds1_" + code}
	}
	record := func(f reputation.Facts, scanID, level string, flags ...risk.Flag) {
		t.Helper()
		at = at.Add(time.Minute)
		if _, err := c.Record(ctx, reputation.Outcome{Facts: f, ScanID: scanID, Level: level, Flags: flags, ScannedAt: at}); err != nil {
			t.Fatal(err)
		}
	}

	v := c.Judge(ctx, token(1, "cp1_scam"))
	ct := v.CodeTwins
	if ct == nil || ct.Fingerprint != "cp1_scam" || ct.Dispatcher == nil || *ct.Dispatcher != "ds1_cp1_scam" ||
		ct.Count == nil || *ct.Count != 0 || ct.Record == nil || *ct.Record != reputation.NoEarlierScans || ct.Examples == nil || len(v.Flags) != 0 {
		t.Fatalf("fresh record: %+v, flags %+v, want count 0 and %q", ct, v.Flags, reputation.NoEarlierScans)
	}
	record(token(1, "cp1_scam"), "scn_honeypot", "critical", risk.NewFlag(risk.HoneypotCannotSell, "", ""))

	bsc := token(2, "cp1_scam")
	bsc.Chain = "bsc"
	v = c.Judge(ctx, bsc)
	if len(v.Flags) != 1 || v.Flags[0].Code != risk.KnownScamCode || v.Flags[0].Severity != risk.Critical || v.Flags[0].Source != "scn_honeypot" {
		t.Fatalf("the honeypot's twin on bsc: flags %+v, want KNOWN_SCAM_CODE critical naming scn_honeypot", v.Flags)
	}
	ct = v.CodeTwins
	if *ct.Count != 1 || *ct.Critical != 1 || ct.Harms[reputation.HarmHoneypot] != 1 || len(ct.Examples) != 1 ||
		ct.Examples[0].ScanID != "scn_honeypot" || ct.Examples[0].Harm == nil || *ct.Examples[0].Harm != reputation.HarmHoneypot {
		t.Fatalf("code_twins %+v, want one critical honeypot twin as the example", ct)
	}
	// The clone's own verdict, critical through its twin only, proves
	// nothing of its own: the record keeps it without harm and without
	// the flag that made it.
	record(bsc, "scn_clone", "critical", v.Flags...)
	v = c.Judge(ctx, token(3, "cp1_scam"))
	if *v.CodeTwins.Count != 2 || v.CodeTwins.Harms[reputation.HarmHoneypot] != 1 || len(v.CodeTwins.Examples[1].Flags) != 0 {
		t.Fatalf("after the clone: %+v, want 2 twins of which 1 honeypot, the clone with no flags of its own", v.CodeTwins)
	}

	// A harm the code did not do (a rugged pool: its liquidity's owner; a
	// V4 hook's trap: the pool's code) is counted but raises nothing, so a
	// popular template is not condemned by its twins' pools.
	for i, harm := range []string{reputation.HarmRugged, reputation.HarmHookTrap} {
		code := "cp1_not_the_code_" + harm
		other := token(4+10*i, code)
		if _, err := st.RecordToken(ctx, store.Token{Chain: other.Chain, Address: other.Address, Creator: other.Creator, Code: other.Code,
			ScanID: "scn_" + harm, Level: "critical", Harm: harm, ScannedAt: at}); err != nil {
			t.Fatal(err)
		}
		v = c.Judge(ctx, token(5+10*i, code))
		if len(v.Flags) != 0 || v.CodeTwins.Harms[harm] != 1 {
			t.Fatalf("a twin with harm %s: flags %+v harms %v, want no flag and the harm counted", harm, v.Flags, v.CodeTwins.Harms)
		}
	}

	for i := range reputation.PopularTwins {
		record(token(100+i, "cp1_template"), fmt.Sprintf("scn_t%d", i), "low")
	}
	v = c.Judge(ctx, token(200, "cp1_template"))
	if len(v.Flags) != 1 || v.Flags[0].Code != risk.CommonTemplate || v.Flags[0].Severity != risk.Info || *v.CodeTwins.Count != reputation.PopularTwins {
		t.Fatalf("a popular template: flags %+v twins %+v, want the COMMON_TEMPLATE note over %d twins", v.Flags, v.CodeTwins, reputation.PopularTwins)
	}
	v = c.Judge(ctx, token(300, "cp1_template_rare"))
	if len(v.Flags) != 0 {
		t.Fatalf("an unseen code: flags %+v, want none", v.Flags)
	}
	// No fingerprint (Solana, an unread implementation): no code_twins.
	if v := c.Judge(ctx, token(301, "")); v.CodeTwins != nil {
		t.Fatalf("no fingerprint: code_twins %+v, want nil", v.CodeTwins)
	}
}

// TestSameDispatcher: tokens with the token's selector set and other
// code are counted, a harmful one among them included, and raise no
// flag: the same functions are not the same code.
func TestSameDispatcher(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "h.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg, err := chains.Parse(chains.Shipped())
	if err != nil {
		t.Fatal(err)
	}
	c := reputation.New(reg, st)
	at := time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)
	token := func(i int, code string) reputation.Facts {
		return reputation.Facts{Chain: "ethereum", Address: fmt.Sprintf("0x%040x", i), Creator: fmt.Sprintf("0x%040x", 0xc000+i),
			Code: code, Dispatcher: "ds1_erc20"}
	}
	for i, code := range []string{"cp1_a", "cp1_b", "cp1_c"} {
		var flags []risk.Flag
		if i == 0 {
			flags = append(flags, risk.NewFlag(risk.HoneypotCannotSell, "", ""))
		}
		if _, err := c.Record(ctx, reputation.Outcome{Facts: token(i, code), ScanID: fmt.Sprintf("scn_%d", i), Level: "low", Flags: flags, ScannedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	v := c.Judge(ctx, token(9, "cp1_c"))
	ct := v.CodeTwins
	if ct.SameDispatcher == nil || *ct.SameDispatcher != 2 || ct.SameDispatcherCapped || *ct.Count != 1 || len(v.Flags) != 0 {
		t.Fatalf("code_twins %+v flags %+v, want 1 twin, 2 tokens with the same dispatcher and no flag", ct, v.Flags)
	}
	// No dispatcher fingerprint: nothing to compare, null.
	f := token(10, "cp1_c")
	f.Dispatcher = ""
	if v := c.Judge(ctx, f); v.CodeTwins.SameDispatcher != nil {
		t.Fatalf("no dispatcher: same_dispatcher %d, want null", *v.CodeTwins.SameDispatcher)
	}
}
