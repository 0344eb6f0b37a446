package main

import (
	"context"
	"fmt"
	"io"

	"github.com/tokenrisk/tokenrisk/internal/config"
	"github.com/tokenrisk/tokenrisk/internal/devnet"
)

// runDevnet runs the dev chain standalone until ctx is done (SIGINT),
// printing its RPC URL on stdout.
func runDevnet(ctx context.Context, cfg *config.Config, stdout, stderr io.Writer) error {
	log := cfg.Logger(stderr)
	d, err := devnet.Start(ctx, devnet.Options{RPCAddr: cfg.DevnetRPCAddr, Logger: log})
	if err != nil {
		return fmt.Errorf("devnet: %w", err)
	}
	defer d.Close()
	if cfg.DevnetManifest != "" {
		if err := d.Manifest().WriteFile(cfg.DevnetManifest); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "devnet JSON-RPC on %s (chain id %d, %d tokens)\n", d.RPCURL(), d.Manifest().ChainID, len(d.Manifest().Tokens))
	<-ctx.Done()
	log.Info("devnet stopping")
	return nil
}
