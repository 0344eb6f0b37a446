package main

import (
	"io"
	"testing"

	"github.com/tokenrisk/tokenrisk/internal/config"
)

// TestPremiumGuardFlagReachesTheEngine: --premium-guard=false (or
// TOKENRISK_PREMIUM_GUARD=false) turns the admission guard off in the
// engine's options, and --premium-tolerance sets the latency it holds
// premium to; by default the guard is on at 1.3.
func TestPremiumGuardFlagReachesTheEngine(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want float64
	}{
		{"default: on at 1.3", nil, nil, 1.3},
		{"flag off", []string{"--premium-guard=false"}, nil, -1},
		{"environment off", nil, map[string]string{"TOKENRISK_PREMIUM_GUARD": "false"}, -1},
		{"tolerance", []string{"--premium-tolerance=1.6"}, nil, 1.6},
		{"off whatever the tolerance", []string{"--premium-guard=false", "--premium-tolerance=2"}, nil, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.Load(config.CmdServe, c.args, func(k string) string { return c.env[k] }, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if got := premiumTolerance(cfg); got != c.want {
				t.Errorf("engine PremiumTolerance %v, want %v", got, c.want)
			}
		})
	}
	if _, err := config.Load(config.CmdServe, []string{"--premium-tolerance=1"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Error("--premium-tolerance=1 accepted, want an error (the guard would bind on every premium scan)")
	}
}
