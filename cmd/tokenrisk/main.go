// Command tokenrisk is the token risk scoring service and its operator
// tools: serve, keys, devnet, scan and migrate.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tokenrisk:", err)
		os.Exit(1)
	}
}

// getenv is os.Getenv, except that an explorer URL variable set to the
// empty string reads as "none": the SPEC says an empty URL disables the
// explorer, while an unset one keeps the default, and run only sees values.
func getenv(key string) string {
	v, set := os.LookupEnv(key)
	switch key {
	case "TOKENRISK_SOURCIFY_URL", "TOKENRISK_ETHERSCAN_URL":
		if set && v == "" {
			return "none"
		}
	}
	return v
}
