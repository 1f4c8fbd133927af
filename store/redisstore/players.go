package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/players"
)

// The player part of the store (players.Store). Every script touches one
// key, so that it runs on Redis Cluster too; what spans keys (an account's
// name and its identity, a session and its player's index) is written in
// steps whose order leaves nothing a reader could misuse (a name claimed
// before the identity it names, an index entry before or after its
// session, which readers check).

var _ players.Store = (*Store)(nil)

// Keys of the player part (see the package's key layout).

// AccountKey is the key of the account named name (without case).
func (s *Store) AccountKey(name string) string { return s.prefix + "account:" + players.NameKey(name) }

// SkeletonKey is the key of a skeleton of an account's name
// (players.Skeletons): the account's id, or "" while a closed account's
// name is held.
func (s *Store) SkeletonKey(skeleton string) string { return s.prefix + "skeleton:" + skeleton }

// skeletonsIndexedKey marks a store whose accounts made before the
// skeletons were kept were indexed (IndexSkeletons).
func (s *Store) skeletonsIndexedKey() string { return s.prefix + "skeletons:indexed" }

// SessionKey is the key of a session, by its hash.
func (s *Store) SessionKey(hash string) string { return s.prefix + "session:" + hash }

// SessionsKey is the key of a player's index of sessions.
func (s *Store) SessionsKey(player string) string { return s.PlayerKey(player) + ":sessions" }

// DevicesKey is the key of an account's known devices.
func (s *Store) DevicesKey(player string) string { return s.PlayerKey(player) + ":devices" }

// SignInKey is the key of a count of failed sign-ins.
func (s *Store) SignInKey(key string) string { return s.prefix + "signin:" + key }

// BotsKey is the key of a player's bot accounts: a hash, bot id -> JSON
// players.Bot.
func (s *Store) BotsKey(owner string) string { return s.prefix + "bots:" + owner }

// renewGuest renews key for the guest TTL if it expires at all (PEXPIRE
// XX, Redis 7): a guest's identity is renewed, an account's (no expiry)
// stays as it is.
func (s *Store) renewGuest(ctx context.Context, pipe redis.Pipeliner, key string) {
	pipe.Do(ctx, "PEXPIRE", key, s.guestTTL.Milliseconds(), "XX")
}

// derivedID reports whether id is the one derived from tokenHash, a
// person's (players.GuestID) or a bot account's (players.BotID): such an
// identity is kept under its id, so that it is found by id as well as by
// token. Older identities are kept under their token hash.
func derivedID(id, tokenHash string) bool {
	return id == players.GuestID(tokenHash) || id == players.BotID(tokenHash)
}

// identity reads an identity hash kept under id: a guest's or a bot's
// (its token derives id) or an account's (a password).
func identity(id string, h map[string]string) (players.Identity, bool) {
	p := players.Identity{ID: id, Name: h["name"]}
	switch {
	case h["password"] != "":
		p.PasswordHash = h["password"]
		p.Joined, _ = strconv.ParseInt(h["joined"], 10, 64)
		return p, true
	case h["token"] != "" && derivedID(id, h["token"]):
		p.TokenHash, p.Owner = h["token"], h["owner"]
		return p, true
	}
	return players.Identity{}, false
}

// savePlayerScript: KEYS the identity; ARGV token hash, name, TTL in ms
// (0: lasting), a bot's owner ("" keeps the one kept). Refuses (0) to
// write over an account.
var savePlayerScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], 'password') == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'token', ARGV[1], 'name', ARGV[2])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'owner', ARGV[4])
end
if ARGV[3] == '0' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1
`)

// SavePlayer implements players.Identities: one script on the identity's
// key (a player whose id is not derived from its token, one made before
// ids were derived, keeps its key by token hash).
func (s *Store) SavePlayer(ctx context.Context, p players.Identity, lasting bool) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save player %s: %w", p.ID, err)
	}
	if p.ID == "" || p.TokenHash == "" {
		return fmt.Errorf("save player %q: empty id or token hash", p.ID)
	}
	ttl := s.guestTTL.Milliseconds()
	if lasting {
		ttl = 0
	}
	if !derivedID(p.ID, p.TokenHash) {
		if acct, err := s.c.HExists(ctx, s.PlayerKey(p.ID), "password").Result(); err != nil || acct {
			if err == nil {
				err = errors.New("an account")
			}
			return fmt.Errorf("save player %s: %w", p.ID, err)
		}
		_, err := s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.HSet(ctx, s.PlayerKey(p.TokenHash), "id", p.ID, "name", p.Name)
			pipe.PExpire(ctx, s.PlayerKey(p.TokenHash), s.guestTTL)
			return nil
		})
		if err != nil {
			return fmt.Errorf("save player %s: %w", p.ID, s.refused(err))
		}
		return nil
	}
	n, err := savePlayerScript.Run(ctx, s.c, []string{s.PlayerKey(p.ID)}, p.TokenHash, p.Name, ttl, p.Owner).Int()
	if err != nil {
		return fmt.Errorf("save player %s: %w", p.ID, s.refused(err))
	}
	if n == 0 {
		return fmt.Errorf("save player %s: an account", p.ID)
	}
	return nil
}

// PlayerByToken implements players.Identities in one round trip: it reads
// the identity under its derived ids and under the token hash (identities
// made before ids were derived), and renews whichever of them expire.
func (s *Store) PlayerByToken(ctx context.Context, tokenHash string) (players.Identity, error) {
	if err := ctx.Err(); err != nil {
		return players.Identity{}, fmt.Errorf("player by token: %w", err)
	}
	ids := [...]string{players.GuestID(tokenHash), players.BotID(tokenHash)}
	pipe := s.c.Pipeline()
	var derived [len(ids)]*redis.MapStringStringCmd
	for i, id := range ids {
		derived[i] = pipe.HGetAll(ctx, s.PlayerKey(id))
		s.renewGuest(ctx, pipe, s.PlayerKey(id))
	}
	legacy := pipe.HGetAll(ctx, s.PlayerKey(tokenHash))
	pipe.PExpire(ctx, s.PlayerKey(tokenHash), s.guestTTL)
	if _, err := pipe.Exec(ctx); err != nil {
		return players.Identity{}, fmt.Errorf("player by token: %w", err)
	}
	for i, id := range ids {
		h := derived[i].Val()
		if h["token"] == tokenHash {
			return players.Identity{ID: id, Name: h["name"], TokenHash: tokenHash, Owner: h["owner"]}, nil
		}
		if h["retired"] == tokenHash && h["password"] != "" {
			return players.Identity{}, fmt.Errorf("player by token: %w", players.ErrRetired)
		}
	}
	if h := legacy.Val(); h["id"] != "" {
		return players.Identity{ID: h["id"], Name: h["name"], TokenHash: tokenHash}, nil
	}
	return players.Identity{}, fmt.Errorf("player by token: %w", players.ErrNotFound)
}

// PlayerByID implements players.Identities in one round trip.
func (s *Store) PlayerByID(ctx context.Context, id string) (players.Identity, error) {
	if err := ctx.Err(); err != nil {
		return players.Identity{}, fmt.Errorf("player %s: %w", id, err)
	}
	pipe := s.c.Pipeline()
	h := pipe.HGetAll(ctx, s.PlayerKey(id))
	s.renewGuest(ctx, pipe, s.PlayerKey(id))
	if _, err := pipe.Exec(ctx); err != nil {
		return players.Identity{}, fmt.Errorf("player %s: %w", id, err)
	}
	p, ok := identity(id, h.Val())
	if !ok {
		return players.Identity{}, fmt.Errorf("player %s: %w", id, players.ErrNotFound)
	}
	return p, nil
}

// PlayerNames implements players.Identities in one pipeline: the fields of
// each id's identity hash, kept when they make an identity under that id
// (a key by token hash or a stray hash is not a match).
func (s *Store) PlayerNames(ctx context.Context, ids []string) (map[string]string, error) {
	if err := players.CheckNameLookup(ctx, ids); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	pipe := s.c.Pipeline()
	cmds := make([]*redis.SliceCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HMGet(ctx, s.PlayerKey(id), "token", "name", "password")
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("player names: %w", err)
	}
	for i, id := range ids {
		v := cmds[i].Val()
		if len(v) != 3 {
			continue
		}
		h := map[string]string{}
		for j, f := range []string{"token", "name", "password"} {
			h[f], _ = v[j].(string)
		}
		if p, ok := identity(id, h); ok {
			out[id] = p.Name
		}
	}
	return out, nil
}

// moveToSessionScript: KEYS the identity. 1 when the guest's token had
// not moved (it is marked moved now: the field lives and expires with the
// hash), 0 when it had, -1 when there is no guest.
var moveToSessionScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], 'token') == 0 or redis.call('HEXISTS', KEYS[1], 'password') == 1 then
  return -1
end
return redis.call('HSETNX', KEYS[1], 'moved', '1')
`)

// MoveToSession implements players.Identities in one script.
func (s *Store) MoveToSession(ctx context.Context, id string) error {
	n, err := moveToSessionScript.Run(ctx, s.c, []string{s.PlayerKey(id)}).Int()
	switch {
	case err != nil:
		return fmt.Errorf("move %s to a session: %w", id, s.refused(err))
	case n < 0:
		return fmt.Errorf("move %s to a session: %w", id, players.ErrNotFound)
	case n == 0:
		return fmt.Errorf("move %s to a session: %w", id, players.ErrMoved)
	}
	return nil
}

// addBotScript: KEYS the owner's bots; ARGV the bot id, the bot (JSON), the
// most bots, the TTL in ms (0: lasting). Adds the bot unless the owner has
// the most already (returns 0), and renews the list's expiry.
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
if ARGV[4] == '0' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return 1
`)

// AddBot implements players.Bots in one script.
func (s *Store) AddBot(ctx context.Context, owner string, b players.Bot, max int, lasting bool) error {
	if owner == "" || b.ID == "" {
		return fmt.Errorf("add bot %q of %q: empty id", b.ID, owner)
	}
	v, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("add bot of %s: %w", owner, err)
	}
	ttl := s.guestTTL.Milliseconds()
	if lasting {
		ttl = 0
	}
	n, err := addBotScript.Run(ctx, s.c, []string{s.BotsKey(owner)}, b.ID, v, max, ttl, classArg(b.Turma)).Int()
	if err != nil {
		return fmt.Errorf("add bot of %s: %w", owner, s.refused(err))
	}
	if n == 0 {
		return fmt.Errorf("add bot of %s: %w", owner, players.ErrTooManyBots)
	}
	return nil
}

// classArg is addBotScript's ARGV[5]: "1" for a class bot.
func classArg(turma bool) string {
	if turma {
		return "1"
	}
	return "0"
}

// OwnerBots implements players.Bots.
func (s *Store) OwnerBots(ctx context.Context, owner string) ([]players.Bot, error) {
	h, err := s.c.HGetAll(ctx, s.BotsKey(owner)).Result()
	if err != nil {
		return nil, fmt.Errorf("bots of %s: %w", owner, err)
	}
	out := make([]players.Bot, 0, len(h))
	for _, v := range h {
		var b players.Bot
		if json.Unmarshal([]byte(v), &b) == nil {
			out = append(out, b)
		}
	}
	return out, nil
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

// SetBotOpen implements players.Bots: the field "open" of the bot's
// identity hash, which expires with it (SavePlayer writes only its own
// fields).
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
		return fmt.Errorf("set bot %s open: %w", id, players.ErrNotFound)
	}
	return nil
}

// BotsOpen implements players.Bots in one pipeline.
func (s *Store) BotsOpen(ctx context.Context, ids []string) (map[string]bool, error) {
	if err := players.CheckNameLookup(ctx, ids); err != nil {
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
		if cmds[i].Val() == "1" && players.IsBotID(id) {
			out[id] = true
		}
	}
	return out, nil
}

// becomeAccountScript: KEYS the identity; ARGV name, password hash, joined,
// the retired token hash. Refuses (0) an id that is an account already;
// otherwise drops the token (kept as "retired" when it was the guest's)
// and makes the identity last.
var becomeAccountScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], 'password') == 1 then
  return 0
end
local token = redis.call('HGET', KEYS[1], 'token')
redis.call('HDEL', KEYS[1], 'token')
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'password', ARGV[2], 'joined', ARGV[3])
if ARGV[4] ~= '' and token == ARGV[4] then
  redis.call('HSET', KEYS[1], 'retired', ARGV[4])
end
redis.call('PERSIST', KEYS[1])
return 1
`)

// holdSkeletonScript: KEYS a skeleton; ARGV the closed account's id, the
// hold in ms. Holds the skeleton ("" for hold) if it is the account's (or
// nobody's).
var holdSkeletonScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], '', 'PX', ARGV[2])
end
return 1
`)

// releaseNameScript: KEYS the name; ARGV the id. Deletes the name's claim
// if it is still id's (compare and delete).
var releaseNameScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`)

// CreateAccount implements players.Accounts: the name is claimed first
// (SET NX, the one atomic decision), then the identity becomes the
// account; a refusal there gives the name back. Last, the guest's bots
// and their list stop expiring.
func (s *Store) CreateAccount(ctx context.Context, a players.Identity, retire string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("create account %s: %w", a.ID, err)
	}
	if a.ID == "" || a.Name == "" || a.PasswordHash == "" {
		return fmt.Errorf("create account %q: empty id, name or password hash", a.ID)
	}
	nameKey := s.AccountKey(a.Name)
	ok, err := s.c.SetNX(ctx, nameKey, a.ID, 0).Result()
	if err != nil {
		return fmt.Errorf("create account %s: %w", a.ID, s.refused(err))
	}
	if !ok {
		return fmt.Errorf("create account %s: %w", a.ID, players.ErrNameTaken)
	}
	if err := s.claimSkeletons(ctx, a); err != nil {
		_ = releaseNameScript.Run(context.WithoutCancel(ctx), s.c, []string{nameKey}, a.ID).Err()
		return fmt.Errorf("create account %s: %w", a.ID, err)
	}
	n, err := becomeAccountScript.Run(ctx, s.c, []string{s.PlayerKey(a.ID)}, a.Name, a.PasswordHash,
		strconv.FormatInt(a.Joined, 10), retire).Int()
	if err != nil || n == 0 {
		s.releaseSkeletons(context.WithoutCancel(ctx), players.Skeletons(a.Name), a.ID)
		_ = releaseNameScript.Run(context.WithoutCancel(ctx), s.c, []string{nameKey}, a.ID).Err()
		if err == nil {
			err = errors.New("already an account")
		}
		return fmt.Errorf("create account %s: %w", a.ID, err)
	}
	bots, err := s.OwnerBots(ctx, a.ID)
	if err != nil {
		return fmt.Errorf("create account %s: its bots: %w", a.ID, err)
	}
	_, err = s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		if retire != "" && !derivedID(a.ID, retire) {
			pipe.Del(ctx, s.PlayerKey(retire)) // an identity made before ids were derived
		}
		pipe.Persist(ctx, s.BotsKey(a.ID))
		for _, b := range bots {
			pipe.Persist(ctx, s.PlayerKey(b.ID))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("create account %s: its bots: %w", a.ID, err)
	}
	return nil
}

// claimSkeletons claims the skeletons of a's name for a.ID (SET NX each,
// one key a command: keys of several slots); when another account or a
// held name has one, the ones claimed are given back (ErrLookAlike).
func (s *Store) claimSkeletons(ctx context.Context, a players.Identity) error {
	skels := players.Skeletons(a.Name)
	var claimed []string
	for _, k := range skels {
		ok, err := s.c.SetNX(ctx, s.SkeletonKey(k), a.ID, 0).Result()
		if err != nil {
			s.releaseSkeletons(context.WithoutCancel(ctx), claimed, a.ID)
			return s.refused(err)
		}
		if !ok {
			holder, err := s.c.Get(ctx, s.SkeletonKey(k)).Result()
			if err != nil || holder != a.ID {
				s.releaseSkeletons(context.WithoutCancel(ctx), claimed, a.ID)
				return players.ErrLookAlike
			}
		}
		claimed = append(claimed, k)
	}
	return nil
}

// releaseSkeletons gives back the skeletons id claimed (compare and
// delete).
func (s *Store) releaseSkeletons(ctx context.Context, skels []string, id string) {
	for _, k := range skels {
		_ = releaseNameScript.Run(ctx, s.c, []string{s.SkeletonKey(k)}, id).Err()
	}
}

// SkeletonHeld implements players.Accounts: one GET a skeleton, in one
// pipeline.
func (s *Store) SkeletonHeld(ctx context.Context, skels []string, id string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("skeleton held: %w", err)
	}
	pipe := s.c.Pipeline()
	cmds := make([]*redis.StringCmd, 0, len(skels))
	for _, k := range skels {
		if len(k) <= players.MaxSkeleton { // a longer one is no account's
			cmds = append(cmds, pipe.Get(ctx, s.SkeletonKey(k)))
		}
	}
	if len(cmds) == 0 {
		return false, nil
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return false, fmt.Errorf("skeleton held: %w", err)
	}
	for _, c := range cmds {
		if holder, err := c.Result(); err == nil && (holder == "" || holder != id) {
			return true, nil // an account's, or a held name's ("")
		}
	}
	return false, nil
}

// IndexSkeletons implements players.Accounts: a SCAN of the accounts' names
// (every shard of a Redis Cluster), each account's skeletons claimed (SET
// NX: an account made meanwhile keeps its own), each held name's held for
// what is left of its hold; then the mark that it was done.
func (s *Store) IndexSkeletons(ctx context.Context) (int, error) {
	done, err := s.c.Exists(ctx, s.skeletonsIndexedKey()).Result()
	if err != nil || done == 1 {
		return 0, err
	}
	var n atomic.Int64
	prefix := s.prefix + "account:"
	scan := func(ctx context.Context, c redis.Cmdable) error {
		it := c.Scan(ctx, 0, prefix+"*", 256).Iterator()
		for it.Next(ctx) {
			key := it.Val()
			id, err := c.Get(ctx, key).Result()
			if errors.Is(err, redis.Nil) {
				continue // expired meanwhile
			}
			if err != nil {
				return err
			}
			if id == "" { // a closed account's name, held
				left, err := c.PTTL(ctx, key).Result()
				if err != nil {
					return err
				}
				if held := key[len(prefix):]; left > 0 && players.CheckAccountName(held) == nil {
					for _, k := range players.Skeletons(held) {
						if err := s.c.SetNX(ctx, s.SkeletonKey(k), "", left).Err(); err != nil {
							return err
						}
					}
				}
				continue
			}
			name, err := s.c.HGet(ctx, s.PlayerKey(id), "name").Result()
			if errors.Is(err, redis.Nil) {
				continue
			}
			if err != nil {
				return err
			}
			for _, k := range players.Skeletons(name) {
				if err := s.c.SetNX(ctx, s.SkeletonKey(k), id, 0).Err(); err != nil {
					return err
				}
			}
			n.Add(1)
		}
		return it.Err()
	}
	if cc, ok := s.c.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
	} else {
		err = scan(ctx, s.c)
	}
	if err == nil {
		err = s.c.Set(ctx, s.skeletonsIndexedKey(), "1", 0).Err()
	}
	if err != nil {
		return int(n.Load()), fmt.Errorf("index skeletons: %w", s.refused(err))
	}
	return int(n.Load()), nil
}

// AccountByKey implements players.Accounts: the name's claim, then the
// identity it names.
func (s *Store) AccountByKey(ctx context.Context, key string) (players.Identity, error) {
	if err := ctx.Err(); err != nil {
		return players.Identity{}, fmt.Errorf("account by name: %w", err)
	}
	id, err := s.c.Get(ctx, s.prefix+"account:"+key).Result()
	if errors.Is(err, redis.Nil) || err == nil && id == "" {
		return players.Identity{}, fmt.Errorf("account by name: %w", players.ErrNotFound)
	}
	if err != nil {
		return players.Identity{}, fmt.Errorf("account by name: %w", err)
	}
	h, err := s.c.HGetAll(ctx, s.PlayerKey(id)).Result()
	if err != nil {
		return players.Identity{}, fmt.Errorf("account by name: %w", err)
	}
	if p, ok := identity(id, h); ok && p.Account() {
		return p, nil
	}
	return players.Identity{}, fmt.Errorf("account by name: %w", players.ErrNotFound)
}

// setPasswordScript: KEYS the identity; ARGV the hash. 0 when it is no
// account.
var setPasswordScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], 'password') == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'password', ARGV[1])
return 1
`)

// SetPassword implements players.Accounts in one script.
func (s *Store) SetPassword(ctx context.Context, id, hash string) error {
	if hash == "" {
		return fmt.Errorf("set password of %s: empty hash", id)
	}
	n, err := setPasswordScript.Run(ctx, s.c, []string{s.PlayerKey(id)}, hash).Int()
	if err != nil {
		return fmt.Errorf("set password of %s: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("set password of %s: %w", id, players.ErrNotFound)
	}
	return nil
}

// CloseAccount implements players.Accounts: the name held first (so that
// nobody takes it while the rest goes), then the sessions, bots and the
// identity.
func (s *Store) CloseAccount(ctx context.Context, id string, hold time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("close account %s: %w", id, err)
	}
	h, err := s.c.HGetAll(ctx, s.PlayerKey(id)).Result()
	if err != nil {
		return fmt.Errorf("close account %s: %w", id, err)
	}
	a, ok := identity(id, h)
	if !ok || !a.Account() {
		return fmt.Errorf("close account %s: %w", id, players.ErrNotFound)
	}
	if err := s.c.Set(ctx, s.AccountKey(a.Name), "", hold).Err(); err != nil {
		return fmt.Errorf("close account %s: %w", id, err)
	}
	for _, k := range players.Skeletons(a.Name) { // held as the name, if still this account's
		if err := holdSkeletonScript.Run(ctx, s.c, []string{s.SkeletonKey(k)}, id, hold.Milliseconds()).Err(); err != nil {
			return fmt.Errorf("close account %s: %w", id, err)
		}
	}
	if err := s.DeleteSessions(ctx, id, ""); err != nil {
		return fmt.Errorf("close account %s: %w", id, err)
	}
	bots, err := s.c.HKeys(ctx, s.BotsKey(id)).Result()
	if err != nil {
		return fmt.Errorf("close account %s: %w", id, err)
	}
	keys := []string{s.PlayerKey(id), s.BotsKey(id), s.DevicesKey(id), s.PlayerRoomsKey(id), s.SessionsKey(id)}
	for _, b := range bots {
		keys = append(keys, s.PlayerKey(b))
	}
	_, err = s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, k := range keys { // one key a command: keys of several slots
			pipe.Del(ctx, k)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("close account %s: %w", id, err)
	}
	return nil
}

// saveSessionScript: KEYS the session; ARGV player, created, expires (Unix
// ms). Refuses (0) a hash that is another player's.
var saveSessionScript = redis.NewScript(`
local p = redis.call('HGET', KEYS[1], 'player')
if p and p ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'player', ARGV[1], 'created', ARGV[2], 'expires', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1
`)

// SaveSession implements players.Sessions: the session (one script), then
// its player's index, which lives until the latest of its sessions
// expires.
func (s *Store) SaveSession(ctx context.Context, se players.Session) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	if se.Hash == "" || se.Player == "" {
		return fmt.Errorf("save session of %q: empty hash or player", se.Player)
	}
	exp := se.Expires.UnixMilli()
	n, err := saveSessionScript.Run(ctx, s.c, []string{s.SessionKey(se.Hash)}, se.Player,
		se.Created.UnixMilli(), exp).Int()
	if err != nil {
		return fmt.Errorf("save session of %s: %w", se.Player, s.refused(err))
	}
	if n == 0 {
		return fmt.Errorf("save session of %s: the hash is another player's", se.Player)
	}
	idx := s.SessionsKey(se.Player)
	_, err = s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SAdd(ctx, idx, se.Hash)
		pipe.Do(ctx, "PEXPIREAT", idx, exp, "NX")
		pipe.Do(ctx, "PEXPIREAT", idx, exp, "GT")
		return nil
	})
	if err != nil {
		return fmt.Errorf("save session of %s: %w", se.Player, err)
	}
	return nil
}

// session reads a session hash; ok is false when it is not one or it has
// expired by now.
func session(hash string, h map[string]string, now time.Time) (players.Session, bool) {
	exp, err1 := strconv.ParseInt(h["expires"], 10, 64)
	created, err2 := strconv.ParseInt(h["created"], 10, 64)
	if h["player"] == "" || err1 != nil || err2 != nil || exp <= now.UnixMilli() {
		return players.Session{}, false
	}
	return players.Session{Hash: hash, Player: h["player"], Created: time.UnixMilli(created), Expires: time.UnixMilli(exp)}, true
}

// SessionByHash implements players.Sessions.
func (s *Store) SessionByHash(ctx context.Context, hash string) (players.Session, error) {
	if err := ctx.Err(); err != nil {
		return players.Session{}, fmt.Errorf("session: %w", err)
	}
	h, err := s.c.HGetAll(ctx, s.SessionKey(hash)).Result()
	if err != nil {
		return players.Session{}, fmt.Errorf("session: %w", err)
	}
	se, ok := session(hash, h, time.Now())
	if !ok {
		return players.Session{}, fmt.Errorf("session: %w", players.ErrNotFound)
	}
	return se, nil
}

// DeleteSession implements players.Sessions.
func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	p, err := s.c.HGet(ctx, s.SessionKey(hash), "player").Result()
	if errors.Is(err, redis.Nil) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	_, err = s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Del(ctx, s.SessionKey(hash))
		pipe.SRem(ctx, s.SessionsKey(p), hash)
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// DeleteSessions implements players.Sessions: every session of the index
// but keep.
func (s *Store) DeleteSessions(ctx context.Context, player, keep string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete sessions of %s: %w", player, err)
	}
	hashes, err := s.c.SMembers(ctx, s.SessionsKey(player)).Result()
	if err != nil {
		return fmt.Errorf("delete sessions of %s: %w", player, err)
	}
	_, err = s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, h := range hashes {
			if h != keep {
				pipe.Del(ctx, s.SessionKey(h))
				pipe.SRem(ctx, s.SessionsKey(player), h)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete sessions of %s: %w", player, err)
	}
	return nil
}

// PlayerSessions implements players.Sessions; index entries whose session
// is gone are removed.
func (s *Store) PlayerSessions(ctx context.Context, player string) ([]players.Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessions of %s: %w", player, err)
	}
	hashes, err := s.c.SMembers(ctx, s.SessionsKey(player)).Result()
	if err != nil {
		return nil, fmt.Errorf("sessions of %s: %w", player, err)
	}
	pipe := s.c.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(hashes))
	for i, h := range hashes {
		cmds[i] = pipe.HGetAll(ctx, s.SessionKey(h))
	}
	if len(hashes) > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, fmt.Errorf("sessions of %s: %w", player, err)
		}
	}
	out := []players.Session{}
	var stale []any
	now := time.Now()
	for i, h := range hashes {
		if se, ok := session(h, cmds[i].Val(), now); ok && se.Player == player {
			out = append(out, se)
		} else {
			stale = append(stale, h)
		}
	}
	if len(stale) > 0 {
		_ = s.c.SRem(ctx, s.SessionsKey(player), stale...).Err() // best-effort repair
	}
	return out, nil
}

// TrimSessions implements players.Sessions: one SCARD of the index while
// it holds at most max; past it the index's sessions are read (one
// pipeline, at most max and the sign-ins racing this one) and the least
// recently used ones deleted.
func (s *Store) TrimSessions(ctx context.Context, player string, max int, keep string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("trim sessions of %s: %w", player, err)
	}
	n, err := s.c.SCard(ctx, s.SessionsKey(player)).Result()
	if err != nil {
		return nil, fmt.Errorf("trim sessions of %s: %w", player, err)
	}
	if n <= int64(max) {
		return nil, nil
	}
	live, err := s.PlayerSessions(ctx, player) // drops the index's stale entries
	if err != nil {
		return nil, fmt.Errorf("trim sessions of %s: %w", player, err)
	}
	ended := players.LeastRecentlyUsed(live, max, keep)
	if len(ended) == 0 {
		return nil, nil
	}
	_, err = s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, h := range ended {
			pipe.Del(ctx, s.SessionKey(h))
			pipe.SRem(ctx, s.SessionsKey(player), h)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("trim sessions of %s: %w", player, err)
	}
	return ended, nil
}

// Fail implements players.Guards: INCR, and the window's expiry set by the
// first failure (PEXPIRE NX).
func (s *Store) Fail(ctx context.Context, keys []string, window time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("count failure: %w", err)
	}
	_, err := s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for _, k := range keys {
			pipe.Incr(ctx, s.SignInKey(k))
			pipe.Do(ctx, "PEXPIRE", s.SignInKey(k), window.Milliseconds(), "NX")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("count failure: %w", err)
	}
	return nil
}

// FailureCounts implements players.Guards in one round trip.
func (s *Store) FailureCounts(ctx context.Context, keys []string) ([]players.Failures, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("failure counts: %w", err)
	}
	pipe := s.c.Pipeline()
	counts := make([]*redis.StringCmd, len(keys))
	ttls := make([]*redis.DurationCmd, len(keys))
	for i, k := range keys {
		counts[i] = pipe.Get(ctx, s.SignInKey(k))
		ttls[i] = pipe.PTTL(ctx, s.SignInKey(k))
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("failure counts: %w", err)
	}
	out := make([]players.Failures, len(keys))
	for i := range keys {
		n, err := counts[i].Int64()
		left := ttls[i].Val()
		if err != nil || n <= 0 || left <= 0 {
			continue
		}
		out[i] = players.Failures{N: n, Left: left}
	}
	return out, nil
}

// Take implements players.Guards in one round trip: INCR, the window's
// expiry set by the first count (PEXPIRE NX), and its time left.
func (s *Store) Take(ctx context.Context, keys []string, window time.Duration) ([]players.Failures, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("take: %w", err)
	}
	pipe := s.c.Pipeline()
	counts := make([]*redis.IntCmd, len(keys))
	ttls := make([]*redis.DurationCmd, len(keys))
	for i, k := range keys {
		counts[i] = pipe.Incr(ctx, s.SignInKey(k))
		pipe.Do(ctx, "PEXPIRE", s.SignInKey(k), window.Milliseconds(), "NX")
		ttls[i] = pipe.PTTL(ctx, s.SignInKey(k))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("take: %w", s.refused(err))
	}
	out := make([]players.Failures, len(keys))
	for i := range keys {
		out[i] = players.Failures{N: counts[i].Val(), Left: max(ttls[i].Val(), 0)}
	}
	return out, nil
}

// untakeScript: KEYS a count. Takes one back if the count is there (so
// in its window) and above zero: a DECR of a missing key would make one
// without an expiry.
var untakeScript = redis.NewScript(`
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
`)

// Untake implements players.Guards: one script a key (keys of several
// slots).
func (s *Store) Untake(ctx context.Context, keys []string) error {
	for _, k := range keys {
		if err := untakeScript.Run(ctx, s.c, []string{s.SignInKey(k)}).Err(); err != nil {
			return fmt.Errorf("untake: %w", err)
		}
	}
	return nil
}

// AddDevice implements players.Guards: the newest max devices, each kept
// ttl from its addition.
func (s *Store) AddDevice(ctx context.Context, player, hash string, max int, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("add device of %s: %w", player, err)
	}
	now := time.Now().UnixMilli()
	k := s.DevicesKey(player)
	_, err := s.c.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.ZAdd(ctx, k, redis.Z{Score: float64(now), Member: hash})
		pipe.ZRemRangeByScore(ctx, k, "-inf", "("+strconv.FormatInt(now-ttl.Milliseconds(), 10))
		pipe.ZRemRangeByRank(ctx, k, 0, int64(-max-1))
		pipe.PExpire(ctx, k, ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("add device of %s: %w", player, err)
	}
	return nil
}

// KnownDevice implements players.Guards.
func (s *Store) KnownDevice(ctx context.Context, player, hash string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("known device of %s: %w", player, err)
	}
	_, err := s.c.ZScore(ctx, s.DevicesKey(player), hash).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("known device of %s: %w", player, err)
	}
	return true, nil
}
