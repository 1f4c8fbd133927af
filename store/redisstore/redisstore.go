// Package redisstore is the Redis store.Store, on a go-redis v9
// UniversalClient: one node, Sentinel or Cluster.
//
// Key layout (P is the configured prefix; the braces around a room id are a
// Cluster hash tag, so that the keys of one room share a slot):
//
//	P room:{<id>}           hash: seq, snap, snapseq, snaplen, players (JSON), live, finished, updated (Unix µs)
//	P room:{<id>}:log       list: the room's log entries, oldest first
//	P player:<id>           hash: a guest's or bot account's token (hash) and name, id = players.GuestID
//	                        or players.BotID of the token hash; an account's name, password (argon2id),
//	                        joined (Unix ms), retired (its guest token's hash); a bot's owner
//	P player:<tokenhash>    hash: id, name (identities made before ids were derived)
//	P player:<id>:rooms     set: ids of the player's unfinished rooms (an index)
//	P player:<id>:sessions  set: hashes of the account's sessions (an index)
//	P player:<id>:devices   sorted set: hashes of the devices that signed in, by time added (ms)
//	P account:<name>        string: the account's id under its name without case; "" while a
//	                        closed account's name is held (PX)
//	P session:<hash>        hash: player, created, expires (Unix ms); expires then (PEXPIREAT)
//	P signin:<key>          integer: failed sign-ins under the key in a window (PX)
//	P bots:<owner>          hash: bot id -> bot (JSON) (bots.go)
//	P rooms:live            sorted set: live room ids by UpdatedAt (an index)
//	P room:{<id>}:lease     string: the node holding the room, expiring (PX)
//	P room:{<id>}:epoch     integer: incremented at every takeover; fences saves
//	P match:<game>/<variant> list: quick-match entries (JSON), oldest first (match.go)
//	P record:{<id>}         string: a finished game's record (records.go, Records)
//	P {ratings}:...         the ratings, in one slot (ratings.go)
//
// SaveRoom is one round trip: a pipeline that runs the save script on the
// room's keys (seq check, snapshot, log append, TTLs and, for the save that
// finishes a game, its record: atomic) followed by the index updates, which
// live in other slots and so cannot be in the script. Saves of several rooms that wait at the same time share one
// pipeline (saveQueue). The indexes are best-effort: a save whose index commands were lost
// is repaired by the room's next save, and LiveRooms and PlayerRooms check
// every id they return against the room's hash (the truth) and drop the
// entries that no longer hold.
//
// Nothing grows without bound: a finished room's keys expire after the
// retention, an unfinished room's after the idle-room TTL (every save starts
// it again), an identity and its room index after the guest TTL (renewed by
// its hello and by every save of a room it is seated in), and entries of the
// live index older than the idle-room TTL are trimmed by saves. See
// docs/persistence.md.
package redisstore

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/store"
)

// Option configures a Store.
type Option func(*Store)

// WithRetention sets how long a finished room (snapshot and log) is kept
// after its last save (a PEXPIRE on both keys); default
// store.DefaultRetention. It must be at least a millisecond.
func WithRetention(d time.Duration) Option {
	return func(s *Store) {
		if d >= time.Millisecond {
			s.retention = d
		}
	}
}

// WithGuestTTL sets how long a guest identity lives after its last use (a
// hello, a save of an unfinished room it is seated in): a PEXPIRE on its
// keys; default store.DefaultGuestTTL. It is never shorter than the
// idle-room TTL.
func WithGuestTTL(d time.Duration) Option {
	return func(s *Store) {
		if d >= time.Millisecond {
			s.guestTTL = d
		}
	}
}

// WithIdleRoomTTL sets how long an unfinished room (snapshot, log, epoch)
// is kept after its last save; default store.DefaultIdleRoomTTL.
func WithIdleRoomTTL(d time.Duration) Option {
	return func(s *Store) {
		if d >= time.Millisecond {
			s.roomTTL = d
		}
	}
}

// Store is a store.Store on Redis.
type Store struct {
	c               redis.UniversalClient
	own             bool
	prefix          string
	retention       time.Duration
	roomTTL         time.Duration
	guestTTL        time.Duration
	recordRetention time.Duration
	records         *Records
	saves           saveQueue
	// oom is the last time Redis refused a write for lack of memory
	// (Unix ns; 0: never): Ping fails for oomHold after it.
	oom atomic.Int64
	now func() time.Time
}

var (
	_ store.Store  = (*Store)(nil)
	_ store.Leases = (*Store)(nil)
)

// DefaultPoolSize is the least number of connections New's client keeps
// per Redis server unless the URL sets pool_size (go-redis's own default is
// 10 per CPU). A reconnect storm is thousands of hellos at once, each a few
// round trips: with 20 connections they queued behind each other until
// some timed out (issue 8: 1,511 of 10,000 hellos refused and retried).
const DefaultPoolSize = 128

// New connects to the Redis named by url and checks that it answers. Keys go
// under prefix, which must not contain '{' or '}'. Close closes the
// connection. url is one of:
//
//   - host:port, or a redis:// or rediss:// URL (redis.ParseURL; timeouts
//     and pool sizes may be given as query parameters): one server;
//   - the same URL with a master_name parameter (redis.ParseFailoverURL):
//     Sentinel, the host being a sentinel and further sentinels given as
//     addr parameters, e.g.
//     redis://s1:26379/0?master_name=tabuleiro&addr=s2:26379&addr=s3:26379;
//   - redis+cluster:// or rediss+cluster:// (redis.ParseClusterURL after the
//     scheme): Cluster, the host being one node and further seed nodes given
//     as addr parameters, e.g. redis+cluster://n1:6379?addr=n2:6379.
//
// Unless the URL says otherwise, the client fails fast rather than blocking
// a room: dial, read and write timeouts of 2s, one dial attempt, no command
// retries (a retried save whose first attempt was applied would come back as
// ErrStaleSeq for a save that happened), and context deadlines honoured on
// the socket; and it keeps a pool of DefaultPoolSize connections.
func New(ctx context.Context, url, prefix string, opts ...Option) (*Store, error) {
	c, where, err := newClient(url)
	if err != nil {
		return nil, fmt.Errorf("redis store: %w", err)
	}
	s, err := NewFromClient(c, prefix, opts...)
	if err != nil {
		c.Close()
		return nil, err
	}
	s.own = true
	if err := s.Ping(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("redis store at %s: %w", where, err)
	}
	return s, nil
}

// newClient builds the client for one of New's URL forms, with New's
// defaults, and says where it points for error messages.
func newClient(url string) (c redis.UniversalClient, where string, err error) {
	failFast := func(dial, read, write *time.Duration, retries, dialRetries *int, ctxTimeout *bool, poolSize *int) {
		if *poolSize == 0 {
			*poolSize = max(DefaultPoolSize, 10*runtime.GOMAXPROCS(0))
		}
		for _, d := range []*time.Duration{dial, read, write} {
			if *d == 0 {
				*d = 2 * time.Second
			}
		}
		if *retries == 0 {
			*retries = -1
		}
		if dialRetries != nil && *dialRetries == 0 {
			*dialRetries = 1
		}
		*ctxTimeout = true
	}
	switch {
	case strings.HasPrefix(url, "redis+cluster://"), strings.HasPrefix(url, "rediss+cluster://"):
		o, err := redis.ParseClusterURL(strings.Replace(url, "+cluster", "", 1))
		if err != nil {
			return nil, "", err
		}
		failFast(&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.MaxRetries, &o.DialerRetries, &o.ContextTimeoutEnabled, &o.PoolSize)
		return redis.NewClusterClient(o), "cluster " + strings.Join(o.Addrs, ","), nil
	case strings.Contains(url, "://") && strings.Contains(url, "master_name="):
		o, err := redis.ParseFailoverURL(url)
		if err != nil {
			return nil, "", err
		}
		failFast(&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.MaxRetries, &o.DialerRetries, &o.ContextTimeoutEnabled, &o.PoolSize)
		return redis.NewFailoverClient(o), "sentinel master " + o.MasterName, nil
	case strings.Contains(url, "://"):
		o, err := redis.ParseURL(url)
		if err != nil {
			return nil, "", err
		}
		failFast(&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.MaxRetries, &o.DialerRetries, &o.ContextTimeoutEnabled, &o.PoolSize)
		return redis.NewClient(o), o.Addr, nil
	default:
		o := &redis.Options{Addr: url}
		failFast(&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.MaxRetries, &o.DialerRetries, &o.ContextTimeoutEnabled, &o.PoolSize)
		return redis.NewClient(o), o.Addr, nil
	}
}

// NewFromClient returns a store on an existing client (a Sentinel failover
// client or a Cluster client, say). The caller keeps the client: Close does
// not close it. Configure it as New does (no retries: MaxRetries -1).
func NewFromClient(c redis.UniversalClient, prefix string, opts ...Option) (*Store, error) {
	if strings.ContainsAny(prefix, "{}") {
		return nil, fmt.Errorf("redis store: prefix %q contains a brace, which would break the rooms' hash tags", prefix)
	}
	s := &Store{c: c, prefix: prefix, retention: store.DefaultRetention, roomTTL: store.DefaultIdleRoomTTL, guestTTL: store.DefaultGuestTTL,
		recordRetention: store.DefaultRecordRetention, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	s.records = &Records{c: c, prefix: prefix, retention: s.recordRetention, now: time.Now, owe: s.owe}
	// An identity must outlive every room it is seated in.
	s.guestTTL = max(s.guestTTL, s.roomTTL)
	return s, nil
}

// Keys of the layout above.

// RoomKey is the key of a room's snapshot hash.
func (s *Store) RoomKey(id string) string { return s.prefix + "room:{" + id + "}" }

// LogKey is the key of a room's log list, in the same slot as RoomKey.
func (s *Store) LogKey(id string) string { return s.RoomKey(id) + ":log" }

// PlayerKey is the key of a player's identity, by player id (the ids
// players.GuestID and players.BotID derive, an account's) or, for
// identities made before ids were derived, by token hash.
func (s *Store) PlayerKey(idOrTokenHash string) string { return s.prefix + "player:" + idOrTokenHash }

// ProbeKey is the key /readyz's write probe sets (Ping).
func (s *Store) ProbeKey() string { return s.prefix + "ready:probe" }

// PlayerRoomsKey is the key of a player's set of unfinished rooms.
func (s *Store) PlayerRoomsKey(playerID string) string {
	return s.prefix + "player:" + playerID + ":rooms"
}

// LeaseKey is the key of a room's lease, in the same slot as RoomKey.
func (s *Store) LeaseKey(id string) string { return s.RoomKey(id) + ":lease" }

// EpochKey is the key of a room's lease epoch, in the same slot as RoomKey.
func (s *Store) EpochKey(id string) string { return s.RoomKey(id) + ":epoch" }

// LiveKey is the key of the live-room index.
func (s *Store) LiveKey() string { return s.prefix + "rooms:live" }

// saveScript writes one room, atomically, if the stored seq is lower than
// the new one (a log-only save: if the stored seq is the one it extends)
// and, for a fenced save, the room's lease epoch is the one the writer
// holds; with it, the record of the game the save finishes. Its keys are
// the room's hash, log and epoch and its record (one slot).
//
// KEYS: room hash, room log, room epoch, room record.
// ARGV: seq, snapshot, players (JSON), live (0/1), finished (0/1), updated
// (Unix µs), retention (ms), epoch (0: unfenced), idle-room TTL (ms),
// log-only (0/1: no snapshot), prev (the seq a log-only save extends), the
// record (empty: none), the record's retention (ms), then the log entries to
// append.
// Returns {1, seq} when written, {0, stored seq} when stale, {2, current
// epoch} when fenced.
var saveScript = redis.NewScript(`
local function seq_ge(a, b) -- a >= b, for decimal strings of non-negative integers
  if #a ~= #b then return #a > #b end
  return a >= b
end
if ARGV[8] ~= '0' then
  local epoch = redis.call('GET', KEYS[3]) or '0'
  if epoch ~= ARGV[8] then
    return {2, epoch}
  end
end
local cur = redis.call('HGET', KEYS[1], 'seq')
local logonly = ARGV[10] == '1'
if logonly then
  if cur ~= ARGV[11] then
    return {0, cur or '0'}
  end
  if redis.call('HEXISTS', KEYS[1], 'snapseq') == 0 then -- saved before log-only saves
    redis.call('HSET', KEYS[1], 'snapseq', cur, 'snaplen', redis.call('LLEN', KEYS[2]))
  end
  redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'players', ARGV[3],
    'live', ARGV[4], 'finished', ARGV[5], 'updated', ARGV[6])
else
  if cur and seq_ge(cur, ARGV[1]) then
    return {0, cur}
  end
  redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'snap', ARGV[2], 'players', ARGV[3],
    'live', ARGV[4], 'finished', ARGV[5], 'updated', ARGV[6], 'snapseq', ARGV[1])
end
local n = #ARGV
local i = 14
local len = nil
while i <= n do
  local j = math.min(i + 999, n)
  len = redis.call('RPUSH', KEYS[2], unpack(ARGV, i, j))
  i = j + 1
end
if not logonly then
  redis.call('HSET', KEYS[1], 'snaplen', len or redis.call('LLEN', KEYS[2]))
end
if ARGV[5] == '1' then
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
  redis.call('PEXPIRE', KEYS[3], ARGV[7])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[9])
  redis.call('PEXPIRE', KEYS[2], ARGV[9])
  redis.call('PEXPIRE', KEYS[3], ARGV[9])
end
if ARGV[12] ~= '' then
  redis.call('SET', KEYS[4], ARGV[12], 'PX', ARGV[13])
end
return {1, ARGV[1]}
`)

// SaveRoom implements store.Store in one round trip (two the first time
// after the server lost its script cache: EVALSHA, then EVAL).
func (s *Store) SaveRoom(ctx context.Context, r store.Room) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save room %s: %w", r.ID, err)
	}
	if r.ID == "" {
		return fmt.Errorf("save room: empty room id")
	}
	if r.Seq < 0 {
		return fmt.Errorf("save room %s: negative seq %d", r.ID, r.Seq)
	}
	if r.LogOnly && len(r.Append) == 0 {
		return fmt.Errorf("save room %s: a log-only save appends nothing", r.ID)
	}
	if r.LogOnly && len(r.Snapshot) != 0 {
		return fmt.Errorf("save room %s: a log-only save with a snapshot", r.ID)
	}
	if r.LogOnly && r.Seq <= r.Prev {
		return fmt.Errorf("save room %s: log-only save of seq %d on %d: %w", r.ID, r.Seq, r.Prev, store.ErrStaleSeq)
	}
	if err := store.CheckRecord(r); err != nil {
		return err
	}
	var record []byte
	if r.Record != nil {
		record = r.Record.Data
	}
	players, err := json.Marshal(r.Players)
	if err != nil {
		return fmt.Errorf("save room %s: %w", r.ID, err)
	}
	args := make([]any, 0, 13+len(r.Append))
	args = append(args, strconv.FormatInt(r.Seq, 10), r.Snapshot, players,
		flag(r.Live), flag(r.Finished), strconv.FormatInt(r.UpdatedAt.UnixMicro(), 10),
		strconv.FormatInt(s.retention.Milliseconds(), 10), strconv.FormatInt(r.Epoch, 10),
		strconv.FormatInt(s.roomTTL.Milliseconds(), 10), flag(r.LogOnly), strconv.FormatInt(r.Prev, 10),
		record, strconv.FormatInt(s.recordRetention.Milliseconds(), 10))
	for _, e := range r.Append {
		args = append(args, e)
	}
	req := &saveReq{ctx: ctx, room: r, keys: []string{s.RoomKey(r.ID), s.LogKey(r.ID), s.EpochKey(r.ID), s.RecordKey(r.ID)},
		args: args, done: make(chan error, 1)}
	if s.saves.push(req) {
		go s.flushSaves()
	}
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done():
		// The save may still be sent (and land): the caller treats it as
		// an unanswered save, as it would a timeout on the socket.
		return fmt.Errorf("save room %s: %w", r.ID, ctx.Err())
	}
}

// saveReq is one SaveRoom waiting for its round trip.
type saveReq struct {
	ctx  context.Context
	room store.Room
	keys []string
	args []any
	done chan error // buffered: the flusher never waits for the caller
}

// saveQueue holds the saves waiting for a round trip. Saves are grouped:
// while one pipeline is in flight, the saves that arrive queue, and the next
// pipeline carries all of them, so many rooms saving at once share round
// trips (and Redis's reads and writes) instead of each paying one. A save
// alone still goes at once, as one round trip.
type saveQueue struct {
	mu       sync.Mutex
	pending  []*saveReq
	flushing bool // a flushSaves goroutine runs
}

// push queues req; start is true when no flusher runs, and the caller must
// start one.
func (q *saveQueue) push(req *saveReq) (start bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, req)
	if q.flushing {
		return false
	}
	q.flushing = true
	return true
}

// take returns the queued saves, or nil, and then the flusher stops.
func (q *saveQueue) take() []*saveReq {
	q.mu.Lock()
	defer q.mu.Unlock()
	batch := q.pending
	q.pending = nil
	if len(batch) == 0 {
		q.flushing = false
	}
	return batch
}

// maxSaveBatch bounds the saves of one pipeline.
const maxSaveBatch = 256

// flushSaves sends the queued saves, a pipeline at a time, until none is
// left; it runs only while saves wait, so it needs no stopping.
func (s *Store) flushSaves() {
	for {
		batch := s.saves.take()
		if batch == nil {
			return
		}
		for len(batch) > 0 {
			n := min(len(batch), maxSaveBatch)
			s.saveBatch(batch[:n])
			batch = batch[n:]
		}
	}
}

// saveBatch sends the saves in one pipeline (two if Redis lost the script)
// and answers each.
func (s *Store) saveBatch(batch []*saveReq) {
	// The pipeline lasts as long as the latest of its saves' deadlines
	// (none if one has none); a save whose caller has given up is not sent.
	live := batch[:0:0]
	var deadline time.Time
	unbounded := false
	for _, req := range batch {
		if err := req.ctx.Err(); err != nil {
			req.done <- fmt.Errorf("save room %s: %w", req.room.ID, err)
			continue
		}
		live = append(live, req)
		d, ok := req.ctx.Deadline()
		unbounded = unbounded || !ok
		if d.After(deadline) {
			deadline = d
		}
	}
	if len(live) == 0 {
		return
	}
	ctx := context.Background()
	if !unbounded {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	cmds := s.savePipeline(ctx, live, false)
	var again []*saveReq
	var againAt []int
	for i, req := range live {
		if redis.HasErrorPrefix(cmds[i].Err(), "NOSCRIPT") {
			// Nothing of the room was written; the index commands that
			// ran are the same again below.
			again, againAt = append(again, req), append(againAt, i)
		}
	}
	if len(again) > 0 {
		for j, cmd := range s.savePipeline(ctx, again, true) {
			cmds[againAt[j]] = cmd
		}
	}
	for i, req := range live {
		req.done <- s.saveResult(req.room, cmds[i])
	}
}

// saveResult is SaveRoom's answer from the save script's command.
func (s *Store) saveResult(r store.Room, cmd *redis.Cmd) error {
	if err := cmd.Err(); err != nil {
		return fmt.Errorf("save room %s: %w", r.ID, s.refused(err))
	}
	res, err := cmd.Slice()
	if err != nil || len(res) != 2 {
		return fmt.Errorf("save room %s: unexpected script result %v (%v)", r.ID, cmd.Val(), err)
	}
	switch code, _ := res[0].(int64); code {
	case 1:
	case 2:
		return fmt.Errorf("save room %s: epoch %d, current %v: %w", r.ID, r.Epoch, res[1], store.ErrFenced)
	default:
		return fmt.Errorf("save room %s: seq %d, stored %v: %w", r.ID, r.Seq, res[1], store.ErrStaleSeq)
	}
	// The room is written. Index commands that failed (the pipeline's other
	// errors) are left for the next save and the readers to repair: the
	// save itself must not be reported as failed, or the room would roll
	// back a move that Redis keeps.
	return nil
}

// savePipeline sends the save script and the index updates of each save in
// one pipeline and returns the script commands, in order. A command's error
// that is not a Redis reply is a failure of the round trip.
func (s *Store) savePipeline(ctx context.Context, batch []*saveReq, eval bool) []*redis.Cmd {
	pipe := s.c.Pipeline()
	cmds := make([]*redis.Cmd, len(batch))
	for i, req := range batch {
		r := req.room
		if eval {
			cmds[i] = saveScript.Eval(ctx, pipe, req.keys, req.args...)
		} else {
			cmds[i] = saveScript.EvalSha(ctx, pipe, req.keys, req.args...)
		}
		if r.Live && !r.Finished {
			// GT: a stale or replayed save never moves a room back in the list.
			pipe.ZAddGT(ctx, s.LiveKey(), redis.Z{Score: float64(r.UpdatedAt.UnixMicro()), Member: r.ID})
			// Rooms not saved for the idle-room TTL have expired: their
			// entries go, so that the index does not keep what no reader
			// would reach.
			pipe.ZRemRangeByScore(ctx, s.LiveKey(), "-inf",
				"("+strconv.FormatInt(r.UpdatedAt.Add(-s.roomTTL).UnixMicro(), 10))
		} else {
			pipe.ZRem(ctx, s.LiveKey(), r.ID)
		}
		for _, p := range r.Players {
			if r.Finished {
				pipe.SRem(ctx, s.PlayerRoomsKey(p), r.ID)
			} else {
				pipe.SAdd(ctx, s.PlayerRoomsKey(p), r.ID)
				pipe.PExpire(ctx, s.PlayerRoomsKey(p), s.guestTTL)
			}
			// The seated guest's identity lives on (a no-op for one
			// made before ids were derived, renewed by its hellos, and
			// for an account, which never expires).
			s.renewGuest(ctx, pipe, s.PlayerKey(p))
		}
		if r.Record != nil {
			s.records.index(ctx, pipe, *r.Record)
			if r.Record.Rated {
				// In the save's round trip, right after its script: the
				// owed set is in the ratings' slot, not the room's, so a
				// Cluster cannot take both in one script (ratings.go).
				s.owe(ctx, pipe, r.ID)
			}
		}
	}
	_, _ = pipe.Exec(ctx) // the errors are in the commands
	return cmds
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// LoadRoom implements store.Store.
func (s *Store) LoadRoom(ctx context.Context, id string) (store.Room, error) {
	if err := ctx.Err(); err != nil {
		return store.Room{}, fmt.Errorf("load room %s: %w", id, err)
	}
	h, err := s.c.HGetAll(ctx, s.RoomKey(id)).Result()
	if err != nil {
		return store.Room{}, fmt.Errorf("load room %s: %w", id, err)
	}
	if len(h) == 0 {
		return store.Room{}, fmt.Errorf("load room %s: %w", id, store.ErrNotFound)
	}
	r := store.Room{ID: id, Snapshot: []byte(h["snap"]), Live: h["live"] == "1", Finished: h["finished"] == "1"}
	if r.Seq, err = strconv.ParseInt(h["seq"], 10, 64); err != nil {
		return store.Room{}, fmt.Errorf("load room %s: seq: %w", id, err)
	}
	r.SnapshotSeq = r.Seq // a room saved before log-only saves
	if v, ok := h["snapseq"]; ok {
		if r.SnapshotSeq, err = strconv.ParseInt(v, 10, 64); err != nil {
			return store.Room{}, fmt.Errorf("load room %s: snapseq: %w", id, err)
		}
	}
	if err := json.Unmarshal([]byte(h["players"]), &r.Players); err != nil {
		return store.Room{}, fmt.Errorf("load room %s: players: %w", id, err)
	}
	us, err := strconv.ParseInt(h["updated"], 10, 64)
	if err != nil {
		return store.Room{}, fmt.Errorf("load room %s: updated: %w", id, err)
	}
	if t := time.UnixMicro(us); !t.IsZero() {
		r.UpdatedAt = t.UTC()
	}
	if r.Seq == r.SnapshotSeq {
		return r, nil
	}
	// A second read, in the same slot, only when saves followed the
	// snapshot. It is not atomic with the first: the log only grows, so
	// entries appended meanwhile come after the ones the reader needs, and
	// the reader walks back from Seq.
	snapLen, err := strconv.ParseInt(h["snaplen"], 10, 64)
	if err != nil {
		return store.Room{}, fmt.Errorf("load room %s: snaplen: %w", id, err)
	}
	tail, err := s.c.LRange(ctx, s.LogKey(id), snapLen, -1).Result()
	if err != nil {
		return store.Room{}, fmt.Errorf("load room %s: log: %w", id, err)
	}
	for _, e := range tail {
		r.Tail = append(r.Tail, []byte(e))
	}
	return r, nil
}

// RoomLog implements store.Store: the room's existence and its log are read
// in one MULTI (one slot).
func (s *Store) RoomLog(ctx context.Context, id string) ([][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("room log %s: %w", id, err)
	}
	var exists *redis.IntCmd
	var entries *redis.StringSliceCmd
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		exists = p.Exists(ctx, s.RoomKey(id))
		entries = p.LRange(ctx, s.LogKey(id), 0, -1)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("room log %s: %w", id, err)
	}
	if exists.Val() == 0 {
		return nil, fmt.Errorf("room log %s: %w", id, store.ErrNotFound)
	}
	out := make([][]byte, len(entries.Val()))
	for i, e := range entries.Val() {
		out[i] = []byte(e)
	}
	return out, nil
}

// LiveRooms implements store.Store. Each id is checked against its room's
// hash; entries of rooms that are no longer live (a lost index update) are
// skipped and removed.
func (s *Store) LiveRooms(ctx context.Context, limit int) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("live rooms: %w", err)
	}
	out := []string{}
	if limit <= 0 {
		return out, nil
	}
	seen := make(map[string]bool)
	start := int64(0)
	for range 8 { // bounded: a lobby page, not a full repair
		want := int64(limit - len(out))
		ids, err := s.c.ZRevRange(ctx, s.LiveKey(), start, start+want-1).Result()
		if err != nil {
			return nil, fmt.Errorf("live rooms: %w", err)
		}
		start += int64(len(ids))
		fields, err := s.roomFields(ctx, ids, "live", "finished")
		if err != nil {
			return nil, fmt.Errorf("live rooms: %w", err)
		}
		var stale []any
		for i, id := range ids {
			switch f := fields[i]; {
			case f == nil || f[0] != "1" || f[1] == "1":
				stale = append(stale, id)
			case !seen[id]: // the set may shift under concurrent saves
				seen[id] = true
				out = append(out, id)
			}
		}
		// Best-effort repair; once removed, the entries after them moved up.
		if len(stale) > 0 && s.c.ZRem(ctx, s.LiveKey(), stale...).Err() == nil {
			start -= int64(len(stale))
		}
		if len(out) >= limit || int64(len(ids)) < want {
			break
		}
	}
	return out, nil
}

// roomFields reads fields of the rooms' hashes in one pipeline (rooms of
// other slots in a cluster: go-redis sends each node its part). A missing
// room gives nil.
func (s *Store) roomFields(ctx context.Context, ids []string, fields ...string) ([][]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	pipe := s.c.Pipeline()
	cmds := make([]*redis.SliceCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HMGet(ctx, s.RoomKey(id), fields...)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	out := make([][]string, len(ids))
	for i, c := range cmds {
		vals := c.Val()
		if len(vals) == 0 || vals[0] == nil {
			continue
		}
		row := make([]string, len(vals))
		for j, v := range vals {
			row[j], _ = v.(string)
		}
		out[i] = row
	}
	return out, nil
}

// PlayerRooms implements store.Store. Each id is checked against its room's
// hash (the player is seated and the room is not finished); other entries
// (a lost index update, a player who left, an expired room) are skipped and
// removed.
func (s *Store) PlayerRooms(ctx context.Context, playerID string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("player rooms %s: %w", playerID, err)
	}
	ids, err := s.c.SMembers(ctx, s.PlayerRoomsKey(playerID)).Result()
	if err != nil {
		return nil, fmt.Errorf("player rooms %s: %w", playerID, err)
	}
	fields, err := s.roomFields(ctx, ids, "players", "finished")
	if err != nil {
		return nil, fmt.Errorf("player rooms %s: %w", playerID, err)
	}
	out := []string{}
	var stale []any
	for i, id := range ids {
		if f := fields[i]; f != nil && f[1] != "1" && seated(f[0], playerID) {
			out = append(out, id)
		} else {
			stale = append(stale, id)
		}
	}
	if len(stale) > 0 {
		_ = s.c.SRem(ctx, s.PlayerRoomsKey(playerID), stale...).Err() // best-effort repair
	}
	return out, nil
}

func seated(playersJSON, playerID string) bool {
	var players []string
	if json.Unmarshal([]byte(playersJSON), &players) != nil {
		return false
	}
	for _, p := range players {
		if p == playerID {
			return true
		}
	}
	return false
}

// probeTTL is how long the write probe's key lives.
const probeTTL = 10 * time.Second

// OOMHold is how long Ping fails after Redis refused a write for lack of
// memory. A Redis at its maxmemory under noeviction refuses writes only
// while it is over it: keys that expire (the probe's own, guests') bring it
// under for a moment, and a probe written then succeeds while the next
// moves are refused. So a refusal a save met counts for OOMHold, not just
// the probe's own answer.
const OOMHold = 30 * time.Second

// WithClock sets the store's clock for OOMHold (tests; default time.Now).
func WithClock(now func() time.Time) Option {
	return func(s *Store) {
		if now != nil {
			s.now = now
		}
	}
}

// refused notes err when it is Redis refusing a write for lack of memory
// (an OOM reply), and returns it wrapping store.ErrOutOfMemory then.
func (s *Store) refused(err error) error {
	if !isOOM(err) {
		return err
	}
	s.oom.Store(s.now().UnixNano())
	return fmt.Errorf("%w: %w", store.ErrOutOfMemory, err)
}

// isOOM reports whether err is Redis's refusal for memory: "OOM command not
// allowed when used memory > 'maxmemory'", a script's included.
func isOOM(err error) bool { return redis.HasErrorPrefix(err, "OOM") }

// Ping implements store.Store (for /readyz): it writes a key that expires
// soon (ProbeKey), so that a Redis that answers but refuses writes (at its
// maxmemory under noeviction, a read-only replica) is not taken for ready,
// and it fails with store.ErrOutOfMemory for OOMHold after any write of the
// store was refused for lack of memory.
func (s *Store) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ping redis: %w", err)
	}
	if err := s.c.Set(ctx, s.ProbeKey(), "1", probeTTL).Err(); err != nil {
		return fmt.Errorf("ping redis (write probe): %w", s.refused(err))
	}
	if at := s.oom.Load(); at != 0 {
		if ago := s.now().Sub(time.Unix(0, at)); ago < OOMHold {
			return fmt.Errorf("redis refused a write for lack of memory %v ago (maxmemory): %w",
				ago.Round(time.Millisecond), store.ErrOutOfMemory)
		}
	}
	return nil
}

// Close implements store.Store: it closes the client if New made it.
func (s *Store) Close() error {
	if !s.own {
		return nil
	}
	return s.c.Close()
}
