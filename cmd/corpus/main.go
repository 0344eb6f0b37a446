// Command corpus measures the EVM engine on real tokens' bytecode: it
// gives each token of the corpus a state on an in-process devnet (owner,
// balances, a pool), scans it as the service does and prints precision,
// recall and F1 per labelled behaviour, then the macro F1.
//
//	go run ./cmd/corpus [flags] ../shared/fixtures/evm-corpus
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/corpus"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/risk"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	dir      string
	only     string
	labelled bool
	backdoor bool
	limit    int
	minPower float64
	workers  int
	timeout  time.Duration
	misses   string
	minF1    float64
	verbose  bool
	sources  bool
	fields   bool
}

func parse(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.only, "only", "", "only tokens labelled (true or false) for this behaviour: mint, leak or limit")
	fs.BoolVar(&c.labelled, "labelled", false, "only labelled tokens (behaviour labels or backdoor powers)")
	fs.BoolVar(&c.backdoor, "backdoors", false, "only tokens with a backdoor power label (backdoors.json)")
	fs.Float64Var(&c.minPower, "min-power-recall", 0, "fail (exit 1) when a backdoor power's recall is below this")
	fs.IntVar(&c.limit, "limit", 0, "at most N tokens (after -only/-labelled), 0 for all")
	fs.IntVar(&c.workers, "workers", 2, "tokens scanned at once")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Second, "per-token scan deadline; a scan past it counts as a timeout")
	fs.StringVar(&c.misses, "misses", "", "write each false positive/negative (JSON lines, with the flags seen) to this file")
	fs.Float64Var(&c.minF1, "min-f1", 0, "fail (exit 1) when the macro F1 is below this")
	fs.BoolVar(&c.verbose, "v", false, "print one line per token")
	fs.BoolVar(&c.sources, "sources", false, "with -v: each capability flag with how it is known and from which probe or function")
	fs.BoolVar(&c.fields, "fields", false, "CORPUS_DIR holds fields.json (per-field capability labels, e.g. internal/corpus/testdata/fields): print detections and false positives per field")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() != 1 {
		return c, errors.New("usage: corpus [flags] CORPUS_DIR")
	}
	c.dir = fs.Arg(0)
	if c.only != "" && !slices.Contains(corpus.Behaviours, c.only) {
		return c, fmt.Errorf("-only %q: want one of %s", c.only, strings.Join(corpus.Behaviours, ", "))
	}
	if c.workers < 1 || c.limit < 0 || c.timeout <= 0 {
		return c, errors.New("-workers must be at least 1, -limit not negative, -timeout positive")
	}
	return c, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if err != nil {
		return err
	}
	if c.fields {
		return runFields(ctx, c, stdout)
	}
	tokens, err := corpus.Load(c.dir)
	if err != nil {
		return err
	}
	tokens = slices.DeleteFunc(tokens, func(t corpus.Token) bool {
		if c.only != "" {
			return t.Labels[c.only] == nil
		}
		if c.backdoor {
			return !t.Backdoor()
		}
		return c.labelled && !t.Labelled() && !t.Backdoor()
	})
	if c.limit > 0 && len(tokens) > c.limit {
		tokens = tokens[:c.limit]
	}
	started := time.Now()
	dn, err := devnet.Start(ctx, devnet.Options{CommitInterval: -1})
	if err != nil {
		return err
	}
	defer dn.Close()
	opts := corpus.Options{Workers: c.workers, Timeout: c.timeout}
	if c.verbose {
		opts.Progress = func(r corpus.Result) {
			var codes, notes []string
			for _, f := range r.Flags {
				switch {
				case f.Category == risk.Liquidity && (f.Severity == risk.High || f.Severity == risk.Critical):
					codes = append(codes, f.Code+" ("+f.Detail+")")
				case c.sources && f.Evidence != "":
					codes = append(codes, f.Code+" ["+f.Evidence+": "+f.Source+"]")
				default:
					codes = append(codes, f.Code)
				}
			}
			if r.Seeded != nil {
				notes = r.Seeded.AllNotes()
			}
			fmt.Fprintf(stderr, "%s %6.2fs %3d req %8d B err=%v flags=%v seeding=%q\n", r.Token.Address.Hex(), r.Took.Seconds(),
				r.Upstream.Requests, r.Upstream.Bytes, r.Err, codes, notes)
		}
	}
	results, err := corpus.Run(ctx, dn, tokens, opts)
	if err != nil {
		return err
	}
	scores, misses := corpus.Tally(results)
	powers, powerMisses := corpus.TallyPowers(results)
	misses = append(misses, powerMisses...)
	if c.misses != "" {
		if err := writeMisses(c.misses, misses); err != nil {
			return err
		}
	}
	macro := report(stdout, results, scores, c.only, time.Since(started))
	worst := reportPowers(stdout, powers)
	if c.minF1 > 0 && macro < c.minF1 {
		return fmt.Errorf("macro F1 %.3f is below -min-f1 %.3f", macro, c.minF1)
	}
	if c.minPower > 0 && worst < c.minPower {
		return fmt.Errorf("a backdoor power's recall %.3f is below -min-power-recall %.3f", worst, c.minPower)
	}
	return nil
}

// reportPowers prints the recall per backdoor power (backdoors.json:
// positives only, so recall alone) and returns the lowest (1 when no
// token carries a power).
func reportPowers(w io.Writer, powers map[string]*corpus.Score) float64 {
	worst, any := 1.0, false
	var parts []string
	for _, p := range corpus.Powers {
		s := powers[p]
		if s.TP+s.FN == 0 {
			continue
		}
		any = true
		worst = min(worst, s.Recall())
		parts = append(parts, fmt.Sprintf("%s %d/%d %.3f", p, s.TP, s.TP+s.FN, s.Recall()))
	}
	if any {
		fmt.Fprintf(w, "backdoors (recall per power, positives only): %s\n", strings.Join(parts, ", "))
	}
	return worst
}

func writeMisses(path string, misses []corpus.Miss) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("misses: %w", err)
	}
	enc := json.NewEncoder(f)
	for _, m := range misses {
		if err := enc.Encode(m); err != nil {
			f.Close()
			return fmt.Errorf("misses: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("misses: %w", err)
	}
	return nil
}

// report prints the figures and returns the macro F1 (over the behaviours
// measured).
func report(w io.Writer, results []corpus.Result, scores map[string]*corpus.Score, only string, took time.Duration) float64 {
	var labelled, backdoors, deployed, owner, guard, funded, pool, reports, panics, timeouts int
	var uPanics, uTimeouts, uCount int
	errs := map[string]int{}
	var times []time.Duration
	for _, r := range results {
		if r.Token.Labelled() {
			labelled++
		} else if r.Token.Backdoor() {
			backdoors++
		} else {
			uCount++
			if r.Panicked {
				uPanics++
			}
			if r.TimedOut {
				uTimeouts++
			}
		}
		if s := r.Seeded; s != nil {
			if s.Deployed {
				deployed++
			}
			if s.Owner != (common.Address{}) {
				owner++
			}
			if s.Layout != nil && s.Layout.Guard != nil {
				guard++
			}
			if s.Funded {
				funded++
			}
			if s.Pool {
				pool++
			}
		}
		switch {
		case r.Panicked:
			panics++
		case r.TimedOut:
			timeouts++
		case r.Err != nil:
			errs[errorKind(r.Err)]++
		default:
			reports++
		}
		if r.Took > 0 {
			times = append(times, r.Took)
		}
	}
	n := len(results)
	fmt.Fprintf(w, "corpus: %d tokens (%d labelled, %d with backdoor powers only, %d unlabelled) in %s\n", n, labelled, backdoors, uCount, took.Round(time.Second))
	fmt.Fprintf(w, "seeding: deployed %d, owner set %d (caller checks alone or beside a getter: %d), balances funded %d, pool with reserves %d\n", deployed, owner, guard, funded, pool)
	fmt.Fprintf(w, "scans: %d reports, %d panics, %d timeouts, %d errors%s\n", reports, panics, timeouts, n-reports-panics-timeouts, formatKinds(errs))
	if uCount > 0 {
		fmt.Fprintf(w, "unlabelled: %d analysed, %d panics, %d timeouts\n", uCount, uPanics, uTimeouts)
	}
	fmt.Fprintf(w, "flags over the reports:%s\n", formatKinds(flagCounts(results)))
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	fmt.Fprintf(w, "time per token: p50 %s, p90 %s, p99 %s, max %s\n", pctl(times, 50), pctl(times, 90), pctl(times, 99), pctl(times, 100))
	reportUpstream(w, results)
	// The headline figures are over the contracts that can be tokens: a
	// transfer function or a proxy in the code, or a report from the
	// engine. Labelled contracts with no transfer function that the engine
	// refuses (crowdsales, games, vaults upstream) are no ERC-20: the API
	// answers them 422 not_a_token, so they are scored apart, and the
	// figures over every labelled contract are printed beside.
	allMacro := table(io.Discard, scores, only)
	isToken := func(r corpus.Result) bool {
		return r.Token.CanTransfer() || (r.Err == nil && !r.Panicked && !r.TimedOut)
	}
	tokens := slices.DeleteFunc(slices.Clone(results), func(r corpus.Result) bool { return !isToken(r) })
	tokenScores, _ := corpus.Tally(tokens)
	apart, _ := corpus.Tally(slices.DeleteFunc(slices.Clone(results), isToken))
	refused := 0
	for _, r := range tokens {
		if fault.CodeOf(r.Err) == fault.NotAToken {
			refused++
		}
	}
	fmt.Fprintf(w, "every labelled contract:")
	for _, b := range corpus.Behaviours {
		if only == "" || b == only {
			fmt.Fprintf(w, " %s F1 %.3f", b, scores[b].F1())
		}
	}
	fmt.Fprintf(w, ", macro F1 %.3f\n", allMacro)
	fmt.Fprintf(w, "no transfer function and refused as not_a_token (not tokens, scored apart): %d contracts carrying", len(results)-len(tokens))
	for _, b := range corpus.Behaviours {
		if only == "" || b == only {
			s := apart[b]
			fmt.Fprintf(w, " %s %d true/%d false", b, s.TP+s.FN, s.FP+s.TN)
		}
	}
	fmt.Fprintf(w, "\ntokens (a transfer function, a proxy or a report): %d contracts, %d of them refused as not_a_token (counted as misses)\n", len(tokens), refused)
	macro := table(w, tokenScores, only)
	fmt.Fprintf(w, "corpus: macro F1 %.3f\n", macro)
	return macro
}

// table prints one row per behaviour measured and returns their mean F1.
func table(w io.Writer, scores map[string]*corpus.Score, only string) float64 {
	fmt.Fprintf(w, "%-9s %5s %5s %5s %5s %10s %7s %6s\n", "behaviour", "tp", "fp", "fn", "tn", "precision", "recall", "f1")
	var sum float64
	var count int
	for _, b := range corpus.Behaviours {
		if only != "" && b != only {
			continue
		}
		s := scores[b]
		fmt.Fprintf(w, "%-9s %5d %5d %5d %5d %10.3f %7.3f %6.3f\n", b, s.TP, s.FP, s.FN, s.TN, s.Precision(), s.Recall(), s.F1())
		sum += s.F1()
		count++
	}
	if count == 0 {
		return 0
	}
	return sum / float64(count)
}

// errorKind names an error by its fault code, else by its first words.
func errorKind(err error) string {
	if code := fault.CodeOf(err); code != "" && code != fault.Internal {
		return string(code)
	}
	s := err.Error()
	if i := strings.IndexAny(s, ":("); i > 0 {
		s = s[:i]
	}
	return s
}

// flagCounts counts the tokens raising each capability or honeypot flag.
func flagCounts(results []corpus.Result) map[string]int {
	m := map[string]int{}
	for _, r := range results {
		for _, f := range r.Flags {
			if f.Category == risk.Contract || strings.HasPrefix(f.Code, "HONEYPOT_") || f.Code == risk.SimulationFailed || f.Code == risk.TaxExtreme {
				m[f.Code]++
			}
		}
	}
	return m
}

func formatKinds(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return " (" + strings.Join(parts, ", ") + ")"
}

func pctl(d []time.Duration, p int) string {
	if len(d) == 0 {
		return "-"
	}
	i := (len(d)*p + 99) / 100
	i = min(max(i, 1), len(d))
	return d[i-1].Round(10 * time.Millisecond).String()
}

// reportUpstream prints what the reports' scans asked of the node: HTTP
// requests and request bytes per scan (a provider counts both).
func reportUpstream(w io.Writer, results []corpus.Result) {
	var reqs, sizes []int64
	var total int64
	for _, r := range results {
		if r.Err != nil || r.Panicked || r.TimedOut {
			continue
		}
		reqs = append(reqs, r.Upstream.Requests)
		sizes = append(sizes, r.Upstream.Bytes)
		total += r.Upstream.Bytes
	}
	if len(reqs) == 0 {
		return
	}
	slices.Sort(reqs)
	slices.Sort(sizes)
	at := func(v []int64, p int) int64 { return v[min(max((len(v)*p+99)/100, 1), len(v))-1] }
	kb := func(n int64) string { return fmt.Sprintf("%.0f KB", float64(n)/1000) }
	fmt.Fprintf(w, "upstream per report: requests p50 %d, p99 %d, max %d; bytes sent p50 %s, p90 %s, p99 %s, max %s, total %.1f MB\n",
		at(reqs, 50), at(reqs, 99), at(reqs, 100), kb(at(sizes, 50)), kb(at(sizes, 90)), kb(at(sizes, 99)), kb(at(sizes, 100)), float64(total)/1e6)
}

// runFields scans the tokens of a fields.json and prints, per capability
// field, detections / instances and false positives / negatives, then
// each wrong verdict (known ones marked).
func runFields(ctx context.Context, c config, stdout io.Writer) error {
	labels, tokens, err := corpus.LoadFields(c.dir)
	if err != nil {
		return err
	}
	dn, err := devnet.Start(ctx, devnet.Options{CommitInterval: -1})
	if err != nil {
		return err
	}
	defer dn.Close()
	results, err := corpus.Run(ctx, dn, tokens, corpus.Options{Workers: c.workers, Timeout: c.timeout})
	if err != nil {
		return err
	}
	verdicts, scores, err := corpus.TallyFields(labels, results)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d labels on %d tokens\n\n%s\n", len(labels), len(tokens), corpus.FieldTable(scores))
	for _, v := range verdicts {
		l := v.Label
		wrongTrue := v.Value != nil && *v.Value
		if l.Value == v.Detected() && (l.Value || !wrongTrue) {
			continue
		}
		known := l.Miss + l.FalsePositive
		if known == "" {
			known = "NEW"
		}
		fmt.Fprintf(stdout, "%s %s label %v: read %s (err %v); known: %s\n", l.Address, l.Field, l.Value, fmtValue(v.Value), v.Err, known)
	}
	return nil
}

func fmtValue(b *bool) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprint(*b)
}
