package main

import (
	"bytes"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/auth"
)

func TestFailOpenPlans(t *testing.T) {
	for _, tc := range []struct {
		list string
		want []string
		warn bool
	}{
		{"premium", []string{"premium"}, false},
		{" pro , premium,pro,", []string{"pro", "premium"}, false},
		{"", nil, false},
		{"premium,gold", []string{"premium"}, true},
	} {
		t.Run(tc.list, func(t *testing.T) {
			var logs bytes.Buffer
			got := failOpenPlans(tc.list, auth.DefaultPlans(), slog.New(slog.NewTextHandler(&logs, nil)))
			if !slices.Equal(got, tc.want) || strings.Contains(logs.String(), "not configured") != tc.warn {
				t.Errorf("failOpenPlans(%q) = %q, log %q; want %q, warning %v", tc.list, got, logs.String(), tc.want, tc.warn)
			}
		})
	}
}

func TestThrottledLogsOncePerPeriod(t *testing.T) {
	var logs bytes.Buffer
	warn := throttled(slog.New(slog.NewTextHandler(&logs, nil)), "redis failing")
	for range 100 {
		warn(errors.New("dial tcp 127.0.0.1:6379: connection refused"))
	}
	if n := strings.Count(logs.String(), "redis failing"); n != 1 {
		t.Errorf("100 errors within %v logged %d times, want once:\n%s", logEvery, n, logs.String())
	}
}
