package broker

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Liveness says which nodes of a deployment are alive: each node keeps a
// short-lived key of its own, renewed often by one goroutine of the node
// (Beat), and the key disappears by itself soon after the node stops
// renewing it. A node whose key is gone may have its rooms taken over at
// once; a node that is merely slow loses them then too, and its late
// writes are refused by the rooms' lease epochs (store.Leases), which stay
// the guarantee.
//
// Both brokers implement it, on the same transport as their messages.
type Liveness interface {
	// Beat says node is alive, as kind, for ttl from now.
	Beat(ctx context.Context, node, kind string, ttl time.Duration) error
	// Alive reports whether node's key is there.
	Alive(ctx context.Context, node string) (bool, error)
	// Living returns every node whose key is there, with its kind.
	Living(ctx context.Context) (map[string]string, error)
	// Forget removes node's key (clean stop).
	Forget(ctx context.Context, node string) error
}

// Kinds of node, the values of their liveness keys.
const (
	// KindCluster is a node started with several nodes in mind: it leases
	// every room it serves.
	KindCluster = "cluster"
	// KindSingle is a node that serves rooms without leases: it must be
	// alone on its store.
	KindSingle = "single"
)

// maxLiving bounds the nodes a Memory broker remembers.
const maxLiving = 1024

var (
	_ Liveness = (*Memory)(nil)
	_ Liveness = (*Redis)(nil)
	_ Liveness = (*RedisLiveness)(nil)
)

// RedisLiveness is Liveness on Redis keys (<prefix>alive:<node>, SET PX),
// without a broker: a node that runs alone keeps its key with it. A Redis
// broker on the same client and prefix sees the same keys.
type RedisLiveness struct {
	c      redis.UniversalClient
	prefix string
}

// NewRedisLiveness returns the liveness keys under prefix on c.
func NewRedisLiveness(c redis.UniversalClient, prefix string) *RedisLiveness {
	return &RedisLiveness{c: c, prefix: prefix}
}

func (b *Redis) live() *RedisLiveness { return &RedisLiveness{c: b.c, prefix: b.prefix} }

// Beat implements Liveness.
func (b *Redis) Beat(ctx context.Context, node, kind string, ttl time.Duration) error {
	return b.live().Beat(ctx, node, kind, ttl)
}

// Alive implements Liveness.
func (b *Redis) Alive(ctx context.Context, node string) (bool, error) {
	return b.live().Alive(ctx, node)
}

// Living implements Liveness.
func (b *Redis) Living(ctx context.Context) (map[string]string, error) {
	return b.live().Living(ctx)
}

// Forget implements Liveness.
func (b *Redis) Forget(ctx context.Context, node string) error {
	return b.live().Forget(ctx, node)
}

// living is the Memory broker's table of liveness keys.
type living struct {
	mu    sync.Mutex
	nodes map[string]liveKey
}

type liveKey struct {
	kind    string
	expires time.Time
}

func (l *living) table(now time.Time) map[string]liveKey {
	if l.nodes == nil {
		l.nodes = map[string]liveKey{}
	}
	for n, k := range l.nodes {
		if !now.Before(k.expires) {
			delete(l.nodes, n)
		}
	}
	return l.nodes
}

func checkBeat(node, kind string, ttl time.Duration) error {
	if node == "" || kind == "" || ttl < time.Millisecond {
		return fmt.Errorf("liveness of node %q (%q): empty id or kind, or ttl %v under a millisecond", node, kind, ttl)
	}
	return nil
}

// Beat implements Liveness.
func (m *Memory) Beat(ctx context.Context, node, kind string, ttl time.Duration) error {
	if err := checkBeat(node, kind, ttl); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("liveness of node %s: %w", node, err)
	}
	m.live.mu.Lock()
	defer m.live.mu.Unlock()
	now := time.Now()
	t := m.live.table(now)
	if _, ok := t[node]; !ok && len(t) >= maxLiving {
		return fmt.Errorf("liveness of node %s: more than %d nodes", node, maxLiving)
	}
	t[node] = liveKey{kind: kind, expires: now.Add(ttl)}
	return nil
}

// Alive implements Liveness.
func (m *Memory) Alive(ctx context.Context, node string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("liveness of node %s: %w", node, err)
	}
	m.live.mu.Lock()
	defer m.live.mu.Unlock()
	_, ok := m.live.table(time.Now())[node]
	return ok, nil
}

// Living implements Liveness.
func (m *Memory) Living(ctx context.Context) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("living nodes: %w", err)
	}
	m.live.mu.Lock()
	defer m.live.mu.Unlock()
	out := map[string]string{}
	for n, k := range m.live.table(time.Now()) {
		out[n] = k.kind
	}
	return out, nil
}

// Forget implements Liveness.
func (m *Memory) Forget(ctx context.Context, node string) error {
	m.live.mu.Lock()
	defer m.live.mu.Unlock()
	delete(m.live.table(time.Now()), node)
	return nil
}

// aliveKey is the key of node's liveness: <prefix>alive:<node>.
func (b *RedisLiveness) aliveKey(node string) string { return b.prefix + "alive:" + node }

// Beat implements Liveness: one SET with PX.
func (b *RedisLiveness) Beat(ctx context.Context, node, kind string, ttl time.Duration) error {
	if err := checkBeat(node, kind, ttl); err != nil {
		return err
	}
	if err := b.c.Set(ctx, b.aliveKey(node), kind, ttl).Err(); err != nil {
		return fmt.Errorf("liveness of node %s: %w", node, err)
	}
	return nil
}

// Alive implements Liveness: one EXISTS.
func (b *RedisLiveness) Alive(ctx context.Context, node string) (bool, error) {
	n, err := b.c.Exists(ctx, b.aliveKey(node)).Result()
	if err != nil {
		return false, fmt.Errorf("liveness of node %s: %w", node, err)
	}
	return n == 1, nil
}

// Living implements Liveness: a SCAN of the liveness keys (every shard of a
// Redis Cluster), for a node's start, not for every message.
func (b *RedisLiveness) Living(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	var mu sync.Mutex
	scan := func(ctx context.Context, c redis.Cmdable) error {
		it := c.Scan(ctx, 0, b.aliveKey("*"), 256).Iterator()
		for it.Next(ctx) {
			key := it.Val()
			kind, err := c.Get(ctx, key).Result()
			if err == redis.Nil {
				continue // expired meanwhile
			}
			if err != nil {
				return err
			}
			mu.Lock()
			out[key[len(b.aliveKey("")):]] = kind
			mu.Unlock()
		}
		return it.Err()
	}
	var err error
	if cc, ok := b.c.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
	} else {
		err = scan(ctx, b.c)
	}
	if err != nil {
		return nil, fmt.Errorf("living nodes: %w", err)
	}
	return out, nil
}

// Forget implements Liveness: one DEL.
func (b *RedisLiveness) Forget(ctx context.Context, node string) error {
	if err := b.c.Del(ctx, b.aliveKey(node)).Err(); err != nil {
		return fmt.Errorf("forget node %s: %w", node, err)
	}
	return nil
}
