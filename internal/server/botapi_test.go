package server_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabuleiro/tabuleiro/httpapi"
	"github.com/tabuleiro/tabuleiro/internal/server"
	"github.com/tabuleiro/tabuleiro/internal/testkit/testserver"
	"github.com/tabuleiro/tabuleiro/players"
)

type apiError struct {
	Error struct{ Code, Message string }
}

// TestBotAccounts: a player registers bots with its token and gets each
// one's id and token once; the cap; the refusals of a missing, an unknown
// and a bot's token; the bot's token says hello over the WebSocket as the
// bot, and a room shows it flagged.
func TestBotAccounts(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.BotAPI.MaxBotsPerPlayer = 2 })
	ana := s.Hello(t, "ana", "")
	id, tok := s.RegisterBot(t, ana.Token, "  robô\u0007 da Ana ")
	if !players.IsBotID(id) || tok == "" || tok == ana.Token {
		t.Fatalf("registered id %q token %q", id, tok)
	}
	id2, _ := s.RegisterBot(t, ana.Token, "outro")
	if id2 == id {
		t.Fatal("two bots, one id")
	}
	var e apiError
	tests := []struct {
		name, token string
		body        any
		status      int
		code        string
	}{
		{"over the cap", ana.Token, map[string]string{"name": "third"}, http.StatusConflict, "bad_request"},
		{"no token", "", map[string]string{"name": "x"}, http.StatusUnauthorized, "unauthorized"},
		{"unknown token", "nope", map[string]string{"name": "x"}, http.StatusUnauthorized, "unauthorized"},
		{"a bot's token", tok, map[string]string{"name": "x"}, http.StatusForbidden, "forbidden"},
		{"no name", s.Hello(t, "bia", "").Token, map[string]string{"name": " \u0000 "}, http.StatusBadRequest, "bad_request"},
		{"not JSON", ana.Token, "{", http.StatusBadRequest, "bad_request"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e = apiError{}
			if got := s.Do(t, "POST", "/api/bots", tc.token, tc.body, &e); got != tc.status || e.Error.Code != tc.code {
				t.Fatalf("answered %d %+v, want %d %s", got, e, tc.status, tc.code)
			}
		})
	}
	// A person's token is not a bot's.
	if got := s.Do(t, "POST", "/api/bot/game/x/resign", ana.Token, nil, &e); got != http.StatusForbidden {
		t.Fatalf("a person on a bot path: %d", got)
	}
	// The bot's token over the WebSocket is the bot, and never a token
	// again: the welcome gives back the one it said.
	b := s.Hello(t, "", tok)
	if b.Player.ID != id || b.Player.Name != "robô da Ana" || b.Token != tok {
		t.Fatalf("bot hello: %+v token %q", b.Player, b.Token)
	}
	room := humanRoom(ana, b, "morris", "3")
	st := ana.State(room, func(m testserver.Msg) bool { return m.Status == "playing" })
	if st.Players[0].BotAccount || !st.Players[1].BotAccount || st.Players[1].ID != id {
		t.Fatalf("players %+v: want the second flagged as a bot account", st.Players)
	}
	var rs struct {
		Rooms []struct{ Players []struct{ BotAccount bool } }
	}
	s.GetJSON(t, "/api/rooms", &rs)
	if len(rs.Rooms) != 1 || !rs.Rooms[0].Players[1].BotAccount {
		t.Fatalf("/api/rooms: %+v", rs)
	}
}

// botTurn reports whether it is seat's turn in a playing state.
func botTurn(m testserver.Msg, seat int) bool {
	return m.Status == "playing" && m.Turn != nil && *m.Turn == seat && len(m.Legal) > 0
}

// botSeat is the seat of player id in a state, or -1.
func botSeat(m testserver.Msg, id string) int {
	for _, p := range m.Players {
		if p.ID == id {
			return p.Seat
		}
	}
	return -1
}

// TestBotPlaysOverHTTP: a bot online is listed; a person challenges it; the
// bot hears gameStart, streams the game (the first state full), answers an
// illegal move with the error and nothing changed, plays its moves over
// HTTP, and the game ends with gameFinish and the stream's last line.
func TestBotPlaysOverHTTP(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) { c.BotAPI.Heartbeat = 50 * time.Millisecond })
	ana := s.Hello(t, "ana", "")
	id, tok := s.RegisterBot(t, ana.Token, "robo")
	var list struct{ Bots []httpapi.BotInfo }
	s.GetJSON(t, "/api/bots", &list)
	if len(list.Bots) != 0 {
		t.Fatalf("no stream open, yet listed: %+v", list)
	}
	events := s.OpenStream(t, "/api/bot/stream/event", tok)
	if events.Status != http.StatusOK {
		t.Fatalf("event stream: %d", events.Status)
	}
	deadline := time.Now().Add(testserver.Timeout)
	for len(list.Bots) == 0 && time.Now().Before(deadline) {
		s.GetJSON(t, "/api/bots", &list) // the stream registers as it opens
	}
	if len(list.Bots) != 1 || list.Bots[0].ID != id || list.Bots[0].Name != "robo" {
		t.Fatalf("/api/bots = %+v", list)
	}
	var ch struct {
		Room string
		Seat int
	}
	if code := s.Do(t, "POST", "/api/bots/"+id+"/challenge", ana.Token,
		map[string]any{"game": "morris", "variant": "3", "seat": 1, "clock": map[string]int{"base": 300}}, &ch); code != http.StatusCreated || ch.Seat != 1 {
		t.Fatalf("challenge: %d %+v", code, ch)
	}
	ev := events.Next(nil)
	if ev.Type != "gameStart" || ev.Room != ch.Room {
		t.Fatalf("event %s", ev.Raw)
	}
	ana.Send(map[string]any{"type": "room.join", "room": ch.Room, "as": "player"})
	ana.Wait("room.joined", nil) // before the stream: its states then change only by moves
	game := s.OpenStream(t, "/api/bot/game/"+ch.Room+"/stream", tok)
	first := game.Next(nil)
	if first.Type != "room.state" || first.Moves == nil || botSeat(first, id) != 0 || !first.Players[0].BotAccount {
		t.Fatalf("first line %s: want the full room.state, the bot in seat 0", first.Raw)
	}
	// An illegal move: the error, and the room unchanged.
	var e apiError
	if code := s.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape("z9/x"), tok, nil, &e); code != http.StatusBadRequest || e.Error.Code != "illegal_move" {
		t.Fatalf("illegal move: %d %+v", code, e)
	}
	// The bot plays its turns until it has made two moves (no mill yet);
	// ana then resigns.
	st, made := first, 0
	for made < 2 {
		if botTurn(st, 0) {
			if code := s.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape(st.Legal[0]), tok, nil, &e); code != http.StatusOK {
				t.Fatalf("move %s: %d %+v after %s", st.Legal[0], code, e, st.Raw)
			}
			made++
		}
		st = game.Next(func(m testserver.Msg) bool { return m.Seq > st.Seq })
		if st.Seq != first.Seq && st.Moves != nil {
			t.Fatalf("a later state carries the history: %s", st.Raw)
		}
		if botTurn(st, 1) && made < 2 {
			ana.Send(map[string]any{"type": "room.move", "room": ch.Room, "move": st.Legal[0]})
		}
	}
	if code := s.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+url.PathEscape(st.Legal[0]), tok, nil, &e); botTurn(st, 0) || code != http.StatusConflict || e.Error.Code != "not_your_turn" {
		t.Fatalf("a move out of turn: %d %+v", code, e)
	}
	ana.Send(map[string]any{"type": "room.resign", "room": ch.Room})
	last := game.Next(func(m testserver.Msg) bool { return m.Status == "finished" })
	if last.Result == nil || last.Result.Winner == nil || *last.Result.Winner != 0 {
		t.Fatalf("finished: %s", last.Raw)
	}
	if left := game.Ended(); len(left) != 0 {
		t.Fatalf("lines after the last state: %v", left)
	}
	if fin := events.Next(nil); fin.Type != "gameFinish" || fin.Room != ch.Room {
		t.Fatalf("event %s", fin.Raw)
	}
	// Idle: heartbeats (empty lines) keep the stream open.
	events.Heartbeat()
	events.Heartbeat()
}

// TestBotTokenActsOnlyAsItsBot: one bot's token cannot move for another
// bot, nor for a person, and cannot challenge itself.
func TestBotTokenActsOnlyAsItsBot(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t)
	ana := s.Hello(t, "ana", "")
	idA, tokA := s.RegisterBot(t, ana.Token, "a")
	idB, tokB := s.RegisterBot(t, ana.Token, "b")
	evA := s.OpenStream(t, "/api/bot/stream/event", tokA)
	evB := s.OpenStream(t, "/api/bot/stream/event", tokB)
	var ch struct{ Room string }
	deadline := time.Now().Add(testserver.Timeout)
	for code := 0; code != http.StatusCreated; {
		if time.Now().After(deadline) {
			t.Fatal("bot a never online")
		}
		// Bot b challenges bot a (a bot's token is a player's for this).
		code = s.Do(t, "POST", "/api/bots/"+idA+"/challenge", tokB, map[string]any{"game": "morris", "variant": "3"}, &ch)
	}
	evA.Next(func(m testserver.Msg) bool { return m.Type == "gameStart" })
	evB.Next(func(m testserver.Msg) bool { return m.Type == "gameStart" })
	game := s.OpenStream(t, "/api/bot/game/"+ch.Room+"/stream", tokB)
	st := game.Next(nil)
	if botSeat(st, idB) != 0 || botSeat(st, idA) != 1 {
		t.Fatalf("seats %+v", st.Players)
	}
	carla := s.Hello(t, "carla", "")
	var e apiError
	// Bot a tries b's move (seat 0 is to move): not its turn.
	if code := s.Do(t, "POST", "/api/bot/game/"+ch.Room+"/move/"+st.Legal[0], tokA, nil, &e); code != http.StatusConflict || e.Error.Code != "not_your_turn" {
		t.Fatalf("bot a moving for b: %d %+v", code, e)
	}
	// A bot in a room it has no seat in.
	other := humanRoom(ana, carla, "morris", "3")
	ost := ana.State(other, func(m testserver.Msg) bool { return m.Status == "playing" })
	for _, path := range []string{"/move/" + ost.Legal[0], "/resign"} {
		if code := s.Do(t, "POST", "/api/bot/game/"+other+path, tokA, nil, &e); code != http.StatusForbidden || e.Error.Code != "not_a_player" {
			t.Fatalf("bot in another's room %s: %d %+v", path, code, e)
		}
	}
	if code := s.Do(t, "POST", "/api/bots/"+idA+"/challenge", tokA, map[string]any{"game": "morris", "variant": "3"}, &e); code != http.StatusBadRequest {
		t.Fatalf("self-challenge: %d", code)
	}
	if code := s.Do(t, "POST", "/api/bot/game/nosuch/resign", tokA, nil, &e); code != http.StatusNotFound || e.Error.Code != "unknown_room" {
		t.Fatalf("unknown room: %d %+v", code, e)
	}
	// The bot's own resignation ends its game.
	if code := s.Do(t, "POST", "/api/bot/game/"+ch.Room+"/resign", tokA, nil, &e); code != http.StatusOK {
		t.Fatalf("resign: %d %+v", code, e)
	}
	fin := game.Next(func(m testserver.Msg) bool { return m.Status == "finished" })
	if fin.Result.Reason != "resign" || *fin.Result.Winner != 0 {
		t.Fatalf("after a's resignation: %s", fin.Raw)
	}
}

// TestBotAPIBounds: the event streams per bot (a new one past the cap
// closes the oldest), the streams of the server, and the rate limit of
// moves.
func TestBotAPIBounds(t *testing.T) {
	t.Parallel()
	s := testserver.Start(t, func(c *server.Config) {
		c.BotAPI.EventStreamsPerBot, c.BotAPI.MaxStreams = 1, 2
		c.BotAPI.Rate, c.BotAPI.Burst = 0.001, 3
	})
	ana := s.Hello(t, "ana", "")
	_, tokA := s.RegisterBot(t, ana.Token, "a")
	_, tokB := s.RegisterBot(t, ana.Token, "b")
	_, tokC := s.RegisterBot(t, ana.Token, "c")
	first := s.OpenStream(t, "/api/bot/stream/event", tokA)
	second := s.OpenStream(t, "/api/bot/stream/event", tokA)
	if first.Status != 200 || second.Status != 200 {
		t.Fatalf("statuses %d %d", first.Status, second.Status)
	}
	first.Ended() // closed by the second
	s.OpenStream(t, "/api/bot/stream/event", tokB)
	if third := s.OpenStream(t, "/api/bot/stream/event", tokC); third.Status != http.StatusServiceUnavailable {
		t.Fatalf("past MaxStreams: %d", third.Status)
	}
	var codes []int
	var e apiError
	for range 5 {
		codes = append(codes, s.Do(t, "POST", "/api/bot/game/nosuch/resign", tokC, nil, &e))
	}
	if !slices.Equal(codes, []int{404, 404, 404, 429, 429}) || !strings.Contains(e.Error.Message, "slow down") {
		t.Fatalf("codes %v, last %+v", codes, e)
	}
}
