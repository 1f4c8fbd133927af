package main

import (
	"context"
	"fmt"

	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// openRedis opens the Redis store and checks that it answers.
func openRedis(ctx context.Context, url, prefix string) (store.Store, error) {
	st, err := redisstore.New(ctx, url, prefix)
	if err != nil {
		return nil, fmt.Errorf("redis store %s: %w", url, err)
	}
	return st, nil
}
