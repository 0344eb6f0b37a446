package main

import (
	"context"
	"fmt"

	"github.com/tokenrisk/tokenrisk/internal/store"
	"github.com/tokenrisk/tokenrisk/internal/store/postgres"
)

// openPostgres opens (and migrates) the PostgreSQL store.
func openPostgres(ctx context.Context, dsn string) (store.Store, error) {
	st, err := postgres.Open(ctx, dsn, postgres.Options{})
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	return st, nil
}
