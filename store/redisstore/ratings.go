package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/ratings"
)

// The ratings part of the store (ratings.Store). Every key has the hash tag
// {ratings}, so that Apply writes both players, their curves, the boards,
// the game's changes and the owed set in one script, on one Cluster slot
// (one shard holds every rating: a few hundred bytes a player). Keys (P is
// the prefix):
//
//	P {ratings}:player:<id>            hash: pool ("go/9") -> the rating (JSON, ratings.Rating);
//	                                   ":name", ":bot" (0/1) as the last rated game gave them
//	P {ratings}:history:<pool>:<id>    list: the player's points in the pool (JSON, ratings.Point),
//	                                   oldest first, trimmed to ratings.HistoryLimit
//	P {ratings}:board:<pool>:people    sorted set: player ids by rating, for those on the board
//	P {ratings}:board:<pool>:bots      at their last game (ratings.Rating.OnBoard); a read leaves
//	                                   out the players idle at its now
//	P {ratings}:applied:<room>         string: the rated room's changes (JSON, [2]ratings.Change),
//	                                   kept the records' retention
//	P {ratings}:owed                   sorted set: owed rooms by the time they were marked (ms)
//	P {ratings}:tallied:<room>         string: a tallied room's mark, kept the records' retention
//	P {ratings}:results:<id>           hash: won, drawn, lost; kept the records' retention after
//	                                   the player's last game
//	P {ratings}:best                   sorted set: 2048 players' best scores
//	P {ratings}:best:names             hash: id -> name, of the players in best
//	P {ratings}:ladder:<pool>          set: bot ids in the pool's ladder
//	P {ratings}:ladders:<id>           set: the pools of a bot's ladders (at most ratings.MaxLadders)

var _ ratings.Store = (*Store)(nil)

func (s *Store) ratingsKey(parts ...string) string {
	return s.prefix + "{ratings}:" + strings.Join(parts, ":")
}

// RatingsKey is the key of a player's ratings hash.
func (s *Store) RatingsKey(id string) string { return s.ratingsKey("player", id) }

// HistoryKey is the key of a player's curve in a pool.
func (s *Store) HistoryKey(pool, id string) string { return s.ratingsKey("history", pool, id) }

// BoardKey is the key of a pool's leaderboard of people or of bots.
func (s *Store) BoardKey(pool string, bots bool) string {
	if bots {
		return s.ratingsKey("board", pool, "bots")
	}
	return s.ratingsKey("board", pool, "people")
}

// AppliedKey is the key of a rated room's changes.
func (s *Store) AppliedKey(room string) string { return s.ratingsKey("applied", room) }

// OwedKey is the key of the owed rooms.
func (s *Store) OwedKey() string { return s.ratingsKey("owed") }

// TalliedKey is the key of a tallied room's mark.
func (s *Store) TalliedKey(room string) string { return s.ratingsKey("tallied", room) }

// ResultsKey is the key of a player's results.
func (s *Store) ResultsKey(id string) string { return s.ratingsKey("results", id) }

// BestKey is the key of 2048's best scores; BestNamesKey of their names.
func (s *Store) BestKey() string      { return s.ratingsKey("best") }
func (s *Store) BestNamesKey() string { return s.ratingsKey("best", "names") }

// LadderKey is the key of a pool's ladder; LaddersKey of a bot's pools.
func (s *Store) LadderKey(pool string) string { return s.ratingsKey("ladder", pool) }
func (s *Store) LaddersKey(id string) string  { return s.ratingsKey("ladders", id) }

// The fields of a ratings hash beside its pools (a pool never starts with
// a colon: ratings.CheckGame).
const (
	nameField = ":name"
	botField  = ":bot"
)

// Rating implements ratings.Store.
func (s *Store) Rating(ctx context.Context, pool, id string) (ratings.Rating, error) {
	v, err := s.c.HGet(ctx, s.RatingsKey(id), pool).Result()
	if errors.Is(err, redis.Nil) {
		return ratings.New(), nil
	}
	if err != nil {
		return ratings.Rating{}, fmt.Errorf("rating of %s in %s: %w", id, pool, err)
	}
	r, err := decodeRating(v)
	if err != nil {
		return ratings.Rating{}, fmt.Errorf("rating of %s in %s: %w", id, pool, err)
	}
	return r, nil
}

func decodeRating(v string) (ratings.Rating, error) {
	var r ratings.Rating
	if err := json.Unmarshal([]byte(v), &r); err != nil {
		return ratings.Rating{}, fmt.Errorf("stored rating %q: %w", v, err)
	}
	return r, nil
}

// Ratings implements ratings.Store.
func (s *Store) Ratings(ctx context.Context, id string) (map[string]ratings.Rating, error) {
	h, err := s.c.HGetAll(ctx, s.RatingsKey(id)).Result()
	if err != nil {
		return nil, fmt.Errorf("ratings of %s: %w", id, err)
	}
	out := make(map[string]ratings.Rating, len(h))
	for f, v := range h {
		if strings.HasPrefix(f, ":") {
			continue
		}
		r, err := decodeRating(v)
		if err != nil {
			return nil, fmt.Errorf("ratings of %s in %s: %w", id, f, err)
		}
		out[f] = r
	}
	return out, nil
}

// applyScript writes a rated game if it was not applied and both ratings
// are still those its caller read (else the caller reads and rates again).
//
// KEYS: applied, player A, player B, history A, history B, board A, board
// B, owed (one slot).
// ARGV: pool, A's rating read and B's (” none), A's new rating and B's,
// the changes, the records' retention (ms), A's point and B's, A on the
// board (0/1) and B, A's rating and B's (the boards' scores), A's name,
// A's bot flag, B's name, B's bot flag, the room, ratings.HistoryLimit,
// A's id and B's.
// Returns {1} when written, {0, changes} when applied before, {2} when a
// rating changed since the read.
var applyScript = redis.NewScript(`
local done = redis.call('GET', KEYS[1])
if done then
  redis.call('ZREM', KEYS[8], ARGV[18])
  return {0, done}
end
if (redis.call('HGET', KEYS[2], ARGV[1]) or '') ~= ARGV[2] or (redis.call('HGET', KEYS[3], ARGV[1]) or '') ~= ARGV[3] then
  return {2}
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4], ':name', ARGV[14], ':bot', ARGV[15])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[5], ':name', ARGV[16], ':bot', ARGV[17])
for i = 0, 1 do
  redis.call('RPUSH', KEYS[4 + i], ARGV[8 + i])
  redis.call('LTRIM', KEYS[4 + i], -tonumber(ARGV[19]), -1)
  if ARGV[10 + i] == '1' then
    redis.call('ZADD', KEYS[6 + i], ARGV[12 + i], ARGV[20 + i])
  else
    redis.call('ZREM', KEYS[6 + i], ARGV[20 + i])
  end
end
redis.call('SET', KEYS[1], ARGV[6], 'PX', ARGV[7])
redis.call('ZREM', KEYS[8], ARGV[18])
return {1}
`)

// maxApplyTries bounds Apply's rounds of read, rate and write: each round
// that fails lost to another game of one of the players, which landed.
const maxApplyTries = 100

// Apply implements ratings.Store: it reads both ratings, rates, and writes
// in one script that checks the room was not applied and the ratings did
// not change since the read, and reads again when they did.
func (s *Store) Apply(ctx context.Context, g ratings.Game, rate func(a, b ratings.Rating) (ratings.Rating, ratings.Rating)) ([2]ratings.Change, bool, error) {
	var none [2]ratings.Change
	if err := ctx.Err(); err != nil {
		return none, false, fmt.Errorf("apply game of room %s: %w", g.Room, err)
	}
	if err := ratings.CheckGame(g); err != nil {
		return none, false, err
	}
	a, b := g.Sides[0], g.Sides[1]
	keys := []string{s.AppliedKey(g.Room), s.RatingsKey(a.ID), s.RatingsKey(b.ID), s.HistoryKey(g.Pool, a.ID),
		s.HistoryKey(g.Pool, b.ID), s.BoardKey(g.Pool, a.Bot), s.BoardKey(g.Pool, b.Bot), s.OwedKey()}
	for range maxApplyTries {
		var applied *redis.StringCmd
		var read [2]*redis.StringCmd
		_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
			applied = p.Get(ctx, keys[0])
			read[0] = p.HGet(ctx, keys[1], g.Pool)
			read[1] = p.HGet(ctx, keys[2], g.Pool)
			return nil
		})
		for _, cmd := range []*redis.StringCmd{applied, read[0], read[1]} {
			if err := cmd.Err(); err != nil && !errors.Is(err, redis.Nil) {
				return none, false, fmt.Errorf("apply game of room %s: %w", g.Room, err)
			}
		}
		if err != nil && !errors.Is(err, redis.Nil) {
			return none, false, fmt.Errorf("apply game of room %s: %w", g.Room, err)
		}
		if v, err := applied.Result(); err == nil {
			if err := s.c.ZRem(ctx, s.OwedKey(), g.Room).Err(); err != nil {
				return none, false, fmt.Errorf("apply game of room %s: %w", g.Room, err)
			}
			ch, err := decodeChanges(v)
			return ch, false, err
		}
		var ch [2]ratings.Change
		var raw [2]string
		for i, cmd := range read {
			ch[i] = ratings.Change{ID: g.Sides[i].ID, Before: ratings.New()}
			v, err := cmd.Result()
			if errors.Is(err, redis.Nil) {
				continue
			}
			if ch[i].Before, err = decodeRating(v); err != nil {
				return none, false, fmt.Errorf("apply game of room %s: %w", g.Room, err)
			}
			raw[i] = v
		}
		ch[0].After, ch[1].After = rate(ch[0].Before, ch[1].Before)
		args, err := applyArgs(g, raw, ch, s.recordRetention)
		if err != nil {
			return none, false, err
		}
		res, err := applyScript.Run(ctx, s.c, keys, args...).Slice()
		if err != nil {
			return none, false, fmt.Errorf("apply game of room %s: %w", g.Room, s.refused(err))
		}
		switch code, _ := res[0].(int64); code {
		case 1:
			return ch, true, nil
		case 0:
			v, _ := res[1].(string)
			ch, err := decodeChanges(v)
			return ch, false, err
		}
		// A rating changed since the read: another game landed first.
	}
	return none, false, fmt.Errorf("apply game of room %s: the ratings kept changing under %d tries", g.Room, maxApplyTries)
}

// applyArgs are applyScript's ARGV for the game g whose ratings were read as
// raw and rated as ch.
func applyArgs(g ratings.Game, raw [2]string, ch [2]ratings.Change, retention time.Duration) ([]any, error) {
	changes, err := json.Marshal(ch)
	if err != nil {
		return nil, fmt.Errorf("apply game of room %s: %w", g.Room, err)
	}
	var after, points [2][]byte
	for i := range ch {
		r := ch[i].After
		if after[i], err = json.Marshal(r); err != nil {
			return nil, fmt.Errorf("apply game of room %s: %w", g.Room, err)
		}
		p := ratings.Point{Room: g.Room, At: g.Ended.UnixMilli(), Rating: r.Rating, Deviation: r.Deviation}
		if points[i], err = json.Marshal(p); err != nil {
			return nil, fmt.Errorf("apply game of room %s: %w", g.Room, err)
		}
	}
	a, b := g.Sides[0], g.Sides[1]
	return []any{g.Pool, raw[0], raw[1], after[0], after[1], changes,
		strconv.FormatInt(retention.Milliseconds(), 10), points[0], points[1],
		flag(ch[0].After.OnBoard(g.Ended)), flag(ch[1].After.OnBoard(g.Ended)),
		strconv.FormatFloat(ch[0].After.Rating, 'g', -1, 64), strconv.FormatFloat(ch[1].After.Rating, 'g', -1, 64),
		a.Name, flag(a.Bot), b.Name, flag(b.Bot), g.Room, strconv.Itoa(ratings.HistoryLimit), a.ID, b.ID}, nil
}

func decodeChanges(v string) ([2]ratings.Change, error) {
	var ch [2]ratings.Change
	if err := json.Unmarshal([]byte(v), &ch); err != nil {
		return ch, fmt.Errorf("stored changes %q: %w", v, err)
	}
	return ch, nil
}

// Changes implements ratings.Store.
func (s *Store) Changes(ctx context.Context, room string) ([2]ratings.Change, error) {
	v, err := s.c.Get(ctx, s.AppliedKey(room)).Result()
	if errors.Is(err, redis.Nil) {
		return [2]ratings.Change{}, fmt.Errorf("changes of room %s: %w", room, ratings.ErrNotFound)
	}
	if err != nil {
		return [2]ratings.Change{}, fmt.Errorf("changes of room %s: %w", room, err)
	}
	ch, err := decodeChanges(v)
	if err != nil {
		return ch, fmt.Errorf("changes of room %s: %w", room, err)
	}
	return ch, nil
}

// History implements ratings.Store.
func (s *Store) History(ctx context.Context, pool, id string, n int) ([]ratings.Point, error) {
	if n <= 0 {
		return nil, ctx.Err()
	}
	n = min(n, ratings.HistoryLimit)
	vs, err := s.c.LRange(ctx, s.HistoryKey(pool, id), -int64(n), -1).Result()
	if err != nil {
		return nil, fmt.Errorf("history of %s in %s: %w", id, pool, err)
	}
	out := make([]ratings.Point, len(vs))
	for i, v := range vs {
		if err := json.Unmarshal([]byte(v), &out[i]); err != nil {
			return nil, fmt.Errorf("history of %s in %s: %q: %w", id, pool, v, err)
		}
	}
	return out, nil
}

// boardScript reads a leaderboard: its sorted set holds the players on the
// board at their last game, and the script leaves out those that are not
// at now (ratings.Rating.OnBoard: their deviation, their last game's time,
// read from each one's ratings hash, in the same slot).
//
// KEYS: the board.
// ARGV: the ratings hashes' key prefix (P {ratings}:player:), the pool, now
// (Unix ms), ratings.BoardIdle (ms), ratings.BoardDeviation, then "list"
// and n: the first n players on the board as {id, rating, name, bot}
// flattened; or "rank" and an id: its place, 0 when not on the board (it
// walks the players above it).
var boardScript = redis.NewScript(`
local now, idle, maxrd = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local function on(id)
  local h = redis.call('HMGET', ARGV[1] .. id, ARGV[2], ':name', ':bot')
  if not h[1] then return nil end
  local r = cjson.decode(h[1])
  if (r.games or 0) > 0 and r.rd <= maxrd and now - (r.last or 0) <= idle then
    return h
  end
  return nil
end
local chunk = 128
if ARGV[6] == 'list' then
  local n = tonumber(ARGV[7])
  local out = {}
  local start = 0
  while #out < 4 * n do
    local ids = redis.call('ZREVRANGE', KEYS[1], start, start + chunk - 1)
    for _, id in ipairs(ids) do
      local h = on(id)
      if h then
        out[#out + 1] = id
        out[#out + 1] = h[1]
        out[#out + 1] = h[2] or ''
        out[#out + 1] = h[3] or '0'
        if #out >= 4 * n then break end
      end
    end
    if #ids < chunk then break end
    start = start + chunk
  end
  return out
end
local pos = redis.call('ZREVRANK', KEYS[1], ARGV[7])
if not pos or not on(ARGV[7]) then return 0 end
local rank = 1
local start = 0
while start < pos do
  local ids = redis.call('ZREVRANGE', KEYS[1], start, math.min(start + chunk, pos) - 1)
  for _, id in ipairs(ids) do
    if on(id) then rank = rank + 1 end
  end
  if #ids == 0 then break end
  start = start + #ids
end
return rank
`)

func (s *Store) boardArgs(pool string, now time.Time, mode string, arg any) []any {
	return []any{s.RatingsKey(""), pool, strconv.FormatInt(now.UnixMilli(), 10),
		strconv.FormatInt(ratings.BoardIdle.Milliseconds(), 10),
		strconv.FormatFloat(ratings.BoardDeviation, 'g', -1, 64), mode, arg}
}

// Leaderboard implements ratings.Store, in one script.
func (s *Store) Leaderboard(ctx context.Context, pool string, bots bool, n int, now time.Time) ([]ratings.Entry, error) {
	if n <= 0 {
		return nil, ctx.Err()
	}
	vs, err := boardScript.Run(ctx, s.c, []string{s.BoardKey(pool, bots)}, s.boardArgs(pool, now, "list", n)...).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("leaderboard of %s: %w", pool, err)
	}
	out := make([]ratings.Entry, 0, len(vs)/4)
	for i := 0; i+3 < len(vs); i += 4 {
		r, err := decodeRating(vs[i+1])
		if err != nil {
			return nil, fmt.Errorf("leaderboard of %s: %s: %w", pool, vs[i], err)
		}
		out = append(out, ratings.Entry{ID: vs[i], Rating: r, Name: vs[i+2], Bot: vs[i+3] == "1"})
	}
	return out, nil
}

// Rank implements ratings.Store, in one script that walks the players above
// id on the board.
func (s *Store) Rank(ctx context.Context, pool string, bots bool, id string, now time.Time) (int, error) {
	n, err := boardScript.Run(ctx, s.c, []string{s.BoardKey(pool, bots)}, s.boardArgs(pool, now, "rank", id)...).Int()
	if err != nil {
		return 0, fmt.Errorf("rank of %s in %s: %w", id, pool, err)
	}
	return n, nil
}

// Owe implements ratings.Store.
func (s *Store) Owe(ctx context.Context, room string) error {
	if room == "" {
		return fmt.Errorf("owe: empty room")
	}
	p := s.c.TxPipeline()
	s.owe(ctx, p, room)
	if _, err := p.Exec(ctx); err != nil {
		return fmt.Errorf("owe room %s: %w", room, s.refused(err))
	}
	return nil
}

// owe queues on p the mark of a rated game's room as owed (Owe, the saves
// that write a rated record, and PutRecord), keeping its first mark's
// time, and drops the marks older than the records' retention: a game
// nobody applied in that time has no record left to apply it from.
func (s *Store) owe(ctx context.Context, p redis.Pipeliner, room string) {
	now := s.now()
	p.ZAddNX(ctx, s.OwedKey(), redis.Z{Score: float64(now.UnixMilli()), Member: room})
	p.ZRemRangeByScore(ctx, s.OwedKey(), "-inf", "("+strconv.FormatInt(now.Add(-s.recordRetention).UnixMilli(), 10))
}

// Owed implements ratings.Store: the oldest marks first.
func (s *Store) Owed(ctx context.Context, n int) ([]string, error) {
	if n <= 0 {
		return nil, ctx.Err()
	}
	ids, err := s.c.ZRange(ctx, s.OwedKey(), 0, int64(n)-1).Result()
	if err != nil {
		return nil, fmt.Errorf("owed rooms: %w", err)
	}
	return ids, nil
}

// tallyScript counts a game once by room.
//
// KEYS: the room's tallied mark, then each player's results.
// ARGV: the records' retention (ms), then each player's outcome's field
// (won, drawn, lost).
// Returns 1 when counted, 0 when the room was tallied before.
var tallyScript = redis.NewScript(`
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
  return 0
end
for i = 2, #KEYS do
  redis.call('HINCRBY', KEYS[i], ARGV[i], 1)
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
return 1
`)

// Tally implements ratings.Store.
func (s *Store) Tally(ctx context.Context, room string, outcomes map[string]ratings.Outcome) error {
	if err := ratings.CheckTally(room, outcomes); err != nil {
		return err
	}
	keys := []string{s.TalliedKey(room)}
	args := []any{strconv.FormatInt(s.recordRetention.Milliseconds(), 10)}
	for id, o := range outcomes {
		keys = append(keys, s.ResultsKey(id))
		args = append(args, [...]string{ratings.Lost: "lost", ratings.Drawn: "drawn", ratings.Won: "won"}[o])
	}
	if err := tallyScript.Run(ctx, s.c, keys, args...).Err(); err != nil {
		return fmt.Errorf("tally of room %s: %w", room, s.refused(err))
	}
	return nil
}

// Results implements ratings.Store.
func (s *Store) Results(ctx context.Context, id string) (ratings.Results, error) {
	vs, err := s.c.HMGet(ctx, s.ResultsKey(id), "won", "drawn", "lost").Result()
	if err != nil {
		return ratings.Results{}, fmt.Errorf("results of %s: %w", id, err)
	}
	var n [3]int
	for i, v := range vs {
		if str, ok := v.(string); ok {
			if n[i], err = strconv.Atoi(str); err != nil {
				return ratings.Results{}, fmt.Errorf("results of %s: %w", id, err)
			}
		}
	}
	return ratings.Results{Won: n[0], Drawn: n[1], Lost: n[2]}, nil
}

// bestScript raises a player's best score.
//
// KEYS: best, best's names. ARGV: id, score, name.
var bestScript = redis.NewScript(`
local cur = redis.call('ZSCORE', KEYS[1], ARGV[1])
if cur and tonumber(cur) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
`)

// Best implements ratings.Store.
func (s *Store) Best(ctx context.Context, id, name string, score int64) error {
	if id == "" || score < 0 {
		return fmt.Errorf("best score %d of %q: an id and a score of 0 or more are required", score, id)
	}
	err := bestScript.Run(ctx, s.c, []string{s.BestKey(), s.BestNamesKey()}, id, strconv.FormatInt(score, 10), name).Err()
	if err != nil {
		return fmt.Errorf("best score of %s: %w", id, s.refused(err))
	}
	return nil
}

// BestScores implements ratings.Store.
func (s *Store) BestScores(ctx context.Context, n int) ([]ratings.Score, error) {
	if n <= 0 {
		return nil, ctx.Err()
	}
	zs, err := s.c.ZRevRangeWithScores(ctx, s.BestKey(), 0, int64(n)-1).Result()
	if err != nil {
		return nil, fmt.Errorf("best scores: %w", err)
	}
	if len(zs) == 0 {
		return nil, nil
	}
	ids := make([]string, len(zs))
	for i, z := range zs {
		ids[i], _ = z.Member.(string)
	}
	names, err := s.c.HMGet(ctx, s.BestNamesKey(), ids...).Result()
	if err != nil {
		return nil, fmt.Errorf("best scores: %w", err)
	}
	out := make([]ratings.Score, len(zs))
	for i, z := range zs {
		name, _ := names[i].(string)
		out[i] = ratings.Score{ID: ids[i], Name: name, Score: int64(z.Score)}
	}
	return out, nil
}

// BestScore implements ratings.Store.
func (s *Store) BestScore(ctx context.Context, id string) (int64, error) {
	v, err := s.c.ZScore(ctx, s.BestKey(), id).Result()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("best score of %s: %w", id, err)
	}
	return int64(v), nil
}

// joinScript enters a bot in a ladder, unless it is in ratings.MaxLadders
// others.
//
// KEYS: the pool's ladder, the bot's ladders. ARGV: pool, id, MaxLadders.
// Returns 1 when the bot is in the ladder, 0 when it is in too many.
var joinScript = redis.NewScript(`
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then
  return 1
end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[1], ARGV[2])
return 1
`)

// JoinLadder implements ratings.Store.
func (s *Store) JoinLadder(ctx context.Context, pool, id string) error {
	if pool == "" || id == "" {
		return fmt.Errorf("join ladder %q: bot %q: empty pool or id", pool, id)
	}
	in, err := joinScript.Run(ctx, s.c, []string{s.LadderKey(pool), s.LaddersKey(id)}, pool, id, ratings.MaxLadders).Int()
	if err != nil {
		return fmt.Errorf("join ladder %s: %w", pool, s.refused(err))
	}
	if in == 0 {
		return fmt.Errorf("join ladder %s: bot %s is in %d ladders already", pool, id, ratings.MaxLadders)
	}
	return nil
}

// LeaveLadder implements ratings.Store, in one MULTI (one slot).
func (s *Store) LeaveLadder(ctx context.Context, pool, id string) error {
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SRem(ctx, s.LadderKey(pool), id)
		p.SRem(ctx, s.LaddersKey(id), pool)
		return nil
	})
	if err != nil {
		return fmt.Errorf("leave ladder %s: %w", pool, err)
	}
	return nil
}

// Ladder implements ratings.Store: the entrants sorted by id.
func (s *Store) Ladder(ctx context.Context, pool string) ([]string, error) {
	ids, err := s.c.SMembers(ctx, s.LadderKey(pool)).Result()
	if err != nil {
		return nil, fmt.Errorf("ladder %s: %w", pool, err)
	}
	slices.Sort(ids)
	return ids, nil
}

// Ladders implements ratings.Store: the pools sorted.
func (s *Store) Ladders(ctx context.Context, id string) ([]string, error) {
	pools, err := s.c.SMembers(ctx, s.LaddersKey(id)).Result()
	if err != nil {
		return nil, fmt.Errorf("ladders of %s: %w", id, err)
	}
	slices.Sort(pools)
	return pools, nil
}
