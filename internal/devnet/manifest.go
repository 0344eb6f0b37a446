package devnet

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tokenrisk/tokenrisk/internal/chains"
)

// Manifest lists what the devnet deployed: the AMM and every zoo token
// with the behaviour it was built to have.
type Manifest struct {
	// RPCURL is the HTTP JSON-RPC endpoint.
	RPCURL string `json:"rpc_url"`
	// ChainID is the chain id (1337).
	ChainID int64 `json:"chain_id"`
	// WETH, USDC, Factory, Router and Locker are the AMM's contracts.
	WETH    string `json:"weth"`
	USDC    string `json:"usdc"`
	Factory string `json:"factory"`
	Router  string `json:"router"`
	Locker  string `json:"locker"`
	// Deployer is the EOA that deployed WETH, the AMM, the locker and USDC.
	Deployer string `json:"deployer"`
	// USDCPair is the WETH/USDC pool that prices ETH at ~3000 USD.
	USDCPair string `json:"usdc_pair"`
	// UniswapV4 says whether the real Uniswap V4 is deployed (and which
	// build), or why not; PoolManager, StateView and V4Router are its
	// contracts when it is.
	UniswapV4   string          `json:"uniswap_v4"`
	PoolManager string          `json:"pool_manager,omitempty"`
	StateView   string          `json:"state_view,omitempty"`
	V4Router    string          `json:"v4_router,omitempty"`
	Tokens      []ManifestToken `json:"tokens"`
}

// ManifestToken is one zoo token.
type ManifestToken struct {
	// Kind names the risk the token was built to have, e.g. "tax_sell_high".
	Kind string `json:"kind"`
	// Address is the token (the proxy, for proxy_upgradeable).
	Address string `json:"address"`
	// Pair is its WETH pool, "" when it has none (no_liquidity, not_a_token).
	Pair string `json:"pair"`
	// Owner is what owner() returns (the zero address once renounced), ""
	// when the contract has no owner().
	Owner string `json:"owner"`
	// Creator is the EOA that deployed the token and holds its powers.
	Creator string `json:"creator"`
	// Implementation is the EIP-1967 implementation behind a proxy token.
	Implementation string `json:"implementation,omitempty"`
	// Decimals is the token's decimals (0 for not_a_token).
	Decimals int `json:"decimals"`
	// V4PoolID is its Uniswap V4 pool's id, Hook that pool's hook.
	V4PoolID string `json:"v4_pool_id,omitempty"`
	Hook     string `json:"hook,omitempty"`
	// Behaviour says in one sentence what the token does.
	Behaviour string `json:"behaviour"`
}

// Chain describes the devnet of this manifest, reached at rpcURL, in the
// chain-registry format every chain uses: its V2 DEX (0.3% fee), its
// Uniswap V4 PoolManager when deployed, WETH and
// USDC quote tokens, the LP locker, the burn addresses, WETH and USDC as
// trusted and major tokens (what impersonate copies). It names no
// Multicall3, so the engine injects its lens
// by state override.
func (m Manifest) Chain(rpcURL string) chains.Chain {
	wethDecimals, usdcDecimals := 18, 6
	c := chains.Chain{
		Key:     ChainKey,
		Kind:    chains.EVM,
		ChainID: m.ChainID,
		Native:  "ETH",
		RPC:     []string{rpcURL},
		DEXes: []chains.DEX{
			{Name: "devnet_v2", Kind: "v2", Factory: m.Factory, Router: m.Router, FeeBps: 30},
		},
		QuoteTokens: []chains.QuoteToken{
			{Symbol: "WETH", Address: m.WETH, Decimals: 18, Wrapped: true},
			{Symbol: "USDC", Address: m.USDC, Decimals: 6, USDStable: true},
		},
		Lockers:       []chains.NamedAddress{{Name: "Devnet LP Locker", Address: m.Locker}},
		BurnAddresses: []string{common.Address{}.Hex(), deadAddress.Hex()},
		Trusted: []chains.NamedAddress{
			{Name: "Wrapped Ether", Address: m.WETH},
			{Name: "USD Coin", Address: m.USDC},
		},
		MajorTokens: []chains.MajorToken{
			{Address: m.WETH, Name: "Wrapped Ether", Symbol: "WETH", Decimals: &wethDecimals},
			{Address: m.USDC, Name: "USD Coin", Symbol: "USDC", Decimals: &usdcDecimals},
		},
		MajorTokensSource: "the devnet's own quote tokens (its manifest)",
	}
	if m.PoolManager != "" {
		c.DEXes = append(c.DEXes, chains.DEX{Name: "devnet_v4", Kind: "v4", PoolManager: m.PoolManager, StateView: m.StateView})
	}
	return c
}

// Token returns the token of kind.
func (m Manifest) Token(kind string) (ManifestToken, bool) {
	for _, t := range m.Tokens {
		if t.Kind == kind {
			return t, true
		}
	}
	return ManifestToken{}, false
}

// WriteFile writes the manifest as indented JSON to path.
func (m Manifest) WriteFile(path string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("devnet: encode manifest: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("devnet: write manifest: %w", err)
	}
	return nil
}

func (m Manifest) clone() Manifest {
	m.Tokens = append([]ManifestToken(nil), m.Tokens...)
	return m
}
