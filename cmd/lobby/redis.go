package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/broker"

	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// openRedis opens the Redis store and checks that it answers.
func openRedis(ctx context.Context, url, prefix string, opts ...redisstore.Option) (store.Store, error) {
	st, err := redisstore.New(ctx, url, prefix, opts...)
	if err != nil {
		return nil, fmt.Errorf("redis store %s: %w", url, err)
	}
	return st, nil
}

// storeConns is how many connections the store may open at most: its
// pools' sizes, per server of a Redis Cluster (a replica included); 0 for
// the memory store.
func storeConns(st store.Store) int {
	rs, ok := st.(*redisstore.Store)
	if !ok {
		return 0
	}
	switch c := rs.Client().(type) {
	case *redis.Client: // one server, or a Sentinel's master
		return c.Options().PoolSize + 1
	case *redis.ClusterClient:
		var nodes atomic.Int32 // ForEachShard calls back concurrently
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.ForEachShard(ctx, func(context.Context, *redis.Client) error {
			nodes.Add(1)
			return nil
		})
		return max(int(nodes.Load()), len(c.Options().Addrs), 1) * (c.Options().PoolSize + 1)
	}
	return redisstore.DefaultPoolSize
}

// openBroker opens the Redis pub/sub broker of a node on the store's client.
func openBroker(st store.Store, prefix string) (broker.Broker, error) {
	rs, ok := st.(*redisstore.Store)
	if !ok {
		return nil, errors.New("-cluster needs the Redis store")
	}
	return broker.NewRedis(rs.Client(), prefix+"bus:", 0), nil
}
