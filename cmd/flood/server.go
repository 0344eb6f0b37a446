package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// server is a running `tokenrisk serve --devnet` and what the clients
// need of it.
type server struct {
	url     string
	free    string // a free-plan key
	premium string // a premium key
	tokens  []string
	cmd     *exec.Cmd
	done    chan error
	log     string
}

// plans makes every plan unlimited (no per-minute rate, no daily quota),
// so that only admission decides what the flood gets.
const plans = `[
 {"name": "free", "chains": ["*"], "rate_per_minute": 0, "daily_quota": 0, "priority": "low"},
 {"name": "pro", "chains": ["*"], "rate_per_minute": 0, "daily_quota": 0, "priority": "normal"},
 {"name": "premium", "chains": ["*"], "rate_per_minute": 0, "daily_quota": 0, "priority": "high", "history": true}
]`

func startServer(ctx context.Context, o options, dir string, stderr io.Writer) (*server, error) {
	bin := o.bin
	if bin == "" {
		bin = filepath.Join(dir, "tokenrisk")
		fmt.Fprintln(stderr, "flood: building ./cmd/tokenrisk")
		build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/tokenrisk")
		build.Stdout, build.Stderr = stderr, stderr
		if err := build.Run(); err != nil {
			return nil, fmt.Errorf("build tokenrisk (run from the checkout, or pass -bin): %w", err)
		}
	}
	plansFile, db, manifest := filepath.Join(dir, "plans.json"), filepath.Join(dir, "flood.db"), filepath.Join(dir, "devnet.json")
	if err := os.WriteFile(plansFile, []byte(plans), 0o600); err != nil {
		return nil, err
	}
	env := serverEnv()
	key := func(plan string) (string, error) {
		cmd := exec.CommandContext(ctx, bin, "keys", "create", "--plan", plan, "--name", "flood-"+plan, "--db", db, "--plans", plansFile)
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("keys create --plan %s: %w: %s", plan, err, strings.TrimSpace(errOut.String()))
		}
		return strings.TrimSpace(out.String()), nil
	}
	s := &server{done: make(chan error, 1), log: filepath.Join(dir, "serve.log")}
	var err error
	if s.free, err = key("free"); err != nil {
		return nil, err
	}
	if s.premium, err = key("premium"); err != nil {
		return nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	args := append([]string{"serve", "--devnet", "--devnet-manifest", manifest, "--db", db, "--addr", addr,
		"--cache-ttl", "0s", "--plans", plansFile, "--log-level", "warn"}, o.serveArgs...)
	logFile, err := os.Create(s.log)
	if err != nil {
		return nil, err
	}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Env = env
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	if err := s.cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start tokenrisk serve: %w", err)
	}
	go func() { s.done <- s.cmd.Wait(); logFile.Close() }()
	s.url = "http://" + addr
	if err := s.waitReady(ctx, manifest); err != nil {
		s.stop()
		return nil, err
	}
	fmt.Fprintf(stderr, "flood: tokenrisk serve %s (pid %d), %d zoo tokens\n", strings.Join(args[1:], " "), s.cmd.Process.Pid, len(s.tokens))
	return s, nil
}

// serverEnv is this process's environment without TOKENRISK_* settings
// (the run is the same on any shell), explorers off (no network).
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TOKENRISK_") {
			env = append(env, kv)
		}
	}
	return append(env, "TOKENRISK_SOURCIFY_URL=none", "TOKENRISK_ETHERSCAN_URL=none")
}

// freeAddr is a loopback address with a port free now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitReady polls /healthz until the server answers, then reads the
// devnet manifest's tokens (all but the one that is not a token).
func (s *server) waitReady(ctx context.Context, manifest string) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		select {
		case err := <-s.done:
			return fmt.Errorf("tokenrisk serve exited (%v); its log:\n%s", err, tail(s.log))
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		res, err := http.Get(s.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("tokenrisk serve not ready after 2 minutes; its log:\n%s", tail(s.log))
		}
	}
	data, err := os.ReadFile(manifest)
	if err != nil {
		return fmt.Errorf("devnet manifest: %w", err)
	}
	var m struct {
		Tokens []struct {
			Kind    string `json:"kind"`
			Address string `json:"address"`
		} `json:"tokens"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("devnet manifest: %w", err)
	}
	for _, t := range m.Tokens {
		if t.Kind != "not_a_token" {
			s.tokens = append(s.tokens, t.Address)
		}
	}
	if len(s.tokens) == 0 {
		return errors.New("devnet manifest lists no tokens")
	}
	return nil
}

// stop ends the server (SIGTERM, then SIGKILL after 10 s).
func (s *server) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// tail is the end of a log file.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
