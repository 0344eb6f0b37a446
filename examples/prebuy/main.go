// Command prebuy is a pre-buy gate for a trading bot: it scans a token
// through a tokenrisk server and exits 0 only when the verdict is below a
// risk level and the report is complete.
//
//	TOKENRISK_KEY=trk_… prebuy -server https://tokenrisk.example -max-level medium 0xToken
//
// Exit status: 0 buy, 1 do not buy (level at or above -max-level, or some
// check could not run), 2 no verdict (usage, network or API error).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/tokenrisk/tokenrisk/client"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	buy      = 0
	doNotBuy = 1
	noAnswer = 2
)

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("prebuy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", getenv("TOKENRISK_SERVER"), "tokenrisk server base URL (TOKENRISK_SERVER)")
	maxLevel := fs.String("max-level", "medium", "refuse tokens at or above this level: low, medium, high or critical")
	timeout := fs.Duration("timeout", 30*time.Second, "give up after this long (no verdict is not a buy)")
	if err := fs.Parse(args); err != nil {
		return noAnswer
	}
	threshold := client.Level(*maxLevel)
	if fs.NArg() != 1 || *server == "" || threshold.Rank() < 1 {
		fmt.Fprintln(stderr, "usage: prebuy -server URL [-max-level low|medium|high|critical] ADDRESS (key in TOKENRISK_KEY)")
		return noAnswer
	}
	c, err := client.New(*server, getenv("TOKENRISK_KEY"))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return noAnswer
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	rep, err := c.Scan(ctx, fs.Arg(0))
	if err != nil {
		var p *client.Problem
		if errors.As(err, &p) {
			fmt.Fprintf(stderr, "no verdict: %s: %s\n", p.Code, p.Detail)
		} else {
			fmt.Fprintf(stderr, "no verdict: %v\n", err)
		}
		return noAnswer
	}
	fmt.Fprintf(stdout, "%s %s %s: %s %.1f\n", rep.Chain, rep.Address, rep.TokenSymbol, rep.RiskLevel, rep.OverallRiskScore)
	switch {
	case rep.RiskLevel.Rank() < 0:
		fmt.Fprintf(stdout, "do not buy: unknown level %q\n", rep.RiskLevel)
		return doNotBuy
	case rep.RiskLevel.Rank() >= threshold.Rank():
		fmt.Fprintf(stdout, "do not buy: %s is at or above %s\n", rep.RiskLevel, threshold)
		for _, f := range rep.RiskFlags {
			if f.Severity == "high" || f.Severity == "critical" {
				fmt.Fprintf(stdout, "  %s %s: %s\n", f.Severity, f.Code, f.Title)
			}
		}
		return doNotBuy
	case !rep.Complete():
		fmt.Fprintf(stdout, "do not buy: the report is %s; not checked: %v\n", rep.Completeness, rep.Unchecked)
		return doNotBuy
	}
	fmt.Fprintln(stdout, "buy: below", threshold, "and complete")
	return buy
}
