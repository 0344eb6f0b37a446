package corpus_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/corpus"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// TestFieldLabels scans the real tokens of testdata/fields (issue 18:
// per GoPlus field, instances found in the corpus's unlabelled tokens and
// look-alikes without the power, each with the reason read from its
// bytecode and shown on the devnet) and checks the capability table: a
// true label must read true with its flag raised, unless it is a known
// miss (which must then stay missed: update the testdata when it is
// found); a false label must never read true, unless it is a known false
// positive (which must then stay one).
func TestFieldLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("devnet tests are not short")
	}
	labels, tokens, err := corpus.LoadFields("testdata/fields")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dn, err := devnet.Start(ctx, devnet.Options{CommitInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer dn.Close()
	results, err := corpus.Run(ctx, dn, tokens, corpus.Options{Workers: 2, Timeout: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	verdicts, scores, err := corpus.TallyFields(labels, results)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range verdicts {
		l := v.Label
		got := fmt.Sprintf("%s=%s flag %q raised %v (%s; err %v)", l.Field, fmtBool(v.Value), v.Flag, v.Raised, v.Detail, v.Err)
		wrongTrue := v.Value != nil && *v.Value
		switch {
		case !l.Value && wrongTrue && l.FalsePositive != "":
			t.Logf("%s (without the power): %s, a known false positive (%s)", l.Address, got, l.FalsePositive)
		case !l.Value && !wrongTrue && l.FalsePositive != "":
			t.Errorf("%s (without the power): reads right now (%s); remove its known_false_positive (%s)", l.Address, got, l.FalsePositive)
		case !l.Value && wrongTrue:
			t.Errorf("%s (without the power): %s; reason it has none: %s", l.Address, got, l.Reason)
		case l.Value && l.Miss == "" && !v.Detected():
			t.Errorf("%s: missed: %s; want true with its flag (%s)", l.Address, got, l.Reason)
		case l.Value && l.Miss != "" && v.Detected():
			t.Errorf("%s: detected now (%s); remove its known_miss (%s)", l.Address, got, l.Miss)
		default:
			t.Logf("%s: %s", l.Address, got)
		}
	}
	t.Log("\n" + corpus.FieldTable(scores))

	// The testdata covers what the corpus has: at least two instances of
	// each field it names true.
	for f, s := range scores {
		if s.Instances == 1 {
			t.Errorf("%s: one instance; the testdata promises two per field found", f)
		}
	}
}

func fmtBool(b *bool) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprint(*b)
}

// The loader refuses labels a table cannot be read against.
func TestLoadFieldsRefuses(t *testing.T) {
	labels, tokens, err := corpus.LoadFields("testdata/fields")
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) == 0 || len(tokens) == 0 || len(tokens) > len(labels) {
		t.Fatalf("%d labels, %d tokens", len(labels), len(tokens))
	}
	for _, l := range labels {
		if !slices.Contains(analysis.EVMCapabilityNames, l.Field) || !strings.Contains(l.Reason, "0x") && !strings.Contains(l.Reason, "(") {
			t.Errorf("%s %s: reason %q names no function", l.Address, l.Field, l.Reason)
		}
	}
}
