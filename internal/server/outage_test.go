package server_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// TestRedisOutageAtRoomLevel stops Redis in the middle of a game (SHUTDOWN,
// as a crashed or restarted Redis) or freezes it (SIGSTOP, as a hung or
// partitioned one). Moves are refused with the documented code "internal",
// the room does not change and no client sees anything diverge; the
// readiness probe says so. When Redis is back, the same move is accepted,
// a client that sees the seq skip resyncs by re-joining, and the game is
// played to its end.
func TestRedisOutageAtRoomLevel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		down, up func(*redistest.Server)
	}{
		{"stop", (*redistest.Server).Stop, (*redistest.Server).Restart},
		{"pause", (*redistest.Server).Pause, (*redistest.Server).Resume},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // a Redis and a server each
			rs, prefix, open := redisOpener(t)
			s := startOnRedis(t, open)
			a, b, sp, room, st := roomOf(t, s, "orbito", "2")
			all := []*testserver.Client{a, b, sp}
			rng := rand.New(rand.NewPCG(21, 22))
			st = move(t, a, room, st.Legal[rng.IntN(len(st.Legal))], st.Seq, all...)
			before := st

			tc.down(rs)
			if code := status(t, s.URL+"/readyz"); code != http.StatusServiceUnavailable {
				t.Fatalf("/readyz answered %d with Redis down, want 503", code)
			}
			mv := st.Legal[rng.IntN(len(st.Legal))]
			for range 2 { // refused, and refused again: nothing was left half done
				b.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
				e := b.WaitError("internal")
				if e.Room != room || !strings.Contains(e.Message, "could not save the move") {
					t.Fatalf("refusal %s", e.Raw)
				}
			}
			// Nothing was broadcast, and the room still holds the old state.
			syncChat(t, b, room, "during the outage", all...)
			for i, c := range all {
				if got := statesAfter(c, room, before.Seq); len(got) != 0 {
					t.Fatalf("client %d saw a state during the outage: %s", i, got[0].Raw)
				}
			}
			a.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
			a.Wait("room.joined", nil)
			now := a.State(room, nil)
			if now.Seq != before.Seq || string(now.Board) != string(before.Board) || *now.Turn != 1 || *now.LastMove != *before.LastMove {
				t.Fatalf("room changed during the outage: %s\nwas %s", now.Raw, before.Raw)
			}

			tc.up(rs)
			waitReady(t, s.URL)
			st = move(t, b, room, mv, before.Seq, all...)
			// The refused saves had no definite answer (the store could not
			// be asked), so the room burnt their seq: clients see a gap. A
			// client that sees one re-joins and gets the full state.
			if st.Seq <= before.Seq+1 {
				t.Fatalf("seq went from %d to %d after saves without an answer; the burnt seq was reused", before.Seq, st.Seq)
			}
			for i, c := range all {
				as := map[bool]string{true: "player", false: "spectator"}[i < 2]
				c.Send(map[string]any{"type": "room.join", "room": room, "as": as})
				c.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == room })
				got := c.State(room, func(m testserver.Msg) bool { return m.Seq >= st.Seq })
				if string(got.Board) != string(st.Board) || got.LastMove.Move != mv || got.LastMove.Seat != 1 {
					t.Fatalf("client %d resynced to %s\nwant %s", i, got.Raw, st.Raw)
				}
			}
			final := playOut(t, rng, map[int]*testserver.Client{0: a, 1: b}, room, 100)
			if final.Status != "finished" {
				t.Fatalf("final state %s", final.Raw)
			}
			sp.State(room, func(m testserver.Msg) bool { return m.Seq == final.Seq && string(m.Board) == string(final.Board) })

			// What Redis holds is the game as played: the final snapshot,
			// and one log entry per move, the refused ones absent.
			check, err := redisstore.New(context.Background(), rs.Addr(), prefix)
			if err != nil {
				t.Fatal(err)
			}
			defer check.Close()
			saved, err := check.LoadRoom(context.Background(), room)
			if err != nil || saved.Seq != final.Seq {
				t.Fatalf("stored room at seq %d (%v), want %d", saved.Seq, err, final.Seq)
			}
			entries, err := check.RoomLog(context.Background(), room)
			if err != nil {
				t.Fatal(err)
			}
			// The room's history is the chain of entries from the
			// snapshot's seq back through prev: a refused save that
			// landed late (a frozen Redis runs what it had received) is
			// off the chain.
			bySeq := map[int64]logRecord{}
			for _, e := range entries {
				var le logRecord
				if err := json.Unmarshal(e, &le); err != nil {
					t.Fatalf("log entry %s: %v", e, err)
				}
				bySeq[le.Seq] = le
			}
			var played []string
			chain := 0
			for seq := saved.Seq; seq != 0; chain++ {
				le, ok := bySeq[seq]
				if !ok || le.Prev >= seq {
					t.Fatalf("the log has no entry at seq %d, or a bad prev: %s", seq, entries)
				}
				if le.Kind == "move" {
					played = append([]string{le.Move}, played...)
				}
				seq = le.Prev
			}
			t.Logf("log: %d entries, %d on the room's history, %d left by refused saves that landed late",
				len(entries), chain, len(entries)-chain)
			// Every orbito move changes the board: the moves the spectator
			// saw are the last moves of the states whose board changed.
			var seen []string
			var board string
			for _, m := range sp.Log() {
				if m.Type == "room.state" && m.Room == room && string(m.Board) != board {
					if board != "" {
						seen = append(seen, m.LastMove.Move)
					}
					board = string(m.Board)
				}
			}
			if strings.Join(played, " ") != strings.Join(seen, " ") {
				t.Fatalf("the log holds moves %v, the spectator saw %v", played, seen)
			}
		})
	}
}

// logRecord is what the test reads of a room's log entry.
type logRecord struct {
	Seq  int64  `json:"seq"`
	Prev int64  `json:"prev"`
	Kind string `json:"kind"`
	Move string `json:"move"`
}

func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitReady waits until /readyz answers 200 (Redis answers again).
func waitReady(t *testing.T, base string) {
	t.Helper()
	eventually(t, "/readyz answers 200 after Redis came back", func() bool { return status(t, base+"/readyz") == http.StatusOK })
}

// TestRedisOutageBeforeRestore: after a restart a room comes back the first
// time someone asks for it. Asked while Redis is down, the server cannot
// tell whether the room exists: it answers "internal" (try again), not
// "unknown_room", and once Redis is back the same join restores the room.
func TestRedisOutageBeforeRestore(t *testing.T) {
	t.Parallel()
	rs, _, open := redisOpener(t)
	s1 := startOnRedis(t, open)
	a, b, sp, room, st := morrisRoom(t, s1)
	st = move(t, a, room, "b2", st.Seq, a, b, sp)
	s1.Stop()

	s2 := startOnRedis(t, open)
	x := s2.Hello(t, "late", "") // says hello while Redis answers
	x.Send(map[string]any{"type": "room.join", "room": "no-such-room", "as": "spectator"})
	x.WaitError("unknown_room")
	rs.Stop()
	x.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	if e := x.WaitError("internal"); e.Room != room || e.Message == "" {
		t.Fatalf("join with Redis down: %s", e.Raw)
	}
	rs.Restart()
	waitReady(t, s2.URL)
	x.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	x.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == room })
	got := x.State(room, nil)
	if string(got.Board) != string(st.Board) || got.LastMove == nil || got.LastMove.Move != "b2" {
		t.Fatalf("restored %s\nwas %s", got.Raw, st.Raw)
	}
	for _, m := range x.Log() {
		if m.Type == "error" && m.Code != "unknown_room" && m.Code != "internal" {
			t.Fatalf("unexpected error %s", m.Raw)
		}
	}
}

// TestHelloWhileRedisIsDown: a resuming player whose identity and rooms
// cannot be read is not welcomed as someone else or with no rooms: the hello
// is refused with "internal", the connection stays without a player, and
// the same hello said again once Redis is back seats it in its room.
func TestHelloWhileRedisIsDown(t *testing.T) {
	t.Parallel()
	rs, _, open := redisOpener(t)
	s := startOnRedis(t, open)
	a, b, sp, room, st := morrisRoom(t, s)
	st = move(t, a, room, "b2", st.Seq, a, b, sp)
	token := a.Token
	a.Close()

	c, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs.Stop()
	c.Send(map[string]any{"type": "hello", "name": "ana", "token": token, "id": 1})
	if e := c.WaitError("internal"); e.Message == "" {
		t.Fatalf("hello with Redis down: %s", e.Raw)
	}
	rs.Restart()
	waitReady(t, s.URL)
	c.Send(map[string]any{"type": "hello", "name": "ana", "token": token, "id": 2})
	w := c.Wait("welcome", nil)
	if !strings.Contains(string(w.Rooms), room) {
		t.Fatalf("welcome after Redis came back lists rooms %s, want %s", w.Rooms, room)
	}
	got := c.State(room, nil)
	if string(got.Board) != string(st.Board) {
		t.Fatalf("rejoined state %s, was %s", got.Raw, st.Raw)
	}
}

// TestReadyFailsWhenRedisRefusesWrites: a Redis at its maxmemory under
// noeviction answers PING but refuses every write; /readyz says so (503)
// while /healthz still answers, a new visitor's hello is refused with
// internal and changes nothing, and all is well again once Redis takes
// writes (and redisstore.OOMHold has passed since its last refusal).
func TestReadyFailsWhenRedisRefusesWrites(t *testing.T) {
	t.Parallel()
	rs, prefix, _ := redisOpener(t)
	now := fakeclock.New()
	st, err := redisstore.New(t.Context(), rs.Addr(), prefix, redisstore.WithClock(now.Now))
	if err != nil {
		t.Fatal(err)
	}
	s := testserver.Start(t, func(c *server.Config) { c.Store = st })
	waitReady(t, s.URL)
	c := redis.NewClient(&redis.Options{Addr: rs.Addr()})
	defer c.Close()
	ctx := context.Background()
	if err := c.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.ConfigSet(ctx, "maxmemory", "1").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("PING of a full Redis: %v, want PONG", err)
	}
	if ans := get(t, s.URL+"/readyz"); ans.status != http.StatusServiceUnavailable || !strings.Contains(string(ans.body), "out of memory") {
		t.Fatalf("/readyz with Redis refusing writes: %d %q, want 503 saying out of memory", ans.status, ans.body)
	}
	if got := status(t, s.URL+"/healthz"); got != http.StatusOK {
		t.Fatalf("/healthz with Redis refusing writes: %d", got)
	}
	v, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	v.Send(map[string]any{"type": "hello", "name": "eve"})
	v.WaitError("internal")
	if err := c.ConfigSet(ctx, "maxmemory", "0").Err(); err != nil {
		t.Fatal(err)
	}
	now.Advance(redisstore.OOMHold)
	waitReady(t, s.URL)
	v.Send(map[string]any{"type": "hello", "name": "eve"})
	v.Wait("welcome", nil)
}

// TestReadyFailsAfterASaveRefusedForMemory: a real redis-server at a
// small maxmemory under noeviction. Filled past it, it refuses a move's
// save (the player is told internal); memory then drops under the limit
// for a moment (here the filler is deleted; in production keys expire), so
// that the write probe alone would pass: /readyz still answers 503, and
// says the store is out of memory, not unreachable, until OOMHold has
// passed without a refusal. Then it is ready and the move goes through.
func TestReadyFailsAfterASaveRefusedForMemory(t *testing.T) {
	t.Parallel()
	rs := redistest.StartServer(t)
	now := fakeclock.New()
	st, err := redisstore.New(t.Context(), rs.Addr(), "oom:", redisstore.WithClock(now.Now))
	if err != nil {
		t.Fatal(err)
	}
	s := testserver.Start(t, func(c *server.Config) { c.Store = st })
	waitReady(t, s.URL)
	a, b, room := func() (*testserver.Client, *testserver.Client, string) {
		a, b := s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
		room := humanRoom(a, b, "morris", "3")
		a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
		return a, b, room
	}()
	c := redis.NewClient(&redis.Options{Addr: rs.Addr()})
	defer c.Close()
	ctx := t.Context()
	used := func() int64 {
		info, err := c.Info(ctx, "memory").Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(info, "\r\n") {
			if v, ok := strings.CutPrefix(l, "used_memory:"); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n
			}
		}
		t.Fatal("no used_memory in INFO")
		return 0
	}
	limit := used() + 1<<20
	for _, kv := range [][2]string{{"maxmemory-policy", "noeviction"}, {"maxmemory", strconv.FormatInt(limit, 10)}} {
		if err := c.ConfigSet(ctx, kv[0], kv[1]).Err(); err != nil {
			t.Fatal(err)
		}
	}
	// Past the limit: a 2 MB filler (the write that crosses it is taken).
	if err := c.SetRange(ctx, "oom:filler", 2<<20, "x").Err(); err != nil {
		t.Fatal(err)
	}
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2", "id": "full"})
	if e := a.Wait("error", func(m testserver.Msg) bool { return string(m.ID) == `"full"` }); e.Code != "internal" {
		t.Fatalf("a move with Redis full: %s, want internal", e.Raw)
	}
	if err := c.Del(ctx, "oom:filler").Err(); err != nil {
		t.Fatal(err)
	}
	if u := used(); u >= limit {
		t.Fatalf("used memory %d still at the limit %d after the filler went", u, limit)
	}
	ans := get(t, s.URL+"/readyz")
	if ans.status != http.StatusServiceUnavailable || !strings.Contains(string(ans.body), "out of memory") {
		t.Fatalf("/readyz after a save refused for memory: %d %q, want 503 saying out of memory", ans.status, ans.body)
	}
	now.Advance(redisstore.OOMHold)
	if ans := get(t, s.URL+"/readyz"); ans.status != http.StatusOK {
		t.Fatalf("/readyz once the refusal is %v old and Redis takes writes: %d %q", redisstore.OOMHold, ans.status, ans.body)
	}
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
	b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "b2" })
}
