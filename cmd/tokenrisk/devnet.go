package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ethereum/go-ethereum/common"

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

// devnetAct sends a zoo token owner's real transaction on a running
// devnet: `tokenrisk devnet act --rpc URL --manifest FILE --token ADDRESS
// ACTION [ARG]`. It prints the transaction hashes and the block.
func devnetAct(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tokenrisk devnet act", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rpcURL := fs.String("rpc", "", "the devnet's JSON-RPC URL (default: the manifest's rpc_url)")
	manifest := fs.String("manifest", "", "the devnet manifest (written by `tokenrisk devnet --manifest FILE`)")
	token := fs.String("token", "", "the zoo token's address")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: tokenrisk devnet act --rpc URL --manifest FILE --token ADDRESS ACTION [ARG]")
		fmt.Fprintln(stderr, "Actions: set-fee N, mint AMOUNT, pause, blacklist ADDR, remove-liquidity PCT, transfer-owner ADDR, renounce, upgrade, impersonate SYMBOL, clone")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *manifest == "" || *token == "" || fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("%w: devnet act needs --manifest, --token and an ACTION", errUsage)
	}
	data, err := os.ReadFile(*manifest)
	if err != nil {
		return fmt.Errorf("devnet act: read manifest: %w", err)
	}
	var m devnet.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("devnet act: decode manifest %s: %w", *manifest, err)
	}
	url := *rpcURL
	if url == "" {
		url = m.RPCURL
	}
	res, err := devnet.Act(ctx, url, m, *token, fs.Arg(0), fs.Args()[1:])
	if err != nil {
		return err
	}
	for _, tx := range res.Txs {
		fmt.Fprintf(stdout, "%s %s\n", res.Action, tx.Hex())
	}
	fmt.Fprintf(stdout, "mined in block %d\n", res.Block)
	if res.Deployed != (common.Address{}) {
		fmt.Fprintf(stdout, "deployed %s\n", res.Deployed.Hex())
	}
	for _, c := range res.Clones {
		by := "a new creator"
		if c.SameCreator {
			by = "the same creator"
		}
		fmt.Fprintf(stdout, "deployed %s by %s %s\n", c.Address.Hex(), by, c.Creator.Hex())
	}
	return nil
}
