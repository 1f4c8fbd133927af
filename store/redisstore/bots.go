package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

var _ store.Bots = (*Store)(nil)

// BotsKey is the key of a player's bot accounts: a hash, bot id -> JSON
// store.Bot.
func (s *Store) BotsKey(owner string) string { return s.prefix + "bots:" + owner }

// addBotScript: KEYS the owner's bots; ARGV the bot id, the bot (JSON), the
// most bots of its kind, the TTL in ms, "1" for a class bot. Adds the bot
// unless the owner has the most of its kind already (returns 0), and renews
// the list's expiry. A class bot's JSON holds "turma":true, which no name
// can (a quote in a name is escaped).
var addBotScript = redis.NewScript(`
local class = ARGV[5] == '1'
local n = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do
  if (string.find(v, '"turma":true', 1, true) ~= nil) == class then
    n = n + 1
  end
end
if n >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`)

// AddBot implements store.Bots in one script.
func (s *Store) AddBot(ctx context.Context, owner string, b store.Bot, max int) error {
	if owner == "" || b.ID == "" {
		return fmt.Errorf("add bot %q of %q: empty id", b.ID, owner)
	}
	v, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("add bot of %s: %w", owner, err)
	}
	n, err := addBotScript.Run(ctx, s.c, []string{s.BotsKey(owner)}, b.ID, v, max, s.guestTTL.Milliseconds(), classArg(b.Turma)).Int()
	if err != nil {
		return fmt.Errorf("add bot of %s: %w", owner, err)
	}
	if n == 0 {
		return fmt.Errorf("add bot of %s: %w", owner, store.ErrTooManyBots)
	}
	return nil
}

// OwnerBots implements store.Bots.
func (s *Store) OwnerBots(ctx context.Context, owner string) ([]store.Bot, error) {
	h, err := s.c.HGetAll(ctx, s.BotsKey(owner)).Result()
	if err != nil {
		return nil, fmt.Errorf("bots of %s: %w", owner, err)
	}
	out := make([]store.Bot, 0, len(h))
	for _, v := range h {
		var b store.Bot
		if json.Unmarshal([]byte(v), &b) == nil {
			out = append(out, b)
		}
	}
	return out, nil
}

func classArg(turma bool) string {
	if turma {
		return "1"
	}
	return "0"
}

// setBotOpenScript: KEYS the bot's identity hash (PlayerKey); ARGV "1" to
// open the bot, "0" to close it. Sets or removes the hash's field "open"
// when the identity is there (returns 1), else changes nothing (0): a
// field set on a missing key would make a hash with no expiry.
var setBotOpenScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[1], 'open', '1')
else
  redis.call('HDEL', KEYS[1], 'open')
end
return 1
`)

// SetBotOpen implements store.Bots: the field "open" of the bot's identity
// hash, which expires with it (SavePlayer writes only its own fields).
func (s *Store) SetBotOpen(ctx context.Context, id string, open bool) error {
	arg := "0"
	if open {
		arg = "1"
	}
	n, err := setBotOpenScript.Run(ctx, s.c, []string{s.PlayerKey(id)}, arg).Int()
	if err != nil {
		return fmt.Errorf("set bot %s open: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("set bot %s open: %w", id, store.ErrNotFound)
	}
	return nil
}

// BotsOpen implements store.Bots in one pipeline.
func (s *Store) BotsOpen(ctx context.Context, ids []string) (map[string]bool, error) {
	if err := store.CheckNameLookup(ctx, ids); err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	pipe := s.c.Pipeline()
	cmds := make([]*redis.StringCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HGet(ctx, s.PlayerKey(id), "open")
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("bots open: %w", err)
	}
	for i, id := range ids {
		if cmds[i].Val() == "1" && store.IsBotID(id) {
			out[id] = true
		}
	}
	return out, nil
}
