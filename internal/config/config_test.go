package config_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/config"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadPrecedence(t *testing.T) {
	tests := []struct {
		name  string
		cmd   string
		args  []string
		env   map[string]string
		check func(t *testing.T, c *config.Config)
	}{
		{"defaults", config.CmdServe, nil, nil, func(t *testing.T, c *config.Config) {
			if c.Addr != "127.0.0.1:8080" || c.DB != "tokenrisk.db" || c.CacheTTL != 30*time.Second || c.MaxScans != 32 {
				t.Errorf("defaults: %+v", c)
			}
		}},
		{"variable sets", config.CmdServe, nil, map[string]string{"TOKENRISK_ADDR": ":9000", "TOKENRISK_CACHE_TTL": "5s", "TOKENRISK_DEVNET": "true"},
			func(t *testing.T, c *config.Config) {
				if c.Addr != ":9000" || c.CacheTTL != 5*time.Second || !c.Devnet {
					t.Errorf("env not applied: %+v", c)
				}
			}},
		{"URL aliases", config.CmdServe, nil, map[string]string{"TOKENRISK_POSTGRES_URL": "postgres://db/x", "TOKENRISK_REDIS_URL": "redis://r:6379/0"},
			func(t *testing.T, c *config.Config) {
				if c.Postgres != "postgres://db/x" || c.Redis != "redis://r:6379/0" {
					t.Errorf("TOKENRISK_*_URL not read: %+v", c)
				}
			}},
		{"the main name wins over its alias", config.CmdServe, nil, map[string]string{"TOKENRISK_REDIS": "redis://a:6379/0", "TOKENRISK_REDIS_URL": "redis://b:6379/0"},
			func(t *testing.T, c *config.Config) {
				if c.Redis != "redis://a:6379/0" {
					t.Errorf("Redis = %q, want TOKENRISK_REDIS's", c.Redis)
				}
			}},
		{"flag wins", config.CmdServe, []string{"--addr", "127.0.0.1:0", "--cache-ttl=1m"}, map[string]string{"TOKENRISK_ADDR": ":9000", "TOKENRISK_CACHE_TTL": "5s"},
			func(t *testing.T, c *config.Config) {
				if c.Addr != "127.0.0.1:0" || c.CacheTTL != time.Minute {
					t.Errorf("flag did not win: %+v", c)
				}
			}},
		{"devnet rpc variable", config.CmdServe, []string{"--devnet"}, map[string]string{"TOKENRISK_RPC_DEVNET": "http://127.0.0.1:8545"},
			func(t *testing.T, c *config.Config) {
				if c.DevnetRPC != "http://127.0.0.1:8545" {
					t.Errorf("DevnetRPC = %q", c.DevnetRPC)
				}
			}},
		{"flags after positional", config.CmdScan, []string{"0xabc", "--json"}, nil, func(t *testing.T, c *config.Config) {
			if !c.JSON || len(c.Args) != 1 || c.Args[0] != "0xabc" {
				t.Errorf("scan args: %+v", c)
			}
		}},
		{"keys create", config.CmdKeysCreate, []string{"--plan", "pro", "--name", "bot"}, nil, func(t *testing.T, c *config.Config) {
			if c.KeyPlan != "pro" || c.KeyName != "bot" {
				t.Errorf("keys create: %+v", c)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Load(tt.cmd, tt.args, env(tt.env), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestLoadRejects(t *testing.T) {
	tests := []struct {
		name string
		cmd  string
		args []string
		env  map[string]string
		want string
	}{
		{"bad duration variable", config.CmdServe, nil, map[string]string{"TOKENRISK_CACHE_TTL": "soon"}, "TOKENRISK_CACHE_TTL"},
		{"bad int flag", config.CmdServe, []string{"--max-scans", "x"}, nil, "max-scans"},
		{"zero max scans", config.CmdServe, []string{"--max-scans", "0"}, nil, "--max-scans"},
		{"min scans above max", config.CmdServe, []string{"--max-scans", "4", "--min-scans", "5"}, nil, "--min-scans"},
		{"reserve of everything", config.CmdServe, []string{"--premium-reserve", "1"}, nil, "--premium-reserve"},
		{"bad reserve variable", config.CmdServe, nil, map[string]string{"TOKENRISK_PREMIUM_RESERVE": "a quarter"}, "TOKENRISK_PREMIUM_RESERVE"},
		{"tolerance of 1", config.CmdServe, []string{"--scan-latency-tolerance", "1"}, nil, "--scan-latency-tolerance"},
		{"db and postgres", config.CmdServe, []string{"--db", "a.db", "--postgres", "postgres://x"}, nil, "exclusive"},
		{"manifest without devnet", config.CmdServe, []string{"--devnet-manifest", "m.json"}, nil, "--devnet"},
		{"bad trusted proxy", config.CmdServe, []string{"--web-trusted-proxies", "10.0.0.0/8, lb.internal"}, nil, "--web-trusted-proxies: \"lb.internal\""},
		{"bad log level", config.CmdServe, []string{"--log-level", "loud"}, nil, "--log-level"},
		{"bad log format", config.CmdServe, []string{"--log-format", "xml"}, nil, "--log-format"},
		{"keys create without plan", config.CmdKeysCreate, nil, nil, "--plan"},
		{"revoke without id", config.CmdKeysRevoke, nil, nil, "KEY_ID"},
		{"scan without address", config.CmdScan, nil, nil, "ADDRESS"},
		{"flag of another command", config.CmdKeysList, []string{"--addr", ":1"}, nil, "addr"},
		{"stray argument", config.CmdMigrate, []string{"now"}, nil, "unexpected"},
		{"ftp devnet RPC", config.CmdServe, []string{"--devnet"}, map[string]string{"TOKENRISK_RPC_DEVNET": "ftp://node.example/SECRETKEY"}, "--devnet-rpc (TOKENRISK_RPC_DEVNET) URL 1: scheme \"ftp\""},
		{"unparsable devnet RPC", config.CmdScan, []string{"0xabc", "--devnet"}, map[string]string{"TOKENRISK_RPC_DEVNET": "http://[::1"}, "--devnet-rpc"},
		{"devnet RPC without host", config.CmdServe, []string{"--devnet"}, map[string]string{"TOKENRISK_RPC_DEVNET": "http:///x"}, "no host"},
		{"bad redis URL", config.CmdServe, nil, map[string]string{"TOKENRISK_REDIS": "http://:SECRETKEY@cache:6379"}, "--redis"},
		{"bad postgres scheme", config.CmdServe, nil, map[string]string{"TOKENRISK_POSTGRES": "mysql://u:SECRETKEY@db/x"}, "--postgres"},
		{"short webhook secret key", config.CmdServe, nil, map[string]string{"TOKENRISK_WEBHOOK_SECRET_KEY": "U0VDUkVUS0VZ"}, "--webhook-secret-key"},
		{"webhook secret key not base64", config.CmdServe, []string{"--webhook-secret-key", "SECRETKEY!"}, nil, "32 bytes"},
		{"public URL with a path", config.CmdServe, []string{"--public-url", "https://tokenrisk.example/app"}, nil, "--public-url"},
		{"public URL without scheme", config.CmdServe, nil, map[string]string{"TOKENRISK_PUBLIC_URL": "tokenrisk.example"}, "--public-url"},
		{"unparsable postgres URL", config.CmdKeysList, nil, map[string]string{"TOKENRISK_POSTGRES": "postgres://u:SECRETKEY@db:port/x"}, "--postgres"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Load(tt.cmd, tt.args, env(tt.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "SECRETKEY") {
				t.Errorf("err %q repeats a secret of the URL", err)
			}
		})
	}
}

func TestEveryOptionHasAVariable(t *testing.T) {
	seen := map[string]string{}
	for _, o := range config.Options() {
		if !strings.HasPrefix(o.Env, "TOKENRISK_") || o.Flag == "" || o.Usage == "" || len(o.Commands) == 0 {
			t.Errorf("option %+v incomplete", o)
		}
		if prev, dup := seen[o.Flag]; dup && prev != o.Env {
			t.Errorf("flag --%s reads both %s and %s", o.Flag, prev, o.Env)
		}
		seen[o.Flag] = o.Env
	}
}
