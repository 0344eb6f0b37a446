package main

import (
	"context"
	"errors"

	"github.com/tokenrisk/tokenrisk/internal/store"
)

// openPostgres opens the PostgreSQL store.
func openPostgres(ctx context.Context, dsn string) (store.Store, error) {
	return nil, errors.New("postgres: not built in yet; use --db")
}
