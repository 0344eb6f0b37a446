// Package config is tokenrisk's one configuration struct, loaded from
// command-line flags and TOKENRISK_* variables (a flag wins over its
// variable) and validated before anything starts.
package config

import (
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	goredis "github.com/redis/go-redis/v9"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/poolindex"
)

// Config is everything an operator can set. Each field has one flag and one
// TOKENRISK_* variable (see Options).
type Config struct {
	// Command is the sub-command being run ("serve", "keys create", …).
	Command string
	// Args are the positional arguments left after the flags.
	Args []string

	Addr string
	DB   string
	// HistoryJournal is the history journal's directory (SQLite store):
	// "" is the database file's path plus ".journal", "none" writes
	// history straight to the database.
	HistoryJournal string
	Postgres       string
	Redis          string
	// LimitsFailOpen lists the plans whose per-minute limits are not
	// checked while Redis is down; the others fall back to in-process
	// limits.
	LimitsFailOpen string
	ChainsFile     string
	PlansFile      string
	Devnet         bool
	DevnetManifest string
	// DevnetRPC is an already running devnet node (TOKENRISK_RPC_DEVNET);
	// with it, serve --devnet starts no chain of its own.
	DevnetRPC string
	// DevnetRPCAddr is where `tokenrisk devnet` listens for JSON-RPC.
	DevnetRPCAddr string

	CacheTTL       time.Duration
	KeyCacheTTL    time.Duration
	ScanTimeout    time.Duration
	MaxScans       int
	MinScans       int
	PremiumReserve float64
	ScanTolerance  float64
	QueueLimit     int
	// PremiumGuard holds free and pro scans back while premium scans run
	// over PremiumTolerance times their own no-load latency (see
	// docs/priority.md); off, only the reserve and the adaptive limit
	// stand for premium.
	PremiumGuard     bool
	PremiumTolerance float64
	ShutdownTimeout  time.Duration
	// WatchInterval is the watcher's tick; WatchRescan how often every
	// watched token is re-scanned even when its logs are quiet.
	WatchInterval time.Duration
	WatchRescan   time.Duration
	// WebhookAllowHTTP accepts http:// webhook endpoints; WebhookAllowPrivate
	// accepts endpoints on loopback, private and other internal addresses
	// and any port (local development).
	WebhookAllowHTTP    bool
	WebhookAllowPrivate bool
	// WebhookSecretKey (base64 of 32 bytes) encrypts webhook signing
	// secrets in the store; "" stores them unencrypted.
	WebhookSecretKey string

	LogLevel  string
	LogFormat string

	EtherscanAPIKey string
	EtherscanURL    string
	SourcifyURL     string
	// SolanaPoolIndex is an operator's pool index URL (mint → pool
	// accounts) that replaces Solana pool discovery; "" disables it.
	SolanaPoolIndex string

	// KeyPlan and KeyName are the plan and name of `keys create`.
	KeyPlan string
	KeyName string
	// JSON makes `scan` print the report as JSON.
	JSON bool
	// WebRate is the page scans one IP may run per minute without a key;
	// -1 means the free plan's rate, 0 turns page scans off.
	WebRate int
	// WebTrustedProxies lists the proxies (CIDRs or addresses, comma
	// separated) whose X-Forwarded-For the web page's per-IP limit believes.
	WebTrustedProxies string
	// PublicURL is the server's public base URL (scheme and host, no path)
	// used for every absolute link the pages give out; "" gives relative
	// links only (never one built from the request's Host header).
	PublicURL string
	// Server and Key make `scan` ask a running server instead of the chain.
	Server string
	Key    string
}

// Option describes one setting: its flag, its variable, the commands that
// take it and its default, for the parser and for docs/configuration.md's table.
type Option struct {
	Flag string
	Env  string
	// EnvAlias, if set, is read when Env is empty (another accepted name).
	EnvAlias string
	Default  string
	Usage    string
	Commands []string
	bind     func(fs *flag.FlagSet, c *Config, o Option)
}

// The commands of the binary.
const (
	CmdServe      = "serve"
	CmdKeysCreate = "keys create"
	CmdKeysList   = "keys list"
	CmdKeysRevoke = "keys revoke"
	CmdDevnet     = "devnet"
	CmdScan       = "scan"
	CmdMigrate    = "migrate"
)

var storeCommands = []string{CmdServe, CmdKeysCreate, CmdKeysList, CmdKeysRevoke, CmdMigrate}

func str(field func(*Config) *string) func(*flag.FlagSet, *Config, Option) {
	return func(fs *flag.FlagSet, c *Config, o Option) { fs.StringVar(field(c), o.Flag, o.Default, o.Usage) }
}

func dur(field func(*Config) *time.Duration) func(*flag.FlagSet, *Config, Option) {
	return func(fs *flag.FlagSet, c *Config, o Option) {
		d, err := time.ParseDuration(o.Default)
		if err != nil {
			panic(fmt.Sprintf("config: bad default for --%s: %v", o.Flag, err))
		}
		fs.DurationVar(field(c), o.Flag, d, o.Usage)
	}
}

func integer(field func(*Config) *int, def int) func(*flag.FlagSet, *Config, Option) {
	return func(fs *flag.FlagSet, c *Config, o Option) { fs.IntVar(field(c), o.Flag, def, o.Usage) }
}

func float(field func(*Config) *float64, def float64) func(*flag.FlagSet, *Config, Option) {
	return func(fs *flag.FlagSet, c *Config, o Option) { fs.Float64Var(field(c), o.Flag, def, o.Usage) }
}

func boolean(field func(*Config) *bool) func(*flag.FlagSet, *Config, Option) {
	return func(fs *flag.FlagSet, c *Config, o Option) {
		fs.BoolVar(field(c), o.Flag, o.Default == "true", o.Usage)
	}
}

// options is the read-only table of every setting.
var options = []Option{
	{Flag: "addr", Env: "TOKENRISK_ADDR", Default: "127.0.0.1:8080", Usage: "HTTP listen address", Commands: []string{CmdServe},
		bind: str(func(c *Config) *string { return &c.Addr })},
	{Flag: "db", Env: "TOKENRISK_DB", Default: "tokenrisk.db", Usage: "SQLite database file (the embedded default)", Commands: storeCommands,
		bind: str(func(c *Config) *string { return &c.DB })},
	{Flag: "history-journal", Env: "TOKENRISK_HISTORY_JOURNAL", Usage: "directory of the history journal (SQLite store; unset: the database file's path + .journal): a scan's row is appended there before it is answered and moved into the database in large transactions; none writes each row to the database before answering", Commands: []string{CmdServe},
		bind: str(func(c *Config) *string { return &c.HistoryJournal })},
	{Flag: "postgres", Env: "TOKENRISK_POSTGRES", EnvAlias: "TOKENRISK_POSTGRES_URL", Usage: "PostgreSQL DSN; replaces --db (TOKENRISK_POSTGRES_URL is read too)", Commands: storeCommands,
		bind: str(func(c *Config) *string { return &c.Postgres })},
	{Flag: "redis", Env: "TOKENRISK_REDIS", EnvAlias: "TOKENRISK_REDIS_URL", Usage: "Redis URL for the shared cache, rate limits and in-flight dedupe (TOKENRISK_REDIS_URL is read too)", Commands: []string{CmdServe},
		bind: str(func(c *Config) *string { return &c.Redis })},
	{Flag: "limits-fail-open", Env: "TOKENRISK_LIMITS_FAIL_OPEN", Default: "premium", Usage: "comma-separated plans whose per-minute limits fail open (unchecked) while Redis is down; the other plans fail closed to in-process limits", Commands: []string{CmdServe},
		bind: str(func(c *Config) *string { return &c.LimitsFailOpen })},
	{Flag: "chains", Env: "TOKENRISK_CHAINS", Usage: "chains file replacing the shipped one (same format)", Commands: []string{CmdServe, CmdScan},
		bind: str(func(c *Config) *string { return &c.ChainsFile })},
	{Flag: "plans", Env: "TOKENRISK_PLANS", Usage: "plans file (JSON) replacing the default plans", Commands: []string{CmdServe, CmdKeysCreate, CmdKeysList},
		bind: str(func(c *Config) *string { return &c.PlansFile })},
	{Flag: "devnet", Env: "TOKENRISK_DEVNET", Default: "false", Usage: "run the in-process EVM dev chain as chain \"devnet\" (other chains only where TOKENRISK_RPC_<CHAIN> is set)", Commands: []string{CmdServe, CmdScan},
		bind: boolean(func(c *Config) *bool { return &c.Devnet })},
	{Flag: "devnet-manifest", Env: "TOKENRISK_DEVNET_MANIFEST", Usage: "devnet manifest (JSON): written here when the devnet starts in process, read from here with TOKENRISK_RPC_DEVNET", Commands: []string{CmdServe, CmdScan},
		bind: str(func(c *Config) *string { return &c.DevnetManifest })},
	{Flag: "manifest", Env: "TOKENRISK_DEVNET_MANIFEST", Usage: "write the devnet manifest (JSON) to this file", Commands: []string{CmdDevnet},
		bind: str(func(c *Config) *string { return &c.DevnetManifest })},
	{Flag: "rpc-addr", Env: "TOKENRISK_DEVNET_RPC_ADDR", Default: "127.0.0.1:8545", Usage: "JSON-RPC listen address of the standalone devnet", Commands: []string{CmdDevnet},
		bind: str(func(c *Config) *string { return &c.DevnetRPCAddr })},
	{Flag: "devnet-rpc", Env: "TOKENRISK_RPC_DEVNET", Usage: "use this running devnet node (comma-separated URLs, tried in order) instead of starting one", Commands: []string{CmdServe, CmdScan},
		bind: str(func(c *Config) *string { return &c.DevnetRPC })},
	{Flag: "cache-ttl", Env: "TOKENRISK_CACHE_TTL", Default: "30s", Usage: "how long a scan result is served from cache (0 disables)", Commands: []string{CmdServe},
		bind: dur(func(c *Config) *time.Duration { return &c.CacheTTL })},
	{Flag: "key-cache-ttl", Env: "TOKENRISK_KEY_CACHE_TTL", Default: "10s", Usage: "how long a key lookup is trusted before asking the store again: a revocation made elsewhere applies within it (0 disables)", Commands: []string{CmdServe},
		bind: dur(func(c *Config) *time.Duration { return &c.KeyCacheTTL })},
	{Flag: "scan-timeout", Env: "TOKENRISK_SCAN_TIMEOUT", Default: "20s", Usage: "deadline of one scan's upstream work", Commands: []string{CmdServe, CmdScan},
		bind: dur(func(c *Config) *time.Duration { return &c.ScanTimeout })},
	{Flag: "max-scans", Env: "TOKENRISK_MAX_SCANS", Default: "32", Usage: "most uncached (upstream-heavy) scans run at once: the adaptive limit's ceiling", Commands: []string{CmdServe},
		bind: integer(func(c *Config) *int { return &c.MaxScans }, 32)},
	{Flag: "min-scans", Env: "TOKENRISK_MIN_SCANS", Default: "4", Usage: "fewest uncached scans the adaptive limit allows at once (equal to --max-scans: a fixed limit)", Commands: []string{CmdServe},
		bind: integer(func(c *Config) *int { return &c.MinScans }, 4)},
	{Flag: "premium-reserve", Env: "TOKENRISK_PREMIUM_RESERVE", Default: "0.25", Usage: "share of the limit on uncached scans that only high-priority (premium) scans may use, 0 to 0.9", Commands: []string{CmdServe},
		bind: float(func(c *Config) *float64 { return &c.PremiumReserve }, 0.25)},
	{Flag: "scan-latency-tolerance", Env: "TOKENRISK_SCAN_LATENCY_TOLERANCE", Default: "1.25", Usage: "how much slower than at no load uncached scans may run before the adaptive limit shrinks (above 1)", Commands: []string{CmdServe},
		bind: float(func(c *Config) *float64 { return &c.ScanTolerance }, 1.25)},
	{Flag: "premium-guard", Env: "TOKENRISK_PREMIUM_GUARD", Default: "true", Usage: "hold free and pro scans back, and shed free ones with 503, while premium scans run slower than --premium-tolerance times their own no-load latency (docs/priority.md)", Commands: []string{CmdServe},
		bind: boolean(func(c *Config) *bool { return &c.PremiumGuard })},
	{Flag: "premium-tolerance", Env: "TOKENRISK_PREMIUM_TOLERANCE", Default: "1.3", Usage: "how much slower than their own no-load latency premium scans may run beside free and pro ones before the premium guard binds (above 1)", Commands: []string{CmdServe},
		bind: float(func(c *Config) *float64 { return &c.PremiumTolerance }, 1.3)},
	{Flag: "queue-limit", Env: "TOKENRISK_QUEUE_LIMIT", Default: "64", Usage: "scans of each non-premium queue priority (low: free, normal: pro) that may wait for admission before 503 overloaded", Commands: []string{CmdServe},
		bind: integer(func(c *Config) *int { return &c.QueueLimit }, 64)},
	{Flag: "shutdown-timeout", Env: "TOKENRISK_SHUTDOWN_TIMEOUT", Default: "30s", Usage: "how long shutdown waits for in-flight requests", Commands: []string{CmdServe},
		bind: dur(func(c *Config) *time.Duration { return &c.ShutdownTimeout })},
	{Flag: "watch-interval", Env: "TOKENRISK_WATCH_INTERVAL", Default: "15s", Usage: "how often watched tokens' logs are read (one query per chain) and moved tokens re-scanned", Commands: []string{CmdServe},
		bind: dur(func(c *Config) *time.Duration { return &c.WatchInterval })},
	{Flag: "watch-rescan-interval", Env: "TOKENRISK_WATCH_RESCAN_INTERVAL", Default: "10m", Usage: "how often every watched token is re-scanned even when its logs are quiet (fee setters announce nothing)", Commands: []string{CmdServe},
		bind: dur(func(c *Config) *time.Duration { return &c.WatchRescan })},
	{Flag: "webhook-allow-http", Env: "TOKENRISK_WEBHOOK_ALLOW_HTTP", Default: "false", Usage: "accept http:// webhook endpoints (default: https only)", Commands: []string{CmdServe},
		bind: boolean(func(c *Config) *bool { return &c.WebhookAllowHTTP })},
	{Flag: "webhook-allow-private", Env: "TOKENRISK_WEBHOOK_ALLOW_PRIVATE", Default: "false", Usage: "accept webhook endpoints on loopback, private, link-local and metadata addresses and on any port (local development and tests only)", Commands: []string{CmdServe},
		bind: boolean(func(c *Config) *bool { return &c.WebhookAllowPrivate })},
	{Flag: "webhook-secret-key", Env: "TOKENRISK_WEBHOOK_SECRET_KEY", Usage: "base64 of 32 random bytes: encrypts webhook signing secrets in the store (AES-256-GCM); unset stores them unencrypted", Commands: []string{CmdServe},
		bind: str(func(c *Config) *string { return &c.WebhookSecretKey })},
	{Flag: "log-level", Env: "TOKENRISK_LOG_LEVEL", Default: "info", Usage: "debug, info, warn or error", Commands: []string{CmdServe, CmdDevnet, CmdScan},
		bind: str(func(c *Config) *string { return &c.LogLevel })},
	{Flag: "log-format", Env: "TOKENRISK_LOG_FORMAT", Default: "json", Usage: "json or text", Commands: []string{CmdServe, CmdDevnet, CmdScan},
		bind: str(func(c *Config) *string { return &c.LogFormat })},
	{Flag: "etherscan-api-key", Env: "TOKENRISK_ETHERSCAN_API_KEY", Usage: "Etherscan-family API key (source verification, creator history)", Commands: []string{CmdServe, CmdScan},
		bind: str(func(c *Config) *string { return &c.EtherscanAPIKey })},
	{Flag: "etherscan-url", Env: "TOKENRISK_ETHERSCAN_URL", Usage: "Etherscan-family API base URL (unset: the default endpoint; set empty or \"none\": disabled)", Commands: []string{CmdServe, CmdScan},
		bind: str(func(c *Config) *string { return &c.EtherscanURL })},
	{Flag: "sourcify-url", Env: "TOKENRISK_SOURCIFY_URL", Usage: "Sourcify server URL (unset: the default endpoint; set empty or \"none\": disabled)", Commands: []string{CmdServe, CmdScan},
		bind: str(func(c *Config) *string { return &c.SourcifyURL })},
	{Flag: "solana-pool-index", Env: "TOKENRISK_SOLANA_POOL_INDEX", Usage: "URL of your own Solana pool index (GET ?mint=MINT answers {\"mint\", \"pools\": [addresses]}); it replaces searching every DEX with getProgramAccounts, every pool it names is still read and verified on-chain, and its failure leaves pools unchecked", Commands: []string{CmdServe, CmdScan},
		bind: str(func(c *Config) *string { return &c.SolanaPoolIndex })},
	{Flag: "plan", Env: "TOKENRISK_KEY_PLAN", Usage: "plan of the new key: free, pro or premium", Commands: []string{CmdKeysCreate},
		bind: str(func(c *Config) *string { return &c.KeyPlan })},
	{Flag: "name", Env: "TOKENRISK_KEY_NAME", Usage: "a name for the new key", Commands: []string{CmdKeysCreate},
		bind: str(func(c *Config) *string { return &c.KeyName })},
	{Flag: "web-rate", Env: "TOKENRISK_WEB_RATE", Default: "the free plan's rate", Usage: "scans per minute one IP may run from the web page without a key (0 turns page scans off; stored verdicts are still shown)", Commands: []string{CmdServe},
		bind: integer(func(c *Config) *int { return &c.WebRate }, -1)},
	{Flag: "web-trusted-proxies", Env: "TOKENRISK_WEB_TRUSTED_PROXIES", Usage: "load balancers or proxies in front of the server (CIDRs or addresses, comma separated): for a connection from one of them, the web page's per-IP limit counts the client named in X-Forwarded-For (the rightmost address that is not a trusted proxy); empty: every visitor is the connection's address", Commands: []string{CmdServe},
		bind: str(func(c *Config) *string { return &c.WebTrustedProxies })},
	{Flag: "public-url", Env: "TOKENRISK_PUBLIC_URL", Usage: "the server's public base URL (e.g. https://tokenrisk.example): every absolute link the pages give out (badge embed snippets) starts with it; unset: relative links only (a request's Host header never makes a link)", Commands: []string{CmdServe},
		bind: str(func(c *Config) *string { return &c.PublicURL })},
	{Flag: "server", Env: "TOKENRISK_SERVER", Usage: "scan through this tokenrisk server (its base URL) instead of reading the chain here", Commands: []string{CmdScan},
		bind: str(func(c *Config) *string { return &c.Server })},
	{Flag: "key", Env: "TOKENRISK_KEY", Usage: "API key for --server (prefer the variable: a flag shows in the process list)", Commands: []string{CmdScan},
		bind: str(func(c *Config) *string { return &c.Key })},
	{Flag: "json", Env: "TOKENRISK_JSON", Default: "false", Usage: "print the report as JSON", Commands: []string{CmdScan},
		bind: boolean(func(c *Config) *bool { return &c.JSON })},
}

// Options returns the table of settings (for documentation).
func Options() []Option { return slices.Clone(options) }

// Load parses args (the flags and positional arguments after the command
// name) for command, with TOKENRISK_* variables from getenv as defaults,
// and validates the result. Flags may come before or after positional
// arguments. Usage errors are printed to usage.
func Load(command string, args []string, getenv func(string) string, usage io.Writer) (*Config, error) {
	c := &Config{Command: command}
	fs := flag.NewFlagSet("tokenrisk "+command, flag.ContinueOnError)
	fs.SetOutput(usage)
	var mine []Option
	for _, o := range options {
		if slices.Contains(o.Commands, command) {
			o.bind(fs, c, o)
			mine = append(mine, o)
		}
	}
	explicit := map[string]bool{}
	for _, o := range mine {
		v := getenv(o.Env)
		if v == "" && o.EnvAlias != "" {
			v = getenv(o.EnvAlias)
		}
		if v == "" {
			continue
		}
		if err := fs.Set(o.Flag, v); err != nil {
			return nil, fmt.Errorf("config: %s: %w", o.Env, err)
		}
		explicit[o.Flag] = true
	}
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		c.Args = append(c.Args, rest[0])
		rest = rest[1:]
	}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if explicit["db"] && explicit["postgres"] {
		return nil, errors.New("config: --db and --postgres are exclusive: pick one store")
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) validate() error {
	var errs []error
	switch c.Command {
	case CmdServe:
		if c.Addr == "" {
			errs = append(errs, errors.New("--addr must not be empty"))
		}
		if c.CacheTTL < 0 {
			errs = append(errs, errors.New("--cache-ttl must not be negative"))
		}
		if c.KeyCacheTTL < 0 {
			errs = append(errs, errors.New("--key-cache-ttl must not be negative"))
		}
		if c.MaxScans < 1 {
			errs = append(errs, errors.New("--max-scans must be at least 1"))
		}
		if c.MinScans < 1 || c.MinScans > c.MaxScans {
			errs = append(errs, errors.New("--min-scans must be at least 1 and at most --max-scans"))
		}
		if !(c.PremiumReserve >= 0 && c.PremiumReserve <= 0.9) {
			errs = append(errs, errors.New("--premium-reserve must be between 0 and 0.9"))
		}
		if !(c.ScanTolerance > 1 && c.ScanTolerance <= 10) {
			errs = append(errs, errors.New("--scan-latency-tolerance must be above 1 and at most 10"))
		}
		if c.QueueLimit < 0 {
			errs = append(errs, errors.New("--queue-limit must not be negative"))
		}
		if !(c.PremiumTolerance > 1 && c.PremiumTolerance <= 10) {
			errs = append(errs, errors.New("--premium-tolerance must be above 1 and at most 10"))
		}
		if c.ShutdownTimeout <= 0 {
			errs = append(errs, errors.New("--shutdown-timeout must be positive"))
		}
		if c.WatchInterval <= 0 || c.WatchRescan <= 0 {
			errs = append(errs, errors.New("--watch-interval and --watch-rescan-interval must be positive"))
		}
		if c.PublicURL != "" {
			if err := checkPublicURL(c.PublicURL); err != nil {
				errs = append(errs, err)
			}
		}
		if c.DevnetManifest != "" && !c.Devnet {
			errs = append(errs, errors.New("--devnet-manifest needs --devnet"))
		}
		if c.WebhookSecretKey != "" {
			if _, err := c.WebhookSealKey(); err != nil {
				errs = append(errs, err)
			}
		}
		if c.WebRate < -1 {
			errs = append(errs, errors.New("--web-rate must not be negative"))
		}
		if _, err := c.TrustedProxies(); err != nil {
			errs = append(errs, err)
		}
		if c.Redis != "" {
			if _, err := goredis.ParseURL(c.Redis); err != nil {
				// The URL may hold a password: it is not repeated.
				errs = append(errs, errors.New("--redis (TOKENRISK_REDIS) is not a Redis URL: write redis://[user:password@]host:port/db, rediss://… or unix://…"))
			}
		}
		if c.Postgres != "" {
			errs = append(errs, checkPostgres(c.Postgres)...)
		}
	case CmdKeysCreate:
		if c.KeyPlan == "" {
			errs = append(errs, errors.New("--plan is required (free, pro or premium)"))
		}
		if len(c.Args) != 0 {
			errs = append(errs, fmt.Errorf("unexpected argument %q", c.Args[0]))
		}
	case CmdKeysRevoke:
		if len(c.Args) != 1 {
			errs = append(errs, errors.New("keys revoke takes exactly one KEY_ID"))
		}
	case CmdScan:
		if len(c.Args) != 1 {
			errs = append(errs, errors.New("scan takes exactly one ADDRESS"))
		}
	case CmdKeysList, CmdMigrate, CmdDevnet:
		if len(c.Args) != 0 {
			errs = append(errs, fmt.Errorf("unexpected argument %q", c.Args[0]))
		}
	default:
		errs = append(errs, fmt.Errorf("unknown command %q", c.Command))
	}
	if slices.Contains([]string{CmdServe, CmdScan}, c.Command) && c.SolanaPoolIndex != "" {
		if _, err := poolindex.New(c.SolanaPoolIndex, nil); err != nil {
			errs = append(errs, fmt.Errorf("--solana-pool-index (TOKENRISK_SOLANA_POOL_INDEX): %w", err))
		}
	}
	if slices.Contains([]string{CmdServe, CmdScan}, c.Command) && c.ScanTimeout <= 0 {
		errs = append(errs, errors.New("--scan-timeout must be positive"))
	}
	if slices.Contains([]string{CmdServe, CmdScan}, c.Command) && c.DevnetRPC != "" {
		for i, u := range strings.Split(c.DevnetRPC, ",") {
			if u = strings.TrimSpace(u); u == "" {
				continue
			}
			if err := chains.CheckEndpoint(u); err != nil {
				errs = append(errs, fmt.Errorf("--devnet-rpc (TOKENRISK_RPC_DEVNET) URL %d: %w", i+1, err))
			}
		}
	}
	if slices.Contains([]string{CmdKeysCreate, CmdKeysList, CmdKeysRevoke, CmdMigrate}, c.Command) && c.Postgres != "" {
		errs = append(errs, checkPostgres(c.Postgres)...)
	}
	if slices.Contains([]string{CmdServe, CmdDevnet, CmdScan}, c.Command) {
		if _, err := c.Level(); err != nil {
			errs = append(errs, err)
		}
		if c.LogFormat != "json" && c.LogFormat != "text" {
			errs = append(errs, fmt.Errorf("--log-format must be json or text, got %q", c.LogFormat))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// checkPostgres validates a PostgreSQL DSN (URL or key=value form)
// without repeating it, since it may hold a password.
// TrustedProxies parses --web-trusted-proxies: CIDRs, or single addresses
// (a /32 or /128).
func (c *Config) TrustedProxies() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(c.WebTrustedProxies, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("--web-trusted-proxies: %q is neither a CIDR nor an IP address", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// checkPublicURL accepts an absolute http(s) URL with a host and nothing
// after it but an optional "/".
func checkPublicURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("--public-url %q must be a base URL such as https://tokenrisk.example", raw)
	}
	return nil
}

func checkPostgres(dsn string) []error {
	const want = "write postgres://user:password@host:port/db or host=… dbname=… user=…"
	if scheme, _, ok := strings.Cut(dsn, "://"); ok && scheme != "postgres" && scheme != "postgresql" {
		return []error{fmt.Errorf("--postgres (TOKENRISK_POSTGRES): scheme %q is not postgres: %s", scheme, want)}
	}
	if _, err := pgconn.ParseConfig(dsn); err != nil {
		return []error{fmt.Errorf("--postgres (TOKENRISK_POSTGRES) is not a PostgreSQL DSN: %s", want)}
	}
	return nil
}

// Level returns the configured log level.
func (c *Config) Level() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToLower(c.LogLevel))); err != nil {
		return 0, fmt.Errorf("--log-level must be debug, info, warn or error, got %q", c.LogLevel)
	}
	return l, nil
}

// Logger returns a slog logger writing to w in the configured format and
// level.
func (c *Config) Logger(w io.Writer) *slog.Logger {
	l, err := c.Level()
	if err != nil {
		l = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: l}
	if c.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// WebhookSealKey returns the decoded --webhook-secret-key (nil when unset).
func (c *Config) WebhookSealKey() ([]byte, error) {
	if c.WebhookSecretKey == "" {
		return nil, nil
	}
	key, err := base64.StdEncoding.DecodeString(c.WebhookSecretKey)
	if err != nil || len(key) != 32 {
		// The key is a secret: it is not repeated.
		return nil, errors.New("--webhook-secret-key (TOKENRISK_WEBHOOK_SECRET_KEY) must be the base64 of 32 bytes (e.g. openssl rand -base64 32)")
	}
	return key, nil
}
