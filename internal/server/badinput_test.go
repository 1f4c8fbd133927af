package server_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/players"
	"github.com/tabuleiro/tabuleiro/store"
	"github.com/tabuleiro/tabuleiro/store/memstore"
)

// flakyStore fails SaveRoom while failRooms is set and SavePlayer while
// failPlayers is set.
type flakyStore struct {
	store.Store
	failRooms, failPlayers atomic.Bool
}

func (f *flakyStore) SaveRoom(ctx context.Context, r store.Room) error {
	if f.failRooms.Load() {
		return errors.New("disk on fire")
	}
	return f.Store.SaveRoom(ctx, r)
}

func (f *flakyStore) SavePlayer(ctx context.Context, p players.Identity, lasting bool) error {
	if f.failPlayers.Load() {
		return errors.New("disk on fire")
	}
	return f.Store.SavePlayer(ctx, p, lasting)
}

// morrisRoom starts a morris room between a (seat 0) and b (seat 1) with a
// spectator, and returns the room id and its playing state.
func morrisRoom(t *testing.T, s *testserver.Server) (a, b, sp *testserver.Client, room string, st testserver.Msg) {
	t.Helper()
	return roomOf(t, s, "morris", "3")
}

// TestBadInputErrorCodes produces every error code of the contract over the
// WebSocket and checks that none of them changes the room.
func TestBadInputErrorCodes(t *testing.T) {
	t.Parallel()
	fs := &flakyStore{Store: memstore.New()}
	s := testserver.Start(t, func(c *server.Config) { c.Store = fs })
	a, b, sp, room, st := morrisRoom(t, s)
	c := s.Hello(t, "carla", "")

	expect := func(who *testserver.Client, code string, msg any) testserver.Msg {
		t.Helper()
		who.Send(msg)
		e := who.WaitError(code)
		if e.Message == "" {
			t.Errorf("%s error has no message", code)
		}
		return e
	}
	// bad_request: malformed JSON, unknown type, missing fields.
	expect(c, "bad_request", `{"type":"room.move",`)
	expect(c, "bad_request", `[1,2,3]`)
	expect(c, "bad_request", `{"type":"room.teleport","room":"x"}`)
	expect(c, "bad_request", map[string]any{"type": "room.move", "room": room})
	expect(c, "bad_request", map[string]any{"type": "room.join", "room": room})
	expect(c, "bad_request", map[string]any{"type": "room.create", "game": "morris"})
	expect(c, "bad_request", map[string]any{"type": "room.chat", "room": room})
	if e := expect(c, "bad_request", map[string]any{"type": "match.find", "id": "q1", "variant": "3"}); string(e.ID) != `"q1"` {
		t.Errorf("error id = %s, want \"q1\"", e.ID)
	}
	// unknown_game: game, variant, level.
	expect(c, "unknown_game", map[string]any{"type": "room.create", "game": "chess", "variant": "8", "opponent": "human"})
	expect(c, "unknown_game", map[string]any{"type": "room.create", "game": "morris", "variant": "9", "opponent": "human"})
	expect(c, "unknown_game", map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "bot", "level": "genius"})
	expect(c, "unknown_game", map[string]any{"type": "match.find", "game": "chess", "variant": "8"})
	// bad_setup
	expect(c, "bad_setup", map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "human",
		"setup": map[string]any{"board": [][]int{{1, 1, 1}, {1, 0, 0}, {0, 0, 0}}, "toMove": "O"}})
	// unknown_room
	expect(c, "unknown_room", map[string]any{"type": "room.join", "room": "nope", "as": "spectator"})
	expect(c, "unknown_room", map[string]any{"type": "room.move", "room": "nope", "move": "a1"})
	// not_your_turn: seat 1 moves first.
	expect(b, "not_your_turn", map[string]any{"type": "room.move", "room": room, "move": "a1"})
	// illegal_move: malformed and occupied.
	expect(a, "illegal_move", map[string]any{"type": "room.move", "room": room, "move": "z9"})
	// not_a_player: a spectator and a stranger moving.
	expect(sp, "not_a_player", map[string]any{"type": "room.move", "room": room, "move": "a1"})
	expect(c, "not_a_player", map[string]any{"type": "room.move", "room": room, "move": "a1"})
	// room_full
	expect(c, "room_full", map[string]any{"type": "room.join", "room": room, "as": "player"})
	// too_large: a chat line over the limit.
	expect(a, "too_large", map[string]any{"type": "room.chat", "room": room, "text": strings.Repeat("é", 501)})
	// internal: the store fails; the move is rolled back and not broadcast.
	fs.failRooms.Store(true)
	e := expect(a, "internal", map[string]any{"type": "room.move", "room": room, "move": "a1"})
	if e.Message != "could not save the move, try again" {
		t.Errorf("internal message %q", e.Message)
	}
	fs.failRooms.Store(false)

	// Nothing changed: no state was broadcast, and a re-join shows the same seq and board.
	for _, who := range []*testserver.Client{a, b, sp} {
		if _, ok := who.TryWait("room.state", nil, 100*time.Millisecond); ok {
			t.Fatalf("a room.state was broadcast after errors")
		}
	}
	a.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	again := a.State(room, nil)
	if again.Seq != st.Seq || string(again.Board) != string(st.Board) {
		t.Fatalf("room changed by errors: seq %d -> %d, board %s -> %s", st.Seq, again.Seq, st.Board, again.Board)
	}
	// The same move now succeeds.
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "a1"})
	after := sp.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	if after.Seq != st.Seq+1 {
		t.Fatalf("seq after the move %d, want %d", after.Seq, st.Seq+1)
	}
	// game_over: resign, then move.
	a.Send(map[string]any{"type": "room.resign", "room": room})
	fin := b.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	if fin.Result == nil || fin.Result.Winner == nil || *fin.Result.Winner != 1 || fin.Result.Reason != "resign" {
		t.Fatalf("resign result %s", fin.Raw)
	}
	expect(b, "game_over", map[string]any{"type": "room.move", "room": room, "move": "b1"})
}

// TestRateLimitedThenDisconnected floods one connection: it gets
// rate_limited errors, then is closed with 1008; another client is served.
func TestRateLimitedThenDisconnected(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.Hub.Rate, c.Hub.Burst, c.Hub.MaxViolations = 20, 40, 20 })
	flood := s.Hello(t, "flood", "")
	calm := s.Hello(t, "calm", "")
	for i := 0; i < 200 && !flood.Closed(); i++ {
		if err := flood.Conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"lobby.unwatch"}`)); err != nil {
			break
		}
	}
	flood.WaitError("rate_limited")
	if code := flood.WaitClosed(); code != websocket.ClosePolicyViolation {
		t.Fatalf("flooder closed with %d, want 1008", code)
	}
	calm.Send(map[string]any{"type": "lobby.watch"})
	calm.Wait("lobby", nil)
}

// TestFrameOverReadLimitCloses1009 sends a frame over 8 KiB.
func TestFrameOverReadLimitCloses1009(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	c := s.Hello(t, "big", "")
	other := s.Hello(t, "other", "")
	_ = c.Conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"room.chat","room":"x","text":"`+strings.Repeat("a", 9000)+`"}`))
	if code := c.WaitClosed(); code != websocket.CloseMessageTooBig {
		t.Fatalf("closed with %d, want 1009", code)
	}
	other.Send(map[string]any{"type": "lobby.watch"})
	other.Wait("lobby", nil)
}

// TestOriginCheck refuses a foreign Origin unless it is allowed.
func TestOriginCheck(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.Origins = []string{"https://play.example"} })
	for _, tc := range []struct {
		origin string
		ok     bool
	}{{"", true}, {s.URL, true}, {"https://play.example", true}, {"https://evil.example", false}} {
		h := http.Header{}
		if tc.origin != "" {
			h.Set("Origin", tc.origin)
		}
		c, err := s.Dial(t, h)
		if (err == nil) != tc.ok {
			t.Errorf("origin %q: dial error %v, want ok=%v", tc.origin, err, tc.ok)
		}
		if c != nil {
			c.Close()
		}
	}
}

// TestHelloFirst refuses room messages before hello.
func TestHelloFirst(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	c, err := s.Dial(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Send(map[string]any{"type": "lobby.watch"})
	c.WaitError("bad_request")
}

// TestBotMoveAPIBadInput checks the HTTP errors of POST /api/bot/move.
func TestBotMoveAPIBadInput(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	for _, tc := range []struct {
		body any
		code string
	}{
		{map[string]any{"game": "morris", "variant": "3"}, "bad_request"},
		{map[string]any{"game": "chess", "variant": "8", "level": "x"}, "unknown_game"},
		{map[string]any{"game": "morris", "variant": "3", "level": "genius"}, "unknown_game"},
		{map[string]any{"game": "morris", "variant": "7", "level": "facil"}, "unknown_game"},
		{map[string]any{"game": "morris", "variant": "3", "level": "facil", "setup": map[string]any{"board": "x"}}, "bad_setup"},
	} {
		var out struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if st := s.PostJSON(t, "/api/bot/move", tc.body, &out); st != 400 || out.Error.Code != tc.code {
			t.Errorf("%v: HTTP %d %+v, want 400 %s", tc.body, st, out, tc.code)
		}
	}
}

// TestRoomsPerConnectionBounded: a connection may be in Hub.MaxRooms rooms
// at once (a room lives while anyone is in it, finished or not). Past it a
// create, a join of another room, a quick match and a rematch are refused
// with bad_request and change nothing; joining a room it is in already is
// not refused; leaving a room makes room for the next.
func TestRoomsPerConnectionBounded(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.Hub.MaxRooms = 2 })
	a, b := s.Hello(t, "ana", ""), s.Hello(t, "bia", "")
	solo := func(c *testserver.Client) string {
		t.Helper()
		c.Send(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none", "id": "c"})
		return c.Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == `"c"` }).Room
	}
	first, second := solo(a), solo(a)
	other := solo(b)

	refused := func(msg map[string]any) {
		t.Helper()
		msg["id"] = "r"
		a.Send(msg)
		e := a.Wait("error", func(m testserver.Msg) bool { return string(m.ID) == `"r"` })
		if e.Code != "bad_request" || !strings.Contains(e.Message, "leave one first") {
			t.Fatalf("%v: %s %q, want bad_request saying to leave a room", msg, e.Code, e.Message)
		}
	}
	refused(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none"})
	refused(map[string]any{"type": "room.join", "room": other, "as": "spectator"})
	refused(map[string]any{"type": "match.find", "game": "morris", "variant": "3"})
	refused(map[string]any{"type": "room.rematch", "room": first})
	var api struct {
		Rooms []struct {
			ID string `json:"id"`
		} `json:"rooms"`
	}
	s.GetJSON(t, "/api/rooms", &api)
	if len(api.Rooms) != 3 {
		t.Fatalf("rooms listed after the refusals: %+v, want the 3 created", api.Rooms)
	}

	// A room it is in already: joined again (a resync), not refused.
	a.Send(map[string]any{"type": "room.join", "room": first, "as": "player", "id": "again"})
	a.Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == `"again"` && m.Room == first })

	a.Send(map[string]any{"type": "room.leave", "room": second, "id": "l"})
	a.Wait("room.left", func(m testserver.Msg) bool { return m.Room == second })
	a.Send(map[string]any{"type": "room.join", "room": other, "as": "spectator", "id": "w"})
	a.Wait("room.joined", func(m testserver.Msg) bool { return string(m.ID) == `"w"` && m.Room == other })
}
