package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/journal"
	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/sqlite"
)

// kill9Child makes the test binary serve, for TestKill9LosesNoAnsweredRow.
const kill9Child = "TOKENRISK_TEST_KILL9_CHILD"

// TestKill9Serve is the server process TestKill9LosesNoAnsweredRow kills;
// it runs only as that child.
func TestKill9Serve(t *testing.T) {
	if os.Getenv(kill9Child) == "" {
		t.Skip("the child process of TestKill9LosesNoAnsweredRow")
	}
	args := strings.Split(os.Getenv(kill9Child), "\x1f")
	if err := run(context.Background(), args, getenv, strings.NewReader(""), os.Stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
}

// TestKill9LosesNoAnsweredRow: cached scans from 16 clients at once (group
// commits of several rows, the leader waiting for the scans in flight),
// then the server is killed with SIGKILL mid-flood. Every scan answered
// 200 before the kill has its history row in the database.
func TestKill9LosesNoAnsweredRow(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a devnet and a server process")
	}
	ctx := context.Background()
	dn, err := devnet.Start(ctx, devnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dn.Close() })
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	if err := dn.Manifest().WriteFile(manifest); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "kill9.db")
	env := map[string]string{"TOKENRISK_DB": db}
	key, err := runCmd(t, env, "keys", "create", "--plan", "premium", "--name", "kill9")
	if err != nil {
		t.Fatal(err)
	}
	key = strings.TrimSpace(key)

	args := []string{"serve", "--addr", "127.0.0.1:0", "--devnet", "--devnet-manifest", manifest, "--cache-ttl", "10m", "--db", db}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill9Serve$", "-test.v")
	cmd.Env = append(os.Environ(), kill9Child+"="+strings.Join(args, "\x1f"),
		"TOKENRISK_RPC_DEVNET="+dn.RPCURL(), "TOKENRISK_LOG_LEVEL=error")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	urlCh := make(chan string, 1)
	go func() {
		listening := regexp.MustCompile(`listening on (http://\S+)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				urlCh <- m[1]
			}
		}
	}()
	var url string
	select {
	case url = <-urlCh:
	case <-time.After(2 * time.Minute):
		t.Fatal("the server did not start")
	}

	clean, _ := dn.Manifest().Token("clean")
	scan := func() (string, bool) {
		req, _ := http.NewRequest("POST", url+"/api/v1/scan/", strings.NewReader(`{"address":"`+clean.Address+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", false
		}
		defer res.Body.Close()
		var r struct {
			ScanID string `json:"scan_id"`
		}
		if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&r) != nil {
			return "", false
		}
		return r.ScanID, true
	}
	if _, ok := scan(); !ok { // fills the cache
		t.Fatal("the first scan failed")
	}
	var mu sync.Mutex
	var answered []string
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				id, ok := scan()
				if !ok {
					return // the server is gone
				}
				mu.Lock()
				answered = append(answered, id)
				mu.Unlock()
			}
		})
	}
	// Kill once a few hundred scans have been answered (or after a while
	// on a slow machine).
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(answered)
		mu.Unlock()
		if n >= 300 {
			break
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(stop)
	wg.Wait()
	if len(answered) == 0 {
		t.Fatal("no scan answered before the kill")
	}

	// What the next start does: open the database and replay the history
	// journal into it (rows answered but not yet drained at the kill).
	direct, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := journal.Open(ctx, direct, direct, journal.Options{Dir: db + ".journal"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, err := st.ListKeys(ctx)
	if err != nil || len(keys) != 1 {
		t.Fatalf("keys %v %v", keys, err)
	}
	rows := map[string]bool{}
	if err := st.ExportScans(ctx, store.ScanFilter{KeyID: keys[0].ID}, func(sc store.Scan) error { rows[sc.ID] = true; return nil }); err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, id := range answered {
		if !rows[id] {
			missing++
		}
	}
	t.Logf("%d scans answered before SIGKILL, %d history rows (%d replayed from the journal)", len(answered), len(rows), st.Replayed())
	if missing > 0 {
		t.Errorf("%d of %d answered scans have no history row after kill -9", missing, len(answered))
	}
	// Each row charged once: a replay of entries already drained charges
	// nothing again.
	used, err := st.Usage(ctx, keys[0].ID, store.Day(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if used != int64(len(rows)) && time.Now().UTC().Hour() != 0 {
		t.Errorf("usage %d after the replay, want one per row (%d)", used, len(rows))
	}
}
