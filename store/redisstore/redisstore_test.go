package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/players/playerstest"
	"github.com/tabuleiro/tabuleiro/ratings"
	"github.com/tabuleiro/tabuleiro/ratings/ratingstest"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
	"github.com/tabuleiro/tabuleiro/store/storetest"
)

// ttlOptions configures a store as the conformance suite asks.
func ttlOptions(ttl storetest.TTLs) []redisstore.Option {
	return []redisstore.Option{redisstore.WithRetention(ttl.Retention), redisstore.WithIdleRoomTTL(ttl.IdleRoom),
		redisstore.WithGuestTTL(ttl.Guest)}
}

// newStore opens a store on the Redis at addr under a prefix that is
// deleted when the test ends.
func newStore(t testing.TB, addr string, opts ...redisstore.Option) *redisstore.Store {
	t.Helper()
	return open(t, "redis://"+addr, redistest.Prefix(t, addr), opts...)
}

// open opens a store on url (one of New's forms) under prefix.
func open(t testing.TB, url, prefix string, opts ...redisstore.Option) *redisstore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := redisstore.New(ctx, url, prefix, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	storetest.Run(t, func(t *testing.T, ttl storetest.TTLs) store.Store {
		return newStore(t, addr, ttlOptions(ttl)...)
	})
}

func TestRatingsConformance(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	ratingstest.Run(t, func(t *testing.T) ratings.Store { return newStore(t, addr) })
}

func TestPlayersConformance(t *testing.T) {
	addr := redistest.Start(t)
	playerstest.Run(t, func(t *testing.T, guestTTL time.Duration) players.Store {
		return newStore(t, addr, redisstore.WithIdleRoomTTL(guestTTL), redisstore.WithGuestTTL(guestTTL))
	})
}

func TestNew(t *testing.T) {
	addr := redistest.Start(t)
	ctx := context.Background()
	for _, url := range []string{addr, "redis://" + addr, "redis://" + addr + "/0?dial_timeout=1s"} {
		s, err := redisstore.New(ctx, url, "p:")
		if err != nil {
			t.Fatalf("New(%q): %v", url, err)
		}
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("Ping via %q: %v", url, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	if _, err := redisstore.New(ctx, addr, "bad{prefix}"); err == nil {
		t.Error("New accepted a prefix with braces")
	}
	if _, err := redisstore.New(ctx, "redis://"+addr+"/notadb", "p:"); err == nil {
		t.Error("New accepted a bad URL")
	}
	// Nothing listens there: New fails, and quickly.
	start := time.Now()
	if _, err := redisstore.New(ctx, "127.0.0.1:1", "p:"); err == nil {
		t.Error("New succeeded with no Redis at the address")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("New took %v to give up on an address that refuses connections", d)
	}
}

func TestNewFromClientKeepsTheClient(t *testing.T) {
	addr := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	s, err := redisstore.NewFromClient(c, redistest.Prefix(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("the caller's client was closed by Store.Close: %v", err)
	}
}

// keySlot is Redis Cluster's slot of a key: CRC16 (XMODEM) of the hash tag
// (the part between the first '{' and the next '}', if not empty) or of the
// whole key, mod 16384.
func keySlot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for k := 0; k < len(key); k++ {
		crc ^= uint16(key[k]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % 16384
}

func TestKeysOfARoomShareASlot(t *testing.T) {
	// The examples of Redis's CLUSTER KEYSLOT documentation.
	for key, want := range map[string]int{"somekey": 11058, "foo{hash_tag}": 2515, "foo": 12182} {
		if got := keySlot(key); got != want {
			t.Fatalf("keySlot(%q) = %d, want %d", key, got, want)
		}
	}
	s, err := redisstore.NewFromClient(redis.NewClient(&redis.Options{Addr: "unused:1"}), "tab:")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.RoomKey("abc"); got != "tab:room:{abc}" {
		t.Fatalf("RoomKey(abc) = %q", got)
	}
	slots := map[int]bool{}
	for _, id := range []string{"abc", "r-1", "x", "with}brace", "with{brace", "ünï", "a:b:c", "42"} {
		room := s.RoomKey(id)
		for _, k := range []string{s.LogKey(id), s.LeaseKey(id), s.EpochKey(id)} {
			if keySlot(room) != keySlot(k) {
				t.Errorf("room %q: %s in slot %d, %s in slot %d", id, room, keySlot(room), k, keySlot(k))
			}
		}
		if keySlot(room) != keySlot("{"+strings.SplitN(id, "}", 2)[0]+"}") {
			t.Errorf("room %q: key %s is not slotted by its id", id, room)
		}
		slots[keySlot(room)] = true
	}
	if len(slots) < 4 {
		t.Errorf("rooms fall in only %d slots: the tag does not spread them", len(slots))
	}
}

// TestRoomTTLs: an unfinished room's keys expire after the idle-room TTL
// from its last save, a finished room's after the retention; a seated
// player's identity and room index after the guest TTL.
func TestRoomTTLs(t *testing.T) {
	addr := redistest.Start(t)
	s := newStore(t, addr) // default retention
	defer s.Close()
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	ctx := context.Background()

	about := func(k string, want time.Duration) {
		t.Helper()
		if ttl := c.PTTL(ctx, k).Val(); ttl <= want-time.Minute || ttl > want {
			t.Fatalf("PTTL %s = %v, want about %v", k, ttl, want)
		}
	}
	p := players.Identity{ID: players.GuestID("h"), Name: "ana", TokenHash: "h"}
	if err := s.SavePlayer(ctx, p, false); err != nil {
		t.Fatal(err)
	}
	about(s.PlayerKey(p.ID), store.DefaultGuestTTL)
	c.PExpire(ctx, s.PlayerKey(p.ID), time.Hour) // as if an hour were left
	r := store.Room{ID: "r", Seq: 1, Snapshot: []byte("s"), Append: [][]byte{[]byte("m")}, Players: []string{p.ID}, UpdatedAt: time.Now()}
	if err := s.SaveRoom(ctx, r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{s.RoomKey("r"), s.LogKey("r")} {
		about(k, store.DefaultIdleRoomTTL)
	}
	about(s.PlayerKey(p.ID), store.DefaultGuestTTL)
	about(s.PlayerRoomsKey(p.ID), store.DefaultGuestTTL)
	r.Seq, r.Finished = 2, true
	if err := s.SaveRoom(ctx, r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{s.RoomKey("r"), s.LogKey("r")} {
		if ttl := c.PTTL(ctx, k).Val(); ttl <= store.DefaultRetention-time.Minute || ttl > store.DefaultRetention {
			t.Fatalf("finished room: PTTL %s = %v, want about %v", k, ttl, store.DefaultRetention)
		}
	}
}

// countHook counts round trips: a command or a pipeline each.
type countHook struct{ n atomic.Int64 }

func (h *countHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}
func (h *countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmds)
	}
}

func countingStore(t testing.TB, addr string) (*redisstore.Store, *countHook, *redis.Client) {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { c.Close() })
	h := &countHook{}
	c.AddHook(h)
	s, err := redisstore.NewFromClient(c, redistest.Prefix(t, addr))
	if err != nil {
		t.Fatal(err)
	}
	return s, h, c
}

func TestSaveRoomOneRoundTrip(t *testing.T) {
	addr := redistest.Start(t)
	s, h, c := countingStore(t, addr)
	ctx := context.Background()
	save := func(seq int64) {
		t.Helper()
		err := s.SaveRoom(ctx, store.Room{ID: "r", Seq: seq, Snapshot: []byte("s"), Append: [][]byte{[]byte("m")},
			Players: []string{"a", "b"}, Live: true, UpdatedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
	}
	save(1) // may load the script (EVALSHA, NOSCRIPT, EVAL)
	h.n.Store(0)
	for seq := int64(2); seq <= 11; seq++ {
		save(seq)
	}
	if n := h.n.Load(); n != 10 {
		t.Fatalf("10 saves took %d round trips, want 10", n)
	}

	// After the server lost its scripts (a restart, a failover), the next
	// save falls back to EVAL, and the one after is one round trip again.
	if err := c.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	h.n.Store(0)
	save(12)
	if n := h.n.Load(); n != 2 {
		t.Fatalf("save after SCRIPT FLUSH took %d round trips, want 2 (EVALSHA, then EVAL)", n)
	}
	h.n.Store(0)
	save(13)
	if n := h.n.Load(); n != 1 {
		t.Fatalf("save after the fallback took %d round trips, want 1", n)
	}
	if l, err := s.RoomLog(ctx, "r"); err != nil || len(l) != 13 {
		t.Fatalf("log has %d entries (%v), want 13: a save was applied twice or lost", len(l), err)
	}
}

func TestIndexesRepairedOnRead(t *testing.T) {
	addr := redistest.Start(t)
	s := newStore(t, addr)
	defer s.Close()
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	ctx := context.Background()

	now := time.Now()
	if err := s.SaveRoom(ctx, store.Room{ID: "live", Seq: 1, Players: []string{"a"}, Live: true, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveRoom(ctx, store.Room{ID: "done", Seq: 1, Players: []string{"a"}, Finished: true, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	// Index entries that a lost pipeline, a concurrent stale save or an
	// expired room would leave behind.
	score := float64(now.UnixMicro())
	c.ZAdd(ctx, s.LiveKey(), redis.Z{Score: score + 1, Member: "ghost"}, redis.Z{Score: score + 2, Member: "done"})
	c.SAdd(ctx, s.PlayerRoomsKey("a"), "ghost", "done")
	c.SAdd(ctx, s.PlayerRoomsKey("z"), "live") // z is not seated there

	if ids, err := s.LiveRooms(ctx, 1); err != nil || len(ids) != 1 || ids[0] != "live" {
		t.Fatalf("LiveRooms(1) = %v, %v; want [live]", ids, err)
	}
	if ids, err := s.PlayerRooms(ctx, "a"); err != nil || len(ids) != 1 || ids[0] != "live" {
		t.Fatalf("PlayerRooms(a) = %v, %v; want [live]", ids, err)
	}
	if ids, err := s.PlayerRooms(ctx, "z"); err != nil || len(ids) != 0 {
		t.Fatalf("PlayerRooms(z) = %v, %v; want none", ids, err)
	}
	if n := c.ZCard(ctx, s.LiveKey()).Val(); n != 1 {
		t.Fatalf("live index keeps %d entries after the repair, want 1", n)
	}
	if n := c.SCard(ctx, s.PlayerRoomsKey("a")).Val(); n != 1 {
		t.Fatalf("a's rooms keep %d entries after the repair, want 1", n)
	}
}

// TestOutage stops Redis in the middle of a game: saves and loads fail fast
// with an error (not ErrStaleSeq, not ErrNotFound), nothing half-written
// remains, and once Redis is back the same store carries on from the last
// save that succeeded.
// gameMove is the save of room "game" after its seq-th move.
func gameMove(seq int64) store.Room {
	return store.Room{ID: "game", Seq: seq, Snapshot: []byte(fmt.Sprintf("after move %d", seq)),
		Append: [][]byte{[]byte(fmt.Sprintf("move %d", seq))}, Players: []string{"a", "b"}, Live: true,
		UpdatedAt: time.Unix(1700000000+seq, 0)}
}

// saveMoves saves gameMove(from) to gameMove(to), in order.
func saveMoves(t *testing.T, s store.Store, from, to int64) {
	t.Helper()
	for seq := from; seq <= to; seq++ {
		if err := s.SaveRoom(context.Background(), gameMove(seq)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOutage(t *testing.T) {
	srv := redistest.StartServer(t)
	s := newStore(t, srv.Addr())
	defer s.Close()
	ctx := context.Background()
	saveMoves(t, s, 1, 3)

	srv.Stop()
	for i, call := range []func() error{
		func() error { return s.SaveRoom(ctx, gameMove(4)) },
		func() error { _, err := s.LoadRoom(ctx, "game"); return err },
		func() error { _, err := s.RoomLog(ctx, "game"); return err },
		func() error { _, err := s.LiveRooms(ctx, 10); return err },
		func() error { return s.Ping(ctx) },
	} {
		start := time.Now()
		err := call()
		if err == nil || errors.Is(err, store.ErrStaleSeq) || errors.Is(err, store.ErrNotFound) {
			t.Fatalf("call %d with Redis down: error %v, want a connection error", i, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("call %d with Redis down took %v to fail: %v", i, d, err)
		}
		t.Logf("with Redis down, call %d failed in %v: %v", i, time.Since(start).Round(time.Millisecond), err)
	}

	srv.Restart()
	r, err := s.LoadRoom(ctx, "game")
	if err != nil {
		t.Fatalf("LoadRoom after Redis came back: %v", err)
	}
	if r.Seq != 3 || string(r.Snapshot) != "after move 3" {
		t.Fatalf("after the outage the room is at seq %d %q, want 3 (the refused move 4 must leave no trace)", r.Seq, r.Snapshot)
	}
	// The room retries the refused move; play goes on.
	for seq := int64(4); seq <= 5; seq++ {
		if err := s.SaveRoom(ctx, gameMove(seq)); err != nil {
			t.Fatalf("save of move %d after Redis came back: %v", seq, err)
		}
	}
	l, err := s.RoomLog(ctx, "game")
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 5 {
		t.Fatalf("log has %d entries, want 5: %q", len(l), l)
	}
	for i, e := range l {
		if want := fmt.Sprintf("move %d", i+1); string(e) != want {
			t.Fatalf("log entry %d = %q, want %q", i, e, want)
		}
	}
	if ids, err := s.LiveRooms(ctx, 10); err != nil || len(ids) != 1 || ids[0] != "game" {
		t.Fatalf("LiveRooms after the outage = %v, %v", ids, err)
	}
}

// TestHungRedis freezes Redis while a save is in flight. The save fails at
// the caller's deadline, but its outcome is unknown: Redis received it and
// applies it once it runs again. A room must therefore treat any error other
// than ErrStaleSeq as "maybe saved": reload from the store (LoadRoom is the
// truth) before going on. Saving the same seq again is refused as stale.
func TestHungRedis(t *testing.T) {
	srv := redistest.StartServer(t)
	s := newStore(t, srv.Addr())
	defer s.Close()
	ctx := context.Background()
	room := func(seq int64) store.Room {
		return store.Room{ID: "g", Seq: seq, Snapshot: []byte(fmt.Sprint(seq)), Append: [][]byte{[]byte(fmt.Sprint(seq))}, UpdatedAt: time.Now()}
	}
	if err := s.SaveRoom(ctx, room(1)); err != nil {
		t.Fatal(err)
	}
	srv.Pause()
	dctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	start := time.Now()
	err := s.SaveRoom(dctx, room(2))
	cancel()
	if err == nil || errors.Is(err, store.ErrStaleSeq) {
		t.Fatalf("save with Redis frozen: error %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("save with Redis frozen took %v to fail", d)
	}
	t.Logf("with Redis frozen the save failed in %v: %v", time.Since(start).Round(time.Millisecond), err)
	srv.Resume()

	r, err := s.LoadRoom(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 2 {
		t.Fatalf("after Redis resumed the room is at seq %d; Redis applies the save it had received (seq 2)", r.Seq)
	}
	if err := s.SaveRoom(ctx, room(2)); !errors.Is(err, store.ErrStaleSeq) {
		t.Fatalf("saving seq 2 again: %v, want ErrStaleSeq", err)
	}
	if l, err := s.RoomLog(ctx, "g"); err != nil || len(l) != 2 {
		t.Fatalf("log = %q, %v; want 2 entries, the unknown-outcome save applied once", l, err)
	}
}

// BenchmarkSaveRoom saves one move (a 2 KiB snapshot, one log entry, two
// players, live) per op and reports the round trips per save.
func BenchmarkSaveRoom(b *testing.B) {
	addr := redistest.Start(b)
	s, h, _ := countingStore(b, addr)
	ctx := context.Background()
	snap := []byte(strings.Repeat("x", 2048))
	seq := int64(0)
	save := func() {
		seq++
		err := s.SaveRoom(ctx, store.Room{ID: "bench", Seq: seq, Snapshot: snap,
			Append: [][]byte{[]byte(`{"seat":0,"move":"a1"}`)}, Players: []string{"a", "b"}, Live: true, UpdatedAt: time.Now()})
		if err != nil {
			b.Fatal(err)
		}
	}
	save() // loads the script
	h.n.Store(0)
	b.ResetTimer()
	for b.Loop() {
		save()
	}
	b.ReportMetric(float64(h.n.Load())/float64(b.N), "roundtrips/op")
}

// BenchmarkSaveRoomParallel saves moves of many rooms at once, as many room
// goroutines do, each room on its own seq: 8 rooms per GOMAXPROCS, since a
// save mostly waits on the network.
func BenchmarkSaveRoomParallel(b *testing.B) {
	addr := redistest.Start(b)
	s, _, _ := countingStore(b, addr)
	b.SetParallelism(8)
	snap := []byte(strings.Repeat("x", 2048))
	var rooms atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("room-%d", rooms.Add(1))
		ctx := context.Background()
		for seq := int64(1); pb.Next(); seq++ {
			err := s.SaveRoom(ctx, store.Room{ID: id, Seq: seq, Snapshot: snap,
				Append: [][]byte{[]byte(`{"seat":0,"move":"a1"}`)}, Players: []string{"a", "b"}, Live: true, UpdatedAt: time.Now()})
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func TestRecordsConformance(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	storetest.RunRecords(t, func(t *testing.T, retention time.Duration) store.Records {
		s := newStore(t, addr, redisstore.WithRecordRetention(retention))
		t.Cleanup(func() { _ = s.Close() })
		return s.Records()
	})
}
