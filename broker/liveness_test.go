package broker_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/broker"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
)

// TestLiveness: a node's key says it is alive until it runs out or is
// forgotten, with its kind; another node's key is its own.
func TestLiveness(t *testing.T) {
	impls := map[string]func(t *testing.T) broker.Liveness{
		"alone": func(t *testing.T) broker.Liveness {
			addr := redistest.Start(t)
			c := redis.NewClient(&redis.Options{Addr: addr})
			t.Cleanup(func() { c.Close() })
			return broker.NewRedisLiveness(c, redistest.Prefix(t, addr))
		},
	}
	for name, dep := range implementations(t) {
		impls[name] = func(t *testing.T) broker.Liveness { return dep(t, 0)().(broker.Liveness) }
	}
	for name, impl := range impls {
		t.Run(name, func(t *testing.T) {
			lv := impl(t)
			ctx := context.Background()
			if err := lv.Beat(ctx, "", broker.KindCluster, time.Second); err == nil {
				t.Fatal("empty node id accepted")
			}
			if err := lv.Beat(ctx, "a", broker.KindCluster, 0); err == nil {
				t.Fatal("zero ttl accepted")
			}
			if err := lv.Beat(ctx, "a", broker.KindCluster, time.Minute); err != nil {
				t.Fatal(err)
			}
			if err := lv.Beat(ctx, "b", broker.KindSingle, 50*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			living, err := lv.Living(ctx)
			if err != nil || living["a"] != broker.KindCluster {
				t.Fatalf("living %v, %v; want a as %s", living, err, broker.KindCluster)
			}
			// b runs out by itself; a stays.
			deadline := time.Now().Add(wait)
			for {
				alive, err := lv.Alive(ctx, "b")
				if err != nil {
					t.Fatal(err)
				}
				if !alive {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("b's key never ran out")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if alive, err := lv.Alive(ctx, "a"); err != nil || !alive {
				t.Fatalf("a alive: %v, %v", alive, err)
			}
			if err := lv.Forget(ctx, "a"); err != nil {
				t.Fatal(err)
			}
			if alive, err := lv.Alive(ctx, "a"); err != nil || alive {
				t.Fatalf("a alive after Forget: %v, %v", alive, err)
			}
			if living, err := lv.Living(ctx); err != nil || len(living) != 0 {
				t.Fatalf("living %v, %v; want none", living, err)
			}
		})
	}
}
