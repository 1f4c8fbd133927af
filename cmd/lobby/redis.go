package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tabuleiro/tabuleiro/broker"

	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// openRedis opens the Redis store and checks that it answers.
func openRedis(ctx context.Context, url, prefix string, retention time.Duration) (store.Store, error) {
	st, err := redisstore.New(ctx, url, prefix, redisstore.WithRetention(retention))
	if err != nil {
		return nil, fmt.Errorf("redis store %s: %w", url, err)
	}
	return st, nil
}

// openBroker opens the Redis pub/sub broker of a node on the store's client.
func openBroker(st store.Store, prefix string) (broker.Broker, error) {
	rs, ok := st.(*redisstore.Store)
	if !ok {
		return nil, errors.New("-cluster needs the Redis store")
	}
	return broker.NewRedis(rs.Client(), prefix+"bus:", 0), nil
}
