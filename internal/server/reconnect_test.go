package server_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/redistest"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/redisstore"
)

// The reconnect tests run the real server on a real Redis (a private
// redis-server per test) and drive it with real WebSocket clients.

// redisOpener starts a private redis-server and returns a function that
// opens a new store on it, every store under the same key prefix (so that a
// second server sees the first one's rooms), and the server itself.
func redisOpener(t *testing.T) (rs *redistest.Server, prefix string, open func() store.Store) {
	t.Helper()
	rs = redistest.StartServer(t)
	prefix = redistest.Prefix(t, rs.Addr())
	return rs, prefix, func() store.Store {
		t.Helper()
		st, err := redisstore.New(context.Background(), rs.Addr(), prefix)
		if err != nil {
			t.Fatalf("redis store: %v", err)
		}
		return st
	}
}

// startOnRedis starts the service on a new store from open.
func startOnRedis(t *testing.T, open func() store.Store) *testserver.Server {
	t.Helper()
	return testserver.Start(t, func(c *server.Config) { c.Store = open() })
}

// welcomeRooms returns the room ids of the client's welcome.
func welcomeRooms(t *testing.T, c *testserver.Client) []string {
	t.Helper()
	for _, m := range c.Log() {
		if m.Type == "welcome" {
			var rooms []string
			if err := json.Unmarshal(m.Rooms, &rooms); err != nil {
				t.Fatalf("welcome rooms %s: %v", m.Rooms, err)
			}
			return rooms
		}
	}
	t.Fatal("no welcome")
	return nil
}

// move sends a move and waits until every client in watchers has the state
// that shows it; it returns that state as the first watcher saw it.
func move(t *testing.T, by *testserver.Client, room, mv string, after int64, watchers ...*testserver.Client) testserver.Msg {
	t.Helper()
	by.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
	var first testserver.Msg
	for i, w := range watchers {
		m := w.State(room, func(m testserver.Msg) bool {
			return m.Seq > after && m.LastMove != nil && m.LastMove.Move == mv
		})
		if i == 0 {
			first = m
		} else if string(m.Board) != string(first.Board) || m.Seq != first.Seq {
			t.Fatalf("clients diverge after %s: %s\nvs %s", mv, m.Raw, first.Raw)
		}
	}
	return first
}

// syncChat sends a chat line from c and waits until every client has it: the
// room handles commands in order and each connection's queue keeps it, so
// any room.state the room sent before the line has arrived by then.
func syncChat(t *testing.T, c *testserver.Client, room, text string, all ...*testserver.Client) {
	t.Helper()
	c.Send(map[string]any{"type": "room.chat", "room": room, "text": text})
	for _, w := range all {
		w.Wait("room.chat", func(m testserver.Msg) bool { return m.Room == room && m.Text == text })
	}
}

// statesAfter returns the room.states of room with seq above seq that c has
// received so far.
func statesAfter(c *testserver.Client, room string, seq int64) []testserver.Msg {
	var out []testserver.Msg
	for _, m := range c.Log() {
		if m.Type == "room.state" && m.Room == room && m.Seq > seq {
			out = append(out, m)
		}
	}
	return out
}

// TestReconnectNewConnection: a player whose connection drops comes back on
// a new connection with its token: it is the same player, seated again in
// its room with the full state (one seq on from what it saw: the move it
// missed; connections coming and going move no seq), its opponent sees it
// connected again, and it can move.
func TestReconnectNewConnection(t *testing.T) {
	t.Parallel()
	_, _, open := redisOpener(t)
	s := startOnRedis(t, open)
	a, b, sp, room, st := morrisRoom(t, s)
	st = move(t, a, room, "b2", st.Seq, a, b, sp)
	lastSeen := st.Seq
	a.Close()
	gone := b.State(room, func(m testserver.Msg) bool { return !m.Players[0].Connected })
	// The opponent plays on while a is away: a misses that state.
	st = move(t, b, room, "a1", gone.Seq, b, sp)

	a2 := s.Hello(t, "", a.Token)
	if a2.Player != a.Player {
		t.Fatalf("token gave player %+v, want %+v", a2.Player, a.Player)
	}
	if rooms := welcomeRooms(t, a2); !slices.Contains(rooms, room) {
		t.Fatalf("welcome rooms %v lack %s", rooms, room)
	}
	j := a2.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == room })
	if j.Role != "player" || j.Seat == nil || *j.Seat != 0 {
		t.Fatalf("seated again as %s", j.Raw)
	}
	back := a2.State(room, nil)
	if back.Seq != lastSeen+1 {
		t.Fatalf("first state after the reconnect has seq %d, last seen %d: want one move on", back.Seq, lastSeen)
	}
	if string(back.Board) != string(st.Board) || back.Turn == nil || *back.Turn != 0 ||
		back.LastMove == nil || back.LastMove.Move != "a1" || !back.Players[0].Connected {
		t.Fatalf("state after the reconnect %s\nwant the board of %s", back.Raw, st.Raw)
	}
	b.State(room, func(m testserver.Msg) bool { return m.Seq >= back.Seq && m.Players[0].Connected })
	st = move(t, a2, room, "c3", back.Seq, a2, b, sp)
	move(t, b, room, "a3", st.Seq, a2, b, sp)
}

// TestReconnectSameConnection: a player leaves its room and joins it again
// on the same connection: it keeps its seat, gets the full state, and plays.
func TestReconnectSameConnection(t *testing.T) {
	t.Parallel()
	_, _, open := redisOpener(t)
	s := startOnRedis(t, open)
	a, b, sp, room, st := morrisRoom(t, s)
	a.Send(map[string]any{"type": "room.leave", "room": room})
	a.Wait("room.left", func(m testserver.Msg) bool { return m.Room == room })
	gone := b.State(room, func(m testserver.Msg) bool { return m.Seq == st.Seq && !m.Players[0].Connected })
	if gone.Players[0].ID != a.Player.ID {
		t.Fatalf("seat 0 lost its player on leave: %s", gone.Raw)
	}
	a.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	j := a.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == room })
	if j.Role != "player" || j.Seat == nil || *j.Seat != 0 {
		t.Fatalf("a seated player joins as player whatever it asks: %s", j.Raw)
	}
	back := a.State(room, func(m testserver.Msg) bool { return m.Seq == gone.Seq })
	if !back.Players[0].Connected || back.Turn == nil || *back.Turn != 0 || len(back.Legal) == 0 {
		t.Fatalf("state after re-joining %s", back.Raw)
	}
	move(t, a, room, back.Legal[0], back.Seq, a, b, sp)
}

// TestDuplicateTabs: two connections of one player (same token) both
// receive the room, either can move, the same move sent from both at once
// is played once, and closing one tab does not make the player disconnected.
func TestDuplicateTabs(t *testing.T) {
	t.Parallel()
	_, _, open := redisOpener(t)
	s := startOnRedis(t, open)
	a, b, sp, room, st := morrisRoom(t, s)
	a2 := s.Hello(t, "", a.Token)
	a2.State(room, nil) // joined again by hello: it holds seat 0
	st = move(t, a2, room, "b2", st.Seq, a, a2, b, sp)
	st = move(t, b, room, "a1", st.Seq, a, a2, b, sp)
	st = move(t, a, room, "c3", st.Seq, a, a2, b, sp)
	st = move(t, b, room, "a3", st.Seq, a, a2, b, sp)

	// Both tabs play the same move at once: it is played once, and the
	// tab that lost the race is told why.
	const mv = "a2"
	if !slices.Contains(st.Legal, mv) {
		t.Fatalf("%s is not legal in %s", mv, st.Raw)
	}
	for _, c := range []*testserver.Client{a, a2} {
		c.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
	}
	// A line from each tab after its move: once every client has both, the
	// room has handled both moves (a connection's messages reach the room
	// in order).
	syncChat(t, a, room, "after the race (a)", a, a2, b, sp)
	syncChat(t, a2, room, "after the race (a2)", a, a2, b, sp)
	var refusals []testserver.Msg
	for _, c := range []*testserver.Client{a, a2} {
		for _, m := range c.Log() {
			if m.Type == "error" {
				refusals = append(refusals, m)
			}
		}
	}
	if len(refusals) != 1 || refusals[0].Code != "not_your_turn" && refusals[0].Code != "illegal_move" {
		t.Fatalf("refusals %v, want the move refused once, to the tab that lost the race", refusals)
	}
	for _, c := range []*testserver.Client{a, a2, b, sp} {
		got := statesAfter(c, room, st.Seq)
		if len(got) != 1 || got[0].Seq != st.Seq+1 || got[0].LastMove.Move != mv || got[0].Turn == nil || *got[0].Turn != 1 {
			t.Fatalf("after the race a client saw %d states, want one with %s played once", len(got), mv)
		}
	}
	st = statesAfter(b, room, st.Seq)[0]

	// Closing one tab keeps the player connected: no state at all.
	a.Close()
	syncChat(t, a2, room, "one tab left", a2, b, sp)
	if got := statesAfter(b, room, st.Seq); len(got) != 0 {
		t.Fatalf("closing one of two tabs changed the room: %s", got[0].Raw)
	}
	if len(st.Legal) == 0 {
		t.Fatalf("no legal move for b in %s", st.Raw)
	}
	move(t, b, room, st.Legal[0], st.Seq, a2, b, sp)
}

// TestSpectatorResumes: a spectator whose connection drops comes back with
// its token, joins as spectator again, gets the full state and follows on.
func TestSpectatorResumes(t *testing.T) {
	t.Parallel()
	_, _, open := redisOpener(t)
	s := startOnRedis(t, open)
	a, b, sp, room, st := morrisRoom(t, s)
	st = move(t, a, room, "b2", st.Seq, a, b, sp)
	sp.Close()
	gone := a.State(room, func(m testserver.Msg) bool { return m.Spectators == 0 })
	st = move(t, b, room, "a1", gone.Seq, a, b)

	sp2 := s.Hello(t, "", sp.Token)
	if sp2.Player != sp.Player {
		t.Fatalf("token gave %+v, want %+v", sp2.Player, sp.Player)
	}
	if rooms := welcomeRooms(t, sp2); len(rooms) != 0 {
		t.Fatalf("a spectator has no seats, welcome listed %v", rooms)
	}
	sp2.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	if j := sp2.Wait("room.joined", nil); j.Role != "spectator" || j.Seat != nil {
		t.Fatalf("joined as %s", j.Raw)
	}
	back := sp2.State(room, nil)
	if back.Spectators != 1 || string(back.Board) != string(st.Board) || back.LastMove == nil || back.LastMove.Move != "a1" {
		t.Fatalf("spectator resumed with %s\nwant the board of %s", back.Raw, st.Raw)
	}
	move(t, a, room, "c3", back.Seq, a, b, sp2)
}

// TestReconnectAfterRestart: the server stops (1012), a new one starts on
// the same Redis, and players and a spectator come back with their tokens:
// the room is restored with its board and seats, and the game goes on to
// its end.
func TestReconnectAfterRestart(t *testing.T) {
	t.Parallel()
	_, _, open := redisOpener(t)
	s1 := startOnRedis(t, open)
	a, b, sp, room, st := roomOf(t, s1, "orbito", "2")
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 4 {
		by := map[int]*testserver.Client{0: a, 1: b}[i%2]
		st = move(t, by, room, st.Legal[rng.IntN(len(st.Legal))], st.Seq, a, b, sp)
	}
	s1.Stop()
	for _, c := range []*testserver.Client{a, b, sp} {
		if code := c.WaitClosed(); code != websocket.CloseServiceRestart {
			t.Fatalf("closed with %d, want 1012", code)
		}
	}

	s2 := startOnRedis(t, open)
	a2, b2, sp2 := s2.Hello(t, "", a.Token), s2.Hello(t, "", b.Token), s2.Hello(t, "", sp.Token)
	sp2.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	for i, c := range []*testserver.Client{a2, b2, sp2} {
		j := c.Wait("room.joined", func(m testserver.Msg) bool { return m.Room == room })
		if i < 2 && (j.Seat == nil || *j.Seat != i) || i == 2 && j.Role != "spectator" {
			t.Fatalf("client %d joined as %s", i, j.Raw)
		}
		got := c.State(room, nil)
		if got.Seq < st.Seq || string(got.Board) != string(st.Board) || got.Turn == nil || *got.Turn != *st.Turn ||
			!slices.Equal(got.Legal, st.Legal) || got.LastMove == nil || *got.LastMove != *st.LastMove {
			t.Fatalf("restored state %s\nwas %s", got.Raw, st.Raw)
		}
	}
	final := playOut(t, rng, map[int]*testserver.Client{0: a2, 1: b2}, room, 100)
	if final.Status != "finished" || final.Result == nil {
		t.Fatalf("final state %s", final.Raw)
	}
	end := sp2.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if end.Seq != final.Seq || string(end.Board) != string(final.Board) {
		t.Fatalf("spectator ended with %s\nplayers with %s", end.Raw, final.Raw)
	}
}

// humanRoom has a create a room of game and variant for two people and b
// join it as the second player, and returns the room id; the states that
// follow are the caller's to wait for.
func humanRoom(a, b *testserver.Client, game, variant string) string {
	a.Send(map[string]any{"type": "room.create", "game": game, "variant": variant, "opponent": "human"})
	room := a.Wait("room.joined", nil).Room
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	return room
}

// roomOf starts a room of game and variant between a (seat 0) and b
// (seat 1) with a spectator, and returns its playing state.
func roomOf(t *testing.T, s *testserver.Server, game, variant string) (a, b, sp *testserver.Client, room string, st testserver.Msg) {
	t.Helper()
	a, b, sp = s.Hello(t, "ana", ""), s.Hello(t, "bia", ""), s.Hello(t, "spec", "")
	a.Send(map[string]any{"type": "room.create", "game": game, "variant": variant, "opponent": "human"})
	room = a.Wait("room.joined", nil).Room
	sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	sp.Wait("room.joined", nil)
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	st = a.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	b.State(room, func(m testserver.Msg) bool { return m.Seq == st.Seq })
	sp.State(room, func(m testserver.Msg) bool { return m.Seq == st.Seq })
	return a, b, sp, room, st
}
