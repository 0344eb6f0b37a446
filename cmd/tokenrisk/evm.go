package main

import (
	"net/http"

	"github.com/tokenrisk/tokenrisk/internal/chains"
	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/scan"
)

// evmAdapters builds the EVM adapter (none until internal/evm has one).
func evmAdapters(cfg *config.Config, reg *chains.Registry, client *http.Client, upstream func(chain, method string)) []scan.Adapter {
	return nil
}
