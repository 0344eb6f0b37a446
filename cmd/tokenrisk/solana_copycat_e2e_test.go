package main

import (
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/solana/solanatest"
)

// TestSolanaCopycatEndToEnd: a Solana mint read from real mainnet bytes
// whose symbol matches a major Solana token of the chains file listed at
// another address reads FAKE_TOKEN (critical) naming the listed token,
// through an operator's chains file; the same mint listed as itself does
// not.
func TestSolanaCopycatEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: starts the server")
	}
	sol := solanatest.New()
	t.Cleanup(sol.Close)
	if err := sol.LoadDir("../../internal/solana/testdata/accounts"); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("the listed token the fixture copies"))
	listed := base58.Encode(sum[:])

	for _, tc := range []struct {
		name    string
		address string
		want    bool
	}{
		{"listed elsewhere", listed, true},
		{"listed as itself", pumpMint2022, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// The fixture's symbol is "Staccana": the list spells it
			// in capitals with a zero-width space, which must not hide it.
			file := chainsWithSolanaMajor(t, dir, chains.MajorToken{Address: tc.address, Name: "Staccana Original", Symbol: "STACC\u200bANA"})
			s := startServer(t, map[string]string{
				"TOKENRISK_DB":           filepath.Join(dir, "solana.db"),
				"TOKENRISK_SOURCIFY_URL": "none",
				"TOKENRISK_RPC_SOLANA":   sol.URL(),
				"TOKENRISK_CHAINS":       file,
			})
			doc := solanaReport(t, s, s.key(t, "pro"), pumpMint2022)
			got := slices.Contains(flagCodes(t, doc), "FAKE_TOKEN")
			if got != tc.want {
				t.Fatalf("FAKE_TOKEN raised = %v, want %v (flags %v)", got, tc.want, flagCodes(t, doc))
			}
			if !tc.want {
				return
			}
			if a := jsonAt(t, doc, "contract_analysis.impersonates.address"); a != listed {
				t.Errorf("impersonates.address = %v, want %s", a, listed)
			}
			if lvl := jsonAt(t, doc, "risk_level"); lvl != "critical" {
				t.Errorf("risk_level = %v, want critical", lvl)
			}
		})
	}
}

// chainsWithSolanaMajor writes the shipped chains file with tok as the
// Solana chain's only major token and returns its path.
func chainsWithSolanaMajor(t *testing.T, dir string, tok chains.MajorToken) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(chains.Shipped(), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range doc["chains"].([]any) {
		c := c.(map[string]any)
		if c["key"] == "solana" {
			c["major_tokens"] = []chains.MajorToken{tok}
			found = true
		}
	}
	if !found {
		t.Fatal("the shipped chains file has no solana chain")
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "chains.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
