package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/config"
)

// runCmd runs the program in process and returns its stdout.
func runCmd(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, func(k string) string { return env[k] }, strings.NewReader(""), &out, &errOut)
	return out.String(), err
}

func TestKeysCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "k.db")
	out, err := runCmd(t, nil, "keys", "create", "--plan", "pro", "--name", "my bot", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^trk_[1-9A-HJ-NP-Za-km-z]{40,50}\n$`).MatchString(out) {
		t.Fatalf("keys create printed %q, want the key alone on one line", out)
	}
	secret := strings.TrimSpace(out)
	// The variable works as well as the flag.
	if _, err := runCmd(t, map[string]string{"TOKENRISK_DB": db}, "keys", "create", "--plan", "free"); err != nil {
		t.Fatal(err)
	}
	list, err := runCmd(t, nil, "keys", "list", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, secret) || !strings.Contains(list, secret[:12]) || !strings.Contains(list, "my bot") {
		t.Fatalf("keys list must show the prefix, never the secret:\n%s", list)
	}
	id := regexp.MustCompile(`key_[0-9A-Z]{26}`).FindString(list)
	if _, err := runCmd(t, nil, "keys", "revoke", id, "--db", db); err != nil {
		t.Fatal(err)
	}
	list, _ = runCmd(t, nil, "keys", "list", "--db", db)
	if !regexp.MustCompile(id + `.*\d{4}-\d\d-\d\dT`).MatchString(strings.Split(list, "\n")[1]) {
		t.Errorf("revoked key not marked:\n%s", list)
	}
	if _, err := runCmd(t, nil, "keys", "revoke", "key_nope", "--db", db); err == nil {
		t.Error("revoking an unknown key succeeded")
	}
	if _, err := runCmd(t, nil, "keys", "create", "--plan", "gold", "--db", db); err == nil || !strings.Contains(err.Error(), "gold") {
		t.Errorf("unknown plan: %v", err)
	}
	if out, err := runCmd(t, nil, "migrate", "--db", db); err != nil || !strings.Contains(out, "migrated") {
		t.Errorf("migrate: %q %v", out, err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"keys"}, {"keys", "rotate"}, {"scan"}, {"serve", "--addr"}} {
		if _, err := runCmd(t, nil, args...); err == nil {
			t.Errorf("run %q succeeded", args)
		}
	}
	if _, err := runCmd(t, nil, "serve", "-h"); err != nil {
		t.Errorf("serve -h: %v", err)
	}
}

// TestDocsDocumentEveryOption keeps docs/configuration.md's table true to
// the code.
func TestDocsDocumentEveryOption(t *testing.T) {
	b, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, o := range config.Options() {
		if !strings.Contains(doc, "`--"+o.Flag+"`") || !strings.Contains(doc, "`"+o.Env+"`") {
			t.Errorf("docs/configuration.md lacks --%s / %s", o.Flag, o.Env)
		}
	}
}

// TestREADMEListsEveryCommand: the README's command list is the usage's
// (scan --server and devnet act included).
func TestREADMEListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(usage, "\n") {
		if !strings.HasPrefix(line, "  tokenrisk ") {
			continue
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		line, _, _ = strings.Cut(line, "   (")
		n++
		if !strings.Contains(string(b), line+"\n") {
			t.Errorf("README's commands lack %q", line)
		}
	}
	if n < 7 {
		t.Errorf("%d commands in the usage, want at least 7", n)
	}
}

// TestScanCommand: one scan on the in-process devnet, no server or store.
func TestScanCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the devnet")
	}
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	env := map[string]string{"TOKENRISK_LOG_LEVEL": "warn"}
	// The manifest is written by a devnet the scan command starts itself.
	out, err := runCmd(t, env, "scan", "--devnet", "--devnet-manifest", manifest, "0x00000000000000000000000000000000DeaDBeef")
	if err == nil || !strings.Contains(err.Error(), "token_not_found") {
		t.Fatalf("scan of an empty address: %q %v", out, err)
	}
	clean, _ := readManifest(t, manifest).Token("clean")
	out, err = runCmd(t, env, "scan", clean.Address, "--devnet", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"chain": "devnet"`) || !strings.Contains(out, `"risk_level"`) {
		t.Errorf("scan --json printed:\n%.500s", out)
	}
	out, err = runCmd(t, env, "scan", clean.Address, "--devnet")
	if err != nil || !strings.Contains(out, "risk: ") || !strings.Contains(out, "Not financial advice") {
		t.Errorf("scan printed %q, %v", out, err)
	}
}

func TestEmptyExplorerURLDisables(t *testing.T) {
	t.Setenv("TOKENRISK_SOURCIFY_URL", "")
	if got := getenv("TOKENRISK_SOURCIFY_URL"); got != "none" {
		t.Errorf("set-but-empty TOKENRISK_SOURCIFY_URL = %q, want none (disabled)", got)
	}
	os.Unsetenv("TOKENRISK_SOURCIFY_URL")
	if got := getenv("TOKENRISK_SOURCIFY_URL"); got != "" {
		t.Errorf("unset TOKENRISK_SOURCIFY_URL = %q, want empty (the default endpoint)", got)
	}
	t.Setenv("TOKENRISK_ETHERSCAN_URL", "http://127.0.0.1:1/api")
	if got := getenv("TOKENRISK_ETHERSCAN_URL"); got != "http://127.0.0.1:1/api" {
		t.Errorf("TOKENRISK_ETHERSCAN_URL = %q", got)
	}
}

// TestBadRPCURLRefusesToStart: a server with an RPC URL it can never use
// does not start (and say ready); the error names the chain's variable
// and never repeats the URL.
func TestBadRPCURLRefusesToStart(t *testing.T) {
	dir := t.TempDir()
	for _, u := range []string{"ftp://node.example/SECRETKEY", "http://[::1/SECRETKEY", "node.example:8545"} {
		env := map[string]string{"TOKENRISK_DB": filepath.Join(dir, "t.db"), "TOKENRISK_RPC_ETHEREUM": "https://ok.example," + u}
		_, err := runCmd(t, env, "serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), "TOKENRISK_RPC_ETHEREUM") {
			t.Errorf("%s: err %v, want a refusal naming TOKENRISK_RPC_ETHEREUM", u, err)
			continue
		}
		if strings.Contains(err.Error(), "SECRETKEY") || strings.Contains(err.Error(), "node.example") {
			t.Errorf("%s: err %q repeats the URL", u, err)
		}
	}
}
