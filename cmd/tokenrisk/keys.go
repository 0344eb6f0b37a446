package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/tokenrisk/tokenrisk/internal/auth"
	"github.com/tokenrisk/tokenrisk/internal/config"
)

// keyService opens the store and the key service over it.
func keyService(ctx context.Context, cfg *config.Config) (*auth.Keys, func(), error) {
	plans, err := loadPlans(cfg, nil)
	if err != nil {
		return nil, nil, err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	return auth.NewKeys(st, plans, auth.Options{}), func() { st.Close() }, nil
}

// keysCreate prints the new key's secret, alone, on stdout: it is shown
// this once and stored only as a hash.
func keysCreate(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	keys, done, err := keyService(ctx, cfg)
	if err != nil {
		return err
	}
	defer done()
	secret, _, err := keys.Create(ctx, cfg.KeyPlan, cfg.KeyName)
	if err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	_, err = fmt.Fprintln(stdout, secret)
	return err
}

// keysList prints every key (never a secret: its prefix only).
func keysList(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	keys, done, err := keyService(ctx, cfg)
	if err != nil {
		return err
	}
	defer done()
	list, err := keys.List(ctx)
	if err != nil {
		return fmt.Errorf("keys list: %w", err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPLAN\tNAME\tPREFIX\tCREATED\tREVOKED")
	for _, k := range list {
		revoked := "-"
		if k.RevokedAt != nil {
			revoked = k.RevokedAt.UTC().Format(time.RFC3339)
		}
		name := k.Name
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s…\t%s\t%s\n", k.ID, k.Plan, name, k.Prefix, k.CreatedAt.UTC().Format(time.RFC3339), revoked)
	}
	return tw.Flush()
}

func keysRevoke(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	keys, done, err := keyService(ctx, cfg)
	if err != nil {
		return err
	}
	defer done()
	if err := keys.Revoke(ctx, cfg.Args[0]); err != nil {
		return fmt.Errorf("keys revoke: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "revoked %s\n", cfg.Args[0])
	return err
}

// migrate brings the store's schema up to date (opening a store migrates
// it).
func migrate(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "migrated %s\n", storeName(cfg))
	return err
}
