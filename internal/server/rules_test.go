package server_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/fakeclock"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/protocol"
)

// refused sends msg (with an id) from c and checks the error that answers
// it: its code, a part of its message, and that it names the room.
func refused(t *testing.T, c *testserver.Client, msg map[string]any, code, part string) {
	t.Helper()
	id := strings.ReplaceAll(msg["type"].(string)+"-"+code, ".", "-")
	msg["id"] = id
	c.Send(msg)
	e := c.Wait("", func(m testserver.Msg) bool { return string(m.ID) == `"`+id+`"` })
	if room, _ := msg["room"].(string); e.Type != "error" || e.Code != code || !strings.Contains(e.Message, part) || e.Room != room {
		t.Fatalf("%v: %s, want %s with %q", msg, e.Raw, code, part)
	}
}

// roomMsg is a message of type typ about room.
func roomMsg(typ, room string) map[string]any { return map[string]any{"type": typ, "room": room} }

// recordResult reads the result of GET /api/records/{room}.
func recordResult(t *testing.T, s *testserver.Server, room string) *protocol.Result {
	t.Helper()
	var doc struct {
		Result *protocol.Result `json:"result"`
	}
	if code := s.GetJSON(t, "/api/records/"+room, &doc); code != 200 {
		t.Fatalf("GET /api/records/%s: %d", room, code)
	}
	return doc.Result
}

// TestFirstMoveThatNeverComesAborts is the case: a 1-minute morris
// game in which nobody moves is aborted, not lost on time. The first move
// of each side is not timed; it is due within -abort-after (room.state
// abortAt); the room's timer aborts the game with no result, saved (the
// record says so) and broadcast, and a move after it is refused.
func TestFirstMoveThatNeverComesAborts(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now, c.AbortAfter = now.Now, time.Second })
	for _, late := range []int{0, 1} {
		a, b, room, st := clockedMorris(t, s, map[string]any{"base": 60})
		if st.AbortAt == nil || *st.AbortAt != now.Now().Add(time.Second).UnixMilli() || !st.Abortable {
			t.Fatalf("at the start: %s", st.Raw)
		}
		if late == 1 {
			now.Advance(900 * time.Millisecond)
			a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
			st = b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
			if c, _ := clocksOf(t, st); st.AbortAt == nil || *st.AbortAt != now.Now().Add(time.Second).UnixMilli() || c["0"] != 60000 {
				t.Fatalf("after seat 0's first move: %s", st.Raw)
			}
		}
		now.Advance(time.Second)
		for _, who := range []*testserver.Client{a, b} {
			fin := who.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
			if fin.Result == nil || fin.Result.Reason != "aborted" || fin.Result.Winner != nil || fin.AbortAt != nil || fin.Abortable {
				t.Fatalf("seat %d late: %s", late, fin.Raw)
			}
			if c, _ := clocksOf(t, fin); c["0"] != 60000 || c["1"] != 60000 {
				t.Fatalf("clocks of an aborted game %v", c)
			}
		}
		if res := recordResult(t, s, room); res == nil || res.Reason != "aborted" || res.Winner != nil {
			t.Fatalf("the record's result %+v", res)
		}
		refused(t, b, map[string]any{"type": "room.move", "room": room, "move": "a1"}, "game_over", "over")
	}
}

// TestLateFirstMoveIsRefused: a first move that reaches the server after
// its limit, before the timer fired, is refused and the game aborted.
func TestLateFirstMoveIsRefused(t *testing.T) {
	t.Parallel()
	now := fakeclock.New()
	s := testserver.Start(t, func(c *server.Config) { c.Now = now.Now })
	a, b, room, _ := clockedMorris(t, s, map[string]any{"base": 300, "increment": 2})
	now.Advance(31 * time.Second)
	refused(t, a, map[string]any{"type": "room.move", "room": room, "move": "b2"}, "game_over", "aborted")
	if fin := b.State(room, func(m testserver.Msg) bool { return m.Status == "finished" }); fin.Result.Reason != "aborted" || fin.LastMove != nil {
		t.Fatalf("%s", fin.Raw)
	}
}

// TestRoomAbort: either player may abort until both sides have moved (a
// room waiting for its opponent too); the refusals change nothing.
func TestRoomAbort(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, sp, room, _ := morrisRoom(t, s)
	refused(t, sp, roomMsg("room.abort", room), "not_a_player", "seat")
	refused(t, a, roomMsg("room.abort", "nosuchroom"), "unknown_room", "nosuchroom")
	refused(t, a, map[string]any{"type": "room.abort"}, "bad_request", `"room"`)
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
	st := b.State(room, func(m testserver.Msg) bool { return m.LastMove != nil })
	if !st.Abortable {
		t.Fatalf("not abortable before seat 1 moved: %s", st.Raw)
	}
	b.Send(roomMsg("room.abort", room))
	for _, who := range []*testserver.Client{a, b, sp} {
		fin := who.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
		if fin.Result.Reason != "aborted" || fin.Result.Winner != nil {
			t.Fatalf("%s", fin.Raw)
		}
	}
	refused(t, a, roomMsg("room.abort", room), "game_over", "over")

	a, b, _, room, _ = morrisRoom(t, s)
	firstMorrisMoves(t, a, b, room)
	refused(t, a, roomMsg("room.abort", room), "bad_request", "both sides have moved")

	// A one-seat game has nobody to abort with.
	a.Send(map[string]any{"type": "room.create", "game": "2048", "variant": "solo", "opponent": "none"})
	solo := a.Wait("room.joined", nil).Room
	refused(t, a, roomMsg("room.abort", solo), "bad_request", "no opponent")

	// A room still waiting for its opponent: cancelled, out of the lobby.
	a.Send(map[string]any{"type": "room.create", "game": "orbito", "variant": "2", "opponent": "human"})
	wait := a.Wait("room.joined", nil).Room
	if st := a.State(wait, nil); st.Status != "waiting" || !st.Abortable {
		t.Fatalf("%s", st.Raw)
	}
	a.Send(roomMsg("room.abort", wait))
	a.State(wait, func(m testserver.Msg) bool { return m.Status == "finished" && m.Result.Reason == "aborted" })
	var lobby struct {
		Rooms []protocol.RoomSummary `json:"rooms"`
	}
	s.GetJSON(t, "/api/rooms", &lobby)
	for _, r := range lobby.Rooms {
		if r.ID == wait {
			t.Fatalf("the cancelled room is still listed: %+v", r)
		}
	}
}

// TestGamesSayWhichHaveDraws: /api/games marks orbito and morris, the only
// games whose rules have draws.
func TestGamesSayWhichHaveDraws(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	var got struct {
		Games []struct {
			ID    string `json:"id"`
			Draws bool   `json:"draws"`
		} `json:"games"`
	}
	s.GetJSON(t, "/api/games", &got)
	var draws []string
	for _, g := range got.Games {
		if g.Draws {
			draws = append(draws, g.ID)
		}
	}
	if !slices.Equal(draws, []string{"orbito", "morris"}) || len(got.Games) != 5 {
		t.Fatalf("games with draws %v among %d", draws, len(got.Games))
	}
}

// TestDrawOffersOverWebSocket: an offer is shown to everyone (drawOffer),
// lapses when the opponent moves, is declined, and accepted: the game ends
// drawn by agreement, and the record says so. The refusals change nothing.
func TestDrawOffersOverWebSocket(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a, b, sp, room, _ := morrisRoom(t, s)
	refused(t, a, roomMsg("room.draw.offer", room), "bad_request", "before both sides have moved")
	firstMorrisMoves(t, a, b, room)
	refused(t, sp, roomMsg("room.draw.offer", room), "not_a_player", "seat")
	refused(t, b, roomMsg("room.draw.accept", room), "bad_request", "no draw offer to accept")
	refused(t, b, roomMsg("room.draw.decline", room), "bad_request", "no draw offer to decline")

	a.Send(roomMsg("room.draw.offer", room))
	st := sp.State(room, func(m testserver.Msg) bool { return m.DrawOffer != nil })
	if *st.DrawOffer != 0 || st.Status != "playing" {
		t.Fatalf("%s", st.Raw)
	}
	refused(t, a, roomMsg("room.draw.offer", room), "bad_request", "stands")
	a.Send(map[string]any{"type": "room.move", "room": room, "move": "c3"})
	if st = sp.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "c3" }); st.DrawOffer == nil {
		t.Fatalf("the offer lapsed when the offerer moved: %s", st.Raw)
	}
	b.Send(map[string]any{"type": "room.move", "room": room, "move": "c1"})
	if st = sp.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "c1" }); st.DrawOffer != nil {
		t.Fatalf("the offer stands after the opponent moved: %s", st.Raw)
	}
	b.Send(roomMsg("room.draw.offer", room))
	st = sp.State(room, func(m testserver.Msg) bool { return m.DrawOffer != nil })
	a.Send(roomMsg("room.draw.decline", room))
	if st = sp.State(room, func(m testserver.Msg) bool { return m.Seq > st.Seq }); st.DrawOffer != nil || st.Status != "playing" {
		t.Fatalf("after the decline: %s", st.Raw)
	}
	refused(t, b, roomMsg("room.draw.offer", room), "bad_request", "play a move before offering again")
	a.Send(roomMsg("room.draw.offer", room))
	sp.State(room, func(m testserver.Msg) bool { return m.DrawOffer != nil && *m.DrawOffer == 0 })
	b.Send(roomMsg("room.draw.accept", room))
	for _, who := range []*testserver.Client{a, b, sp} {
		fin := who.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
		if fin.Result.Reason != "agreement" || fin.Result.Winner != nil || fin.DrawOffer != nil {
			t.Fatalf("%s", fin.Raw)
		}
	}
	if res := recordResult(t, s, room); res == nil || res.Reason != "agreement" || res.Winner != nil {
		t.Fatalf("the record's result %+v", res)
	}
	refused(t, a, roomMsg("room.draw.offer", room), "game_over", "over")

	// Go has no draws.
	gr := humanRoom(a, b, "go", "9")
	b.State(gr, func(m testserver.Msg) bool { return m.Status == "playing" })
	refused(t, a, roomMsg("room.draw.offer", gr), "bad_request", "has no draws")
}

// TestTakebacksOverWebSocket: a takeback asked and accepted sends every
// member, full or patch client, the full state with the shortened history,
// the position before the asker's move; declined, it changes nothing but
// the request. The refusals change nothing.
func TestTakebacksOverWebSocket(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := helloPatch(t, s, "ana")
	b, sp := s.Hello(t, "bia", ""), s.Hello(t, "spec", "")
	a.Send(map[string]any{"type": "room.create", "game": "orbito", "variant": "2", "opponent": "human"})
	room := a.Wait("room.joined", nil).Room
	refused(t, a, roomMsg("room.takeback.ask", room), "bad_request", "not started")
	b.Send(map[string]any{"type": "room.join", "room": room, "as": "player"})
	sp.Send(map[string]any{"type": "room.join", "room": room, "as": "spectator"})
	st := sp.State(room, func(m testserver.Msg) bool { return m.Status == "playing" && m.Spectators == 1 })
	fa := &follower{t: t, c: a, room: room}
	refused(t, a, roomMsg("room.takeback.ask", room), "bad_request", "no move to take back")
	players := []*testserver.Client{a, b}
	var boards []json.RawMessage
	play := func(n int) {
		for range n {
			boards = append(boards, st.Board)
			mv := st.Legal[len(st.Legal)/2]
			players[*st.Turn].Send(map[string]any{"type": "room.move", "room": room, "move": mv})
			st = sp.State(room, func(m testserver.Msg) bool { return m.Seq > st.Seq && m.LastMove != nil })
		}
	}
	play(3) // a, b, a: b to move
	refused(t, sp, roomMsg("room.takeback.ask", room), "not_a_player", "seat")

	b.Send(roomMsg("room.takeback.ask", room)) // b's move and a's reply
	st = sp.State(room, func(m testserver.Msg) bool { return m.Takeback != nil })
	if *st.Takeback != (protocol.TakebackAsk{Seat: 1, Plies: 2}) {
		t.Fatalf("%s", st.Raw)
	}
	refused(t, a, roomMsg("room.takeback.ask", room), "bad_request", "accept or decline it first")
	a.Send(roomMsg("room.takeback.accept", room))
	back := sp.State(room, func(m testserver.Msg) bool { return m.Seq > st.Seq })
	if back.Moves == nil || len(back.Moves) != 1 || string(back.Board) != string(boards[1]) || *back.Turn != 1 || back.Takeback != nil {
		t.Fatalf("after the takeback: %s", back.Raw)
	}
	if bs := b.State(room, func(m testserver.Msg) bool { return m.Seq == back.Seq }); len(bs.Moves) != 1 || !slices.Equal(bs.Legal, back.Legal) {
		t.Fatalf("b after the takeback: %s", bs.Raw)
	}
	fa.until(back.Seq)
	var want map[string]any
	if err := json.Unmarshal(back.Raw, &want); err != nil {
		t.Fatal(err)
	}
	if got := without(fa.state, "legal"); !reflect.DeepEqual(got, without(want, "legal")) {
		t.Fatalf("the patch client holds\n%v\nthe spectator\n%v", got, want)
	}
	st = back
	play(2) // b, a
	b.Send(roomMsg("room.takeback.ask", room))
	st = sp.State(room, func(m testserver.Msg) bool { return m.Takeback != nil })
	a.Send(roomMsg("room.takeback.decline", room))
	if st = sp.State(room, func(m testserver.Msg) bool { return m.Seq > st.Seq }); st.Takeback != nil || st.LastMove.Seat != 0 || len(boards) != 5 {
		t.Fatalf("after the decline: %s", st.Raw)
	}
	refused(t, b, roomMsg("room.takeback.ask", room), "bad_request", "play a move before asking again")
	b.Send(roomMsg("room.resign", room))
	sp.State(room, func(m testserver.Msg) bool { return m.Status == "finished" })
	refused(t, a, roomMsg("room.takeback.ask", room), "game_over", "over")

	// No takebacks where both seats move at once.
	race := humanRoom(a, b, "2048", "race")
	rs := b.State(race, func(m testserver.Msg) bool { return m.Status == "playing" })
	a.Send(map[string]any{"type": "room.move", "room": race, "move": rs.LegalBy["0"][0]})
	b.State(race, func(m testserver.Msg) bool { return m.LastMove != nil })
	refused(t, a, roomMsg("room.takeback.ask", race), "bad_request", "both seats move at once")
}

// TestTakebackAgainstABot: a bot grants a takeback at once in a game
// without a clock, and refuses it in a game with one.
func TestTakebackAgainstABot(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := s.Hello(t, "ana", "")
	for _, clock := range []any{nil, map[string]any{"base": 60}} {
		a.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "bot", "level": "facil", "clock": clock})
		room := a.Wait("room.joined", nil).Room
		a.State(room, nil)
		a.Send(map[string]any{"type": "room.move", "room": room, "move": "b2"})
		a.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Seat == 1 })
		if clock != nil {
			refused(t, a, roomMsg("room.takeback.ask", room), "bad_request", "clock")
			continue
		}
		a.Send(roomMsg("room.takeback.ask", room))
		back := a.State(room, func(m testserver.Msg) bool { return m.Moves != nil && len(m.Moves) == 0 })
		if back.LastMove != nil || *back.Turn != 0 || string(back.Board) != `["...","...","..."]` || back.Takeback != nil {
			t.Fatalf("%s", back.Raw)
		}
	}
}

// TestRulesSurviveARestartWithRedis: a standing draw offer and takeback
// request, and the clocks a takeback sets back, are what a restarted
// server shows.
func TestRulesSurviveARestartWithRedis(t *testing.T) {
	t.Parallel()
	g := startRestartGame(t)
	a, b, room := g.a, g.b, g.room
	g.now.Advance(20 * time.Second)
	b.Send(map[string]any{"type": "room.move", "room": room, "move": "c1"})
	st := a.State(room, func(m testserver.Msg) bool { return m.LastMove != nil && m.LastMove.Move == "c1" })
	if c, _ := clocksOf(t, st); c["0"] != 293000 || c["1"] != 283000 {
		t.Fatalf("clocks %v", c)
	}
	a.Send(roomMsg("room.draw.offer", room))
	a.State(room, func(m testserver.Msg) bool { return m.DrawOffer != nil })
	a.Send(roomMsg("room.takeback.ask", room))
	a.State(room, func(m testserver.Msg) bool { return m.Takeback != nil })
	s2 := g.restart()
	a2, b2 := s2.Hello(t, "", a.Token), s2.Hello(t, "", b.Token)
	got := b2.State(room, nil)
	if got.DrawOffer == nil || *got.DrawOffer != 0 || got.Takeback == nil || *got.Takeback != (protocol.TakebackAsk{Seat: 0, Plies: 2}) {
		t.Fatalf("after the restart: %s", got.Raw)
	}
	b2.Send(roomMsg("room.takeback.accept", room))
	back := a2.State(room, func(m testserver.Msg) bool { return m.Moves != nil && len(m.Moves) == 2 })
	if c, _ := clocksOf(t, back); c["0"] != 300000 || c["1"] != 300000 || *back.Turn != 0 || back.DrawOffer != nil {
		t.Fatalf("after the takeback: clocks %v, %s", c, back.Raw)
	}
}

// TestDrawOfferToABot: the bot (morris perfeito) accepts a draw in a
// drawn position and declines one in a position it wins; the human offers
// on its own turn and sees the answer in room.state.
func TestDrawOfferToABot(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	a := s.Hello(t, "ana", "")
	for _, tc := range []struct {
		moves  []string
		accept bool
	}{{[]string{"a1"}, true}, {[]string{"a1", "a2", "b2"}, false}} {
		a.Send(map[string]any{"type": "room.create", "game": "morris", "variant": "3", "opponent": "bot", "level": "perfeito"})
		room := a.Wait("room.joined", nil).Room
		st := a.State(room, nil)
		for _, mv := range tc.moves {
			a.Send(map[string]any{"type": "room.move", "room": room, "move": mv})
			prev := st.Seq
			st = a.State(room, func(m testserver.Msg) bool { return m.Seq > prev && m.LastMove != nil && m.LastMove.Seat == 1 })
		}
		a.Send(roomMsg("room.draw.offer", room))
		offered := a.State(room, func(m testserver.Msg) bool { return m.DrawOffer != nil })
		answer := a.State(room, func(m testserver.Msg) bool { return m.Seq > offered.Seq })
		if tc.accept && (answer.Status != "finished" || answer.Result.Reason != "agreement") ||
			!tc.accept && (answer.Status != "playing" || answer.DrawOffer != nil) {
			t.Fatalf("after %v: %s", tc.moves, answer.Raw)
		}
	}
}
