package redistest_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
)

func TestStartServerStopRestartKeepsData(t *testing.T) {
	srv := redistest.StartServer(t)
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1, DialTimeout: time.Second})
	defer c.Close()
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	if err := c.Ping(ctx).Err(); err == nil {
		t.Fatal("PING succeeded with the server stopped")
	}
	srv.Restart()
	if v, err := c.Get(ctx, "k").Result(); err != nil || v != "v" {
		t.Fatalf("after restart GET k = %q, %v; want v", v, err)
	}
}

func TestPrefixKeysDeleted(t *testing.T) {
	addr := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	ctx := context.Background()
	var prefix string
	t.Run("inner", func(t *testing.T) {
		prefix = redistest.Prefix(t, addr)
		if err := c.Set(ctx, prefix+"a", "1", 0).Err(); err != nil {
			t.Fatal(err)
		}
	})
	if n, err := c.Exists(ctx, prefix+"a").Result(); err != nil || n != 0 {
		t.Fatalf("key under the prefix still there after the test: %d, %v", n, err)
	}
}
