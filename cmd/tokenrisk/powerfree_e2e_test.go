package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPowerFreeTokensReadLow scans, through POST /api/v1/scan/, the zoo's
// look-alikes of long-lived tokens that give no privileged party a power
// over holders (a holder's own unfreeze, a setOwner and mint only the
// zero owner could call, a vesting release the fixed supply counts,
// onlyOwner setters left behind a zero owner): each must read minimal or
// low, with no mint, reclaim or hidden owner raised. The siphon token's
// report names the holders whose balances fell without their sending.
func TestPowerFreeTokensReadLow(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the devnet")
	}
	dir := t.TempDir()
	manifestPath := filepath.Join(dir, "devnet.json")
	s := startServer(t, map[string]string{
		"TOKENRISK_DB":           filepath.Join(dir, "powerfree.db"),
		"TOKENRISK_LOG_LEVEL":    "warn",
		"TOKENRISK_SOURCIFY_URL": "none",
	}, "--devnet-manifest", manifestPath)
	m := readManifest(t, manifestPath)
	key := s.key(t, "premium")

	scan := func(kind string) ([]byte, fieldReport) {
		t.Helper()
		tok, ok := m.Token(kind)
		if !ok {
			t.Fatalf("manifest has no %s token", kind)
		}
		r := s.scan(t, key, tok.Address)
		if r.status != 200 {
			t.Fatalf("%s: status %d: %s", kind, r.status, r.body)
		}
		validateReport(t, r.body)
		var rep fieldReport
		if err := json.Unmarshal(r.body, &rep); err != nil {
			t.Fatal(err)
		}
		return r.body, rep
	}
	for _, kind := range []string{"powerfree_unfreeze", "powerfree_zero_owner", "powerfree_vesting", "powerfree_retired_admin"} {
		_, rep := scan(kind)
		t.Logf("%s: level %s flags %v", kind, rep.RiskLevel, rep.codes())
		if levelRank[rep.RiskLevel] > levelRank["low"] {
			t.Errorf("%s: level %s, want minimal or low (flags %v): no privileged party has a power over holders", kind, rep.RiskLevel, rep.codes())
		}
		for _, code := range []string{"OWNER_CAN_MINT", "OWNER_CAN_RECLAIM", "HIDDEN_OWNER", "OWNER_CAN_SEIZE", "OWNER_CAN_CHANGE_BALANCE"} {
			if slices.Contains(rep.codes(), code) {
				t.Errorf("%s: %s raised", kind, code)
			}
		}
	}

	body, rep := scan("siphon_holders")
	var siphon struct {
		LiquidityAnalysis struct {
			Simulation struct {
				HolderSells *struct {
					Tried    int      `json:"tried"`
					Siphoned []string `json:"siphoned"`
				} `json:"holder_sells"`
			} `json:"simulation"`
		} `json:"liquidity_analysis"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(body, &siphon); err != nil {
		t.Fatal(err)
	}
	hs := siphon.LiquidityAnalysis.Simulation.HolderSells
	if hs == nil || len(hs.Siphoned) == 0 {
		t.Fatalf("siphon_holders: holder_sells %+v, want holders named as siphoned (level %s, flags %v)", hs, rep.RiskLevel, rep.codes())
	}
	t.Logf("siphon_holders: %d of %d holders tried siphoned; level %s flags %v", len(hs.Siphoned), hs.Tried, rep.RiskLevel, rep.codes())
	if !slices.Contains(rep.codes(), "BALANCES_SIPHONED") || rep.RiskLevel != "high" && rep.RiskLevel != "critical" {
		t.Errorf("siphon_holders: level %s flags %v, want BALANCES_SIPHONED and at least high", rep.RiskLevel, rep.codes())
	}
	named := false
	for _, w := range siphon.Warnings {
		named = named || strings.Contains(w, "siphon") || strings.Contains(w, hs.Siphoned[0])
	}
	if !named {
		t.Errorf("siphon_holders: no warning names the siphoned holder %s: %v", hs.Siphoned[0], siphon.Warnings)
	}
}
