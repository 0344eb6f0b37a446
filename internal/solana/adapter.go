package solana

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/analysis"
	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/fault"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// Options configure an Adapter.
type Options struct {
	// HTTPClient sends RPC requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Deadline bounds one scan; zero leaves it to the caller's context.
	Deadline time.Duration
	// Upstream, when not nil, is called for every JSON-RPC call sent
	// (a metrics hook). It may be called from several goroutines.
	Upstream func(chain, method string)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxSignaturePages bounds getSignaturesForAddress pagination when
	// looking for a mint's first transaction; zero means 3 pages of 1000.
	MaxSignaturePages int
	// PoolIndex, when not nil, names a mint's pool accounts
	// (TOKENRISK_SOLANA_POOL_INDEX) instead of searching every DEX with
	// getProgramAccounts. Every pool it names is read and verified
	// on-chain; when it fails, the pools are unchecked, never absent.
	PoolIndex PoolIndex
	// InsiderBudget bounds the insider check after round trip 3; zero
	// means DefaultInsiderBudget.
	InsiderBudget time.Duration
}

// PoolIndex names the pool accounts of a mint (an operator's index, see
// package poolindex).
type PoolIndex interface {
	Pools(ctx context.Context, mint string) ([]string, error)
}

// Adapter assesses Solana mints. It implements scan.Adapter.
type Adapter struct {
	reg  *chains.Registry
	opts Options
}

var _ scan.Adapter = (*Adapter)(nil)

// NewAdapter returns an adapter for the registry's Solana chains.
func NewAdapter(reg *chains.Registry, opts Options) *Adapter {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxSignaturePages <= 0 {
		opts.MaxSignaturePages = 3
	}
	return &Adapter{reg: reg, opts: opts}
}

// Kind reports chains.Solana.
func (a *Adapter) Kind() chains.Kind { return chains.Solana }

// Assess collects the facts of the mint at req.Address and analyses them.
func (a *Adapter) Assess(ctx context.Context, req scan.Request) (*scan.Assessment, error) {
	chain, err := a.chainFor(req)
	if err != nil {
		return nil, err
	}
	mint, err := ParsePublicKey(req.Address.Canonical)
	if err != nil {
		return nil, fault.Wrap(err, fault.InvalidAddress, "not a Solana address")
	}
	cfg, err := newChainConfig(chain)
	if err != nil {
		return nil, fault.Wrap(err, fault.Internal, "solana chain configuration is invalid")
	}
	if a.opts.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.opts.Deadline)
		defer cancel()
	}
	col := &collector{
		client:   NewClient(chain.Key, chain.RPC, a.opts.HTTPClient, a.opts.Upstream),
		cfg:      cfg,
		mint:     mint,
		sigPages: a.opts.MaxSignaturePages,
		now:      a.opts.Now,
		index:    a.opts.PoolIndex,

		insiderBudget: a.opts.InsiderBudget,
	}
	facts, err := col.collect(ctx)
	if err != nil {
		return nil, err
	}
	return analysis.AssessSolana(facts, chain.Key, a.opts.Now()), nil
}

// chainFor picks the enabled Solana chain the plan allows.
func (a *Adapter) chainFor(req scan.Request) (chains.Chain, error) {
	enabled := a.reg.Enabled(chains.Solana)
	if len(enabled) == 0 {
		return chains.Chain{}, fault.Wrap(fault.NotServed, fault.Unavailable, "Solana is not enabled on this server")
	}
	for _, c := range enabled {
		if slices.Contains(req.Chains, c.Key) {
			return c, nil
		}
	}
	return chains.Chain{}, fault.Errorf(fault.PlanForbidden, "your plan does not include %s", enabled[0].Key)
}

// upstreamFault maps an RPC failure on the verdict path to a fault code.
func upstreamFault(err error, what string) error {
	var ue *UpstreamError
	if errors.As(err, &ue) && ue.Timeout || errors.Is(err, context.DeadlineExceeded) {
		return fault.Wrap(err, fault.UpstreamTimeout, "solana: the deadline passed before "+what)
	}
	return fault.Wrap(err, fault.UpstreamError, "solana: every RPC endpoint failed while "+what)
}

// chainConfig is a Solana chain's configuration with addresses parsed.
type chainConfig struct {
	key             string
	tokenProgram    PublicKey
	token2022       PublicKey
	metadataProgram *PublicKey
	pumpProgram     *PublicKey
	dexes           []dexConfig
	unknownDEXes    []string
	quotes          map[PublicKey]chains.QuoteToken
	wsol, usdc      *PublicKey
	burns           []string
	chain           chains.Chain
	// streamflow is the Streamflow program, when configured.
	streamflow *PublicKey
	// stakePools are the configured SPL stake pool programs (authority
	// programs of kind spl_stake_pool).
	stakePools []namedProgram
}

// namedProgram is a configured program with its name.
type namedProgram struct {
	name    string
	program PublicKey
}

type dexConfig struct {
	name    string
	kind    poolKind
	program PublicKey
}

func newChainConfig(c chains.Chain) (*chainConfig, error) {
	cfg := &chainConfig{key: c.Key, chain: c, quotes: map[PublicKey]chains.QuoteToken{}, burns: c.BurnAddresses}
	var err error
	if cfg.tokenProgram, err = ParsePublicKey(c.Programs["token"]); err != nil {
		return nil, fmt.Errorf("programs.token: %w", err)
	}
	if cfg.token2022, err = ParsePublicKey(c.Programs["token2022"]); err != nil {
		return nil, fmt.Errorf("programs.token2022: %w", err)
	}
	if s := c.Programs["metadata"]; s != "" {
		k, err := ParsePublicKey(s)
		if err != nil {
			return nil, fmt.Errorf("programs.metadata: %w", err)
		}
		cfg.metadataProgram = &k
	}
	for _, d := range c.DEXes {
		prog, err := ParsePublicKey(d.Program)
		if err != nil {
			return nil, fmt.Errorf("dex %s: %w", d.Name, err)
		}
		if d.Kind == "pumpfun" {
			cfg.pumpProgram = &prog
			continue
		}
		kind, ok := poolKinds[d.Kind]
		if !ok {
			cfg.unknownDEXes = append(cfg.unknownDEXes, d.Name)
			continue
		}
		cfg.dexes = append(cfg.dexes, dexConfig{name: d.Name, kind: kind, program: prog})
	}
	for _, l := range c.LockPrograms {
		if l.Kind != "streamflow" {
			continue // a kind this engine cannot read: its escrows stay unknown holders
		}
		k, err := ParsePublicKey(l.Program)
		if err != nil {
			return nil, fmt.Errorf("lock program %s: %w", l.Name, err)
		}
		cfg.streamflow = &k
	}
	for _, a := range c.AuthorityPrograms {
		if a.Kind != "spl_stake_pool" {
			continue // a kind this engine cannot attribute: its PDAs stay plain PDAs
		}
		k, err := ParsePublicKey(a.Program)
		if err != nil {
			return nil, fmt.Errorf("authority program %s: %w", a.Name, err)
		}
		cfg.stakePools = append(cfg.stakePools, namedProgram{name: a.Name, program: k})
	}
	for _, q := range c.QuoteTokens {
		k, err := ParsePublicKey(q.Address)
		if err != nil {
			return nil, fmt.Errorf("quote %s: %w", q.Symbol, err)
		}
		cfg.quotes[k] = q
		switch {
		case q.Wrapped && cfg.wsol == nil:
			cfg.wsol = &k
		case q.USDStable && q.Symbol == "USDC" && cfg.usdc == nil:
			cfg.usdc = &k
		}
	}
	return cfg, nil
}

// whirlpool returns the configured Orca Whirlpool DEX, if any.
func (c *chainConfig) whirlpool() (dexConfig, bool) {
	for _, d := range c.dexes {
		if d.kind.size == whirlpoolSize {
			return d, true
		}
	}
	return dexConfig{}, false
}
