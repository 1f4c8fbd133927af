package main

import (
	"context"
	"errors"

	"github.com/tabuleiro/tabuleiro/store"
)

// openRedis opens the Redis store.
//
// TODO: use redisstore.New(ctx, url, prefix) once store/redisstore lands.
func openRedis(ctx context.Context, url, prefix string) (store.Store, error) {
	return nil, errors.New("-redis is set but this build has no Redis store yet (store/redisstore); unset TABULEIRO_REDIS to use the memory store")
}
