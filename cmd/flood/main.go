// Command flood measures what a premium client sees end to end while free
// clients flood a real tokenrisk server with uncached scans: it starts
// `tokenrisk serve --devnet` (its own SQLite file, --cache-ttl 0s, every
// plan unlimited through --plans), creates a free and a premium key, and
// runs paired rounds: premium alone, then premium beside the free flood.
// It prints premium p50/p99 alone and under the flood, their ratio, free
// scans served and shed per second, and the machine's load beside them.
//
//	go run ./cmd/flood [-bin ./tokenrisk] [-free 40] [-premium 2] [-rounds 4] [-phase 4s]
//	                   [-serve-arg --min-scans=2 ...]
//
// Without -bin it builds ./cmd/tokenrisk first (run it from the checkout).
// Every phase is bounded in time and the whole run in requests
// (-max-requests) and time (-timeout).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "flood:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	bin         string
	free        int
	premium     int
	rounds      int
	phase       time.Duration
	ramp        time.Duration
	maxRequests int64
	timeout     time.Duration
	serveArgs   []string
	keep        bool
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	var serveArgs multi
	fs := flag.NewFlagSet("flood", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.bin, "bin", "", "tokenrisk binary to serve (default: build ./cmd/tokenrisk into a temporary directory)")
	fs.IntVar(&o.free, "free", 40, "free-plan clients flooding uncached scans back to back")
	fs.IntVar(&o.premium, "premium", 2, "premium clients scanning back to back (measured)")
	fs.IntVar(&o.rounds, "rounds", 4, "paired rounds: premium alone, then under the flood")
	fs.DurationVar(&o.phase, "phase", 4*time.Second, "how long premium is measured in each phase")
	fs.DurationVar(&o.ramp, "ramp", time.Second, "how long the flood runs before premium is measured beside it")
	fs.Int64Var(&o.maxRequests, "max-requests", 200_000, "most requests sent in all (the run stops there)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "longest the whole run may take")
	fs.Var(&serveArgs, "serve-arg", "extra argument of tokenrisk serve (repeatable), e.g. -serve-arg=--min-scans=2")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary directory (database, server log)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.free < 0 || o.premium < 1 || o.rounds < 1 || o.phase <= 0 || o.ramp < 0 || o.maxRequests < 1 || o.timeout <= 0 {
		return o, errors.New("want -free ≥ 0, -premium ≥ 1, -rounds ≥ 1 and positive -phase, -max-requests and -timeout")
	}
	o.serveArgs = serveArgs
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "tokenrisk-flood-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintln(stderr, "flood: keeping", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	srv, err := startServer(ctx, o, dir, stderr)
	if err != nil {
		return err
	}
	defer srv.stop()
	res, err := measure(ctx, o, srv)
	if err != nil {
		return err
	}
	res.print(stdout, o)
	return nil
}
