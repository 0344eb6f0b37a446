package main

import (
	"net/http"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/evm"
	"github.com/tokenrisk/tokenrisk/internal/explorer"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// explorerConfig maps the settings to the explorer clients: an empty URL
// means the default endpoint, "none" disables the explorer. With --devnet
// the defaults are off (the devnet is offline and unknown to explorers);
// an explicitly configured URL still applies.
func explorerConfig(cfg *config.Config) explorer.Config {
	url := func(v, def string) string {
		switch v {
		case "none":
			return ""
		case "":
			if cfg.Devnet {
				return ""
			}
			return def
		}
		return v
	}
	return explorer.Config{
		EtherscanAPIKey: cfg.EtherscanAPIKey,
		EtherscanURL:    url(cfg.EtherscanURL, explorer.DefaultEtherscanURL),
		SourcifyURL:     url(cfg.SourcifyURL, explorer.DefaultSourcifyURL),
	}
}

// evmAdapters builds the EVM adapter with the configured explorers.
func evmAdapters(cfg *config.Config, reg *chains.Registry, client *http.Client, upstream func(chain, method string)) []scan.Adapter {
	// The adapter reports what is late as partial a little before the
	// engine's hard deadline.
	opts := evm.Options{HTTPClient: client, Deadline: cfg.ScanTimeout * 3 / 4, Upstream: upstream}
	sourcify, etherscan := explorerConfig(cfg).Clients(client)
	if sourcify != nil {
		opts.Sourcify = sourcify
	}
	if etherscan != nil {
		opts.Etherscan = etherscan
	}
	return []scan.Adapter{evm.NewAdapter(reg, opts)}
}
