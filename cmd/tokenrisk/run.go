package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/tokenrisk/tokenrisk/internal/config"
)

const usage = `tokenrisk scores how risky a crypto token is (EVM chains and Solana).

Usage:
  tokenrisk serve  [--addr 127.0.0.1:8080] [--db tokenrisk.db | --postgres DSN] [--redis URL]
                   [--chains FILE] [--plans FILE] [--devnet] [--devnet-manifest FILE]
  tokenrisk keys create --plan free|pro|premium [--name NAME] [--db … | --postgres …]
  tokenrisk keys list | keys revoke KEY_ID
  tokenrisk devnet [--rpc-addr 127.0.0.1:8545] [--manifest FILE]
  tokenrisk devnet act --rpc URL --manifest FILE --token ADDRESS ACTION [ARG]
                   (set-fee N, mint AMOUNT, pause, blacklist ADDR, remove-liquidity PCT,
                    transfer-owner ADDR, renounce, upgrade: the owner's transaction)
  tokenrisk scan ADDRESS [--json] [--devnet] [--server URL]   (--server: through a server, key in TOKENRISK_KEY)
  tokenrisk migrate [--db … | --postgres …]

Every flag also reads a TOKENRISK_* variable (the flag wins); run
"tokenrisk COMMAND -h" for a command's flags.
`

// errUsage marks a command line that could not be understood.
var errUsage = errors.New("usage")

// run is the whole program: main only wires the process to it, so tests
// run the real thing in process.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return fmt.Errorf("%w: no command given", errUsage)
		}
		return nil
	}
	cmd, rest := args[0], args[1:]
	if cmd == "keys" {
		if len(rest) == 0 {
			fmt.Fprint(stderr, usage)
			return fmt.Errorf("%w: keys needs create, list or revoke", errUsage)
		}
		cmd, rest = "keys "+rest[0], rest[1:]
	}
	if cmd == config.CmdDevnet && len(rest) > 0 && rest[0] == "act" {
		return devnetAct(ctx, rest[1:], stdout, stderr)
	}
	switch cmd {
	case config.CmdServe, config.CmdKeysCreate, config.CmdKeysList, config.CmdKeysRevoke,
		config.CmdDevnet, config.CmdScan, config.CmdMigrate:
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("%w: unknown command %q", errUsage, strings.TrimSpace(cmd))
	}
	cfg, err := config.Load(cmd, rest, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	switch cmd {
	case config.CmdServe:
		return serve(ctx, cfg, getenv, stdout, stderr)
	case config.CmdKeysCreate:
		return keysCreate(ctx, cfg, stdout)
	case config.CmdKeysList:
		return keysList(ctx, cfg, stdout)
	case config.CmdKeysRevoke:
		return keysRevoke(ctx, cfg, stdout)
	case config.CmdDevnet:
		return runDevnet(ctx, cfg, stdout, stderr)
	case config.CmdScan:
		return scanOnce(ctx, cfg, getenv, stdout, stderr)
	default:
		return migrate(ctx, cfg, stdout)
	}
}
