package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

// The lease scripts work on the room's lease and epoch keys (one slot).
// KEYS: lease, epoch.

// acquireScript: ARGV node, ttl (ms). Returns {1, epoch} when node holds the
// room afterwards, {0, holder} when another node does.
var acquireScript = redis.NewScript(`
local h = redis.call('GET', KEYS[1])
if h and h ~= ARGV[1] then
  return {0, h}
end
if h then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, redis.call('GET', KEYS[2]) or '0'}
end
local e = redis.call('INCR', KEYS[2])
redis.call('PERSIST', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, tostring(e)}
`)

// renewScript: ARGV node, epoch, ttl (ms). Returns 1, or 0 when fenced.
var renewScript = redis.NewScript(`
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[2] then
  return 0
end
local h = redis.call('GET', KEYS[1])
if h and h ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
`)

// releaseScript: ARGV node, epoch. Returns 1, or 0 when fenced.
var releaseScript = redis.NewScript(`
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[2] or redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
`)

// AcquireLease implements store.Leases in one round trip.
func (s *Store) AcquireLease(ctx context.Context, room, node string, ttl time.Duration) (int64, error) {
	if err := store.CheckLease(room, node, ttl); err != nil {
		return 0, err
	}
	res, err := acquireScript.Run(ctx, s.c, []string{s.LeaseKey(room), s.EpochKey(room)}, node, ttl.Milliseconds()).Slice()
	if err != nil {
		return 0, fmt.Errorf("acquire lease of room %s: %w", room, err)
	}
	if len(res) != 2 {
		return 0, fmt.Errorf("acquire lease of room %s: unexpected script result %v", room, res)
	}
	if ok, _ := res[0].(int64); ok != 1 {
		return 0, fmt.Errorf("acquire lease of room %s: held by %v: %w", room, res[1], store.ErrLeaseHeld)
	}
	es, _ := res[1].(string)
	epoch, err := strconv.ParseInt(es, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("acquire lease of room %s: epoch %q: %w", room, es, err)
	}
	return epoch, nil
}

// RenewLease implements store.Leases in one round trip.
func (s *Store) RenewLease(ctx context.Context, room, node string, epoch int64, ttl time.Duration) error {
	if err := store.CheckLease(room, node, ttl); err != nil {
		return err
	}
	ok, err := renewScript.Run(ctx, s.c, []string{s.LeaseKey(room), s.EpochKey(room)}, node, epoch, ttl.Milliseconds()).Int()
	if err != nil {
		return fmt.Errorf("renew lease of room %s: %w", room, err)
	}
	if ok != 1 {
		return fmt.Errorf("renew lease of room %s at epoch %d: %w", room, epoch, store.ErrFenced)
	}
	return nil
}

// ReleaseLease implements store.Leases in one round trip.
func (s *Store) ReleaseLease(ctx context.Context, room, node string, epoch int64) error {
	ok, err := releaseScript.Run(ctx, s.c, []string{s.LeaseKey(room), s.EpochKey(room)}, node, epoch).Int()
	if err != nil {
		return fmt.Errorf("release lease of room %s: %w", room, err)
	}
	if ok != 1 {
		return fmt.Errorf("release lease of room %s at epoch %d: %w", room, epoch, store.ErrFenced)
	}
	return nil
}

// LeaseHolder implements store.Leases.
func (s *Store) LeaseHolder(ctx context.Context, room string) (string, int64, error) {
	vals, err := s.c.MGet(ctx, s.LeaseKey(room), s.EpochKey(room)).Result()
	if err != nil {
		return "", 0, fmt.Errorf("lease holder of room %s: %w", room, err)
	}
	node, _ := vals[0].(string)
	if node == "" {
		return "", 0, fmt.Errorf("lease holder of room %s: %w", room, store.ErrNotFound)
	}
	es, _ := vals[1].(string)
	epoch, err := strconv.ParseInt(es, 10, 64)
	if err != nil {
		return "", 0, fmt.Errorf("lease holder of room %s: epoch %q: %w", room, es, errors.Join(err, store.ErrNotFound))
	}
	return node, epoch, nil
}
