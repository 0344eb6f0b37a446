// Package chains is the chain registry: which chains exist, how to reach
// them, their DEXes, quote tokens, lockers, burn addresses and trusted
// tokens (one JSON file shipped with the binary, overridable), and address
// parsing.
package chains

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
)

//go:embed chains.json
var shippedChains []byte

// Shipped returns the chains file compiled into the binary.
func Shipped() []byte { return append([]byte(nil), shippedChains...) }

// File is the chains file format.
type File struct {
	Chains []Chain `json:"chains"`
}

// Chain is one chain's configuration.
type Chain struct {
	Key     string   `json:"key"`
	Kind    Kind     `json:"kind"`
	ChainID int64    `json:"chain_id,omitempty"`
	Native  string   `json:"native"`
	RPC     []string `json:"rpc"`
	// RPCMaxBatchBytes bounds one JSON-RPC request body sent to this
	// chain's nodes (EVM): a batch over it is split by bytes before it is
	// sent. 0: the default (1 MiB); -1: no bound.
	RPCMaxBatchBytes int `json:"rpc_max_batch_bytes,omitempty"`
	// Multicall3 is the Multicall3 address where deployed (EVM); empty
	// means the engine injects its own lens by state override.
	Multicall3  string         `json:"multicall3,omitempty"`
	DEXes       []DEX          `json:"dexes"`
	QuoteTokens []QuoteToken   `json:"quote_tokens"`
	Lockers     []NamedAddress `json:"lockers,omitempty"`
	// LockPrograms are programs that lock tokens on a schedule (Solana:
	// kind "streamflow"); tokens in their escrows count as locked until
	// released.
	LockPrograms []LockProgram `json:"lock_programs,omitempty"`
	// AuthorityPrograms are programs whose derived addresses hold token
	// authorities under the program's rules (Solana: kind
	// "spl_stake_pool", a stake pool's withdraw authority mints its pool
	// token against deposits); an authority is attributed to one only
	// when the derivation is proven.
	AuthorityPrograms []AuthorityProgram `json:"authority_programs,omitempty"`
	BurnAddresses     []string           `json:"burn_addresses,omitempty"`
	Exchanges         []NamedAddress     `json:"exchanges,omitempty"`
	Trusted           []NamedAddress     `json:"trusted_tokens,omitempty"`
	// MajorTokens are the chain's well-known tokens (facts from public
	// token lists): a token at another address whose name or symbol reads
	// as one of them impersonates it (internal/reputation). An empty list
	// turns that check off. The quote and trusted tokens count as listed
	// too.
	MajorTokens []MajorToken `json:"major_tokens,omitempty"`
	// MajorTokensSource names where MajorTokens come from (provenance).
	MajorTokensSource string `json:"major_tokens_source,omitempty"`
	// Hooks are known Uniswap V4 hooks (launchpads') on this chain.
	Hooks []KnownHook `json:"v4_hooks,omitempty"`
	// Explorer is the Etherscan-family chain id parameter, when it differs
	// from ChainID (EVM), or empty.
	ExplorerChainID int64 `json:"explorer_chain_id,omitempty"`
	// Programs names well-known program ids (Solana): token, token2022,
	// metadata.
	Programs map[string]string `json:"programs,omitempty"`
	// Disabled chains are known but not asked.
	Disabled bool `json:"disabled,omitempty"`
}

// DEX is one exchange deployment on a chain.
type DEX struct {
	Name string `json:"name"`
	// Kind is the pool protocol: "v2" (Uniswap V2 style getPair), "v3"
	// (Uniswap V3 getPool with fee tiers), "solidly" (Aerodrome/Velodrome
	// getPool(a, b, stable)), "v4" (a Uniswap V4 PoolManager); Solana: "raydium_amm_v4", "raydium_cpmm",
	// "orca_whirlpool", "pumpfun", "pumpswap", "raydium_clmm",
	// "meteora_dlmm", "meteora_damm_v1", "meteora_damm_v2", "meteora_dbc",
	// "raydium_launchlab".
	Kind    string `json:"kind"`
	Factory string `json:"factory,omitempty"`
	// Program is the Solana program id.
	Program string `json:"program,omitempty"`
	// FeeBps is a V2-style pool's swap fee in basis points (30 = 0.3%).
	FeeBps int `json:"fee_bps,omitempty"`
	// Router is a V2 DEX's router with Uniswap V2 Router02's
	// swapExactTokensForTokensSupportingFeeOnTransferTokens, bound to
	// Factory: the wallet path also sells through it, as users do
	// (approve, then the router's transferFrom into the pool).
	Router string `json:"router,omitempty"`
	// FeeTiers are a V3 factory's fee tiers (in hundredths of a bp).
	FeeTiers []int `json:"fee_tiers,omitempty"`
	// PoolManager is a Uniswap V4 singleton (kind "v4"): every pool of the
	// deployment lives in it and is found by its Initialize logs.
	PoolManager string `json:"pool_manager,omitempty"`
	// StateView and PositionManager are the V4 periphery's state lens and
	// position NFTs, where deployed.
	StateView       string `json:"state_view,omitempty"`
	PositionManager string `json:"position_manager,omitempty"`
	// FromBlock is the PoolManager's deployment block: its log search
	// starts there.
	FromBlock uint64 `json:"from_block,omitempty"`
}

// KnownHook is a Uniswap V4 hook the operator knows (a launchpad's): a
// name for the report and what it is known to take. It is never a free
// pass: the hook's settings are read like any other's.
type KnownHook struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	// Takes says in a few words what the hook takes on swaps, as its
	// launchpad documents it.
	Takes string `json:"takes,omitempty"`
}

// QuoteToken is a token pools are searched against.
type QuoteToken struct {
	Symbol   string `json:"symbol"`
	Address  string `json:"address"`
	Decimals int    `json:"decimals"`
	// USDStable marks a USD stablecoin (valued at 1 USD).
	USDStable bool `json:"usd_stable,omitempty"`
	// Wrapped marks the wrapped native token.
	Wrapped bool `json:"wrapped,omitempty"`
}

// LockProgram is a token-locking program and the layout it keeps.
type LockProgram struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Program string `json:"program"`
}

// AuthorityProgram is a program known to hold token authorities at
// addresses it derives.
type AuthorityProgram struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Program string `json:"program"`
}

// MajorToken is one well-known token of a chain.
type MajorToken struct {
	Address string `json:"address"`
	Name    string `json:"name"`
	Symbol  string `json:"symbol"`
	// Decimals is nil where the source does not list them.
	Decimals *int `json:"decimals,omitempty"`
}

// NamedAddress is an address with a human name.
type NamedAddress struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// Wrapped returns the chain's wrapped native quote token.
func (c Chain) Wrapped() (QuoteToken, bool) {
	for _, q := range c.QuoteTokens {
		if q.Wrapped {
			return q, true
		}
	}
	return QuoteToken{}, false
}

// IsTrusted reports whether addr is a configured trusted token.
func (c Chain) IsTrusted(addr string) (NamedAddress, bool) {
	for _, t := range c.Trusted {
		if strings.EqualFold(t.Address, addr) {
			return t, true
		}
	}
	return NamedAddress{}, false
}

// Registry is the validated set of chains, in file order.
type Registry struct {
	chains []Chain
}

// Parse decodes and validates a chains file.
func Parse(data []byte) (*Registry, error) {
	var f File
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("chains: decode: %w", err)
	}
	seen := map[string]bool{}
	for i, c := range f.Chains {
		if c.Key == "" || strings.ToLower(c.Key) != c.Key {
			return nil, fmt.Errorf("chains: chain %d: key must be non-empty lower case", i)
		}
		if seen[c.Key] {
			return nil, fmt.Errorf("chains: duplicate chain %q", c.Key)
		}
		seen[c.Key] = true
		if c.Kind != EVM && c.Kind != Solana {
			return nil, fmt.Errorf("chains: %s: unknown kind %q", c.Key, c.Kind)
		}
		if c.Kind == EVM && c.ChainID == 0 {
			return nil, fmt.Errorf("chains: %s: an EVM chain needs chain_id", c.Key)
		}
		if c.RPCMaxBatchBytes < -1 || (c.RPCMaxBatchBytes > 0 && c.RPCMaxBatchBytes < 1024) {
			return nil, fmt.Errorf("chains: %s: rpc_max_batch_bytes %d: want 0 (the default, 1 MiB), -1 (no bound) or at least 1024", c.Key, c.RPCMaxBatchBytes)
		}
		for _, d := range c.DEXes {
			if d.Kind == "v4" && d.PoolManager == "" {
				return nil, fmt.Errorf("chains: %s: V4 DEX %q needs pool_manager", c.Key, d.Name)
			}
		}
	}
	return &Registry{chains: f.Chains}, nil
}

// Load reads a chains file from path, or the shipped one when path is "".
func Load(path string) (*Registry, error) {
	if path == "" {
		return Parse(shippedChains)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("chains: %w", err)
	}
	return Parse(data)
}

// EnvName is the variable that overrides a chain's RPC endpoints.
func EnvName(key string) string {
	return "TOKENRISK_RPC_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// ApplyEnv replaces each chain's RPC list with TOKENRISK_RPC_<CHAIN> when
// set (comma-separated URLs, tried in order). With onlyExplicit, chains
// whose variable is unset are disabled (the offline devnet mode).
func (r *Registry) ApplyEnv(getenv func(string) string, onlyExplicit bool) {
	for i := range r.chains {
		v := strings.TrimSpace(getenv(EnvName(r.chains[i].Key)))
		if v == "" {
			if onlyExplicit {
				r.chains[i].Disabled = true
			}
			continue
		}
		var urls []string
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				urls = append(urls, u)
			}
		}
		r.chains[i].RPC = urls
		r.chains[i].Disabled = false
	}
}

// Add registers (or replaces) a chain, e.g. the devnet at start-up.
func (r *Registry) Add(c Chain) {
	for i := range r.chains {
		if r.chains[i].Key == c.Key {
			r.chains[i] = c
			return
		}
	}
	r.chains = append(r.chains, c)
}

// Get returns the chain with key.
func (r *Registry) Get(key string) (Chain, bool) {
	for _, c := range r.chains {
		if c.Key == key {
			return c, true
		}
	}
	return Chain{}, false
}

// Enabled returns the enabled chains of kind, in file order.
func (r *Registry) Enabled(kind Kind) []Chain {
	var out []Chain
	for _, c := range r.chains {
		if !c.Disabled && c.Kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// All returns every chain, enabled or not, in file order.
func (r *Registry) All() []Chain { return append([]Chain(nil), r.chains...) }

// Keys returns every enabled chain key, sorted.
func (r *Registry) Keys() []string {
	var out []string
	for _, c := range r.chains {
		if !c.Disabled {
			out = append(out, c.Key)
		}
	}
	sort.Strings(out)
	return out
}

// CheckEndpoint says whether raw is an RPC endpoint the clients can use:
// an absolute http or https URL with a host. The error never repeats the
// URL, which may carry a provider key.
func CheckEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		// "host:8545" parses as scheme "host": it has no scheme.
		if u.Scheme == "" || u.Opaque != "" || strings.Contains(u.Scheme, ".") {
			return errors.New("no scheme: write http://host:port or https://host")
		}
		return fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return errors.New("no host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return errors.New("invalid port")
		}
	}
	return nil
}

// CheckEndpoints validates the RPC endpoints of every enabled chain, so
// that a server never starts ready with a chain it cannot reach.
func (r *Registry) CheckEndpoints() error {
	var errs []error
	for _, c := range r.chains {
		if c.Disabled {
			continue
		}
		for i, u := range c.RPC {
			if err := CheckEndpoint(u); err != nil {
				errs = append(errs, fmt.Errorf("chains: %s: RPC endpoint %d of %d (%s or the chains file): %w", c.Key, i+1, len(c.RPC), EnvName(c.Key), err))
			}
		}
	}
	return errors.Join(errs...)
}
