package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

var _ store.Matcher = (*Store)(nil)

// QueueKey is the key of a quick-match queue: a list of JSON entries, oldest
// first.
func (s *Store) QueueKey(queue string) string { return s.prefix + "match:" + queue }

// matchScript: KEYS queue; ARGV the entry (JSON), its player's id. Pops and
// returns the oldest entry of another player, or queues the entry (once)
// and returns false.
var matchScript = redis.NewScript(`
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for _, v in ipairs(items) do
  local ok, e = pcall(cjson.decode, v)
  if ok and e.p ~= ARGV[2] then
    redis.call('LREM', KEYS[1], 1, v)
    return v
  end
end
redis.call('LREM', KEYS[1], 0, ARGV[1])
redis.call('RPUSH', KEYS[1], ARGV[1])
return false
`)

// Match implements store.Matcher: one script, so two nodes never take the
// same entry.
func (s *Store) Match(ctx context.Context, queue string, e store.MatchEntry) (store.MatchEntry, bool, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return store.MatchEntry{}, false, fmt.Errorf("match in %s: %w", queue, err)
	}
	v, err := matchScript.Run(ctx, s.c, []string{s.QueueKey(queue)}, b, e.Player).Text()
	if errors.Is(err, redis.Nil) {
		return store.MatchEntry{}, false, nil
	}
	if err != nil {
		return store.MatchEntry{}, false, fmt.Errorf("match in %s: %w", queue, err)
	}
	var o store.MatchEntry
	if err := json.Unmarshal([]byte(v), &o); err != nil {
		return store.MatchEntry{}, false, fmt.Errorf("match in %s: bad entry %q: %w", queue, v, err)
	}
	return o, true, nil
}

// Unqueue implements store.Matcher.
func (s *Store) Unqueue(ctx context.Context, queue string, e store.MatchEntry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("unqueue from %s: %w", queue, err)
	}
	if err := s.c.LRem(ctx, s.QueueKey(queue), 0, b).Err(); err != nil {
		return fmt.Errorf("unqueue from %s: %w", queue, err)
	}
	return nil
}

// Client is the store's Redis client, for the broker of a node sharing it.
func (s *Store) Client() redis.UniversalClient { return s.c }
