package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/store"
)

var _ store.Matcher = (*Store)(nil)

// QueueKey is the key of a quick-match queue: a list of JSON entries, oldest
// first.
func (s *Store) QueueKey(queue string) string { return s.prefix + "match:" + queue }

// matchScript: KEYS queue; ARGV the entry (JSON), its player's id,
// ratings.SeekRange and SeekWiden. Pops and returns the entry store.Pick
// chooses (a casual request: the oldest of another player; a rated one:
// the nearest in rating whose range and the request's hold each other at
// Redis's time), or queues the entry (once) and returns false.
var matchScript = redis.NewScript(`
local items = redis.call('LRANGE', KEYS[1], 0, -1)
local me = cjson.decode(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function range(x)
  local r, st = tonumber(ARGV[3]), tonumber(x.st or 0)
  local waited = now - tonumber(x.s or 0)
  if st > 0 and waited > 0 then
    r = r + tonumber(ARGV[4]) * math.floor(waited / st)
  end
  return r
end
local best, bestd = nil, nil
for _, v in ipairs(items) do
  local ok, e = pcall(cjson.decode, v)
  if ok and e.p ~= ARGV[2] then
    if not me.r then
      redis.call('LREM', KEYS[1], 1, v)
      return v
    end
    local d = math.abs(tonumber(e.rt or 0) - tonumber(me.rt or 0))
    if d <= range(me) and d <= range(e) and (bestd == nil or d < bestd) then
      best, bestd = v, d
    end
  end
end
if best then
  redis.call('LREM', KEYS[1], 1, best)
  return best
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
	v, err := matchScript.Run(ctx, s.c, []string{s.QueueKey(queue)}, b, e.Player, ratings.SeekRange, ratings.SeekWiden).Text()
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
func (s *Store) Unqueue(ctx context.Context, queue string, e store.MatchEntry) (bool, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return false, fmt.Errorf("unqueue from %s: %w", queue, err)
	}
	n, err := s.c.LRem(ctx, s.QueueKey(queue), 0, b).Result()
	if err != nil {
		return false, fmt.Errorf("unqueue from %s: %w", queue, err)
	}
	return n > 0, nil
}

// Client is the store's Redis client, for the broker of a node sharing it.
func (s *Store) Client() redis.UniversalClient { return s.c }
